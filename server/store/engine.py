"""Which store, and how to connect: SQLite file by default, PostgreSQL when DATABASE_URL says so."""
from __future__ import annotations

import os
import select
import time
from pathlib import Path
from typing import Any

import orjson
import sqlalchemy as sa
from sqlalchemy import event

DEFAULT_SQLITE_PATH = Path("data") / "sports.db"
POOL_SIZE = 16  # PostgreSQL connections a process keeps, and the most it opens
PING_AFTER_IDLE = 1.0  # seconds in the pool after which a connection is pinged on checkout
BUSY_TIMEOUT_MS = 30000  # how long a SQLite write waits for another writer's lock
PRIVATE = 0o600  # a store file (and the files SQLite makes beside it) only its owner may read


def database_url(url: str | None = None) -> str:
    """The store's URL: the argument, else DATABASE_URL, else the embedded SQLite file."""
    url = url or os.environ.get("DATABASE_URL")
    if url:
        if url.startswith("postgres://"):
            url = "postgresql://" + url[len("postgres://"):]
        if url.startswith("postgresql://"):
            url = "postgresql+psycopg://" + url[len("postgresql://"):]
        return url
    return f"sqlite:///{DEFAULT_SQLITE_PATH}"


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    # WAL lets readers go on while a re-tabulation writes; NORMAL is durable enough with WAL.
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=OFF")
    cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cur.execute("PRAGMA cache_size=-65536")
    cur.execute("PRAGMA temp_store=MEMORY")
    cur.close()


def create_private(path: Path) -> None:
    """Make ``path`` (and its folder) an empty file only its owner may read, unless it exists.
    SQLite gives its ``-wal`` and ``-shm`` files the store file's mode, so they follow."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, PRIVATE))
    except FileExistsError:
        pass


def _json_dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


def make_engine(url: str | None = None, **kwargs: Any) -> sa.Engine:
    """Create the engine for the store, making the SQLite folder if needed."""
    url = database_url(url)
    kwargs.setdefault("json_serializer", _json_dumps)
    kwargs.setdefault("json_deserializer", orjson.loads)
    if url.startswith("sqlite"):
        path = sa.make_url(url).database
        if path and path != ":memory:" and not path.startswith("file:"):
            create_private(Path(path))
        engine = sa.create_engine(url, connect_args={"check_same_thread": False}, **kwargs)
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    # No overflow: a connection opened past a kept pool's size is closed again on return, so
    # a load hovering around that size opened a PostgreSQL session every ~15 requests (422 in
    # 8 s of bench/api.py --postgres (b) traffic, 2 workers with pools of 8 + 8 overflow; none
    # with 16 + 0, the same most connections). Measured in one run of interleaved rounds, the
    # rest of this code alike: (b) 938 req/s against 746 with 8 + 8 (1.26x), p99 216 / 350 ms.
    kwargs.setdefault("pool_size", POOL_SIZE)
    kwargs.setdefault("max_overflow", 0)
    engine = sa.create_engine(url, **kwargs)
    if not kwargs.get("pool_pre_ping"):
        event.listen(engine, "checkin", _note_checkin)
        event.listen(engine, "checkout", _pinger(engine.dialect))
    return engine


def _note_checkin(_dbapi_conn: Any, record: Any) -> None:
    record.info["checked_in"] = time.monotonic()


def _pinger(dialect: sa.Dialect) -> Any:
    """A checkout hook pinging a PostgreSQL connection only when it may be dead: closed at our
    end, bytes waiting on its socket (a server that ends a session says so, FATAL then end of
    file: a restart, ``pg_terminate_backend``, an idle timeout), or idle for more than
    ``PING_AFTER_IDLE`` seconds (a database host that died says nothing). One that fails its
    ping is replaced by the pool, as with ``pool_pre_ping``, which pinged on every checkout: a
    round trip per request. Measured on bench/api.py --postgres (b) traffic against the same
    code with ``pool_pre_ping``, one run of 4 interleaved rounds: the workers' CPU 1.11 against
    1.19 ms a request (requests/s within the machine's noise, 1.01x); one request at a time,
    1.15 against 1.26 ms."""
    def ping_if_doubtful(dbapi_conn: Any, record: Any, _proxy: Any) -> None:
        if dbapi_conn.closed:
            raise sa.exc.DisconnectionError("connection closed")
        checked_in = record.info.get("checked_in")  # None: opened for this checkout
        if checked_in is None or time.monotonic() - checked_in <= PING_AFTER_IDLE:
            waiting = select.poll()
            waiting.register(dbapi_conn.fileno(), select.POLLIN)
            if not waiting.poll(0):
                return
        try:
            dialect.do_ping(dbapi_conn)
        except dialect.loaded_dbapi.Error as exc:
            raise sa.exc.DisconnectionError(str(exc)) from exc
    return ping_if_doubtful


def reader(engine: sa.Engine) -> sa.Engine:
    """The engine the request path reads through: on PostgreSQL its connections run in
    autocommit. A read then sends no BEGIN and no ROLLBACK (two round trips of the five a page
    with its count cost), and psycopg keeps the statements it prepared on a connection from one
    request to the next (it forgets them at every ROLLBACK, so none ever reached its threshold;
    planning was the biggest part of the server's time for a games page). Under PostgreSQL's
    READ COMMITTED every statement of a transaction took its own snapshot anyway. SQLite is
    left as it is: its driver begins no transaction for a SELECT. Measured on bench/api.py
    --postgres (b) traffic against the same code reading in transactions, one run of 3
    interleaved rounds: 1,001 against 874 req/s (1.15x), p99 158 / 255 ms."""
    if engine.dialect.name != "postgresql":
        return engine
    return engine.execution_options(isolation_level="AUTOCOMMIT")


def is_sqlite(engine: sa.Engine) -> bool:
    return engine.dialect.name == "sqlite"


def describe(engine: sa.Engine) -> str:
    """The store's name for /health and progress lines, without any password."""
    return engine.url.render_as_string(hide_password=True)


def analyze(engine: sa.Engine) -> None:
    """Refresh the query planner's statistics after a bulk write.

    Without them SQLite guesses, and picks e.g. ``ix_pitches_level`` over ``ix_pitches_game``
    for a game's pitches (90 ms instead of 0.3 ms). ``analysis_limit`` samples each index, so
    this takes seconds even on the full demo store.
    """
    with engine.begin() as conn:
        if is_sqlite(engine):
            conn.exec_driver_sql("PRAGMA analysis_limit=2000")
        conn.exec_driver_sql("ANALYZE")
