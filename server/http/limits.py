"""What one client may cost: store work off the event loop, in a bounded pool, each request's wait
on the store bounded, and a cap on each key's requests in flight.

* On an embedded store with local counters an uncached request first reads on the event loop
  under ``INLINE_MS`` of CPU (a progress handler stops it there): most pages need 0.3-3 ms, and
  a thread hop and the GIL handed to and fro between 16 threads cost more than that. One that
  needs more is stopped and goes on, read again, in a store thread, as every read does on
  PostgreSQL or with Redis counters.
* Work past the budget runs in one of ``STORE_THREADS`` threads of the worker, never on the
  event loop: a slow query holds its thread, not the process, so
  cached answers, ``/openapi.json``, key checks and 404s go on answering beside it. (SQLite gives
  up the GIL while it steps a statement.) The loop waits ``ANSWER_TIMEOUT`` seconds at most for
  a thread and its answer (the store timeout plus the query limit), then answers 503
  ``store_unavailable`` with ``Retry-After``, and the work is told to stop (``deadline.Work``):
  its SQLite reads stop at the next look at the clock, a PostgreSQL statement is cancelled,
  shaping and encoding stop at the next record; a stalled PostgreSQL session is cut by the
  engine's watchdog.
* A key has at most ``KEY_IN_FLIGHT`` requests of the request path in flight per worker (kept
  answers, served from memory, are not counted): one more waits ``KEY_WAIT`` for a slot, then
  is answered 429 ``too_many_in_flight`` with ``Retry-After``, so a key with a default rate
  cannot fill the store threads with expensive pages and its rate bounds what it costs, not
  only how often it asks, while a burst of cheap requests (milliseconds each) still passes.
  A slot is held until the request's work has stopped, not only until its answer: a request
  answered 503 at its deadline keeps its slot while its thread winds down, so one key never has
  more than ``KEY_IN_FLIGHT`` threads working (before: 5 at once behind 503s, issue 43).
  Counted on the event loop (one thread), so no lock.
* Of those, on an embedded store, a key has ``KEY_HEAVY`` (1) built in a store thread at once
  per worker (``Limits.heavy``): the next waits its turn, up to 2 s, then is answered 429.

Measured with ``bench/api.py`` and ``bench/hostile.py`` (README, "Benchmarks").
"""
from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

import anyio

from server.errors import TooManyInFlight, store_timeout
from server.store.deadline import Work, run_within
from server.store.engine import ANSWER_TIMEOUT, POOL_SIZE

T = TypeVar("T")

STORE_THREADS = int(os.environ.get("SPORTS_STORE_THREADS", str(POOL_SIZE)))
KEY_IN_FLIGHT = int(os.environ.get("SPORTS_KEY_IN_FLIGHT", "4"))
# Of those, how many a worker builds at once in store threads on an embedded store (``heavy``).
KEY_HEAVY = int(os.environ.get("SPORTS_KEY_HEAVY", "1"))
HEALTH_TIMEOUT = float(os.environ.get("SPORTS_HEALTH_TIMEOUT", "2"))
DOCS_WAIT = 0.5  # seconds /openapi.json and /docs wait for the store's level list, else the catalog's
BUSY_RETRY_AFTER = "1"  # seconds a key over its in-flight cap is asked to wait
# Uncached reads on SQLite with local counters first run on the event loop under this budget
# of CPU (a progress handler, as for the query limit); one that needs more is stopped and run
# again in a store thread, and the same list's next requests (any page or size) go to threads
# for ``LIST_OVERRAN_FOR`` s.
INLINE_MS = int(os.environ.get("SPORTS_INLINE_MS", "5"))
LIST_OVERRAN_FOR = 30.0
OVERRAN_HELD = 10_000  # lists remembered as overrunning before the memory is emptied
KEY_WAIT = 0.5  # seconds a request over its key's cap waits for a slot before its 429
# seconds one waits for a key's heavy slot (at most the answer's own wait): a heavy page takes
# 0.1-1 s, so a second user of a shared key (the dashboard's) is served after the first
# rather than refused
HEAVY_WAIT = 2.0


