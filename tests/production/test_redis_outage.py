"""Redis is an accelerator, not a single point of failure (issue 19, part 1).

A Redis of the test's own is killed and started again under a bounded load on two workers: every
request is answered 200, none is lost, each worker warns once (never the key) and says when Redis
is back, and then a key's rate is shared across the workers again. A Redis that hangs costs at
most one short timeout per back-off, not one per request.
"""
from __future__ import annotations

import json
import socket
import statistics
import threading
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Self

import httpx
import pytest

from server.http.breaker import SOCKET_TIMEOUT
from tests.production._harness import RedisProcess, Server, free_port, issue_key, serving
from tests.production.conftest import Store
from tests.production.test_workers import fresh_get, worker_pids

WORKERS = 2
CLIENTS = 4
DOWN = "unreachable"  # the breaker's warning when an outage starts
BACK = "answers again"  # and when it ends


class Load:
    """``CLIENTS`` threads asking on fresh connections (so both workers answer) until stopped."""

    def __init__(self, server: Server, key: str) -> None:
        self.urls = [f"{server.base_url}/v1/teams/MLB/?key={key}&page={n}" for n in (1, 2, 3)]
        self.urls += [f"{server.base_url}/v1/games/MLB/?key={key}&max=5&page={n}" for n in (1, 2)]
        self.sent = 0
        self.statuses: Counter[int] = Counter()
        self.answered_at: list[float] = []  # when each answered request was sent (monotonic)
        self.failures: list[str] = []
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._threads = [threading.Thread(target=self._run, args=(n,)) for n in range(CLIENTS)]

    def _run(self, n: int) -> None:
        i = n
        while not self._stop.is_set():
            url = self.urls[i % len(self.urls)]
            i += 1
            with self._lock:
                self.sent += 1
            sent_at = time.monotonic()
            try:
                status = httpx.get(url, timeout=10).status_code
            except httpx.HTTPError as exc:
                with self._lock:
                    self.failures.append(type(exc).__name__)
                continue
            with self._lock:
                self.statuses[status] += 1
                self.answered_at.append(sent_at)

    def __enter__(self) -> Self:
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(30)


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[RedisProcess]:
    process = RedisProcess(tmp_path / "redis.log")
    try:
        yield process
    finally:
        process.kill()


def _health(server: Server) -> dict[str, object]:
    response = httpx.get(server.base_url + "/health", timeout=10)
    assert response.status_code == 200, response.text[:300]
    doc: dict[str, object] = response.json()
    return doc


