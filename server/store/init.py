"""Create or upgrade the store and seed its reference tables from the catalog; idempotent."""
from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Callable

import sqlalchemy as sa

from server.catalog import phases
from server.catalog.clock import today
from server.catalog.levels import LEVELS
from server.catalog.nations import NATIONS
from server.catalog.playoffs import CUP_FINALS
from server.catalog.sources import SIMULATED
from server.store import divisions, schema
from server.store.engine import describe
from server.store.folding import refresh_search_names
from server.store.loader import upsert


def init_store(engine: sa.Engine) -> int:
    """Create missing tables, upgrade indexes, record the schema version, refresh levels and
    nations; one transaction (PostgreSQL) after the tables exist.

    Returns the schema version now in the store. Upgrades are additive: every declared index is
    created where missing, the indexes a later version replaced are dropped, the columns a later
    version added are added, and team seasons get their declared divisions, so an older store
    is upgraded in place; only the derived ``stat_tables`` is rebuilt around its new key, its
    rows kept.
    """
    with engine.begin() as conn:
        _set_aside_stat_tables(conn)
    schema.metadata.create_all(engine)
    with engine.begin() as conn:
        _refill_stat_tables(conn)
        _add_game_phase(conn)
        _mark_cup_finals(conn)
        settle_unplayed(conn)
        _upgrade_columns(conn)
        _upgrade_indexes(conn)
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


def _add_game_phase(conn: sa.Connection) -> None:
    """Version 4: a store built before ``games.phase`` gets the column, filled from the playoff
    round every source already stored, by the one rule (``phases.phase_of_round``)."""
    held = {c["name"] for c in sa.inspect(conn).get_columns("games")}
    if "phase" in held:
        return
    conn.execute(sa.text("ALTER TABLE games ADD COLUMN phase VARCHAR(12) NOT NULL "
                         f"DEFAULT '{phases.REGULAR}'"))  # constants, not input
    g = schema.games.c
    rounds = conn.execute(sa.select(g.playoff).where(g.playoff.is_not(None)).distinct()).scalars()
    for name in rounds:
        conn.execute(schema.games.update().where(g.playoff == name)
                     .values(phase=phases.phase_of_round(name)))


def _mark_cup_finals(conn: sa.Connection) -> None:
    """A store loaded before the cup finals were declared (``playoffs.CUP_FINALS``) holds them as
    regular-season games: each gets its round and the ``cupfinal`` phase (the next
    re-tabulation and projections count it no more)."""
    g, t = schema.games.c, schema.teams.c
    for cup in CUP_FINALS:
        teams = sa.select(t.id).where(t.level == cup.level, t.abbrev.in_(sorted(cup.teams)))
        conn.execute(schema.games.update().where(
            g.level == cup.level, g.game_day == dt.date.fromisoformat(cup.day),
            g.playoff.is_(None), g.home_id.in_(teams), g.visitor_id.in_(teams))
            .values(playoff=cup.name, phase=phases.phase_of_round(cup.name)))


_OLD_STAT_TABLES = "stat_tables_v3"


def _set_aside_stat_tables(conn: sa.Connection) -> None:
    """Version 4 puts ``phase`` in ``stat_tables``' primary key: an older store's table is
    renamed (its indexes and key out of the new one's way) for ``_refill_stat_tables``."""
    inspector = sa.inspect(conn)
    if not inspector.has_table("stat_tables") or \
            "phase" in {c["name"] for c in inspector.get_columns("stat_tables")}:
        return
    for index in schema.stat_tables.indexes:
        conn.execute(sa.text(f"DROP INDEX IF EXISTS {index.name}"))  # constant names
    conn.execute(sa.text(f"ALTER TABLE stat_tables RENAME TO {_OLD_STAT_TABLES}"))
    if conn.dialect.name == "postgresql":
        conn.execute(sa.text(f"ALTER TABLE {_OLD_STAT_TABLES} RENAME CONSTRAINT stat_tables_pkey "
                             f"TO {_OLD_STAT_TABLES}_pkey"))


def _refill_stat_tables(conn: sa.Connection) -> None:
    """The set-aside tables' rows, every one the regular season's (all an older version
    tabulated), into the new ``stat_tables``; then the old table goes."""
    if not sa.inspect(conn).has_table(_OLD_STAT_TABLES):
        return
    names = ", ".join(f'"{c.name}"' for c in schema.stat_tables.columns if c.name != "phase")
    conn.execute(sa.text(f"INSERT INTO stat_tables ({names}, phase) "
                         f"SELECT {names}, '{phases.REGULAR}' FROM {_OLD_STAT_TABLES}"))
    conn.execute(sa.text(f"DROP TABLE {_OLD_STAT_TABLES}"))


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


def _upgrade_columns(conn: sa.Connection) -> None:
    """Columns a later version declared on an existing table (version 4: a team season's
    abbreviation, city, nickname and division; ``plays.outs`` and ``plays.bases``). Only nullable
    columns are added: the rows already there have no value."""
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


def _upgrade_indexes(conn: sa.Connection) -> None:
    for name in schema.RETIRED_INDEXES:
        conn.execute(sa.text(f"DROP INDEX IF EXISTS {name}"))  # a constant name, not input
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
