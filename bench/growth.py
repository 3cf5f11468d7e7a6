"""Growth: do indexed list queries stay flat when the store holds 10x the games?

Two SQLite stores: the small demo store, and a copy holding nine more copies of every game,
shifted by 10, 20, ... 90 years (new IDs, older seasons and dates), so every measured query
returns exactly the same records from a games table ten times larger. The same URLs (games by
default season, season+page, team+season, date, date range; json) are driven with wrk against
each store in turn, the result cache off (SPORTS_CACHE_TTL=0) so every request reaches the store,
alternating stores over ``--rounds`` rounds and keeping each store's best round.

Both stores get ANALYZE first (planner statistics; without them SQLite may pick a worse index).
Target: 10x latency / 1x latency <= 1.3 (p50 and mean req/s).
Usage: .venv/bin/python bench/growth.py [--seconds 10] [--rounds 2] [--fresh]
"""
from __future__ import annotations

import argparse
import random
import shutil
import sqlite3
import sys
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._harness import (WORK, cli, demo_store, free_port, random_paths_script,
                            serve, wrk)

COPIES = 9
YEARS = 10  # shift per copy
ID_STEP = 100_000_000
LEVELS = ("MLB", "NBA", "NHL", "FC", "MBB")
TARGET = 1.3


def grow(source: Path, target: Path, copies: int = COPIES) -> int:
    """Copy the store, add ``copies`` shifted copies of every game, ANALYZE; the games count."""
    for suffix in ("", "-wal", "-shm"):
        Path(str(target) + suffix).unlink(missing_ok=True)
    src = sqlite3.connect(source)
    dst = sqlite3.connect(target)
    src.backup(dst)
    src.close()
    cols = [row[1] for row in dst.execute("PRAGMA table_info(games)")]
    shifted = {
        "id": f"id + {{k}} * {ID_STEP}",
        "season": f"season - {{k}} * {YEARS}",
        "game_day": "date(game_day, '-{y} years')",
        "start_time": "CASE WHEN start_time IS NULL THEN NULL "
                      "ELSE strftime('%Y-%m-%d %H:%M:%f', start_time, '-{y} years') END",
    }
    with dst:
        for k in range(1, copies + 1):
            select = ", ".join(shifted.get(c, c).format(k=k, y=k * YEARS) for c in cols)
            dst.execute(f"INSERT INTO games ({', '.join(cols)}) SELECT {select} FROM games "
                        f"WHERE id < {ID_STEP}")
    dst.execute("ANALYZE")
    n = dst.execute("SELECT count(*) FROM games").fetchone()[0]
    dst.close()
    return int(n)


def list_paths(base: str, key: str, rnd: random.Random) -> list[str]:
    out: list[str] = []
    with httpx.Client(base_url=base, timeout=30) as client:
        for level in LEVELS:
            doc = client.get(f"/v1/games/{level}/", params={"key": key, "max": 1000}).json()
            games = doc.get("games", [])
            if not games:
                continue
            season = client.get(f"/v1/seasons/{level}/", params={"key": key}).json()["seasons"]
            seasons = [s["ID"] for s in season][:3]
            days = sorted({g["GameDay"] for g in games})
            teams = sorted({g["Home_ID"] for g in games})
            out.append(f"/v1/games/{level}/?key={key}&max=100")
            for s in seasons:
                for page in (1, 2, 3):
                    out.append(f"/v1/games/{level}/?key={key}&season={s}&max=50&page={page}")
            for t in rnd.sample(teams, min(8, len(teams))):
                out.append(f"/v1/games/{level}/?key={key}&team={t}&season={seasons[0]}")
            for d in rnd.sample(days, min(15, len(days))):
                out.append(f"/v1/games/{level}/?key={key}&date={d}")
            if len(days) > 10:
                out.append(f"/v1/games/{level}/?key={key}&start={days[0]}&end={days[9]}")
    return out


def measure(url: str, paths: list[str], seconds: int, connections: int, tag: str
            ) -> dict[str, float]:
    port = free_port()
    proc = serve(url, port, 1, WORK / f"growth-{tag}.log", SPORTS_CACHE_TTL="0")
    try:
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base, timeout=30) as client:
            bad = [p for p in paths if client.get(p).status_code != 200]
        if bad:
            raise SystemExit(f"{len(bad)} URLs fail on the {tag} store, e.g. {bad[0]}")
        script = random_paths_script(paths, WORK / "growth.lua")
        return wrk(base + "/health", seconds, connections, script)
    finally:
        proc.stop()


def same_answers(url_a: str, url_b: str, paths: list[str]) -> bool:
    """Every measured URL returns the same document from both stores."""
    docs = []
    for url, tag in ((url_a, "check-1x"), (url_b, "check-10x")):
        port = free_port()
        proc = serve(url, port, 1, WORK / f"growth-{tag}.log", SPORTS_CACHE_TTL="0")
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
                docs.append([client.get(p).json()["games"] for p in paths[::5]])
        finally:
            proc.stop()
    return docs[0] == docs[1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--connections", type=int, default=8)
    ap.add_argument("--fresh", action="store_true")
    args = ap.parse_args()
    if shutil.which("wrk") is None:
        print("wrk is not installed (apt-get install wrk)", file=sys.stderr)
        return 2
    WORK.mkdir(parents=True, exist_ok=True)
    demo = WORK / "demo-small.db"
    demo_store(demo, args.fresh)
    # Both stores are copies with fresh planner statistics (ANALYZE), so the comparison is of
    # data size, not of one store having statistics and the other not.
    small = WORK / "growth-1x.db"
    n_small = grow(demo, small, copies=0)
    url_1x = f"sqlite:///{small}"
    key = cli(url_1x, "keys", "issue", "--rate", "100000000", "--label", "bench").strip()
    big = WORK / "growth-10x.db"
    n_big = grow(small, big)
    url_10x = f"sqlite:///{big}"
    print(f"games: {n_small} (1x) and {n_big} (10x)")

    port = free_port()
    proc = serve(url_1x, port, 1, WORK / "growth-probe.log")
    try:
        paths = list_paths(f"http://127.0.0.1:{port}", key, random.Random(3))
    finally:
        proc.stop()
    print(f"{len(paths)} indexed list URLs (games by season, season+page, team, date, range)")
    if not same_answers(url_1x, url_10x, paths):
        print("warning: the 10x store answers differently", file=sys.stderr)

    best: dict[str, dict[str, float]] = {}
    print(f"{'round':>5} {'store':>5} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7}")
    for rnd in range(1, args.rounds + 1):
        for tag, url in (("1x", url_1x), ("10x", url_10x)):
            r = measure(url, paths, args.seconds, args.connections, tag)
            print(f"{rnd:>5} {tag:>5} {r['rps']:>8.0f} {r['p50']:>8.2f} {r['p99']:>8.2f} "
                  f"{int(r['non2xx'] + r['socket_errors']):>7}", flush=True)
            if tag not in best or r["rps"] > best[tag]["rps"]:
                best[tag] = r
    ratio_p50 = best["10x"]["p50"] / best["1x"]["p50"]
    ratio_mean = best["1x"]["rps"] / best["10x"]["rps"]  # mean latency ratio at fixed concurrency
    print(f"\n10x / 1x latency: p50 {ratio_p50:.2f}x, mean {ratio_mean:.2f}x (target <= {TARGET}x)")
    ok = max(ratio_p50, ratio_mean) <= TARGET
    print("RESULT: " + ("target met" if ok else "MISSED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
