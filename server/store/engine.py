"""Which store, and how to connect: SQLite file by default, PostgreSQL when DATABASE_URL says so."""
from __future__ import annotations

import math
import os
import select
import socket
import sqlite3
import threading
import time
import urllib.parse
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson
import sqlalchemy as sa
from sqlalchemy import event

from server.errors import store_fault, store_timeout, too_expensive
from server.store import deadline, folding

DEFAULT_SQLITE_PATH = Path("data") / "sports.db"
POOL_SIZE = 16  # PostgreSQL connections a process keeps, and the most it opens
PING_AFTER_IDLE = 1.0  # seconds in the pool after which a connection is pinged on checkout
# The request path's limits (README, "Settings"). A query's reads stop after QUERY_LIMIT_MS of
# CPU (Datasette's sql_time_limit_ms, 1 s, is the model; ``time_limited``): one request must not
# hold a core, or a store thread, for longer. STORE_TIMEOUT bounds every wait on the store itself: a connection
# opened, a pooled session or a store thread waited for, a statement's answer from a network
# that has stopped forwarding.
QUERY_LIMIT_MS = int(os.environ.get("SPORTS_QUERY_MS", "1000"))
STORE_TIMEOUT = float(os.environ.get("SPORTS_STORE_TIMEOUT", "5"))
# The longest a request waits for its answer: the store's waits and its reads' own limit, so a
# query stopped at its limit is answered as such, never as a store that did not answer.
ANSWER_TIMEOUT = STORE_TIMEOUT + max(0, QUERY_LIMIT_MS) / 1000
# SQLite VM instructions between two looks at the clock: about 0.1 ms of a scan, so the limit
# is kept to the millisecond. Measured on a 560 ms join over the real play-by-play (median of 5
# interleaved runs, a loaded machine): 580 ms with the handler every 10,000 steps (+3.5%),
# 599 ms every 1,000 (+7%, Datasette's), 572 ms every 100,000.
PROGRESS_STEPS = 10_000
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