class Limits:
    """The worker's store threads and its count of requests in flight per key."""

    def __init__(self, threads: int = STORE_THREADS, per_key: int = KEY_IN_FLIGHT,
                 timeout: float = ANSWER_TIMEOUT, heavy: int = KEY_HEAVY) -> None:
        self.threads = ThreadPoolExecutor(max(1, threads), thread_name_prefix="store")
        # cached answers' own threads (a rate counter in Redis, a key looked up): a store thread
        # held by a stalled query never delays an answer already made
        self.replays = ThreadPoolExecutor(max(1, threads), thread_name_prefix="replay")
        self.per_key = per_key
        self.heavy_per_key = heavy
        self.timeout = timeout
        self._keys: dict[str, _Slots] = {}
        # a list (its identity without page and size) -> until when its reads go to threads
        self._overran: dict[object, float] = {}
        # a list -> until when one overrun of it is remembered (a second sends it to threads)
        self._overran_once: dict[object, float] = {}

    def inline_for(self, listed: object) -> bool:
        """Whether a request for the list ``listed`` may read on the event loop (``INLINE_MS``):
        not within ``LIST_OVERRAN_FOR`` seconds of one of the same list's that needed more."""
        if INLINE_MS <= 0:
            return False
        until = self._overran.get(listed)
        if until is None:
            return True
        if time.monotonic() < until:
            return False
        del self._overran[listed]
        return True

    def overran(self, listed: object) -> None:
        """A request for ``listed`` needed more than ``INLINE_MS``: once that has happened
        twice within ``LIST_OVERRAN_FOR`` seconds, that list's next requests (any page or size)
        go to store threads for ``LIST_OVERRAN_FOR`` seconds. A key is not sent there as a
        whole: the dashboard's users share one, and a distinct expensive request costs the
        loop at most ``INLINE_MS``, bounded by its key's in-flight cap and rate (a default-rate
        key at 600 a minute: at most 5% of a worker's loop).

        Twice, not once: a list's first request after start-up reads a cold page cache and
        prepares its statements, and overran where its next ones need 1.5 ms of the 5 (the
        100-game page of ``bench/api.py``); sent to threads on that one overrun, the page was
        answered there for good under steady load (a thread holding a pooled connection keeps
        the next request off the loop too), behind the GIL handed between 16 threads.
        Measured (``bench/api.py --against`` the code before, ``--only a0,b,c --duration 5``,
        3 interleaved rounds, load average 3.9 on 2 cores): the page without caches (a0) 718
        against 417 req/s (1.72x), p99 181 against 325 ms; distinct pages (b) 1,074 against
        572 req/s (1.88x), p99 182 against 287 ms; a game's detail (c) 1.18x."""
        now = time.monotonic()
        if self._overran_once.get(listed, 0.0) < now:  # the first within the window
            if len(self._overran_once) >= OVERRAN_HELD:
                self._overran_once.clear()
            self._overran_once[listed] = now + LIST_OVERRAN_FOR
            return
        del self._overran_once[listed]
        if len(self._overran) >= OVERRAN_HELD:
            self._overran.clear()
        self._overran[listed] = now + LIST_OVERRAN_FOR

    async def run(self, work: Callable[..., T], *args: object, within: float | None = None,
                  pool: ThreadPoolExecutor | None = None, hold: Hold | None = None,
                  also: Hold | None = None) -> T:
        """``work(*args)`` in a store thread; ``StoreUnavailable`` (503) when no thread was free
        and done within ``within`` seconds (default ``ANSWER_TIMEOUT``: the store timeout plus
        the query limit). Work still waiting for a thread then never runs; a request's work
        begun (``hold``: its key's slot) is told to stop (``deadline.Work.cancel``), and the
        slot stays taken until it has; the event loop never waits on the store longer than
        that. Work without a slot (the levels for the documents, ``/health``, a cached
        answer's key check) finishes on its own, as what it reads is kept for the next.

        A plain executor and asyncio's timeout, not anyio's ``to_thread`` under a cancel
        scope: the hop cost 85-113 µs against 161-206 µs (5,000 hops of an empty function
        each way, interleaved rounds, a loaded machine), paid by every request that reads."""
        seconds = self.timeout if within is None else within
        if hold is None:  # the service's own lookups (levels, health): they finish, and are kept
            future = (pool or self.threads).submit(work, *args)
            job = None
        else:
            job = Work(time.monotonic() + seconds, seconds)
            future = (pool or self.threads).submit(run_within, job, work, *args)
        deadline = asyncio.timeout(seconds)
        try:
            async with deadline:
                return await asyncio.wrap_future(future)
        except TimeoutError:
            if not deadline.expired():
                raise  # the work's own
            raise store_timeout(seconds) from None
        finally:  # answered 503, or the request itself cancelled
            if not future.done() and not future.cancel() and job is not None:
                job.cancel()
                assert hold is not None
                hold.until(future)
                if also is not None:
                    also.until(future)

    def heavy(self, key: str) -> AbstractAsyncContextManager[Hold]:
        """One of ``key``'s ``KEY_HEAVY`` slots for work that goes on in a store thread on an
        embedded store (reads past ``INLINE_MS``, a page too large to encode on the loop),
        held like an in-flight slot: until that work has stopped. Such work holds the GIL
        for hundreds of milliseconds (a page of 100 box scores in XML: 0.4 s of CPU), and the
        event loop, answering everyone's cached pages and cheap reads, waits its turn behind
        every such thread; one key's in-flight cap of 4 let it keep four of them running in
        each worker. Measured (``bench/heavy_pages.py --store`` the real-data store
        ``--against`` the code before, ``--duration 5 --rounds 2``, 2 workers, a default-rate
        key on 8 connections asking distinct 100-box-score XML pages, a shared 2-core
        machine): beside them another key's cached page p99 36 against 190 ms, its uncached
        game details p99 74 against 292 ms, the server's memory 1.44x its size at rest
        against 1.77x; the heavy key got 36 pages against 42 (0.86x)."""
        return self.in_flight("heavy\0" + key, self.heavy_per_key,
                              min(HEAVY_WAIT, self.timeout))

    @asynccontextmanager
    async def in_flight(self, key: str, per_key: int | None = None,
                        wait: float = KEY_WAIT) -> AsyncIterator[Hold]:
        """Hold one of ``key``'s ``per_key`` slots (the key's checked form) while the block
        runs, and past it while work the block left in a store thread goes on (``Hold``). A
        request over the cap waits ``KEY_WAIT`` seconds for a slot (a burst of cheap requests
        passes: each holds its slot for milliseconds), then is answered 429
        ``too_many_in_flight``: a key whose requests hold their slots for seconds is refused."""
        cap = self.per_key if per_key is None else per_key
        if cap <= 0:
            yield Hold(lambda: None)  # no cap: nothing to give back
            return
        slots = self._keys.get(key)
        if slots is None:
            slots = self._keys[key] = _Slots(anyio.Semaphore(cap))
        slots.users += 1
        hold = Hold(lambda: self._leave(key, slots, acquired=True))
        try:
            with anyio.move_on_after(wait) as waited:
                await slots.semaphore.acquire()
        except BaseException:
            self._leave(key, slots, acquired=False)
            raise
        if waited.cancelled_caught:  # no slot came free: not acquired
            self._leave(key, slots, acquired=False)
            raise TooManyInFlight(
                f"this key already has {cap} {'expensive ' if per_key else ''}"
                f"{'request' if cap == 1 else 'requests'} in flight; wait for an answer "
                "before asking more", "key",
                headers={"Retry-After": BUSY_RETRY_AFTER})
        try:
            yield hold
        finally:
            hold.end()

    def _leave(self, key: str, slots: _Slots, acquired: bool) -> None:
        """A request leaves ``key``'s slots (giving back the one it held, if ``acquired``)."""
        if acquired:
            slots.semaphore.release()
        slots.users -= 1
        if not slots.users and self._keys.get(key) is slots:
            del self._keys[key]


class Hold:
    """A key's slot held by one request: given back when the request is answered, or, when it
    left work running in a store thread (answered 503 at its deadline), once that work ends."""

    def __init__(self, release: Callable[[], None]) -> None:
        self._release = release
        self._work: Future[Any] | None = None

    def until(self, work: Future[Any]) -> None:
        """Keep the slot until ``work`` (a store thread's, begun) has ended."""
        self._work = work

    def end(self) -> None:
        """The request is answered: give the slot back now, or when its work ends (on the
        event loop, where slots are counted)."""
        work = self._work
        if work is None or work.done():
            self._release()
            return
        loop = asyncio.get_running_loop()

        def ended(_: Future[Any]) -> None:
            try:
                loop.call_soon_threadsafe(self._release)
            except RuntimeError:  # the loop closed first (the worker stopping): nothing to count
                pass

        work.add_done_callback(ended)


@dataclass
class _Slots:
    """A key's slots on this worker, and how many requests hold or wait for one."""

    semaphore: anyio.Semaphore
    users: int = 0
