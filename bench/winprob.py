"""What the win probability line costs: re-tabulation's added seconds and one game's series.

    python bench/winprob.py --store PATH [--level MLB] [--games 200] [--rounds 2] [--serve-only]

PATH is a SQLite store with the level's play-by-play (the real-data store: Retrosheet 2021-2023).
The store is copied into a scratch folder first: nothing here writes to PATH.

(1) ``retabulate`` of the level, ``--rounds`` times each way, interleaved: as it runs, and with
    the win probability step left out (``winprob_plays.compute`` answering no plays, so neither
    ``play_winprob`` nor the WPA stat tables are computed or written). The difference of the
    medians is the line's cost; divided by the level's seasons with play-by-play, a season's.
(2) ``/v2/winprob/{level}/?game=ID`` over HTTP (``python -m server serve``, one worker, the
    answer caches off: every request reaches the store), one request each for ``--games`` final
    games, after one warm-up pass; the median and the 95th percentile of the client's time,
    beside the same games' ``/v1/games/{level}/?id=ID`` (a game's detail record) interleaved
    with them as the baseline of what any request costs here. ``--serve-only`` skips (1).
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx
import pandas as pd
import sqlalchemy as sa

from bench._harness import cli, free_port, serve
from server.jobs import retabulate, winprob_plays
from server.store import schema
from server.store.engine import make_engine


def _retabulate(url: str, level: str, with_line: bool) -> float:
    engine = make_engine(url)
    original = winprob_plays.compute
    if not with_line:
        def nothing(*_: Any) -> pd.DataFrame:
            return winprob_plays._empty()
        winprob_plays.compute = nothing  # type: ignore[assignment]
    try:
        t0 = time.perf_counter()
        retabulate.run(engine, [level])
        return time.perf_counter() - t0
    finally:
        winprob_plays.compute = original  # type: ignore[assignment]
        engine.dispose()


def _seasons(url: str, level: str) -> int:
    engine = make_engine(url)
    p, g = schema.plays.c, schema.games.c
    with engine.connect() as conn:
        n = conn.execute(sa.select(sa.func.count(sa.distinct(g.season)))
                         .join_from(schema.plays, schema.games, g.id == p.game_id)
                         .where(g.level == level)).scalar()
    engine.dispose()
    return int(n or 0)


def _games(url: str, level: str, count: int) -> list[int]:
    engine = make_engine(url)
    w = schema.play_winprob.c
    with engine.connect() as conn:
        ids = [int(i) for i in conn.execute(sa.select(w.game_id).distinct()
                                            .where(w.level == level).order_by(w.game_id))
               .scalars()]
    engine.dispose()
    step = max(1, len(ids) // count)
    return ids[::step][:count]


def _bench_retabulate(url: str, level: str, rounds: int) -> None:
    timings: dict[bool, list[float]] = {True: [], False: []}
    for _ in range(rounds):
        for with_line in (False, True):
            timings[with_line].append(_retabulate(url, level, with_line))
    seasons = _seasons(url, level)
    without, with_ = (statistics.median(timings[k]) for k in (False, True))
    print(f"retabulate {level}: {without:.1f} s without the line, {with_:.1f} s with it "
          f"(medians of {rounds}): +{with_ - without:.1f} s for {seasons} seasons, "
          f"+{(with_ - without) / max(seasons, 1):.1f} s a season")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--store", type=Path, required=True)
    ap.add_argument("--level", default="MLB")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--serve-only", action="store_true")
    opts = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-winprob-"))
    try:
        copy = work / "sports.db"
        shutil.copy(opts.store, copy)
        url = f"sqlite:///{copy}"
        cli(url, "init")
        if not opts.serve_only:
            _bench_retabulate(url, opts.level, opts.rounds)
        games = _games(url, opts.level, opts.games)
        port = free_port()
        proc = serve(url, port, 1, work / "server.log", SPORTS_CACHE_TTL="0")
        try:
            key = cli(url, "keys", "issue", "--label", "bench", "--rate", "100000"
                      ).strip().splitlines()[-1].strip()
            root = f"http://127.0.0.1:{port}"
            asks = {f"/v2/winprob/{opts.level}/?game=ID": (f"{root}/v2/winprob/{opts.level}/",
                                                           "game"),
                    f"/v1/games/{opts.level}/?id=ID": (f"{root}/v1/games/{opts.level}/", "id")}
            seconds: dict[str, list[float]] = {name: [] for name in asks}
            records = 0
            with httpx.Client(timeout=30) as client:
                for rnd in range(2):
                    for game in games:
                        for name, (address, param) in asks.items():
                            t0 = time.perf_counter()
                            r = client.get(address, params={"key": key, param: game})
                            took = time.perf_counter() - t0
                            assert r.status_code == 200, r.text
                            if rnd:
                                seconds[name].append(took)
                                if "winprob" in name:
                                    records += len(r.json()["winprob"])
            for name, taken in seconds.items():
                ms = sorted(s * 1000 for s in taken)
                print(f"{name} over HTTP, {len(games)} games: median {statistics.median(ms):.2f}"
                      f" ms, p95 {ms[int(0.95 * (len(ms) - 1))]:.2f} ms")
            print(f"({records / len(games):.0f} win probability records a game)")
        finally:
            proc.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
