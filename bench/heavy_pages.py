"""What a client asking the heaviest pages costs everyone else: CPU after the query, and memory.

``python -m server serve --workers 2`` on a large store (``--store URL``: the real-data store;
by default the full demo store, built once under BENCH_WORK). A default-rate key (600 a minute)
keeps ``--lanes`` connections (8) asking distinct pages of the heaviest records there are,
``/v2/boxscores/MLB/?season=S&max=1000&page=N&format=xml``, while a neighbour is measured: its
cached page (wrk, 4 connections) and its uncached game details (one client, a distinct game each
request). Each is measured alone first, then beside the hog, in interleaved rounds; the worker
processes' resident memory is read at rest and at its peak during the load. ``--against REV``
serves the same store from an earlier commit's code too (``git archive``), in the same rounds.
Two keys are issued into the store (copy a store you must not write to).

Targets (docs/benchmarks.md): beside 8 such connections the cached page's p99 <= 50 ms, an
uncached detail's p99 <= 250 ms, and the server's memory at most 2x its size at rest.

Usage: .venv/bin/python bench/heavy_pages.py [--store URL] [--duration 8] [--rounds 2]
       [--lanes 8] [--against REV]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench._harness import earlier_code, cli, rss_kb, worker_pids, wrk
from bench.hostile import Served, full_demo, lanes_until

HEAVY = "/v2/boxscores/MLB/?season={season}&max=1000&page={n}&format=xml"


def hog(base: str, key: str, lanes: int, season: str, stop: threading.Event) -> Counter[int]:
    """``lanes`` loops of distinct heavy pages until ``stop``; their status codes."""
    return lanes_until(base, key, lanes, stop,
                       lambda n: HEAVY.format(season=season, n=1 + n % 40) + f"&x={n}")


def details(base: str, key: str, ids: list[int], seconds: float) -> list[float]:
    """Milliseconds of uncached game details, a distinct game each, for ``seconds``."""
    took: list[float] = []
    ends = time.monotonic() + seconds
    with httpx.Client(base_url=base, timeout=30) as client:
        for n, game in enumerate(ids * 50):
            if time.monotonic() > ends:
                break
            started = time.perf_counter()
            client.get(f"/v1/games/MLB/?id={game}&key={key}&x={n}")  # x: never a cached body
            took.append((time.perf_counter() - started) * 1000)
    return took


def peak_rss(served: Served, stop: threading.Event) -> list[int]:
    """The workers' summed resident memory (KiB), sampled every 0.2 s until ``stop``."""
    samples: list[int] = []
    pids = worker_pids(served.proc)
    while not stop.wait(0.2):
        samples.append(sum(rss_kb(pid) for pid in pids))
    return samples


def measure(served: Served, cheap: str, keys: tuple[str, str], ids: list[int], season: str,
            lanes: int, seconds: int) -> dict[str, float]:
    """The neighbour's figures (and the memory) with ``lanes`` heavy connections beside it."""
    stop, sampled = threading.Event(), threading.Event()
    memory: list[int] = []
    answered: Counter[int] = Counter()
    sampler = threading.Thread(target=lambda: memory.extend(peak_rss(served, sampled)))
    sampler.start()
    load = threading.Thread(target=lambda: answered.update(
        hog(served.base, keys[0], lanes, season, stop)))
    if lanes:
        load.start()
        time.sleep(2)  # the hog's pages under way
    page = wrk(cheap, seconds, connections=4, threads=1)
    detail = details(served.base, keys[1], ids, seconds)
    stop.set()
    if lanes:
        load.join(150)
    sampled.set()
    sampler.join()
    return {"page_p99": page["p99"], "page_p50": page["p50"],
            "detail_p50": statistics.median(detail),
            "detail_p99": statistics.quantiles(detail, n=100)[98] if len(detail) > 2 else 0.0,
            "rss_mb": max(memory) / 1024 if memory else 0.0,
            "hog_200": float(answered.get(200, 0)),
            "hog_other": float(sum(c for s, c in answered.items() if s != 200))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", help="the store's DATABASE_URL (default: the full demo)")
    parser.add_argument("--duration", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--lanes", type=int, default=8)
    parser.add_argument("--against", help="an earlier commit to serve the same store from")
    opts = parser.parse_args()
    url = opts.store or full_demo()
    work = Path(tempfile.mkdtemp(prefix="bench-heavy-"))
    hog_key = cli(url, "keys", "issue", "--rate", "600", "--label", "bench-hog").strip()
    neighbour = cli(url, "keys", "issue", "--rate", "100000000", "--label",
                        "bench-neighbour").strip()
    codes = {"this": ROOT}
    if opts.against:
        codes["that"] = earlier_code(opts.against, work)
    servers = {code: Served(url, folder, work / f"{code}.log") for code, folder in codes.items()}
    figures: dict[tuple[str, int], list[dict[str, float]]] = {}
    rest: dict[str, int] = {}
    try:
        first = servers["this"].base
        games = httpx.get(f"{first}/v1/games/MLB/?key={neighbour}&status=final&max=1000",
                          timeout=120).json()["games"]
        season, ids = games[0]["GameDay"][:4], [int(g["ID"]) for g in games]
        for code, served in servers.items():
            rest[code] = sum(rss_kb(pid) for pid in worker_pids(served.proc))
        for _ in range(opts.rounds):
            for code, served in servers.items():
                cheap = f"{served.base}/v1/games/MLB/?key={neighbour}&season={season}&max=20"
                assert httpx.get(cheap, timeout=60).status_code == 200
                for lanes in (0, opts.lanes):
                    figures.setdefault((code, lanes), []).append(
                        measure(served, cheap, (hog_key, neighbour), ids, season, lanes,
                                opts.duration))
    finally:
        for served in servers.values():
            served.stop()
    print(f"store {url.rsplit('/', 1)[-1]}; 2 workers; the neighbour's cached page (wrk, 4 "
          f"connections) and uncached game details beside {opts.lanes} connections of distinct "
          f"XML box score pages; median of {opts.rounds} interleaved rounds of {opts.duration} s")
    for code in codes:
        for lanes in (0, opts.lanes):
            runs = figures[(code, lanes)]
            r = {k: statistics.median(run[k] for run in runs) for k in runs[0]}
            beside = "alone" if not lanes else f"beside {lanes} heavy"
            print(f"{code:4s} {beside:14s} cached page p50 {r['page_p50']:7.2f} ms p99 "
                  f"{r['page_p99']:7.2f} ms | detail p50 {r['detail_p50']:7.2f} ms p99 "
                  f"{r['detail_p99']:7.2f} ms | memory {r['rss_mb']:6.0f} MB "
                  f"({r['rss_mb'] * 1024 / rest[code]:4.2f}x at rest)"
                  + (f" | heavy pages 200 x{r['hog_200']:.0f}, other x{r['hog_other']:.0f}"
                     if lanes else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
