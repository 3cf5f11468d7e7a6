"""Starting-pitcher adjustments of baseball Elo, from information before each game.

Two sources, chosen by what the games carry:

* ``game score`` (the store: each starter's line): FiveThirtyEight's MLB method ("How Our MLB
  Predictions Work", 2018). A start's game score is Tango's version,
  ``47.4 + 1.5 outs + K - 2 BB - 2 H - 3 R - 4 HR``; a pitcher's rolling game score (rGS) and his
  team's rolling score of all its starters are exponentially weighted means; the adjustment is
  ``GS_POINTS x (pitcher rGS - team rGS)`` Elo points, so a team's usual rotation is already in
  its rating and only a better or worse than usual starter moves the line.
* ``runs`` (game logs, which name the starters but hold no pitcher lines): the starter's
  shrunken mean of runs his team allowed in his starts, relative to the league mean.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

GS_INTERCEPT = 47.4  # Tango game score v2 constants (538 MLB methodology)
GS_OUT, GS_K, GS_BB, GS_H, GS_R, GS_HR = 1.5, 1.0, -2.0, -2.0, -3.0, -4.0
GS_MEAN = 50.0  # a start of league-average quality, where every rolling score starts
LEAGUE_RUNS_PER_GAME = 4.5  # MLB 2015-2023 runs per team game: the runs residual's zero


def game_score(outs: float, k: float, bb: float, h: float, r: float, hr: float) -> float:
    """Tango's game score (v2) of one start. Units: outs recorded, strikeouts, walks, hits,
    runs (all, earned or not) and home runs allowed. A 9-inning shutout with 10 K, 2 BB, 3 H
    scores 47.4 + 40.5 + 10 - 4 - 6 = 87.9."""
    return (GS_INTERCEPT + GS_OUT * outs + GS_K * k + GS_BB * bb + GS_H * h + GS_R * r
            + GS_HR * hr)


@dataclass
class PitcherBook:
    """Rolling pitcher (and team) form; ``mode`` is "gamescore" or "runs"."""

    mode: str
    points: float  # Elo points per game-score point (gamescore) or per run (runs)
    alpha: float  # weight of a new start in a pitcher's rolling score (gamescore)
    team_alpha: float  # weight of a new start in the team's rolling score (gamescore)
    shrink: float  # pseudo-starts of league-average pitching (runs)
    rolling: dict[object, float] = field(default_factory=dict)
    team_rolling: dict[int, float] = field(default_factory=dict)
    sums: dict[object, float] = field(default_factory=dict)
    counts: dict[object, int] = field(default_factory=dict)

    def seed(self, priors: Mapping[object, tuple[float, float]]) -> None:
        """Prior form from before the data (runs mode): pitcher -> (runs-allowed residual per
        start, pseudo-starts it counts for); e.g. from Lahman seasons before the first one."""
        for sp, (residual, starts) in priors.items():
            self.sums[sp] = residual * starts
            self.counts[sp] = int(round(starts))

    def adjustment(self, sp: object, team: int) -> float:
        """Elo points this starter adds to his team's rating for the coming game."""
        if sp is None or sp != sp:
            return 0.0
        if self.mode == "gamescore":
            return self.points * (self.rolling.get(sp, GS_MEAN)
                                  - self.team_rolling.get(team, GS_MEAN))
        if sp not in self.counts:
            return 0.0
        return -self.points * self.sums[sp] / (self.counts[sp] + self.shrink)

    def record(self, sp: object, team: int, value: float) -> None:
        """After a game: ``value`` is the start's game score (gamescore) or the runs the
        team allowed (runs)."""
        if sp is None or sp != sp or value != value:
            return
        if self.mode == "gamescore":
            old = self.rolling.get(sp, GS_MEAN)
            self.rolling[sp] = old + self.alpha * (value - old)
            told = self.team_rolling.get(team, GS_MEAN)
            self.team_rolling[team] = told + self.team_alpha * (value - told)
            return
        self.sums[sp] = self.sums.get(sp, 0.0) + value - LEAGUE_RUNS_PER_GAME
        self.counts[sp] = self.counts.get(sp, 0) + 1
