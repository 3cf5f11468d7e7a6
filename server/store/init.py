"""Create or upgrade the store and seed its reference tables from the catalog; idempotent."""
from __future__ import annotations

import sys
from collections.abc import Callable

import sqlalchemy as sa

from server.catalog import phases
from server.catalog.clock import today
from server.catalog.levels import LEVELS
from server.catalog.nations import NATIONS
from server.catalog.sources import SIMULATED
from server.store import divisions, schema, season_data
from server.store.engine import describe
from server.store.folding import refresh_search_names
from server.store.loader import upsert
from server.store.migrations import MIGRATIONS


def init_store(engine: sa.Engine) -> int:
    """Create missing tables, upgrade indexes, record the schema version, refresh levels and
    nations; one transaction (PostgreSQL) after the tables exist.

    Returns the schema version now in the store. Upgrades are additive and declared, version by
    version, in ``server.store.migrations``: missing tables, nullable columns and indexes are
    added for every version, then each version's own steps run, so an older store is upgraded
    in place. Then what the catalog declares is refreshed: levels, nations, divisions, search
    names, the glossary, and past days' unplayed games settled.
    """
    with engine.begin() as conn:
        for migration in MIGRATIONS:
            for step in migration.before_tables:
                step(conn)
    schema.metadata.create_all(engine)
    with engine.begin() as conn:
        _add_declared_columns(conn)
        for migration in MIGRATIONS:
            for step in migration.steps:
                step(conn)
        _create_declared_indexes(conn)
        settle_unplayed(conn)
        season_data.fill_missing(conn)
        divisions.place_declared(conn)
        refresh_search_names(conn)
        upsert(conn, schema.levels, [
            {"code": lv.code, "name": lv.name, "sport": lv.sport, "gender": lv.gender,
             "tier": lv.tier, "season_span": lv.season_span, "college": lv.college}
            for lv in LEVELS
        ])
        upsert(conn, schema.nations, [{"code": c, "name": n} for c, n in NATIONS])
        _seed_glossary_stats(conn)
        upsert(conn, schema.store_info, [{"key": "schema_version", "value": str(schema.SCHEMA_VERSION)}])
    return schema.SCHEMA_VERSION


def settle_unplayed(conn: sa.Connection, level: str | None = None) -> None:
    """A game a real source listed for a day now past, still without a result, has none
    (``phases.unplayed_state``): a store built by an earlier version called it scheduled, and a
    feed's scheduled game whose day has passed since its ingest is settled here (by ``init``
    and by each re-tabulation, before it rates the level). The simulator's own games are left
    to its daily rebuild."""
    g = schema.games.c
    stmt = (schema.games.update()
            .where(g.state == "scheduled", g.game_day < today(), g.source != SIMULATED)
            .values(state=phases.NO_RESULT, game_status=phases.NO_RESULT_STATUS))
    conn.execute(stmt if level is None else stmt.where(g.level == level))


def _add_declared_columns(conn: sa.Connection) -> None:
    """Columns a later version declared on an existing table. Only nullable columns are added
    this way (the rows already there have no value); a column that may not be empty is a
    version's own step."""
    inspector = sa.inspect(conn)
    prep = conn.dialect.identifier_preparer
    for table in schema.metadata.sorted_tables:
        present = {c["name"] for c in inspector.get_columns(table.name)}
        for column in table.columns:
            if column.name in present or not column.nullable:
                continue
            kind = column.type.compile(dialect=conn.dialect)
            # names and types come from the declared schema, never from input
            conn.execute(sa.text(f"ALTER TABLE {prep.format_table(table)} "
                                 f"ADD COLUMN {prep.format_column(column)} {kind}"))


def _create_declared_indexes(conn: sa.Connection) -> None:
    for table in schema.metadata.sorted_tables:
        for index in table.indexes:
            index.create(conn, checkfirst=True)


def _seed_glossary_stats(conn: sa.Connection) -> None:
    """The glossary's stat codes come from the stat-table catalog (rates and totals)."""
    from server.catalog import statcodes

    upsert(conn, schema.glossary_stats, statcodes.glossary_rows())


def schema_version(conn: sa.Connection) -> int | None:
    try:
        row = conn.execute(
            sa.select(schema.store_info.c.value).where(schema.store_info.c.key == "schema_version")
        ).first()
    except sa.exc.DBAPIError:
        return None
    return int(row[0]) if row else None


def cli(args: object, engine: Callable[[], sa.Engine]) -> int:
    eng = engine()
    version = init_store(eng)
    print(f"store ready: {describe(eng)} (schema version {version})", file=sys.stderr)
    return 0
