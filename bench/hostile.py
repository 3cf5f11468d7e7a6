"""What one client costs another, and how a frozen PostgreSQL is answered.

Neighbour (default): ``python -m server serve --workers 2`` on a large store (``--store URL``, e.g.
the real-data store; by default the full demo store, ``demo --size full``, built once under
BENCH_WORK). A neighbour's cheap, cached page (wrk, 4 connections), and its cheap pages never kept
(a distinct date's games every request, so each reads the store), are measured alone, then beside
a default-rate key (600 a minute) keeping 2, then 10, expensive distinct requests in flight
(deep ``pitch`` pages, ``playbyplay`` over 1900-2030, unindexed searches), each round
interleaved, ``--rounds`` times; the medians of p50 and p99 are printed with their ratio to the
page alone, and what the expensive key was answered. ``--against REV`` serves the same store from
an earlier commit's code too (``git archive``), in the same rounds. Two keys are issued into the
store (copy a store you must not write to).

``--postgres``: the small fixture data in a scratch PostgreSQL database (BENCH_POSTGRES_ADMIN_URL,
default 127.0.0.1:5432), served through a TCP proxy that stops forwarding while its sockets stay
open (``tests.production._harness.FreezableProxy``), default settings. With the proxy frozen,
32 distinct queries, /health, /openapi.json, /docs, a request without a key, a 404 and a kept
page are sent at once: each kind's status and seconds are printed; then the time to the first
200 after the thaw, and what a process started while the store is frozen answers.

Usage: .venv/bin/python bench/hostile.py [--store URL] [--duration 8] [--rounds 3] [--against REV]
       .venv/bin/python bench/hostile.py --postgres
"""
from __future__ import annotations

import argparse
import datetime as dt
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench._harness import earlier_code, WORK, cli, free_port, random_paths_script, serve, wrk

EXPENSIVE = (
    "/v1/pitch/MLB/?start=1900-01-01&end=2030-12-31&max=1000&page={n}",
    "/v1/playbyplay/MLB/?start=1900-01-01&end=2030-12-31&max=1000&page={n}",
    "/v1/playbyplay/MLB/?season={season}&search=grounded{n}&max=1000",
    "/v1/players/MLB/?search=zq{n}x&max=1000",
)


def full_demo() -> str:
    path = WORK / "hostile-full.db"
    url = f"sqlite:///{path}"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        print(f"building the full demo store at {path} (about 2 min) ...", file=sys.stderr)
        cli(url, "demo", "--size", "full")
    return url


class Served:
    """``python -m server serve --workers 2`` from ``cwd``'s code, in its own process group."""

    def __init__(self, url: str, cwd: Path, log: Path, **env: str) -> None:
        port = free_port()
        self.base = f"http://127.0.0.1:{port}"
        self.proc = serve(url, port, 2, log, "--no-access-log", cwd=cwd, **env)

    def stop(self) -> None:
        self.proc.stop()


def heavy_load(base: str, key: str, lanes: int, stop: threading.Event, season: int
               ) -> Counter[int]:
    """``lanes`` loops of expensive distinct requests until ``stop``; their status codes."""
    return lanes_until(base, key, lanes, stop, lambda n: EXPENSIVE[n % len(EXPENSIVE)].format(
        n=1000 + n, season=season))


def lanes_until(base: str, key: str, lanes: int, stop: threading.Event,
                path_for: Callable[[int], str]) -> Counter[int]:
    """``lanes`` loops asking ``path_for(n)`` (n distinct each request) until ``stop``; their
    status codes (0: no answer)."""
    statuses: Counter[int] = Counter()
    lock = threading.Lock()

    def lane(first: int) -> None:
        n = first
        with httpx.Client(base_url=base, timeout=120) as client:
            while not stop.is_set():
                n += lanes
                try:
                    status = client.get(f"{path_for(n)}&key={key}").status_code
                except httpx.TransportError:
                    status = 0
                with lock:
                    statuses[status] += 1

    threads = [threading.Thread(target=lane, args=(i,), daemon=True) for i in range(lanes)]
    for thread in threads:
        thread.start()
    stop.wait()
    for thread in threads:
        thread.join(130)
    return statuses


