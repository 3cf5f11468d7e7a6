"""Starting-pitcher adjustments of baseball Elo, from information before each game.

FiveThirtyEight's MLB method ("How Our MLB Predictions Work", 2018): a start's game score is
Tango's version, ``47.4 + 1.5 outs + K - 2 BB - 2 H - 3 R - 4 HR``; a pitcher's rolling game
score (rGS) and his team's rolling score of all its starters are exponentially weighted means;
the adjustment is ``GS_POINTS x (pitcher rGS - team rGS)`` Elo points, so a team's usual
rotation is already in its rating and only a better or worse than usual starter moves the line.

Two changes, both for data that starts without 538's decades of history:

* scores are kept as deviations from a running league mean (538 adjusts for era too), so a
  league whose mean game score moves between seasons (52.2 in 2022, 50.8 in 2023) does not
  shift every newcomer and every seeded pitcher against the teams' baselines;
* a pitcher's rolling score can be seeded from season totals before the data (Lahman's
  seasons before the first Retrosheet one, ``pitcher_seeds``): the deviation of his per-start
  game score from that season's league, weighted as if those starts had gone through the
  rolling mean one by one.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypeVar

import numpy as np
import pandas as pd

GS_INTERCEPT = 47.4  # Tango game score v2 constants (538 MLB methodology)
GS_OUT, GS_K, GS_BB, GS_H, GS_R, GS_HR = 1.5, 1.0, -2.0, -2.0, -3.0, -4.0
GS_MEAN = 50.0  # a start of league-average quality: where the league's running mean starts
LEAGUE_ALPHA = 0.01  # weight of one start in the league's running mean (~100 starts, 3 days)
# Longest start credited to a season line: starters faced 21.8 batters a start in the 2023
# Retrosheet lines; a line with more batters per start than this also pitched in relief.
BF_PER_START_CAP = 24.0
SEED_SEASONS = 2  # a pitcher's latest seasons before the data that seed him (as team priors)
SEED_COLUMNS = ("OUTS", "K", "BBA", "HA", "RA", "HRA")
# One start's counts (floats) or many starts' (arrays, one element per start).
_Count = TypeVar("_Count", float, np.ndarray)


def game_score(outs: _Count, k: _Count, bb: _Count, h: _Count, r: _Count, hr: _Count) -> _Count:
    """Tango's game score (v2) of one start, or elementwise of many (arrays). Units: outs
    recorded, strikeouts, walks, hits, runs (all, earned or not) and home runs allowed. A
    9-inning shutout with 10 K, 2 BB, 3 H scores 47.4 + 40.5 + 10 - 4 - 6 = 87.9."""
    return (GS_INTERCEPT + GS_OUT * outs + GS_K * k + GS_BB * bb + GS_H * h + GS_R * r
            + GS_HR * hr)


def pitcher_seeds(seasons: pd.DataFrame) -> dict[object, tuple[float, float]]:
    """Prior form of each pitcher from season totals before the data.

    ``seasons``: rows of (player_id, season), one per stint or summed, with GS (games started),
    BF (batters faced) and ``SEED_COLUMNS`` (outs, strikeouts, walks, hits, runs and home runs
    allowed), all appearances together. A season's per-start game score is the line's game
    score per batter faced times its batters per start (at most ``BF_PER_START_CAP``, so relief
    work does not inflate a start), plus the intercept. Returns player -> (mean per-start
    deviation from that season's start-weighted league mean, in game-score points; starts),
    over the player's ``SEED_SEASONS`` latest seasons with a start.
    """
    cols = ["GS", "BF", *SEED_COLUMNS]
    x = seasons.groupby(["player_id", "season"], as_index=False)[cols].sum()  # stints summed
    x = x[(x["GS"] > 0) & (x["BF"] > 0)].copy()
    if x.empty:
        return {}
    per_bf = (game_score(*(x[c].to_numpy(float) for c in SEED_COLUMNS)) - GS_INTERCEPT) \
        / x["BF"].to_numpy(float)
    x["gs"] = GS_INTERCEPT + per_bf * np.minimum(x["BF"] / x["GS"], BF_PER_START_CAP)
    x["w"] = x["gs"] * x["GS"]
    sums = x.groupby("season")[["w", "GS"]].sum()
    league = sums["w"] / sums["GS"]
    x["dev"] = (x["gs"] - x["season"].map(league)) * x["GS"]
    x = x.sort_values("season", ascending=False).groupby("player_id").head(SEED_SEASONS)
    per = x.groupby("player_id")[["dev", "GS"]].sum()
    return {pid: (float(r.dev / r.GS), float(r.GS)) for pid, r in per.iterrows()}


def _unknown(sp: object) -> bool:
    """No known starter: None or a missing value (NaN) of the games frame."""
    return sp is None or sp is pd.NA or (isinstance(sp, float) and math.isnan(sp))


@dataclass
class PitcherBook:
    """Rolling pitcher and team form, in game-score points relative to the league."""

    points: float  # Elo points per game-score point
    alpha: float  # weight of a new start in a pitcher's rolling score
    team_alpha: float  # weight of a new start in the team's rolling score
    debut: float  # rolling deviation of a pitcher without history (game-score points)
    league: float = GS_MEAN
    rolling: dict[object, float] = field(default_factory=dict)
    team_rolling: dict[int, float] = field(default_factory=dict)

    def seed(self, priors: Mapping[object, tuple[float, float]]) -> None:
        """Prior form from before the data: pitcher -> (deviation per start, starts), see
        ``pitcher_seeds``. ``n`` starts moved a rolling score that began at 0 by a fraction
        1 - (1 - alpha)^n of their mean deviation."""
        for sp, (dev, starts) in priors.items():
            self.rolling[sp] = (1.0 - (1.0 - self.alpha) ** starts) * dev

    def adjustment(self, sp: object, team: int) -> float:
        """Elo points this starter adds to his team's rating for the coming game."""
        if _unknown(sp):
            return 0.0
        return self.points * (self.rolling.get(sp, self.debut)
                              - self.team_rolling.get(team, 0.0))

    def record(self, sp: object, team: int, value: float) -> None:
        """After a game: ``value`` is the start's game score."""
        if _unknown(sp) or math.isnan(value):
            return
        dev = value - self.league
        old = self.rolling.get(sp, self.debut)
        self.rolling[sp] = old + self.alpha * (dev - old)
        team_old = self.team_rolling.get(team, 0.0)
        self.team_rolling[team] = team_old + self.team_alpha * (dev - team_old)
        self.league += LEAGUE_ALPHA * (value - self.league)
