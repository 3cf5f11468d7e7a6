"""Create or upgrade the store and seed its reference tables from the catalog; idempotent."""
from __future__ import annotations

import sys
from collections.abc import Callable

import sqlalchemy as sa

from server.catalog.levels import LEVELS
from server.catalog.nations import NATIONS
from server.store import schema
from server.store.engine import describe
from server.store.folding import refresh_search_names
from server.store.loader import upsert


def init_store(engine: sa.Engine) -> int:
    """Create missing tables, upgrade indexes, record the schema version, refresh levels and
    nations; one transaction (PostgreSQL) after the tables exist.

    Returns the schema version now in the store. Upgrades are additive: every declared column
    and index is created where missing and the indexes a later version replaced are dropped, so
    an older store is upgraded in place, never rebuilt.
    """
    schema.metadata.create_all(engine)
    with engine.begin() as conn:
        _upgrade_columns(conn)
        _upgrade_indexes(conn)
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


def _upgrade_columns(conn: sa.Connection) -> None:
    """Add the nullable columns a later version declared to an older store's tables (version 4:
    a team season's abbreviation, city and nickname)."""
    present = sa.inspect(conn)
    for table in schema.metadata.sorted_tables:
        have = {c["name"] for c in present.get_columns(table.name)}
        for column in table.columns:
            if column.name not in have and column.nullable:
                kind = column.type.compile(dialect=conn.dialect)
                # names and types come from the declared schema, never from input
                conn.execute(sa.text(f'ALTER TABLE {table.name} ADD COLUMN "{column.name}" {kind}'))


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
