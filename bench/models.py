"""Time a full re-tabulation per level (target: <= 60 s in all for the full demo store).

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
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from server.jobs import retabulate
from server.store.engine import make_engine

TARGET_SECONDS = 60.0
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
    print(f"{'level':<8} {'wall s':>8} {'cpu s':>7} {'elo':>8} {'rpi':>9} {'forecasts':>9} "
          f"{'stats':>9}")
    for level, r in report.items():
        print(f"{level:<8} {r['seconds']:>8.2f} {cpu[level]:>7.2f} {r['elo_history']:>8.0f} "
              f"{r['rpi']:>9.0f} {r['forecasts']:>9.0f} {r['stat_tables']:>9.0f}")
    verdict = "within" if total <= TARGET_SECONDS else "OVER"
    cpu_verdict = "within" if total_cpu <= TARGET_SECONDS else "OVER"
    print(f"total    {total:>8.2f} s wall ({verdict} the {TARGET_SECONDS:.0f} s target), "
          f"{total_cpu:.2f} s CPU ({cpu_verdict})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
