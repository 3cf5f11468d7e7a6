"""Several workers, one store (docs/operations.md): with REDIS_URL, a key's rate and its revocation
hold across every worker process.

Which worker answered is read from /proc: the server-side socket of our connection (found by our
local port in /proc/net/tcp) belongs to exactly one worker's file descriptors.
"""
from __future__ import annotations

import http.client
import os
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.production._harness import Server, cli, issue_key, serving
from tests.production.conftest import Store

REDIS_DB = 13
REDIS_URL = f"redis://127.0.0.1:6379/{REDIS_DB}"
WORKERS = 2

pytestmark = pytest.mark.redis


@pytest.fixture(scope="module")
def redis_url() -> str:
    redis = pytest.importorskip("redis")
    try:
        client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1)
        client.flushdb()  # our own numbered database: counters from an earlier run would count
        client.close()
    except redis.exceptions.ConnectionError:
        pytest.skip("Redis not reachable at 127.0.0.1:6379; shared rate limit tests skipped")
    return REDIS_URL


@pytest.fixture(scope="module")
def workers(store: Store, redis_url: str, tmp_path_factory: pytest.TempPathFactory
            ) -> Iterator[Server]:
    log = tmp_path_factory.mktemp("workers") / "server.log"
    with serving(store.url, log, workers=WORKERS, REDIS_URL=redis_url) as server:
        yield server


def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry))
    return out


def worker_pids(server: Server) -> list[int]:
    """uvicorn's worker processes: the serve process's children holding the listening socket
    (not, e.g., multiprocessing's resource tracker)."""
    port = int(server.base_url.rsplit(":", 1)[1])
    listening = _socket_inode(port, 0)
    assert listening is not None
    return sorted(p for p in _children(server.process.pid) if _owner(listening, [p]) == p)


def _socket_inode(server_port: int, client_port: int) -> str | None:
    """The inode of our connection's server end (client_port 0: the listening socket)."""
    want_local = f"0100007F:{server_port:04X}"
    want_remote = f"0100007F:{client_port:04X}" if client_port else "00000000:0000"
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        cols = line.split()
        if cols[1] == want_local and cols[2] == want_remote:
            return cols[9]
    return None


def _owner(inode: str, pids: list[int]) -> int | None:
    target = f"socket:[{inode}]"
    for pid in pids:
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}") == target:
                    return pid
            except OSError:
                continue
    return None


def fresh_get(server: Server, target: str, pids: list[int]) -> tuple[int, dict[str, str], bytes,
                                                                      int | None]:
    """One request on a new connection; status, headers, body and the worker that answered."""
    port = int(server.base_url.rsplit(":", 1)[1])
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", target)
        response = conn.getresponse()
        body = response.read()
        # The connection is still open (keep-alive): its server end is in one worker's fds.
        inode = _socket_inode(port, conn.sock.getsockname()[1])
        pid = _owner(inode, pids) if inode else None
        return response.status, {k.lower(): v for k, v in response.getheaders()}, body, pid
    finally:
        conn.close()


def test_rate_is_enforced_across_workers(store: Store, workers: Server) -> None:
    pids = worker_pids(workers)
    assert len(pids) == WORKERS, pids
    key = issue_key(store.url, rate=30)
    statuses: Counter[int] = Counter()
    answered_by: Counter[int | None] = Counter()
    # Eight clients at once, as real traffic arrives: while one worker is busy the other
    # accepts (one at a time, an idle worker may win every accept).
    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(
            lambda n: fresh_get(workers, f"/v1/teams/MLB/?key={key}&page={n % 3 + 1}", pids),
            range(40)))
    for status, headers, body, pid in answers:
        statuses[status] += 1
        answered_by[pid] += 1
        if status == 429:
            assert b'"Code":"rate_limited"' in body
            assert int(headers["retry-after"]) >= 1
        else:
            assert status == 200, body[:300]
    assert set(answered_by) == set(pids), f"not every worker answered: {answered_by}"
    # One fixed one-minute window shared through Redis: 30 pass, whichever worker answers.
    # (A window boundary inside the test could let up to 30 more through; it starts with the
    # key's first request here, so it does not.)
    assert statuses[200] == 30 and statuses[429] == 10, (statuses, answered_by)


def test_revoked_key_fails_at_once_on_every_worker(store: Store, workers: Server) -> None:
    pids = worker_pids(workers)
    key = issue_key(store.url)
    seen: set[int | None] = set()
    for _ in range(60):  # until both workers have answered the live key
        status, _h, body, pid = fresh_get(workers, f"/v1/teams/MLB/?key={key}", pids)
        assert status == 200, body[:300]
        seen.add(pid)
        if seen >= set(pids):
            break
    assert seen >= set(pids), f"not every worker answered: {seen}"
    cli(store.url, "keys", "revoke", key)
    seen = set()
    for _ in range(60):
        status, _h, body, pid = fresh_get(workers, f"/v1/teams/MLB/?key={key}", pids)
        assert status == 401 and b'"Code":"key_invalid"' in body, (pid, status, body[:300])
        seen.add(pid)
        if seen >= set(pids):
            break
    assert seen >= set(pids), f"not every worker answered after the revocation: {seen}"


def test_without_redis_each_worker_counts_alone(store: Store, tmp_path: Path) -> None:
    """The control: the same 40 requests without REDIS_URL let more than 30 through once both
    workers answer, which is what sharing the counters in Redis prevents."""
    with serving(store.url, tmp_path / "server.log", workers=WORKERS) as server:
        pids = worker_pids(server)
        key = issue_key(store.url, rate=30)
        statuses: Counter[int] = Counter()
        answered_by: Counter[int | None] = Counter()
        for _ in range(40):
            status, _h, _b, pid = fresh_get(server, f"/v1/teams/MLB/?key={key}", pids)
            statuses[status] += 1
            answered_by[pid] += 1
    assert set(answered_by) == set(pids), answered_by
    assert statuses[200] == min(40, sum(min(30, n) for n in answered_by.values())), (statuses,
                                                                                       answered_by)