def neighbour_run(opts: argparse.Namespace) -> int:
    url = opts.store or full_demo()
    work = Path(tempfile.mkdtemp(prefix="bench-hostile-"))
    heavy_key = cli(url, "keys", "issue", "--rate", "600", "--label", "bench-heavy").strip()
    cheap_key = cli(url, "keys", "issue", "--rate", "100000000", "--label",
                    "bench-neighbour").strip()
    codes = {"this": ROOT}
    if opts.against:
        codes["that"] = earlier_code(opts.against, work)
    servers: dict[str, Served] = {}
    figures: dict[tuple[str, int], list[dict[str, float]]] = {}
    answered: dict[tuple[str, int], Counter[int]] = {}
    try:
        for code, folder in codes.items():
            servers[code] = Served(url, folder, work / f"{code}.log")
        season = httpx.get(f"{servers['this'].base}/v1/games/MLB/?key={cheap_key}&max=1",
                           timeout=60).json()["games"][0]["GameDay"][:4]
        for _ in range(opts.rounds):
            for code, served in servers.items():
                base = served.base
                cheap = f"{base}/v1/games/MLB/?key={cheap_key}&season={season}&max=20"
                assert httpx.get(cheap, timeout=60).status_code == 200
                distinct = random_paths_script(
                    [f"/v1/games/MLB/?key={cheap_key}&date={day}&max={size}"
                     for day in _days(int(season)) for size in range(10, 40)],
                    work / f"distinct-{code}.lua")
                for lanes in (0, 2, 10):
                    stop = threading.Event()
                    with ThreadPoolExecutor(1) as pool:
                        load = pool.submit(heavy_load, base, heavy_key, lanes, stop, season)
                        time.sleep(1 if lanes else 0)
                        figures.setdefault((code, lanes), []).append(
                            wrk(cheap, opts.duration, connections=4, threads=1))
                        figures.setdefault((code, -lanes - 1), []).append(
                            wrk(f"{base}/", opts.duration, connections=4, threads=1,
                                script=distinct))
                        stop.set()
                        answered.setdefault((code, lanes), Counter()).update(load.result())
    finally:
        for served in servers.values():
            served.stop()
    print(f"store {url.rsplit('/', 1)[-1]}; the neighbour's cached page, wrk 4 connections, "
          f"{opts.duration} s; median of {opts.rounds} interleaved rounds")
    for code, (page, offset) in ((c, p) for p in (("kept", 0), ("uncached", -1)) for c in codes):
        print(f"{page} page: " + ("one URL, kept" if page == "kept" else
                                  "a distinct date's games each request, never kept"))
        alone = _median(figures[(code, offset)])
        for lanes in (0, 2, 10):
            r = _median(figures[(code, -lanes - 1 if offset else lanes)])
            beside = "alone" if not lanes else f"beside {lanes} expensive in flight"
            heavy = "" if not lanes else "  the expensive key: " + ", ".join(
                f"{status or 'timeout'} x{count}"
                for status, count in sorted(answered[(code, lanes)].items()))
            print(f"{code:4s} {beside:32s} p50 {r['p50']:8.2f} ms ({r['p50'] / alone['p50']:6.2f}x)"
                  f"  p99 {r['p99']:8.2f} ms ({r['p99'] / alone['p99']:6.2f}x)"
                  f"  {r['rps']:7.0f} req/s ({int(r['requests'])} answered)"
                  f"  errors {int(r['socket_errors'] + r['non2xx'])}"
                  f"{heavy}")
    return 0


def _days(season: int) -> list[str]:
    """Every day of ``season``'s regular season months, as text."""
    first = dt.date(season, 4, 1)
    return [str(first + dt.timedelta(days=n)) for n in range(183)]


def _median(runs: list[dict[str, float]]) -> dict[str, float]:
    return {k: statistics.median(run[k] for run in runs) for k in runs[0]}


