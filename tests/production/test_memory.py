"""A worker's memory stays within ``SPORTS_CACHE_MB`` however many distinct requests arrive.

The budget counts SQLite's page caches with the cached answers (``server.store.engine``): a real
server on the real-data store is asked for 800 distinct pages (each game's pitches and plays,
four at a time, so several pooled connections each read pages of their own), and its resident
memory, read from /proc, grows by no more than the budget and a fixed allowance for the
allocator. The page caches of the code before (64 MiB a connection, outside the budget) grew it
by 54 MiB over a budget of 16.
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

from tests.demo_api import ApiServer
from tests.production._harness import serving

BUDGET_MB = 16
ALLOWANCE_MB = 16  # the allocator's own growth and fragmentation beyond what is kept
GAMES = 400


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no VmRSS for process {pid}")


def test_memory_stays_within_the_budget_over_distinct_requests(real_store: ApiServer,
                                                               tmp_path: Path) -> None:
    key = real_store.key
    with (serving(real_store.database_url, tmp_path / "server.log",
                  SPORTS_CACHE_MB=str(BUDGET_MB), SPORTS_KEY_IN_FLIGHT="0") as s,
          httpx.Client(base_url=s.base_url, timeout=30) as client):
        found = client.get(f"/v1/games/MLB/?key={key}&season=2022&max=1000")
        assert found.status_code == 200, found.text
        games = [g["ID"] for g in found.json()["games"]][:GAMES]
        assert len(games) == GAMES
        before = _rss_mb(s.process.pid)  # one worker: the process serves
        urls = [f"/v1/{endpoint}/MLB/?key={key}&game={game}&max=1000"
                for game in games for endpoint in ("pitch", "playbyplay")]
        with ThreadPoolExecutor(4) as pool:
            statuses = list(pool.map(lambda url: client.get(url).status_code, urls))
        after = _rss_mb(s.process.pid)
    assert statuses == [200] * len(urls)
    assert after - before <= BUDGET_MB + ALLOWANCE_MB, (
        f"resident memory grew {after - before:.0f} MiB ({before:.0f} -> {after:.0f}) over a "
        f"budget of {BUDGET_MB} MiB")