# A worker's memory budget (``SPORTS_CACHE_MB``, README "Settings"), counted in bytes. On SQLite
# half is its page caches, split evenly between the pool's connections (each keeps its own), half
# the answer cache (``server.http.caching``): SQLite's 64 MiB a connection sat outside it, and a
# worker grew by 99% in 40 s of distinct requests and levelled at +153%. PostgreSQL keeps its
# pages in its own server, so there the answer cache has the whole budget.
CACHE_BYTES = int(float(os.environ.get("SPORTS_CACHE_MB", "64")) * 2**20)
PAGE_CACHE_BYTES = CACHE_BYTES // 2 if database_url().startswith("sqlite") else 0
PAGE_CACHE_KIB = max(64, CACHE_BYTES // 2 // POOL_SIZE // 1024)  # each SQLite connection's cache_size


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    # WAL lets readers go on while a re-tabulation writes; NORMAL is durable enough with WAL.
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=OFF")
    cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cur.execute(f"PRAGMA cache_size=-{PAGE_CACHE_KIB}")
    cur.execute("PRAGMA temp_store=MEMORY")
    cur.close()
    # the folding a name search compares (server.store.folding)
    dbapi_conn.create_function(folding.SQLITE_NAME, 1, folding.fold_or_none, deterministic=True)


def create_private(path: Path) -> None:
    """Make ``path`` (and its folder) an empty file only its owner may read, unless it exists.
    SQLite gives its ``-wal`` and ``-shm`` files the store file's mode, so they follow."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, PRIVATE))
    except FileExistsError:
        pass


def _existing_file(_dialect: Any, _record: Any, cargs: list[Any], cparams: dict[str, Any]
                   ) -> None:
    """Open the store's file only if it exists (``mode=rw``): the file is made once, with its
    mode, by ``make_engine``; a connection opened after it was moved away made a new empty
    file in its place, so a store deleted under a running server was seen as replaced by an
    empty one (the race behind a flaky tests/production/test_store_swap.py)."""
    cargs[0] = "file:" + urllib.parse.quote(str(cargs[0])) + "?mode=rw"
    cparams["uri"] = True


def _json_dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


def make_engine(url: str | None = None, request_path: bool = False, **kwargs: Any) -> sa.Engine:
    """Create the engine for the store, making the SQLite folder if needed.

    On PostgreSQL every connection gives up connecting after ``STORE_TIMEOUT`` (libpq's
    ``connect_timeout``) and a pooled one is waited for as long. ``request_path``: the engine
    the service reads through (``reader``): autocommit, each statement stopped by the server
    after ``QUERY_LIMIT_MS`` (``statement_timeout``), and a session held past the store timeout
    cut (``_Watchdog``), since a stalled network answers nothing, not even a cancel."""
    url = database_url(url)
    kwargs.setdefault("json_serializer", _json_dumps)
    kwargs.setdefault("json_deserializer", orjson.loads)
    if url.startswith("sqlite"):
        path = sa.make_url(url).database
        if path and path != ":memory:" and not path.startswith("file:"):
            create_private(Path(path))
        if path and path != ":memory:" and "poolclass" not in kwargs:
            # at most POOL_SIZE connections, as on PostgreSQL, so the page caches stay within
            # their share of the budget; the default (5 kept, 10 more opened and closed again)
            # also opened a connection, cold cache and pragmas, for every request past the
            # fifth at once
            kwargs.setdefault("pool_size", POOL_SIZE)
            kwargs.setdefault("max_overflow", 0)
            kwargs.setdefault("pool_timeout", STORE_TIMEOUT)
        engine = sa.create_engine(url, connect_args={"check_same_thread": False}, **kwargs)
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "before_cursor_execute", _within_deadline)
        if path and path != ":memory:" and not path.startswith("file:"):
            event.listen(engine, "do_connect", _existing_file)
        return engine
    # No overflow: a connection opened past a kept pool's size is closed again on return, so
    # a load hovering around that size opened a PostgreSQL session every ~15 requests (422 in
    # 8 s of bench/api.py --postgres (b) traffic, 2 workers with pools of 8 + 8 overflow; none
    # with 16 + 0, the same most connections). Measured in one run of interleaved rounds, the
    # rest of this code alike: (b) 938 req/s against 746 with 8 + 8 (1.26x), p99 216 / 350 ms.
    kwargs.setdefault("pool_size", POOL_SIZE)
    kwargs.setdefault("max_overflow", 0)
    kwargs.setdefault("pool_timeout", STORE_TIMEOUT)
    connect_args = dict(kwargs.pop("connect_args", {}))
    # libpq counts whole seconds, and psycopg takes 2 as its least
    connect_args.setdefault("connect_timeout", max(2, math.ceil(STORE_TIMEOUT)))
    if request_path:
        kwargs.setdefault("isolation_level", "AUTOCOMMIT")
        if QUERY_LIMIT_MS > 0:
            connect_args.setdefault("options", f"-c statement_timeout={QUERY_LIMIT_MS}")
    engine = sa.create_engine(url, connect_args=connect_args, **kwargs)
    if request_path:  # first, so that the checkout's ping is watched too
        event.listen(engine, "before_cursor_execute", _within_deadline)
        event.listen(engine, "before_cursor_execute", _join_order)
        watchdog = _Watchdog(ANSWER_TIMEOUT + WATCHDOG_GRACE)
        event.listen(engine, "checkout", watchdog.checkout)
        event.listen(engine, "checkin", watchdog.checkin)
    if not kwargs.get("pool_pre_ping"):
        event.listen(engine, "checkin", _note_checkin)
        event.listen(engine, "checkout", _pinger(engine.dialect))
    return engine


def _within_deadline(*_args: Any) -> None:
    """No statement starts for a request whose client has had its 503 (``deadline.check``): a
    page's count, or its box scores' details, after its list ran out of time."""
    deadline.check()


# A statement's execution option: join its tables in the order written (``join_order``).
JOINS_AS_WRITTEN = "joins_as_written"


def _join_order(conn: sa.Connection, cursor: Any, _statement: str, _parameters: Any,
                context: Any, _executemany: bool) -> None:
    """Plan a statement marked ``JOINS_AS_WRITTEN`` with its joins in the written order
    (``join_collapse_limit`` 1), every other statement as PostgreSQL chooses (its default).

    PostgreSQL searches every order of a statement's joins, and on the real store a page of
    play-by-play (a play, its game, three players, four teams each in its season, a venue, a
    win probability: 13 tables) spent 67-158 ms planning (EXPLAIN ANALYZE, median of 5) and 3
    ms running; a page of pitches (11 tables) 24-50 ms and 1.4 ms; in the written order 4.7-8.8
    and 1.5-1.7 ms, the same plans. Written from the table listed outward to the rows each of
    its rows names, the order needs no search (the planner still chooses how to join, and
    which of the first two tables leads). ``query.run`` on one session, 30 runs, two rounds
    interleaved with the code before (a loaded machine): every MLB pitch's first page 25-31 ->
    3.6-6.9 ms, MLB 2023's play-by-play 69-108 -> 6.3-8.8, FC 2023's 92-96 -> 6.0-6.8, a day's
    pitches 44-47 -> 27-28; served (``bench/api.py --postgres --store``, 32 connections,
    docs/benchmarks.md) the plain pitch list 5.47x req/s, a season's play-by-play 8.20x, the games
    list 1.00x. A session-wide setting is no fix: statements written from the
    other end (FC's money lines, from its games to their forecasts) took 146 ms against 0.1.
    The session's setting is remembered with the connection and changed only when a statement
    wants the other one: a round trip when a pooled session moves between the two kinds."""
    wanted = bool(context is not None and context.execution_options.get(JOINS_AS_WRITTEN))
    if conn.info.get(JOINS_AS_WRITTEN, False) != wanted:
        cursor.execute("SET join_collapse_limit = 1" if wanted else "RESET join_collapse_limit",
                       prepare=False)
        conn.info[JOINS_AS_WRITTEN] = wanted


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


WATCHDOG_GRACE = 1.0  # seconds past a request's answer timeout before its session is cut


class _Watchdog:
    """Cuts a request path's PostgreSQL session held past ``seconds`` (shuts its socket down).

    Behind a proxy or a network that stops forwarding, the host's TCP stack still acknowledges
    everything, so neither keepalives nor ``tcp_user_timeout`` notice, ``statement_timeout``'s
    answer never arrives and a cancel request would hang as well: the thread waiting for the
    answer would wait for ever, holding its pooled session and its store thread. The request
    itself has been answered 503 at ``ANSWER_TIMEOUT`` (``server.http.limits``); this frees what it
    held, the driver sees the connection end, and the pool replaces it. One daemon thread looks
    at the sessions held ten times a second; a checkout and a checkin each cost a dict entry."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._held: dict[int, tuple[float, Any]] = {}
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def checkout(self, dbapi_conn: Any, record: Any, _proxy: Any) -> None:
        with self._lock:
            self._held[id(record)] = (time.monotonic() + self.seconds, dbapi_conn)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="store-watchdog",
                                                daemon=True)
                self._thread.start()

    def checkin(self, _dbapi_conn: Any, record: Any) -> None:
        with self._lock:
            self._held.pop(id(record), None)

    def _run(self) -> None:
        while True:
            time.sleep(0.1)
            now = time.monotonic()
            with self._lock:
                late = [k for k, (deadline, _) in self._held.items() if deadline < now]
                cut = [self._held.pop(k)[1] for k in late]
            for dbapi_conn in cut:
                shut_down(dbapi_conn)


def shut_down(dbapi_conn: Any) -> None:
    """End a driver connection's socket under it, from another thread: the blocked read sees
    the end of the stream and the driver raises (shutdown acts on the socket, so a duplicate
    of its descriptor does)."""
    try:
        sock = socket.socket(fileno=os.dup(dbapi_conn.fileno()))
    except Exception:  # noqa: BLE001 - closed meanwhile (the driver says so its own way)
        return
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    finally:
        sock.close()


_READERS: weakref.WeakKeyDictionary[sa.Engine, sa.Engine] = weakref.WeakKeyDictionary()
_READERS_LOCK = threading.Lock()


class OverBudget(Exception):
    """Reads run under a budget (``time_limited(budget=True)``) needed more: stopped, nothing
    logged, so that the caller runs them again elsewhere (``server.http.limits.INLINE_MS``)."""


@contextmanager
def time_limited(conn: sa.Connection, limit_ms: int = QUERY_LIMIT_MS,
                 within: float = ANSWER_TIMEOUT, budget: bool = False) -> Iterator[None]:
    """Stop the reads made on ``conn`` inside the block once they have used ``limit_ms`` of
    their thread's CPU time together, and raise ``QueryTooExpensive``.

    CPU time, not the clock: what a request costs the machine is what is bounded, and a machine
    busy with other work does not turn ordinary requests into refusals (at a load average of 15
    on 2 cores, the real store's MLB seasons took 2.75 s by the clock and 0.68 s of CPU, its
    players' first page 1.99 s and 0.37 s; the deep pitch page 27.7 s and 5.5 s). SQLite: a
    progress handler, as Datasette's; it also stops the reads once ``within`` seconds have
    passed by the clock or the request's own deadline has (``deadline.Work``: its client has
    had its 503 by then, so the thread stops working for nobody), or the loop cancelled it. With ``budget``, reads stopped at ``limit_ms`` raise
    ``OverBudget`` instead (SQLite only: a budget is for reads on the event loop). PostgreSQL: the reader's
    ``statement_timeout``, per statement, by the server's clock, and a statement under way
    when the request's wait ends is cancelled (``deadline.Work.cancel``). A read stopped leaves nothing
    behind: SQLite's interrupt ends the statement, the connection goes on."""
    work = deadline.current()
    driver = conn.connection.driver_connection
    raw = driver if conn.dialect.name == "sqlite" else None
    limited = raw is not None and limit_ms > 0
    cpu, clock = time.thread_time, time.monotonic
    spent_by = cpu() + limit_ms / 1000
    given_up_by = clock() + within
    if work is not None:
        given_up_by = min(given_up_by, work.deadline)
        if raw is None:
            work.reading(driver)  # a statement under way is cancelled with the request
    if limited:
        assert raw is not None
        if work is None:
            raw.set_progress_handler(lambda: cpu() > spent_by or clock() > given_up_by,
                                     PROGRESS_STEPS)
        else:
            raw.set_progress_handler(lambda: cpu() > spent_by or clock() > given_up_by
                                     or work.cancelled, PROGRESS_STEPS)
    try:
        yield
    except (sa.exc.OperationalError, sqlite3.OperationalError) as exc:
        if budget and limited and cpu() >= spent_by \
                and "interrupt" in str(getattr(exc, "orig", exc)):
            raise OverBudget() from None
        wrapped = (exc if isinstance(exc, sa.exc.OperationalError)
                   else sa.exc.OperationalError("fetch", None, exc))  # a raw cursor's fetch
        fault = store_fault(wrapped)
        if fault is not None and fault.code == "query_too_expensive":
            if limited and cpu() < spent_by:  # stopped by the clock: its client has gone
                raise store_timeout(within) from exc
            raise too_expensive(limit_ms) from exc
        if wrapped is exc:
            raise
        raise wrapped from exc
    finally:
        if work is not None:
            work.done_reading()
        if limited:
            assert raw is not None
            raw.set_progress_handler(None, 0)


def reader(engine: sa.Engine) -> sa.Engine:
    """The engine the request path reads through: on PostgreSQL an engine of its own (one per
    engine given, made once), whose connections run in autocommit under the request path's
    limits (``make_engine(request_path=True)``); writers keep the given engine, unlimited.
    A read then sends no BEGIN and no ROLLBACK (two round trips of the five a page
    with its count cost), and psycopg keeps the statements it prepared on a connection from one
    request to the next (it forgets them at every ROLLBACK, so none ever reached its threshold;
    planning was the biggest part of the server's time for a games page). Under PostgreSQL's
    READ COMMITTED every statement of a transaction took its own snapshot anyway. SQLite is
    left as it is: its driver begins no transaction for a SELECT. Measured on bench/api.py
    --postgres (b) traffic against the same code reading in transactions, one run of 3
    interleaved rounds: 1,001 against 874 req/s (1.15x), p99 158 / 255 ms."""
    if engine.dialect.name != "postgresql":
        return engine
    with _READERS_LOCK:
        found = _READERS.get(engine)
        if found is None:
            size = engine.pool.size() if isinstance(engine.pool, sa.QueuePool) else POOL_SIZE
            found = _READERS[engine] = make_engine(
                engine.url.render_as_string(hide_password=False), request_path=True,
                pool_size=size)
        return found


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
