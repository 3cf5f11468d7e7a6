"""Has the store changed since a cache entry was made? A per-request answer in microseconds.

Every writer of served content (ingests through the loader, re-tabulation, keys) calls
``mark_changed`` in its own transaction, giving ``store_info`` a new ``epoch`` (``copy-store``
carries the source's over). Commits that change nothing a client sees (the service's own
``last_used`` writes, ``ANALYZE``) leave it alone. The generation a ``StoreWatch`` reports is
derived from the epoch, so every process on every machine computes the same number for the same
content: a shared Redis cache can name its entries by it (``server.http.shared_cache``).

How a worker learns of a new epoch without asking the store on every request:

* SQLite: ``PRAGMA data_version`` changes on a connection whenever any *other* connection, in
  this process or another, has committed to the file since that connection last asked; it reads
  the WAL index in shared memory (about 3 µs). ``StoreWatch`` keeps one connection per thread for
  it (opened read-write so a missing file is never created; it never writes) and reads the epoch
  only when ``data_version`` moved.
* PostgreSQL: ``mark_changed`` also sends ``NOTIFY sports_store_changed`` with the new epoch,
  delivered when (and only if) the writer commits. Each process keeps one listening connection
  in a daemon thread (``_Listener``); ``generation()`` reads the number it last set, no I/O.
  Chosen by measuring (``bench/watch.py``, loopback PostgreSQL, 2-core machine, two runs):
  reading the epoch row per request costs a pooled connection and its round trips, 615-620 µs
  median (p99 0.9-1.0 ms, pool pre-ping included), against 0.1 µs for the listener's number;
  a commit reaches another process's listener in 0.1 ms median (p99 0.25 ms). While the
  listener is not connected (the store is down, at start-up) ``generation()`` is None: nothing
  cached is trusted, keys are verified on every request, and on reconnecting it reads the epoch
  afresh, so a change missed in between is never missed for good.

A SQLite file deleted or replaced under a running server (``mv new.db sports.db``, a restore)
is noticed by its identity (device and inode, ``os.stat`` at most every ``IDENTITY_EVERY``
seconds, about 1 µs), and from then on the store is refused: every query answers 503
``unavailable`` saying the file changed, ``/health`` too, until the original file is back at
the path or the server is restarted on the new one. It is not reopened in place: the old file's
``-wal`` and ``-shm`` files keep their names beside the new file, and a connection opened on the
new file would read the old one's write-ahead log over it (measured: a key revoked in the new
file answered 200). The keys file is watched the same way.

A grant or a body cached under generation ``g`` is still true while ``generation()`` returns
``g``: a revoked key fails on the next request of every worker, an ingest is served at once, and
the hot path never asks the store. A write that bypasses ``mark_changed`` (``init`` refreshing
the catalog, an operator's hand edit) is seen when the cache's TTL ends.
"""
from __future__ import annotations

import hashlib
import logging
import math
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql
from sqlalchemy.dialects import sqlite as sqlite_dialect

from server.errors import STORE_REPLACED
from server.store import schema
from server.store.engine import STORE_TIMEOUT, shut_down

EPOCH_KEY = "epoch"
CHANNEL = "sports_store_changed"  # PostgreSQL NOTIFY channel carrying the new epoch
HEARTBEAT = 5.0  # seconds between two checks that the listening connection is alive, each
# given the store timeout (``SPORTS_STORE_TIMEOUT``) to answer
RETRY_MAX = 8.0  # the longest wait before connecting the listener again
LISTENER_NAME = "sports-change-listener"  # its application_name in pg_stat_activity
IDLE_STOP = 300.0  # seconds without a question before a process's listener lets go
IDENTITY_EVERY = 0.1  # seconds between two looks at which file a SQLite store's path names

log = logging.getLogger(__name__)


def mark_changed(conn: sa.Connection) -> None:
    """Give the store a new content epoch, inside the caller's transaction (and on PostgreSQL
    announce it to every listening worker when that transaction commits)."""
    epoch = secrets.token_hex(8)
    postgres = conn.dialect.name == "postgresql"
    insert = postgresql.insert if postgres else sqlite_dialect.insert
    stmt = insert(schema.store_info).values(key=EPOCH_KEY, value=epoch)
    conn.execute(stmt.on_conflict_do_update(index_elements=["key"],
                                            set_={"value": stmt.excluded.value}))
    if postgres:
        conn.execute(sa.select(sa.func.pg_notify(CHANNEL, epoch)))


