"""The one idempotent loader every ingester writes through.

An ingest runs inside ``loading(engine, source)``: one transaction, so a failed or killed ingest
leaves the store exactly as it was. Inside it:

* ``ids(kind, keys)`` maps a source's own keys (``"NYA"``, ``"judga001"``, ``"NYA202207040"``) to
  stable integer IDs, allocating new ones in key order the first time a key is seen;
* ``put(table, rows)`` inserts rows or updates them by primary key;
* ``replace_children(table, "game_id", game_ids, rows)`` swaps a game's dependent rows (plays,
  pitches, lines, officials) for new ones; their ids are derived from the game id, so a re-load
  writes the same ids.

Loading the same input twice therefore changes nothing.
"""
from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from server.store import schema, season_data
from server.store.folding import refresh_search_names
from server.store.watch import mark_changed

Row = Mapping[str, Any]

_CHUNK = 5000  # rows per executemany call
_IN_CHUNK = 900  # values per IN (...) list; SQLite's default limit is 999 variables


def _chunks(seq: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    for i in range(0, len(seq), size):
        yield seq[i:i + size]


def upsert(conn: sa.Connection, table: sa.Table, rows: Sequence[Row]) -> None:
    """Insert rows, or update the non-key columns of rows whose primary key exists."""
    if not rows:
        return
    dialect = conn.dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    keys = [c.name for c in table.primary_key.columns]
    columns = list(rows[0].keys())
    stmt = insert(table)
    updates = {c: stmt.excluded[c] for c in columns if c not in keys}
    stmt = stmt.on_conflict_do_update(index_elements=keys, set_=updates) if updates \
        else stmt.on_conflict_do_nothing(index_elements=keys)
    for chunk in _chunks(rows, _CHUNK):
        conn.execute(stmt, list(chunk))


def insert(conn: sa.Connection, table: sa.Table, rows: Sequence[Row]) -> None:
    """Plain bulk insert, for rows known to be new (after ``replace_children`` deleted theirs)."""
    for chunk in _chunks(rows, _CHUNK):
        conn.execute(table.insert(), list(chunk))


class Loader:
    """Writes one source's records inside one open transaction (see module docstring)."""

    def __init__(self, conn: sa.Connection, source: str) -> None:
        self.conn = conn
        self.source = source
        self._known: dict[tuple[str, str], dict[str, int]] = {}
        self._next: dict[str, int] = {}
        self.levels: set[str] = set()  # the levels written to: their season_data is refreshed

    # -- ids

    def _table_for(self, kind: str, source: str) -> dict[str, int]:
        cache = self._known.get((kind, source))
        if cache is None:
            sk = schema.source_keys.c
            rows = self.conn.execute(
                sa.select(sk.key, sk.id).where(sk.kind == kind, sk.source == source)
            )
            cache = {k: i for k, i in rows}
            self._known[(kind, source)] = cache
        return cache

    def _allocate(self, kind: str) -> int:
        nxt = self._next.get(kind)
        if nxt is None:
            sk = schema.source_keys.c
            top = self.conn.execute(sa.select(sa.func.max(sk.id)).where(sk.kind == kind)).scalar()
            nxt = int(top or 0) + 1
        self._next[kind] = nxt + 1
        return nxt

    def ids(self, kind: str, keys: Iterable[str], source: str | None = None) -> list[int]:
        """Stable IDs for these source keys, allocating new IDs for keys never seen before."""
        source = source or self.source
        keys = list(keys)
        known = self._table_for(kind, source)
        new = []
        for key in dict.fromkeys(keys):
            if key not in known:
                known[key] = self._allocate(kind)
                new.append({"kind": kind, "source": source, "key": key, "id": known[key]})
        insert(self.conn, schema.source_keys, new)
        return [known[k] for k in keys]

    def id(self, kind: str, key: str, source: str | None = None) -> int:
        return self.ids(kind, [key], source)[0]

    def lookup(self, kind: str, key: str, source: str | None = None) -> int | None:
        """The ID a key already has, or None; never allocates."""
        return self._table_for(kind, source or self.source).get(key)

    def alias(self, kind: str, key: str, id_: int, source: str | None = None) -> None:
        """Map another key to an existing ID (one player across sources keeps one ID)."""
        source = source or self.source
        known = self._table_for(kind, source)
        if known.get(key) == id_:
            return
        known[key] = id_
        upsert(self.conn, schema.source_keys,
               [{"kind": kind, "source": source, "key": key, "id": id_}])

    # -- rows

    def put(self, table: sa.Table, rows: Sequence[Row]) -> None:
        """Insert or update rows by primary key."""
        self._note_levels(rows)
        upsert(self.conn, table, rows)

    def replace_children(self, table: sa.Table, parent_column: str,
                         parent_ids: Iterable[int], rows: Sequence[Row]) -> None:
        """Delete every row of these parents, then insert ``rows`` (their complete new set)."""
        col = table.c[parent_column]
        parents = sorted(set(parent_ids))
        games = schema.games.c
        for chunk in _chunks(parents, _IN_CHUNK):
            self.conn.execute(table.delete().where(col.in_(chunk)))
            # the parents' levels, whether or not new rows follow: a level whose rows only
            # went is counted afresh too (``season_data``)
            if parent_column == "game_id":
                self.levels.update(self.conn.execute(
                    sa.select(games.level).where(games.id.in_(chunk)).distinct()).scalars())
        self._note_levels(rows)
        insert(self.conn, table, rows)

    def _note_levels(self, rows: Sequence[Row]) -> None:
        if rows and "level" in rows[0]:
            self.levels.update(row["level"] for row in rows)


# Test hook: seconds to pause, with everything written but not yet committed, so the fault
# tests can kill an ingest at a known point and show the store unchanged.
PAUSE_HOOK = "SPORTS_PAUSE_BEFORE_COMMIT"


def pause_before_commit() -> None:
    """Honour ``SPORTS_PAUSE_BEFORE_COMMIT`` (unset in normal runs: returns at once)."""
    seconds = float(os.environ.get(PAUSE_HOOK, "0") or 0)
    if seconds:
        print(f"written, not committed; pausing {seconds} s ({PAUSE_HOOK})", file=sys.stderr, flush=True)
        time.sleep(seconds)


@contextmanager
def loading(engine: sa.Engine, source: str) -> Iterator[Loader]:
    """One ingest, one transaction: commit when the block ends, roll back on any error."""
    with engine.begin() as conn:
        loader = Loader(conn, source)
        yield loader
        season_data.refresh(conn, loader.levels)
        refresh_search_names(conn)
        mark_changed(conn)
        pause_before_commit()
