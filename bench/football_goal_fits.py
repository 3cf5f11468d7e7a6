"""The nightly FC projection's goal model fit: walked from the first match against resumed from
last night's checkpoint (``server.models.football_goals._CHECKPOINTS``), in the same run.

    python bench/football_goal_fits.py --store PATH [--yesterday DAY] [--today DAY] [--rounds N]

Reads a store read-only (the real-data store: ``tests/real_store.py``). Each round: the fit of
``--today`` with no checkpoint (a fresh walk over every FC club match), then last night's fit of
``--yesterday`` followed by today's, which resumes where last night's walk stopped; the fits
must be equal to the last bit. Prints the CPU seconds of today's ``goal_fits`` (the store's
read included) both ways, per round.
"""
from __future__ import annotations

import argparse
import datetime as dt
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np
import sqlalchemy as sa

from server.jobs import football_tables
from server.models import football_goals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", required=True, help="path of a SQLite store")
    parser.add_argument("--yesterday", type=dt.date.fromisoformat, default=dt.date(2026, 3, 6))
    parser.add_argument("--today", type=dt.date.fromisoformat, default=dt.date(2026, 3, 9))
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    engine = sa.create_engine(f"sqlite:///{args.store}")
    with engine.connect() as conn:
        for r in range(args.rounds):
            football_goals._CHECKPOINTS.clear()
            t = time.process_time()
            fresh = football_tables.goal_fits(conn, "FC", [args.today])
            walked = time.process_time() - t
            football_goals._CHECKPOINTS.clear()
            football_tables.goal_fits(conn, "FC", [args.yesterday])  # last night's run
            t = time.process_time()
            resumed = football_tables.goal_fits(conn, "FC", [args.today])
            took = time.process_time() - t
            a, b = fresh.by_day[args.today], resumed.by_day[args.today]
            same = (np.array_equal(a.attack, b.attack) and np.array_equal(a.defence, b.defence)
                    and np.array_equal(a.home, b.home) and a.base == b.base)
            print(f"round {r + 1}: walked {walked:.2f} s, resumed {took:.2f} s CPU "
                  f"({took / walked:.2f}x), the same fit: {same}")


if __name__ == "__main__":
    main()
