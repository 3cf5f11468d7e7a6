"""Time a full re-tabulation per level (target: <= 60 s in all for the full demo store), then
the season projections: the nightly run over every level (target: <= 30 s) and one full
historical season, every day with games at ``HISTORY_SIMS`` (target: <= 60 s).

    python bench/models.py [--store PATH] [--size small|full] [--seed N]

Prints, per level, wall-clock and CPU seconds (this process's user + system time) and the rows
written, then the totals against the 60 s target. CPU seconds are printed because wall time on
a shared, overloaded machine mostly measures the wait for a core. To include the real data,
load it into a copy of the demo store first (``python -m server ingest retrosheet ...``,
``python -m server ingest fivethirtyeight FILE --level NBA`` ...) and pass that copy as --store.

With ``--store PATH`` it re-tabulates that SQLite store (e.g. data/sports.db after
``make store``), building it first when the file does not exist. Otherwise it builds a fresh
store in a temporary folder: with the simulator
(``server.ingest.simulator.run``) when it exists, else a synthetic store of demo-like size
(tests/server/jobs/synthetic.py), then re-tabulates every level and prints seconds per level.
"""
from __future__ import annotations

import argparse
import datetime as dt
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import sqlalchemy as sa

from server.jobs import projections, retabulate
from server.store import schema
from server.store.engine import make_engine

TARGET_SECONDS = 60.0
NIGHTLY_TARGET_SECONDS, HISTORY_TARGET_SECONDS = 30.0, 60.0
# Synthetic fallback, demo-like: 30 teams, ~2,600 games a season, three seasons per level.
SYNTH_LEVELS = ("MLB", "NBA", "NHL", "MBB", "WBB", "FC")
SYNTH_TEAMS, SYNTH_ROUNDS, SYNTH_SEASONS = 30, 6, (2023, 2024, 2025)


def build(path: Path, size: str, seed: int) -> str:
    engine = make_engine(f"sqlite:///{path}")
    try:
        from server.ingest import simulator
        run = simulator.run
    except (ImportError, AttributeError):
        run = None
    if run is not None:
        from server.store.init import init_store

        init_store(engine)
        run(engine, seed, size)
        return "simulator"
    from tests.server.jobs.synthetic import build_store

    build_store(path, levels=SYNTH_LEVELS, teams=SYNTH_TEAMS, seasons=SYNTH_SEASONS,
                rounds=SYNTH_ROUNDS, seed=seed)
    return "synthetic"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--store", type=Path, default=None)
    ap.add_argument("--size", choices=("small", "full"), default="full")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        path = args.store or Path(tmp) / "bench.db"
        if args.store is None or not args.store.exists():
            t0 = time.perf_counter()
            kind = build(path, args.size, args.seed)
            print(f"built {kind} store in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
        engine = make_engine(f"sqlite:///{path}")
        report: dict[str, dict[str, float]] = {}
        cpu: dict[str, float] = {}
        t0, c0 = time.perf_counter(), time.process_time()
        for level in retabulate.levels_with_games(engine):  # one run per level: CPU per level
            c1 = time.process_time()
            report.update(retabulate.run(engine, [level]))
            cpu[level] = time.process_time() - c1
        total, total_cpu = time.perf_counter() - t0, time.process_time() - c0
        engine.dispose()
        _print_report(report, cpu, total, total_cpu)
        bench_projections(path)
    return 0


def _print_report(report: dict[str, dict[str, float]], cpu: dict[str, float], total: float,
                  total_cpu: float) -> None:
    print(f"{'level':<8} {'wall s':>8} {'cpu s':>7} {'elo':>8} {'rpi':>9} {'forecasts':>9} "
          f"{'stats':>9}")
    for level, r in report.items():
        print(f"{level:<8} {r['seconds']:>8.2f} {cpu[level]:>7.2f} {r['elo_history']:>8.0f} "
              f"{r['rpi']:>9.0f} {r['forecasts']:>9.0f} {r['stat_tables']:>9.0f}")
    verdict = "within" if total <= TARGET_SECONDS else "OVER"
    cpu_verdict = "within" if total_cpu <= TARGET_SECONDS else "OVER"
    print(f"total    {total:>8.2f} s wall ({verdict} the {TARGET_SECONDS:.0f} s target), "
          f"{total_cpu:.2f} s CPU ({cpu_verdict})")


def _longest_season(engine: sa.Engine) -> tuple[str, int, list[dt.date]] | None:
    """The completed (level, season) with the most days of regular-season games in the store."""
    g = schema.games.c
    with engine.connect() as conn:
        rows = conn.execute(sa.select(g.level, g.season, sa.func.count(sa.distinct(g.game_day)))
                            .where(g.playoff.is_(None), g.state == "final")
                            .group_by(g.level, g.season)
                            .order_by(sa.func.count(sa.distinct(g.game_day)).desc())).all()
        for level, season, _ in rows:
            if projections.plan(conn, level, False, projections.clock.today(), season):
                days = projections.game_days(conn, level, season)
                return level, int(season), days
    return None


def bench_projections(path: Path) -> None:
    engine = make_engine(f"sqlite:///{path}")
    t0, c0 = time.perf_counter(), time.process_time()
    seconds = projections.run(engine)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    slowest = max(seconds, key=lambda k: seconds[k]) if seconds else "-"
    verdict = "within" if wall <= NIGHTLY_TARGET_SECONDS else "OVER"
    print(f"projections, nightly over {len(seconds)} levels at {projections.N_SIMS:,} seasons: {wall:.2f} s wall, "
          f"{cpu:.2f} s CPU ({verdict} the {NIGHTLY_TARGET_SECONDS:.0f} s target; slowest {slowest} "
          f"{seconds.get(slowest, 0):.2f} s)")
    longest = _longest_season(engine)
    if longest is not None:
        level, season, days = longest
        t0 = time.perf_counter()
        with engine.connect() as conn:
            rows = projections.project_days(conn, level, season, days, projections.HISTORY_SIMS)
        wall = time.perf_counter() - t0
        verdict = "within" if wall <= HISTORY_TARGET_SECONDS else "OVER"
        print(f"projections, history of {level} {season}: {len(days)} days x {projections.HISTORY_SIMS:,} seasons, "
              f"{len(rows):,} rows in {wall:.2f} s ({verdict} the {HISTORY_TARGET_SECONDS:.0f} s target; "
              f"a probability's standard error <= {(0.25 / projections.HISTORY_SIMS) ** 0.5:.3f})")
    engine.dispose()


if __name__ == "__main__":
    raise SystemExit(main())