def generation_of(epoch: object) -> int:
    """The generation every process derives from an epoch (0 before the first change)."""
    if epoch is None:
        return 0
    digest = hashlib.blake2b(str(epoch).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1  # positive, fits a signed 64-bit integer


class StoreWatch:
    def __init__(self, engine: sa.Engine) -> None:
        path = engine.url.database if engine.dialect.name == "sqlite" else None
        self._path = path if path and path != ":memory:" and not path.startswith("file:") else None
        self._listener = (_listener_for(engine.url) if engine.dialect.name == "postgresql"
                          else None)
        self._local = threading.local()
        self._generation: int | None = None
        self._engine = engine
        self._identity = _identity(self._path) if self._path else None
        self._identity_seen = time.monotonic()
        self._identity_lock = threading.Lock()
        self._refusing = False

    def generation(self) -> int | None:
        """A number that changes whenever served content may have changed; None when
        unknowable."""
        if self._listener is not None:
            return self._listener.generation()
        if self._path is None:
            return None
        local = self._local
        if not self._same_file():
            return None
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
                local.generation = generation_of(row[0] if row else None)
        except sqlite3.Error:
            local.conn = None  # reconnect next time; until then nothing is trusted
            return None
        generation: int = local.generation
        return generation

    def _same_file(self) -> bool:
        """Whether the path still names the file this watch began with. When it names another
        file or none, the engine refuses to connect (``_refuse_store``) and drops its pooled
        connections, so every query answers 503; when the file is back, it serves again."""
        assert self._path is not None
        now = time.monotonic()
        if now - self._identity_seen < IDENTITY_EVERY:
            return not self._refusing
        self._identity_seen = now
        found = _identity(self._path)
        if self._identity is None:  # no file at start: nothing to compare with yet
            self._identity = found
        same = found == self._identity
        if same == self._refusing:
            with self._identity_lock:
                if same == self._refusing:
                    self._refusing = not same
                    if same:
                        log.warning("store file %s is back; serving it again", self._path)
                        sa.event.remove(self._engine, "do_connect", _refuse_store)
                    else:
                        log.warning("store file %s %s while serving: refused until it is back "
                                    "or the server restarts", self._path,
                                    "was deleted" if found is None else "was replaced")
                        sa.event.listen(self._engine, "do_connect", _refuse_store)
                    self._engine.dispose()
        return same

    def listening(self) -> bool | None:
        """PostgreSQL: is the change signal live (None on SQLite, which needs no listener)."""
        return None if self._listener is None else self._listener.generation() is not None


def _refuse_store(dialect: object, record: object, cargs: object, cparams: object) -> None:
    """A connect hook while the store's file is not the one served (``StoreWatch``)."""
    raise sqlite3.OperationalError(STORE_REPLACED)


def _identity(path: str) -> tuple[int, int] | None:
    """The file a path names (device, inode), None when it names none."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


class _Listener:
    """One LISTEN connection per process and store, in a daemon thread started on first use and
    ended after ``IDLE_STOP`` seconds without a question (an engine thrown away, a dropped
    database: no connection is kept for nobody); the next question starts it again."""

    def __init__(self, conninfo: str) -> None:
        self._conninfo = conninfo
        self._generation: int | None = None
        self._started = False
        self._asked = time.monotonic()
        self._lock = threading.Lock()

    def generation(self) -> int | None:
        self._asked = time.monotonic()
        if not self._started:
            self._start()
        return self._generation

    def _start(self) -> None:
        with self._lock:
            if self._started:
                return
            self._started = True
        threading.Thread(target=self._run, name="store-change-listener", daemon=True).start()

    def _idle(self) -> bool:
        return time.monotonic() - self._asked > IDLE_STOP

    def _run(self) -> None:
        import psycopg

        wait = 0.5
        while not self._idle():
            try:
                with psycopg.connect(self._conninfo, autocommit=True,
                                     connect_timeout=max(2, math.ceil(STORE_TIMEOUT)),
                                     application_name=LISTENER_NAME) as conn:
                    with _within(conn, STORE_TIMEOUT):
                        conn.execute(f"LISTEN {CHANNEL}")
                        # after LISTEN, so a change committed in between is either read here
                        # or notified below
                        row = conn.execute("SELECT value FROM store_info WHERE key = %s",
                                           (EPOCH_KEY,)).fetchone()
                    self._generation = generation_of(row[0] if row else None)
                    wait = 0.5
                    while not self._idle():
                        for note in conn.notifies(timeout=HEARTBEAT):
                            self._generation = generation_of(note.payload)
                        with _within(conn, STORE_TIMEOUT):
                            conn.execute("SELECT 1")  # a dead connection raises here
            except (psycopg.Error, OSError) as exc:
                if self._generation is not None:
                    log.warning("store change signal lost (%s); cached answers untrusted until "
                                "it is back", type(exc).__name__)
                self._generation = None
                time.sleep(wait)
                wait = min(wait * 2, RETRY_MAX)
        with self._lock:  # untrusted first, then startable again by the next question
            self._generation = None
            self._started = False


@contextmanager
def _within(conn: Any, seconds: float) -> Iterator[None]:
    """Cut ``conn``'s socket if the block has not ended within ``seconds``: a PostgreSQL behind
    a network that stops forwarding answers nothing, not even an error, and the heartbeat would
    wait on it for ever with the last generation still trusted. Cut, the statement raises and
    the listener says the signal is lost (``generation()`` None) until it has connected again."""
    timer = threading.Timer(seconds, shut_down, (conn,))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


_LISTENERS: dict[str, _Listener] = {}
_LISTENERS_LOCK = threading.Lock()


def _listener_for(url: sa.URL) -> _Listener:
    conninfo = url.set(drivername="postgresql").render_as_string(hide_password=False)
    with _LISTENERS_LOCK:
        found = _LISTENERS.get(conninfo)
        if found is None:
            found = _LISTENERS[conninfo] = _Listener(conninfo)
        return found
