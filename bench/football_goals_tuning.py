"""Tune football's goal model on the seasons never scored against SPI, then score the scored ones.

    python bench/football_goals_tuning.py --store PATH [--quick]

Reads a store's FC matches read-only (as ``bench/football_tuning.py`` does), fits the
time-weighted Dixon-Coles model (``server.models.football_goals``) before every match day and
blends its chances with the Elo's (``server.models.football``). Every constant is chosen by the
ranked probability score of the ten leagues' league-round matches of 2023-24 and 2024-25
(seasons 2024 and 2025): first the Elo's first rating of a promoted club, then the goal
model's constants one at a time around the declared ones (coordinate descent, two rounds),
each with its best blend. Only then are 2021-22 and 2022-23 scored, ours
beside SPI's on the same matches. ``--quick``: the declared constants only. It prints the
figures of docs/football.md, "Ours against SPI", the time of one fit of every match day beside
the Elo's, and what the warm start's few sweeps a day lose against 20 (about 3 minutes).
"""
from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np
import pandas as pd
import sqlalchemy as sa

from football_tuning import SCORED, TRAIN, Data, chances, shared_draw, with_spi

from server.models import football, football_goals
from server.models.elo import SPORT_ELO
from server.store import schema

GRID: dict[str, tuple[float, ...]] = {
    "decay": (0.00025, 0.0005, 0.001, 0.002),
    "season_discount": (0.8, 1.0),
    "prior_weight": (4.0, 8.0, 16.0, 32.0),
    "tier_step": (0.1, 0.25, 0.4),
    "promoted_step": (0.0, 0.2, 0.3, 0.4, 0.5),
    "home_weight": (30.0, 200.0),
    "rho": (-0.1, -0.05, 0.0),
}
PROMOTED_GAPS = (0.0, 50.0, 100.0, 150.0, 200.0)  # the Elo's first rating of a promoted club
BLENDS = tuple(np.round(np.arange(0.0, 1.01, 0.1), 2))


class GoalData(Data):
    """``Data`` and the club matches alone (national teams are rated apart) and the Elo's
    chances under the declared settings."""

    def __init__(self, store: Path) -> None:
        super().__init__(store)
        engine = sa.create_engine(f"sqlite:///file:{store}?mode=ro&uri=true")
        s = schema.sublevels.c
        with engine.connect() as conn:
            national = {int(i) for (i,) in conn.execute(
                sa.select(s.id).where(s.level == "FC", s.league_type == "International"))}
        sub = pd.to_numeric(self.games["sublevel_id"], errors="coerce")
        self.clubs = self.games[~sub.isin(national)]
        self.elo = chances(self, SPORT_ELO["soccer"], shared_draw(football.SOCCER_DRAW))

    def choose_promoted_gap(self) -> None:
        """The Elo's first rating of a promoted club, chosen on the training seasons' RPS."""
        found = {}
        for gap in PROMOTED_GAPS:
            d = chances(self, replace(SPORT_ELO["soccer"], promoted_gap=gap),
                        shared_draw(football.SOCCER_DRAW))
            found[gap] = (rps(d, TRAIN, 0.0), d)
            print(f"  Elo, promoted club {gap:.0f} points lower: train RPS {found[gap][0]:.5f}",
                  flush=True)
        self.elo = min(found.values(), key=lambda f: f[0])[1]


def goal_frame(data: GoalData, model: football_goals.GoalModel,
               games: pd.DataFrame | None = None) -> pd.DataFrame:
    """The scored rows (``data.elo``'s) with the goal model's chances ``gh``, ``gd``, ``ga``."""
    lam = football_goals.rates(data.clubs if games is None else games, data.tier_of, model)
    out = data.elo.merge(lam, on="game_id")
    p = football_goals.outcome_chances(out["lambda_home"].to_numpy(),
                                       out["lambda_vis"].to_numpy(), model.rho)
    return out.assign(gh=p[:, 0], gd=p[:, 1], ga=p[:, 2])


def blended(df: pd.DataFrame, blend: float) -> np.ndarray:
    if blend == 0.0:
        return df[["ph", "pd", "pa"]].to_numpy(float)
    return blend * df[["gh", "gd", "ga"]].to_numpy(float) \
        + (1.0 - blend) * df[["ph", "pd", "pa"]].to_numpy(float)


def rps(df: pd.DataFrame, seasons: tuple[int, ...], blend: float) -> float:
    m = df["season"].isin(seasons).to_numpy()
    return football.ranked_probability_score(blended(df[m], blend), df.loc[m, "y"].to_numpy(int))


def best_blend(df: pd.DataFrame, seasons: tuple[int, ...]) -> tuple[float, float]:
    """(RPS, blend) of the best blend on ``seasons``."""
    return min((rps(df, seasons, b), float(b)) for b in BLENDS)


def against_spi(data: GoalData, df: pd.DataFrame, blend: float, label: str) -> None:
    both, theirs = with_spi(df, data.spi)
    for season in SCORED:
        m = (both["season"] == season).to_numpy()
        y = both.loc[m, "y"].to_numpy(int)
        rows = {"Elo": both.loc[m, ["ph", "pd", "pa"]].to_numpy(float),
                "goals": both.loc[m, ["gh", "gd", "ga"]].to_numpy(float),
                f"blend {blend}": blended(both[m], blend), "SPI": theirs[m]}
        line = "  ".join(f"{k} {v['rps']:.4f}/{v['log_loss']:.4f}/{v['brier']:.4f}"
                         for k, v in ((k, football.scores(p, y)) for k, p in rows.items()))
        print(f"  {label} {season - 1}-{season % 100:02d} n={int(m.sum())}: {line}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--store", type=Path, required=True)
    ap.add_argument("--quick", action="store_true", help="the declared constants only")
    args = ap.parse_args()
    data = GoalData(args.store)
    data.choose_promoted_gap()
    model = football_goals.GOALS
    started = time.perf_counter()
    chances(data, SPORT_ELO["soccer"], shared_draw(football.SOCCER_DRAW))
    elo_time = time.perf_counter() - started
    started = time.perf_counter()
    df = goal_frame(data, model)
    fit_time = time.perf_counter() - started
    full = goal_frame(data, replace(model, sweeps=20))
    print(f"{len(data.clubs)} club games; one fit of every match day: {fit_time:.1f} s "
          f"(the Elo of every game: {elo_time:.1f} s); at 20 sweeps a day in place of "
          f"{model.sweeps}: train RPS {rps(full, TRAIN, 1.0):.5f} against "
          f"{rps(df, TRAIN, 1.0):.5f}", flush=True)
    score, blend = best_blend(df, TRAIN)
    print(f"declared {model}: train RPS Elo {rps(df, TRAIN, 0.0):.5f} goals "
          f"{rps(df, TRAIN, 1.0):.5f} best blend {blend}: {score:.5f}", flush=True)
    if not args.quick:
        for _ in range(2):
            for name, values in GRID.items():
                results = {}
                for value in values:
                    trial = replace(model, **{name: value})
                    results[value] = best_blend(goal_frame(data, trial), TRAIN)
                    print(f"  {name} {value}: {results[value][0]:.5f} (blend "
                          f"{results[value][1]})", flush=True)
                model = replace(model, **{name: min(results, key=lambda v: results[v][0])})
            print(f"chosen {model}", flush=True)
        df = goal_frame(data, model)
        score, blend = best_blend(df, TRAIN)
        print(f"chosen: train RPS {score:.5f} at blend {blend}", flush=True)
    against_spi(data, df, blend, "scored")
    print(f"{time.perf_counter() - started:.0f} s", flush=True)


if __name__ == "__main__":
    main()
