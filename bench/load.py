"""Load: mixed real traffic with wrk on loopback, against a peer (Datasette) and a bare Starlette.

Against ``python -m server serve --workers 2`` over the small demo store (SQLite):

* mixed traffic: 32 connections for ``--seconds`` (default 300), a wrk Lua script choosing among
  a few thousand real URLs (lists and details of every endpoint, json/xml/php, several pages and
  dates: the result cache both hits and misses), reported in 10 s windows (req/s, p50, p99,
  errors) with the workers' RSS (VmRSS from /proc) after a 10 s warm-up and at the end;
* the games page (100 MLB games, newest first) against Datasette serving the SAME SQLite file
  (``/db/games.json?_size=100&level=MLB&_sort_desc=game_day``) and against a bare Starlette
  route returning a fixed body of the same size, all measured in this run.

Each comparison is like with like: our server as shipped (a masked access log line per request)
for the mixed traffic and against Datasette, which logs every request too; ``--no-access-log``
against the bare route, which runs without one.

Targets: zero errors, memory growth <= 10 %, p99 < 50 ms, >= 20x Datasette.

``--scale-out`` runs the deployment the README describes for several machines instead: the same
demo copied into a scratch PostgreSQL database (created and dropped here), a Redis of the run's
own (``redis-server`` on a spare port), two ``serve`` instances with 2 workers each (every one
with its scheduler on, as an operator starts them), and the same mixed traffic split between the
two instances (two wrk, half the connections each, at the same time). Reported per window: both
instances' req/s summed, the worse p99, errors, the workers' summed RSS; their memory after the
warm-up (run until each URL was asked about 30 times, as in the single-instance run, so the kept
answers have filled) and at the end. Targets: zero errors, memory growth under 10 %; p99 is reported.
Usage: .venv/bin/python bench/load.py [--seconds 300] [--connections 32] [--fresh] [--analyze]
       .venv/bin/python bench/load.py --scale-out [--seconds 120] [--connections 32]
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._harness import (PY, WORK, Proc, cli, demo_store, env_for, free_port,
                            random_paths_script, rss_kb, serve, worker_pids, wrk)

WINDOW = 10  # seconds per reported window
WORKERS = 2
LEVELS = ("MLB", "NBA", "NHL", "FC", "MBB", "WNBA", "MiLB", "KHL")
FORMATS = ("json", "json", "xml", "php")
BODY_ENV = "BENCH_BARE_BODY"
TARGET_P99_MS, TARGET_GROWTH, TARGET_PEER = 50.0, 0.10, 20.0


def bare_app() -> object:
    """uvicorn factory: one route returning a fixed body (the games page's size)."""
    from starlette.applications import Starlette
    from starlette.responses import Response
    from starlette.routing import Route

    body = Path(os.environ[BODY_ENV]).read_bytes()

    async def fixed(request: object) -> Response:
        return Response(body, media_type="application/json")

    return Starlette(routes=[Route("/bare", fixed)])


def _ids(client: httpx.Client, key: str, path: str, field: str = "ID") -> list[int]:
    r = client.get(path, params={"key": key, "max": 100})
    if r.status_code != 200:
        return []
    doc = r.json()
    name = doc["meta"]["Endpoint"]
    return [rec[field] for rec in doc.get(name, []) if isinstance(rec.get(field), int)]


def mixed_paths(base: str, key: str, rnd: random.Random) -> list[str]:
    """Real URLs over every endpoint: lists, details, formats, pages, dates; only 200s kept."""
    candidates: list[str] = []
    with httpx.Client(base_url=base, timeout=30) as client:
        for level in LEVELS:
            games = _ids(client, key, f"/v1/games/{level}/")
            teams = _ids(client, key, f"/v1/teams/{level}/")
            players = _ids(client, key, f"/v1/players/{level}/")
            days = sorted({g["GameDay"] for g in client.get(
                f"/v1/games/{level}/", params={"key": key, "max": 1000}).json().get("games", [])})
            stat = next((s["Code"] for s in client.get(
                f"/v1/glossary/{level}/stats/", params={"key": key}).json().get("glossary", [])
                if s.get("Type") == "player"), None)
            lists = ["seasons", "teams", "players", "games", "playerperfs", "teamperfs",
                     "officials", "venues", "elo", "rpi", "news", "transactions", "social"]
            for fmt in FORMATS:
                for ep in lists:
                    for page in (1, 2, 3):
                        candidates.append(f"/v1/{ep}/{level}/?key={key}&format={fmt}&page={page}"
                                          f"&max={rnd.choice((10, 25, 100))}")
                for ep in ("forecasts", "moneyline"):
                    candidates.append(f"/v2/{ep}/{level}/?key={key}&format={fmt}")
                candidates.append(f"/v1/glossary/{level}/?key={key}&format={fmt}")
                if stat:
                    candidates.append(f"/v1/stats/{level}/?key={key}&stat={stat}&format={fmt}")
            for gid in games[:40]:
                candidates.append(f"/v1/games/{level}/?key={key}&id={gid}"
                                  f"&format={rnd.choice(FORMATS)}")
                candidates.append(f"/v1/playbyplay/{level}/?key={key}&game={gid}&max=50")
                if level in ("MLB", "MiLB"):
                    candidates.append(f"/v1/pitch/{level}/?key={key}&game={gid}&max=50")
            for tid in teams[:30]:
                candidates.append(f"/v1/teams/{level}/?key={key}&id={tid}")
                candidates.append(f"/v1/games/{level}/?key={key}&team={tid}"
                                  f"&format={rnd.choice(FORMATS)}")
            for pid in players[:40]:
                candidates.append(f"/v1/players/{level}/?key={key}&id={pid}")
                candidates.append(f"/v1/playerperfs/{level}/?key={key}&player={pid}")
            for day in rnd.sample(days, min(60, len(days))):
                candidates.append(f"/v1/games/{level}/?key={key}&date={day}"
                                  f"&format={rnd.choice(FORMATS)}")
                candidates.append(f"/v1/teamperfs/{level}/?key={key}&date={day}")
        kept = [p for p in dict.fromkeys(candidates) if client.get(p).status_code == 200]
    dropped = len(set(candidates)) - len(kept)
    print(f"mixed traffic: {len(kept)} distinct URLs ({dropped} candidates dropped: not 200)",
          file=sys.stderr)
    return kept


WARM_WINDOWS, WARM_VISITS = 60, 30  # warm-up: each URL asked ~30 times, at most 60 windows
PG_ADMIN = os.environ.get("BENCH_POSTGRES_ADMIN_URL",
                          "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")


def _redis(port: int, log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        proc = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1",
                                 "--save", "", "--appendonly", "no"], stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("redis-server did not start")


def _both(bases: list[str], seconds: int, connections: int, script: Path) -> list[dict[str, float]]:
    """wrk against every instance at once, the connections split between them."""
    each = max(2, connections // len(bases))
    with ThreadPoolExecutor(len(bases)) as pool:
        return list(pool.map(lambda b: wrk(b + "/health", seconds, each, script), bases))


def memory_growth(pids: list[int], rss_start: dict[int, int], target: str) -> float:
    """Print each worker's RSS from ``rss_start`` to now and the summed growth; return it."""
    rss_end = {p: rss_kb(p) for p in pids}
    growth = (sum(rss_end.values()) - sum(rss_start.values())) / max(1, sum(rss_start.values()))
    for p in pids:
        print(f"  worker {p}: RSS {rss_start[p] / 1024:.1f} MB -> {rss_end[p] / 1024:.1f} MB")
    print(f"  memory growth {growth * 100:+.1f} % (target {target} {TARGET_GROWTH * 100:.0f} %)")
    return growth


def scale_out(args: argparse.Namespace) -> list[str]:
    """Two instances x 2 workers on PostgreSQL with Redis; returns the targets missed."""
    for tool in ("redis-server",):
        if shutil.which(tool) is None:
            raise SystemExit(f"{tool} is not installed")
    sqlite_url = demo_store(WORK / "demo-small.db", args.fresh)
    admin = sa.create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
    name = f"bench_scale_{uuid.uuid4().hex[:8]}"
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    pg_url = PG_ADMIN.rsplit("/", 1)[0] + "/" + name
    redis_port = free_port()
    redis = _redis(redis_port, WORK / "scale-redis.log")
    servers: list[Proc] = []
    failures: list[str] = []
    try:
        print(f"copying the demo into PostgreSQL {name} ...", file=sys.stderr, flush=True)
        t0 = time.perf_counter()
        cli(sqlite_url, "copy-store", pg_url)
        print(f"  copied in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
        key = cli(pg_url, "keys", "issue", "--rate", "100000000", "--label", "bench").strip()
        bases = []
        for n in range(2):
            port = free_port()
            servers.append(Proc([PY, "-m", "server", "serve", "--host", "127.0.0.1", "--port",
                                 str(port), "--workers", str(WORKERS)],
                                env_for(pg_url, REDIS_URL=f"redis://127.0.0.1:{redis_port}/0"),
                                f"http://127.0.0.1:{port}/health", WORK / f"scale-serve{n}.log"))
            bases.append(f"http://127.0.0.1:{port}")
        paths = mixed_paths(bases[0], key, random.Random(1))
        script = random_paths_script(paths, WORK / "mixed-scale.lua")
        pids = [p for s in servers for p in worker_pids(s)]
        # Warm-up (not counted) until every worker's cached answers have filled: by traffic, not
        # time (the single-instance run's 10 s warm-up asks each URL about 30 times), since four
        # slower workers each meet every URL later than two fast ones.
        warm = 0.0
        for _ in range(WARM_WINDOWS):
            warm += sum(r["requests"] for r in _both(bases, WINDOW, args.connections, script))
            print(f"  warm-up: {warm:.0f} requests, workers' RSS "
                  f"{sum(rss_kb(p) for p in pids) / 1024:.0f} MB", file=sys.stderr, flush=True)
            if warm >= WARM_VISITS * len(paths):
                break
        rss_start = {p: rss_kb(p) for p in pids}
        print(f"\nscale-out: 2 instances x {WORKERS} workers, PostgreSQL + Redis, "
              f"{args.connections} connections, {args.seconds} s, workers {pids}")
        print(f"{'window':>8} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7} "
              f"{'RSS MB':>7}")
        elapsed, total_req, total_err, worst_p99 = 0, 0.0, 0, 0.0
        p99s = []
        while elapsed < args.seconds:
            span = min(WINDOW, args.seconds - elapsed)
            runs = _both(bases, span, args.connections, script)
            elapsed += span
            rps = sum(r["rps"] for r in runs)
            p50, p99 = max(r["p50"] for r in runs), max(r["p99"] for r in runs)
            errors = int(sum(r["non2xx"] + r["socket_errors"] for r in runs))
            total_req += sum(r["requests"] for r in runs)
            total_err += errors
            worst_p99 = max(worst_p99, p99)
            p99s.append(p99)
            rss_now = sum(rss_kb(p) for p in pids) / 1024  # the trend: filling or leaking
            print(f"{elapsed:>7}s {rps:>9.0f} {p50:>8.2f} {p99:>8.2f} {errors:>7} {rss_now:>7.0f}",
                  flush=True)
        p99s.sort()
        print(f"total {total_req:.0f} requests, {total_req / max(1, elapsed):.0f} req/s, "
              f"errors {total_err}, p99 median window {p99s[len(p99s) // 2]:.2f} ms, "
              f"worst window {worst_p99:.2f} ms")
        growth = memory_growth(pids, rss_start, "<")
        if total_err:
            failures.append(f"{total_err} errors under scale-out load")
        if growth >= TARGET_GROWTH:
            failures.append(f"memory grew {growth * 100:.1f} %")
    finally:
        for server in servers:
            server.stop()
        os.killpg(redis.pid, signal.SIGTERM)
        redis.wait(10)
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
    return failures


def _ratio(a: float, b: float) -> str:
    return f"{a / b:.1f}x" if b else "n/a"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=int, default=300)
    ap.add_argument("--connections", type=int, default=32)
    ap.add_argument("--compare-seconds", type=int, default=10)
    ap.add_argument("--fresh", action="store_true", help="rebuild the demo store")
    ap.add_argument("--analyze", action="store_true",
                    help="run on a copy with SQLite planner statistics (ANALYZE)")
    ap.add_argument("--scale-out", action="store_true",
                    help="two instances x 2 workers on PostgreSQL with Redis (only that run)")
    args = ap.parse_args()
    if shutil.which("wrk") is None:
        print("wrk is not installed (apt-get install wrk)", file=sys.stderr)
        return 2
    WORK.mkdir(parents=True, exist_ok=True)
    if args.scale_out:
        missed = scale_out(args)
        print("\nRESULT: " + ("all targets met" if not missed else "MISSED: " + "; ".join(missed)))
        return 0 if not missed else 1
    db = WORK / "demo-small.db"
    url = demo_store(db, args.fresh)
    if args.analyze:
        copy = WORK / "demo-small-analyzed.db"
        with sqlite3.connect(db) as src, sqlite3.connect(copy) as dst:
            src.backup(dst)
            dst.execute("ANALYZE")
        db, url = copy, f"sqlite:///{copy}"
    key = cli(url, "keys", "issue", "--rate", "100000000", "--label", "bench").strip()
    rnd = random.Random(1)
    failures: list[str] = []

    port = free_port()
    ours = serve(url, port, WORKERS, WORK / "load-server.log")
    base = f"http://127.0.0.1:{port}"
    try:
        paths = mixed_paths(base, key, rnd)
        script = random_paths_script(paths, WORK / "mixed.lua")
        pids = worker_pids(ours)
        # Warm-up (not counted): every worker's result cache, SQLite page caches and pool fill.
        wrk(base + "/health", WINDOW, args.connections, script)
        rss_start = {p: rss_kb(p) for p in pids}
        print(f"\nmixed traffic, {args.connections} connections, {args.seconds} s, workers {pids}")
        print(f"{'window':>8} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7}")
        windows = []
        elapsed = 0
        while elapsed < args.seconds:
            span = min(WINDOW, args.seconds - elapsed)
            w = wrk(base + "/health", span, args.connections, script)
            elapsed += span
            errors = int(w["non2xx"] + w["socket_errors"])
            windows.append((w, errors))
            print(f"{elapsed:>7}s {w['rps']:>9.0f} {w['p50']:>8.2f} {w['p99']:>8.2f} {errors:>7}",
                  flush=True)
        total_req = sum(w["requests"] for w, _ in windows)
        total_err = sum(e for _, e in windows)
        worst_p99 = max(w["p99"] for w, _ in windows)
        mean_rps = total_req / max(1, elapsed)
        print(f"total {total_req:.0f} requests, {mean_rps:.0f} req/s, errors {total_err}, "
              f"worst window p99 {worst_p99:.2f} ms")
        growth = memory_growth(pids, rss_start, "<=")
        if total_err:
            failures.append(f"{total_err} errors under mixed load")
        if worst_p99 >= TARGET_P99_MS:
            failures.append(f"p99 {worst_p99:.1f} ms >= {TARGET_P99_MS} ms")
        if growth > TARGET_GROWTH:
            failures.append(f"memory grew {growth * 100:.1f} %")

        # The games page: ours, Datasette on the same file, a bare Starlette of the same size.
        games_path = f"/v1/games/MLB/?key={key}&max=100"
        body = httpx.get(base + games_path).content
        ours_games = wrk(base + games_path, args.compare_seconds, args.connections)
    finally:
        ours.stop()

    nocache_port = free_port()
    nocache = serve(url, nocache_port, WORKERS, WORK / "load-nocache.log", SPORTS_CACHE_TTL="0")
    try:
        ours_nocache = wrk(f"http://127.0.0.1:{nocache_port}{games_path}", args.compare_seconds,
                           args.connections)
    finally:
        nocache.stop()

    quiet_port = free_port()
    quiet = serve(url, quiet_port, WORKERS, WORK / "load-quiet.log", "--no-access-log")
    try:
        ours_quiet = wrk(f"http://127.0.0.1:{quiet_port}{games_path}", args.compare_seconds,
                         args.connections)
    finally:
        quiet.stop()

    ds_port = free_port()
    datasette = Proc([str(Path(PY).parent / "datasette"), "serve", str(db), "-p", str(ds_port),
                      "--setting", "suggest_facets", "off", "--setting", "default_facet_size", "0"],
                     env_for(url), f"http://127.0.0.1:{ds_port}/", WORK / "datasette.log")
    try:
        ds_url = (f"http://127.0.0.1:{ds_port}/{db.stem}/games.json?_size=100&level=MLB"
                  "&_sort_desc=game_day")
        ds_doc = httpx.get(ds_url, timeout=30)
        assert ds_doc.status_code == 200 and len(ds_doc.json()["rows"]) == 100, ds_doc.text[:300]
        peer = wrk(ds_url, args.compare_seconds, args.connections)
    finally:
        datasette.stop()

    body_file = WORK / "bare-body.json"
    body_file.write_bytes(body)
    bare_port = free_port()
    bare = Proc([PY, "-m", "uvicorn", "bench.load:bare_app", "--factory", "--host", "127.0.0.1",
                 "--port", str(bare_port), "--workers", str(WORKERS), "--no-access-log",
                 "--http", "httptools", "--log-level", "warning"],
                {**os.environ, BODY_ENV: str(body_file)}, f"http://127.0.0.1:{bare_port}/bare",
                WORK / "bare.log")
    try:
        bare_run = wrk(f"http://127.0.0.1:{bare_port}/bare", args.compare_seconds, args.connections)
    finally:
        bare.stop()

    print(f"\nthe games page (100 MLB games, {len(body)} bytes), {args.connections} connections, "
          f"{args.compare_seconds} s each")
    print(f"{'':28} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7}")
    for name, r in (("ours (as shipped)", ours_games), ("ours (SPORTS_CACHE_TTL=0)", ours_nocache),
                    ("ours (--no-access-log)", ours_quiet),
                    ("Datasette 0.65, same file", peer), ("bare Starlette, same body", bare_run)):
        print(f"{name:28} {r['rps']:>9.0f} {r['p50']:>8.2f} {r['p99']:>8.2f} "
              f"{int(r['non2xx'] + r['socket_errors']):>7}")
    print(f"ours / Datasette: {_ratio(ours_games['rps'], peer['rps'])} "
          f"(uncached {_ratio(ours_nocache['rps'], peer['rps'])}; target >= {TARGET_PEER:.0f}x)")
    print(f"ours / bare Starlette, neither logging requests: "
          f"{_ratio(ours_quiet['rps'], bare_run['rps'])}")
    if peer["rps"] and ours_games["rps"] / peer["rps"] < TARGET_PEER:
        failures.append(f"only {ours_games['rps'] / peer['rps']:.1f}x Datasette")
    print("\nRESULT: " + ("all targets met" if not failures else "MISSED: " + "; ".join(failures)))
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
