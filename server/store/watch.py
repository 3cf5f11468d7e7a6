"""Has the store changed since a cache entry was made? A per-request answer in microseconds.

SQLite's ``PRAGMA data_version`` changes on a connection whenever any *other* connection, in this
process or another, has committed to the file since that connection last asked; it reads the WAL
index in shared memory (about 3 µs). ``StoreWatch`` keeps one read-only connection per thread for
it (opened without the right to create the file) and folds what every thread sees into one process-wide generation number: a grant or a body
cached under generation ``g`` is still true while ``generation()`` returns ``g``. So a revoked key
fails on the next request of every worker, and an ingest is served at once, with no store lookup
on the hot path.

PostgreSQL has no such signal; ``generation()`` returns None there and callers must not trust
anything cached across requests (keys are then verified on every request).
"""
from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import sqlalchemy as sa


class StoreWatch:
    def __init__(self, engine: sa.Engine) -> None:
        path = engine.url.database if engine.dialect.name == "sqlite" else None
        self._path = path if path and path != ":memory:" and not path.startswith("file:") else None
        self._local = threading.local()
        self._lock = threading.Lock()
        self._generation = 0

    @property
    def active(self) -> bool:
        return self._path is not None

    def generation(self) -> int | None:
        """A number that changes whenever the store may have changed; None when unknowable."""
        if self._path is None:
            return None
        seen = getattr(self._local, "seen", None)
        try:
            if seen is None:
                # mode=rw: never create a missing file (the connection itself never writes)
                uri = Path(self._path).resolve().as_uri() + "?mode=rw"
                self._local.conn = sqlite3.connect(uri, uri=True, isolation_level=None)
            version = self._local.conn.execute("PRAGMA data_version").fetchone()[0]
        except sqlite3.Error:
            self._local.seen = None  # reconnect next time; until then nothing is trusted
            return None
        if version != seen:
            # A new connection counts as a change too: commits may have landed before it opened.
            self._local.seen = version
            with self._lock:
                self._generation += 1
        return self._generation