def _wait_for(condition: object, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def test_redis_killed_and_restarted_under_load(store: Store, redis: RedisProcess,
                                               tmp_path: Path) -> None:
    redis.start()
    with serving(store.url, tmp_path / "server.log", workers=WORKERS,
                 REDIS_URL=redis.url) as server:
        key = issue_key(store.url)
        with Load(server, key) as load:
            time.sleep(1.5)
            redis.kill()
            killed = time.monotonic()
            time.sleep(1.0)
            during = _health(server)
            time.sleep(1.5)
            restarted = time.monotonic()
            redis.start()
            # each worker that saw the outage retries after its back-off (at most 8 s)
            recovered = _wait_for(lambda: 0 < server.log().count(BACK) == server.log().count(DOWN),
                                  12.0)
            time.sleep(0.5)
        log = server.log()
        assert load.failures == [], f"requests lost: {Counter(load.failures)}"
        assert load.sent == sum(load.statuses.values()), (load.sent, load.statuses)
        # the outage was under load: requests sent while Redis was down were answered (how many
        # depends on how busy the machine is, so the test asks for one from most clients)
        in_outage = [t for t in load.answered_at if killed < t < restarted]
        assert len(in_outage) >= CLIENTS - 1, (len(in_outage), load.sent)
        assert set(load.statuses) == {200}, load.statuses
        assert recovered, f"not back on Redis:\n{log[-3000:]}"
        assert 1 <= log.count(DOWN) <= WORKERS, log[-3000:]  # once per worker and outage
        assert key not in log and "Traceback" not in log
        parts = during["Parts"]
        assert isinstance(parts, dict) and parts["Redis"]["State"] == "down", during
        assert during["Status"] == "degraded" and parts["Store"]["State"] == "ok"
        after = _health(server)
        assert after["Parts"]["Redis"]["State"] == "ok", after  # type: ignore[index]

        # limits are shared again: 30 a minute across both workers, not 30 each, once every
        # worker has found Redis back (a worker's /health asks Redis and closes its breaker)
        pids = worker_pids(server)
        back: set[int | None] = set()
        deadline = time.monotonic() + 15.0
        while set(pids) - back and time.monotonic() < deadline:
            status, _h, body, pid = fresh_get(server, "/health", pids)
            if status == 200 and json.loads(body)["Parts"]["Redis"]["State"] == "ok":
                back.add(pid)
        assert set(pids) <= back, f"workers not back on Redis: {set(pids) - back}"
        limited = issue_key(store.url, rate=30)
        with ThreadPoolExecutor(max_workers=8) as pool:
            answers = list(pool.map(
                lambda n: fresh_get(server, f"/v1/teams/MLB/?key={limited}&page={n % 3 + 1}",
                                    pids), range(40)))
        statuses = Counter(status for status, _h, _b, _pid in answers)
        assert len({pid for *_rest, pid in answers}) == WORKERS, "not every worker answered"
        assert statuses == {200: 30, 429: 10}, (statuses, server.log()[-4000:])


def test_a_hanging_redis_costs_no_timeout_per_request(store: Store, tmp_path: Path) -> None:
    """A Redis that accepts connections and never answers: without the breaker every request
    would wait ``SOCKET_TIMEOUT`` (0.25 s) for the rate counter; with it, only the first and one
    probe per back-off do, and the rest answer at their usual speed from the worker's own."""
    hang = socket.socket()
    hang.bind(("127.0.0.1", free_port()))
    hang.listen(1024)  # connections complete in the kernel's backlog; nothing ever reads them
    port = hang.getsockname()[1]
    try:
        with serving(store.url, tmp_path / "server.log",
                     REDIS_URL=f"redis://127.0.0.1:{port}/0") as server:
            key = issue_key(store.url)
            url = f"{server.base_url}/v1/teams/MLB/?key={key}"
            seconds: list[float] = []
            started = time.monotonic()
            with httpx.Client(timeout=10) as client:
                while time.monotonic() - started < 4.0:
                    t0 = time.perf_counter()
                    response = client.get(url)
                    seconds.append(time.perf_counter() - t0)
                    assert response.status_code == 200, response.text[:300]
            # /health too (the dashboard calls it on every page): the breaker answers it, and
            # only a probe past the back-off waits for Redis
            health: list[float] = []
            asked_from = time.monotonic()
            with httpx.Client(base_url=server.base_url, timeout=10) as client:
                for _ in range(20):
                    t0 = time.perf_counter()
                    doc = client.get("/health").json()
                    health.append(time.perf_counter() - t0)
                    redis_part = doc["Parts"]["Redis"]  # its state, never its address
                    assert redis_part["State"] == "down", doc
                    assert set(redis_part) == {"State", "DownSince", "Failure"}, doc
            slow = [s for s in seconds if s >= SOCKET_TIMEOUT * 0.8]
            # the first failure, then probes 1, 3 and 7 s later (back-off 1 s, doubling)
            assert len(slow) <= 4, (len(slow), len(seconds))
            assert len(seconds) > 100 and statistics.median(seconds) < 0.05, (
                len(seconds), statistics.median(seconds))
            # /health asks the hanging Redis once a second at most (REDIS_RECHECK)
            allowed = 1 + int(time.monotonic() - asked_from)
            assert len([s for s in health if s >= SOCKET_TIMEOUT * 0.8]) <= allowed, health
            assert server.log().count(DOWN) == 1
    finally:
        hang.close()
