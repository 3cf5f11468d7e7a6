"""A request's deadline, seen by the store thread doing its work, so that work stops once its
client has been answered 503 (docs/api/limits.md).

The event loop waits for a store thread's answer ``ANSWER_TIMEOUT`` seconds at most
(``server.http.limits``); it then answers ``store_unavailable``, but a thread cannot be stopped
from outside. So the work carries its own ``Work``: the loop's deadline, and a flag the loop sets
when it stops waiting (``cancel``). The thread looks at it where it can stop cheaply: SQLite's
progress handler (``engine.time_limited``, every few thousand VM steps), before each statement
(``engine.make_engine``), and between the records of a page being shaped and encoded
(``check``). A PostgreSQL statement already sent is cancelled on the server (``cancel``): the
thread is waiting on the network there, not running Python. Code run outside a store thread
(the event loop's own reads under their small budget) has no ``Work``: every check passes.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from server.errors import store_timeout

T = TypeVar("T")

_local = threading.local()
CANCEL_WAIT = 1.0  # seconds a PostgreSQL cancel request may take (a stalled network never answers)


class Work:
    """One request's work in a store thread: until when it may run, whether its client is
    still waiting, and the driver connection it is reading on (to cancel a statement)."""

    def __init__(self, deadline: float, seconds: float) -> None:
        self.deadline = deadline  # time.monotonic() by which the loop answered 503
        self.seconds = seconds  # the wait the loop allowed, for the 503's message
        self.cancelled = False
        self._lock = threading.Lock()
        self._reading: Any = None  # a psycopg connection while a statement may be running

    def expired(self) -> bool:
        return self.cancelled or time.monotonic() > self.deadline

    def reading(self, dbapi_conn: Any) -> None:
        """``dbapi_conn`` (PostgreSQL) runs this work's statements until ``done_reading``."""
        with self._lock:
            self._reading = dbapi_conn

    def done_reading(self) -> None:
        with self._lock:
            self._reading = None

    def cancel(self) -> None:
        """The loop no longer waits: stop at the next check, and cancel a PostgreSQL statement
        under way (from a thread of its own, as a cancel request is a connection of its own and
        may wait up to ``CANCEL_WAIT`` on a stalled network)."""
        self.cancelled = True
        with self._lock:
            conn = self._reading
        if conn is not None and hasattr(conn, "cancel_safe"):
            threading.Thread(target=_cancel, args=(conn,), name="store-cancel",
                             daemon=True).start()


def _cancel(conn: Any) -> None:
    try:
        conn.cancel_safe(timeout=CANCEL_WAIT)
    except Exception:  # noqa: BLE001, S110 - the statement ended meanwhile, or the store is away
        pass


def current() -> Work | None:
    """This thread's work, if it runs one for a request."""
    return getattr(_local, "work", None)


def run_within(work: Work, job: Callable[..., T], *args: Any) -> T:
    """``job(*args)`` in this thread as ``work``: its checks see ``work``'s deadline."""
    _local.work = work
    try:
        return job(*args)
    finally:
        _local.work = None


def check() -> None:
    """Raise 503 ``store_unavailable`` when this thread's work is past its deadline or its
    client no longer waits; nothing outside a store thread's work. About 0.2 µs."""
    work: Work | None = getattr(_local, "work", None)
    if work is not None and work.expired():
        raise store_timeout(work.seconds)


def between_records() -> None:
    """``check``, then, in a store thread's work, give the GIL up for a moment: a page being
    shaped or encoded holds it for 200-250 ms (100 box scores in XML), and the event loop,
    answering cached pages beside it, waited its turn behind every such thread. Measured in
    one process, four threads encoding those box scores in XML and the main thread waking
    from 2 ms sleeps (4 s each, four runs in two interleaved pairs): its lateness p50 13-17 ms
    and p99 100-150 ms without, 2-3 ms and 12-33 ms with; the encoding threads' pages 23-25
    against 20-21, one page alone 183 against 193 ms of CPU (a shorter switch interval, 1 ms
    instead of 5, gave 3 and 38-43 ms). Served (``bench/heavy_pages.py --against 2a646fd``,
    this code against the code before the deadlines, one run on a shared machine): beside 8
    connections of such pages a neighbour's cached page p99 107 against 149 ms, its uncached
    game details p99 193 against 342 ms. Outside a store thread's work, nothing."""
    work: Work | None = getattr(_local, "work", None)
    if work is not None:
        if work.expired():
            raise store_timeout(work.seconds)
        time.sleep(0)
