"""Football's season projections with the forecasts' blended chances against the Elo's alone.

    python bench/football_projection_blend.py --store PATH [--sims N] [--seeds K]

Reads a store read-only (the real-data store: ``tests/real_store.py``) and scores every
finished league season with declared places as ``python -m server evaluate --projections
--level FC`` does (``server.jobs.football_projection_scores``), twice in the same run: each
remaining match played with 0.3 of the goal model's chances and 0.7 of the Elo's (the
forecasts' blend, ``server.models.football_goals.blended``), then with the Elo's alone; both
with the same seeds (``--seeds``: several, to see the Monte Carlo's own spread). The figures
are in docs/football.md ("Scored against the points-per-game pace").
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pandas as pd
import sqlalchemy as sa

from server.jobs import football_projection_scores as scores
from server.models import projections


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", required=True, help="path of a SQLite store")
    parser.add_argument("--sims", type=int, default=scores.EVAL_SIMS)
    parser.add_argument("--seeds", type=int, default=1)
    args = parser.parse_args()
    engine = sa.create_engine(f"sqlite:///{args.store}")
    frames = []
    with engine.connect() as conn:
        for seed in range(args.seeds):
            for goals in (True, False):
                t0 = time.perf_counter()
                rows = [x for s in scores.seasons_held(conn)
                        for x in scores.score_season(conn, s, args.sims, goals=goals,
                                                     seed=projections.SEED + seed)]
                took = time.perf_counter() - t0
                summary = scores.summary(rows).assign(
                    chances="blend" if goals else "Elo", seed=seed, seconds=round(took, 1))
                frames.append(summary)
    out = pd.concat(frames, ignore_index=True)
    pd.set_option("display.width", 200)
    print(out.round(4).to_string(index=False))


if __name__ == "__main__":
    main()
