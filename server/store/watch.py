"""Has the store changed since a cache entry was made? A per-request answer in microseconds.

Two signals, one cheap and coarse, one exact and rare:

* SQLite's ``PRAGMA data_version`` changes on a connection whenever any *other* connection, in
  this process or another, has committed to the file since that connection last asked; it reads
  the WAL index in shared memory (about 3 µs). ``StoreWatch`` keeps one connection per thread for
  it (opened read-write so a missing file is never created; it never writes).
* Any commit moves it, including the service's own ``last_used`` writes and ``ANALYZE``, which
  change nothing a client sees. So every writer of served content (ingests through the loader,
  re-tabulation, keys) calls ``mark_changed`` in its own transaction, giving ``store_info`` a new
  ``epoch`` (``copy-store`` carries the source's over); the watch reads the epoch only when
  ``data_version`` moved, and starts a new generation only when the epoch did.

A grant or a body cached under generation ``g`` is still true while ``generation()`` returns
``g``: a revoked key fails on the next request of every worker, an ingest is served at once, and
the hot path never asks the store. A write that bypasses ``mark_changed`` (``init`` refreshing
the catalog, an operator's hand edit in the sqlite3 shell) is seen when the cache's TTL ends.

PostgreSQL has no such signal; ``generation()`` returns None there and callers must not trust
anything cached across requests (keys are then verified on every request).
"""
from __future__ import annotations

import secrets
import sqlite3
import threading
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql
from sqlalchemy.dialects import sqlite as sqlite_dialect

from server.store import schema

EPOCH_KEY = "epoch"


def mark_changed(conn: sa.Connection) -> None:
    """Give the store a new content epoch, inside the caller's transaction."""
    insert = postgresql.insert if conn.dialect.name == "postgresql" else sqlite_dialect.insert
    stmt = insert(schema.store_info).values(key=EPOCH_KEY, value=secrets.token_hex(8))
    conn.execute(stmt.on_conflict_do_update(index_elements=["key"],
                                            set_={"value": stmt.excluded.value}))


class StoreWatch:
    def __init__(self, engine: sa.Engine) -> None:
        path = engine.url.database if engine.dialect.name == "sqlite" else None
        self._path = path if path and path != ":memory:" and not path.startswith("file:") else None
        self._local = threading.local()
        self._lock = threading.Lock()
        self._epoch: object = None
        self._generation = 0

    def generation(self) -> int | None:
        """A number that changes whenever served content may have changed; None when
        unknowable."""
        if self._path is None:
            return None
        local = self._local
        try:
            if getattr(local, "conn", None) is None:
                uri = Path(self._path).resolve().as_uri() + "?mode=rw"
                local.conn = sqlite3.connect(uri, uri=True, isolation_level=None)
                local.version = None
            version = local.conn.execute("PRAGMA data_version").fetchone()[0]
            if version != local.version:
                row = local.conn.execute("SELECT value FROM store_info WHERE key = ?",
                                         (EPOCH_KEY,)).fetchone()
                local.version = version
                epoch = row[0] if row else None
                if epoch != self._epoch:
                    with self._lock:
                        self._epoch = epoch
                        self._generation += 1
        except sqlite3.Error:
            local.conn = None  # reconnect next time; until then nothing is trusted
            return None
        return self._generation