def postgres_run(opts: argparse.Namespace) -> int:
    from bench.api import scratch_database
    from server.keys import issue
    from server.store.engine import make_engine
    from tests.fixtures import minidata
    from tests.production._harness import FreezableProxy

    work = Path(tempfile.mkdtemp(prefix="bench-hostile-pg-"))
    with scratch_database("frozen") as url:
        engine = make_engine(url)
        minidata.build(engine)
        key = issue(engine, None, 100_000_000, "bench")
        engine.dispose()
        proxy = FreezableProxy("127.0.0.1", sa_port(url))
        proxied = url.replace(f":{sa_port(url)}/", f":{proxy.port}/")
        try:
            served = Served(proxied, ROOT, work / "server.log", SPORTS_KEY_IN_FLIGHT="64")
            base = served.base
            try:
                kept = f"{base}/v1/games/MLB/?key={key}&max=5"
                for _ in range(2):
                    assert httpx.get(kept, timeout=30).status_code == 200
                proxy.freeze()
                calls = {f"query {n}": f"{base}/v1/games/MLB/?key={key}&max={n + 10}"
                         for n in range(32)}
                calls.update({"/health": f"{base}/health", "/openapi.json": f"{base}/openapi.json",
                              "/docs": f"{base}/docs", "no key": f"{base}/v1/games/MLB/",
                              "404": f"{base}/v1/nothing/MLB/", "cached page": kept})
                answers = _at_once(calls)
                proxy.thaw()
                thawed = time.monotonic()
                while httpx.get(f"{base}/v1/games/MLB/?key={key}&max=3", timeout=60
                                ).status_code != 200:
                    time.sleep(0.05)
                recovered = time.monotonic() - thawed
            finally:
                proxy.thaw()
                served.stop()
            print("PostgreSQL frozen behind a proxy (sockets open, nothing forwarded), "
                  "default settings, everything sent at once:")
            queries = [answers[f"query {n}"] for n in range(32)]
            times = sorted(t for t, _, _ in queries)
            print(f"  32 distinct queries: {dict(Counter(f'{s} {c}' for _, s, c in queries))}, "
                  f"median {statistics.median(times):.2f} s, slowest {times[-1]:.2f} s")
            for name in ("/health", "/openapi.json", "/docs", "no key", "404", "cached page"):
                seconds, status, code = answers[name]
                print(f"  {name:14s} {status} {code:18s} {seconds:6.2f} s")
            print(f"  thawed: first 200 after {recovered:.2f} s")
            proxy.freeze()
            served = Served(proxied, ROOT, work / "fresh.log", SPORTS_KEY_IN_FLIGHT="64")
            base = served.base
            try:
                print("  a process started while frozen:")
                for name, path in (("/openapi.json", "/openapi.json"), ("404", "/v1/nothing/MLB/"),
                                   ("no key", "/v1/games/MLB/"), ("/health", "/health"),
                                   ("a query", f"/v1/games/MLB/?key={key}")):
                    seconds, status, code = _timed(base + path)
                    print(f"    {name:14s} {status} {code:18s} {seconds:6.2f} s")
            finally:
                proxy.thaw()
                served.stop()
        finally:
            proxy.close()
    return 0


def sa_port(url: str) -> int:
    import sqlalchemy as sa

    return sa.make_url(url).port or 5432


def _timed(url: str) -> tuple[float, int, str]:
    start = time.monotonic()
    response = httpx.get(url, timeout=120)
    code = ""
    if response.status_code >= 400:
        code = response.json().get("error", {}).get("Code", "")
    return time.monotonic() - start, response.status_code, code


def _at_once(calls: dict[str, str]) -> dict[str, tuple[float, int, str]]:
    with ThreadPoolExecutor(len(calls)) as pool:
        futures = {name: pool.submit(_timed, url) for name, url in calls.items()}
        return {name: future.result() for name, future in futures.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", help="the store to serve (default: the full demo store)")
    parser.add_argument("--duration", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--against", metavar="REV", help="also serve the store from REV's code")
    parser.add_argument("--postgres", action="store_true",
                        help="the frozen-PostgreSQL figures instead")
    opts = parser.parse_args()
    if opts.postgres:
        return postgres_run(opts)
    return neighbour_run(opts)


if __name__ == "__main__":
    raise SystemExit(main())
