"""Copy a whole store into another (SQLite file to PostgreSQL, typically), in one transaction.

The target is created or upgraded first; each of its tables is emptied and refilled from the
source in batches, so a failed copy leaves the target as it was. Then the target's planner
statistics are refreshed, as after every bulk write: a PostgreSQL store served straight after its
copy would otherwise plan its first queries blind until autovacuum gets to it. Keys come from
wherever the source keeps them (``keystore``: a SQLite store's keys file), and the secret they
were hashed with goes with them unless ``SPORTS_KEY_SECRET`` names it, so every key issued
before still verifies against the copy.
"""
from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa

from server.errors import UserError
from server.store import keystore, schema
from server.store.engine import analyze, describe, make_engine
from server.store.init import init_store
from server.store.loader import insert

_BATCH = 20_000


def copy_store(source: sa.Engine, target: sa.Engine, progress: bool = True) -> dict[str, int]:
    """Copy every table of the schema; returns rows copied per table."""
    if source.url == target.url:
        raise UserError("the target is the store itself")
    init_store(target)
    counts: dict[str, int] = {}
    secret = keystore.server_secret(source)
    with source.connect() as src, keystore.key_engine(source).connect() as src_keys, \
            target.begin() as dst:
        for table in schema.metadata.sorted_tables:
            dst.execute(table.delete())
            n = 0
            reads = src_keys if table is schema.api_keys else src
            result = reads.execution_options(stream_results=True, yield_per=_BATCH).execute(table.select())
            for batch in result.mappings().partitions(_BATCH):
                insert(dst, table, [dict(r) for r in batch])
                n += len(batch)
            counts[table.name] = n
            if progress:
                print(f"  {table.name}: {n} rows", file=sys.stderr, flush=True)
        if dst.dialect.name == "postgresql":
            dst.execute(sa.text(
                "SELECT setval(pg_get_serial_sequence('api_keys', 'id'), "
                "COALESCE((SELECT max(id) FROM api_keys), 0) + 1, false)"))
        keystore.copy_secret(dst, target, secret)
    analyze(target)
    return counts


def cli(args: Any, engine: Callable[[], sa.Engine]) -> int:
    source = engine()
    target = make_engine(args.target)
    print(f"copying {describe(source)} -> {describe(target)}", file=sys.stderr)
    counts = copy_store(source, target)
    print(f"copied {sum(counts.values())} rows in {len(counts)} tables", file=sys.stderr)
    return 0
