"""Batting-lineup adjustments of baseball Elo, from information before each game.

A game's starting lineup is announced before the first pitch. Each batter carries a shrunken
estimate of his weighted on-base average (wOBA) above the league's, from his seasons before
the data (Lahman) and his plate appearances in the data before the game; a lineup's value is
the runs per game its nine batters add over league-average hitters. Like the pitcher
adjustment (``server.models.pitchers``), a team is compared with its own usual lineup this
season (a rolling mean that starts at the league average), so a team's regulars are in its
Elo rating once it has played, and only a stronger or weaker than usual lineup (stars rested,
injuries, call-ups) moves the line; at the start of a season, before the rating has learned
anything, the whole lineup counts, which carries over-the-winter roster changes.

Sources: wOBA and its run scale (T. Tango, M. Lichtman, A. Dolphin, *The Book*, 2007; weights
close to FanGraphs' published 2019-2022 linear weights, rounded, not fitted here); shrinkage
toward a prior with the weight of the statistic's stabilization point (beta-binomial, as in
probabilaball.com's 2017 stabilization points: on-base percentage M ~ 300 PA); about 0.1 wins
per run of margin per game, i.e. ~70 Elo points (the Pythagorean record, exponent ~1.83 at 4.5 runs
a game: dW/dRD = 1.83 / (4 x 4.5) ~ 0.10; 0.60 odds are 70 Elo points).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

# wOBA weights of unintentional walks, hit by pitch, singles, doubles, triples, home runs
W_BB, W_HBP, W_1B, W_2B, W_3B, W_HR = 0.69, 0.72, 0.88, 1.25, 1.58, 2.03
WOBA_SCALE = 1.15  # wOBA points per run per plate appearance (FanGraphs wRAA)
LEAGUE_WOBA = 0.315  # where the running league mean starts (2019-2023 league wOBA .310-.320)
LEAGUE_ALPHA = 0.002  # weight of one game's lineups in the running league mean (~3 weeks)
PA_PER_SLOT = 4.2  # plate appearances per lineup slot and game (38 a team game / 9)
BAT_COLUMNS = ("AB", "H", "2B", "3B", "HR", "BB", "IBB", "HBP", "SF")


@dataclass(frozen=True)
class LineupParams:
    """Constants of the lineup adjustment (see the module docstring for their sources)."""

    points: float  # Elo points per run a game
    prior_pa: float  # plate appearances of prior weight (stabilization point)
    debut: float  # wOBA above the league of a batter without history
    team_alpha: float  # weight of a game in the team's usual-lineup mean


# Baseball: 70 points a run (derived, above), 300 PA (OBP's stabilization point); the debut
# value and the team's rolling weight were chosen on MLB 2023 (scored on 2022).
SPORT_LINEUP: dict[str, LineupParams] = {
    "baseball": LineupParams(points=70.0, prior_pa=300.0, debut=-0.02, team_alpha=0.05),
}


def woba_terms(lines: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """(wOBA numerator, denominator) of each row of batting lines (season or game).
    Denominator: AB + BB - IBB + SF + HBP; numerator: the weighted events. Missing
    columns count as 0. A .400 hitter over 10 PA has numerator 4.0, denominator 10."""
    col = {c: lines[c].to_numpy(float) if c in lines.columns else np.zeros(len(lines))
           for c in BAT_COLUMNS}
    col = {c: np.nan_to_num(v) for c, v in col.items()}
    ubb = col["BB"] - col["IBB"]
    single = col["H"] - col["2B"] - col["3B"] - col["HR"]
    num = (W_BB * ubb + W_HBP * col["HBP"] + W_1B * single + W_2B * col["2B"]
           + W_3B * col["3B"] + W_HR * col["HR"])
    return num, col["AB"] + ubb + col["SF"] + col["HBP"]


def batter_seeds(seasons: pd.DataFrame, last: int = 2) -> dict[object, tuple[float, float]]:
    """Prior batting of each player from season totals before the data: player -> (sum over
    his ``last`` latest seasons of (wOBA - that season's league wOBA) x PA, PA).
    ``seasons``: rows of (player_id, season, ``BAT_COLUMNS``), stints summed here."""
    cols = [c for c in BAT_COLUMNS if c in seasons.columns]
    x = seasons.groupby(["player_id", "season"], as_index=False)[cols].sum()
    num, den = woba_terms(x)
    x = x.assign(num=num, den=den)
    x = x[x["den"] > 0]
    if x.empty:
        return {}
    sums = x.groupby("season")[["num", "den"]].sum()
    league = sums["num"] / sums["den"]
    x = x.assign(excess=x["num"] - x["season"].map(league) * x["den"])
    x = x.sort_values("season", ascending=False).groupby("player_id").head(last)
    per = x.groupby("player_id")[["excess", "den"]].sum()
    return {pid: (float(r.excess), float(r.den)) for pid, r in per.iterrows()}


def lineup_adjustments(games: pd.DataFrame, lines: pd.DataFrame, params: LineupParams,
                       seeds: Mapping[object, tuple[float, float]] | None = None) -> pd.Series:
    """Home-minus-visitor lineup adjustment of every game, in Elo points, indexed by game_id.

    ``games``: game_id, season, date, home, visitor. ``lines``: the starters' batting lines
    (game_id, player_id, home (bool), ``BAT_COLUMNS``); pitchers may be left out by the caller.
    A batter's estimate is (excess + debut x prior_pa) / (PA + prior_pa), in wOBA points over
    the league; a side's value is the sum over its starters x ``PA_PER_SLOT`` / ``WOBA_SCALE``
    runs, less the team's rolling mean of that value this season (0 at its first game). Each
    game's own lines update the estimates only after the game. Games without lines get 0.
    """
    g = games.sort_values(["date", "game_id"], kind="stable")
    out = pd.Series(0.0, index=g["game_id"].to_numpy())
    if lines.empty:
        return out
    num, den = woba_terms(lines)
    order = np.argsort(lines["game_id"].to_numpy(), kind="stable")
    gid = lines["game_id"].to_numpy()[order]
    pid = lines["player_id"].to_numpy()[order]
    side = lines["home"].to_numpy(bool)[order]
    num, den = num[order], den[order]
    starts = np.searchsorted(gid, g["game_id"].to_numpy(), "left")
    ends = np.searchsorted(gid, g["game_id"].to_numpy(), "right")
    book = {p: [e, n] for p, (e, n) in (seeds or {}).items()}
    prior = params.debut * params.prior_pa
    per_pa = PA_PER_SLOT / WOBA_SCALE
    league = LEAGUE_WOBA
    usual: dict[tuple[int, int], float] = {}
    values = np.zeros(len(g))
    for i, (season, h, v, a, b) in enumerate(zip(g["season"].to_numpy(), g["home"].to_numpy(),
                                                g["visitor"].to_numpy(), starts, ends)):
        if a == b:
            continue
        total = {True: 0.0, False: 0.0}
        for j in range(a, b):
            e, n = book.get(pid[j], (0.0, 0.0))
            total[bool(side[j])] += (e + prior) / (n + params.prior_pa) * per_pa
        diff = 0.0
        for s, team in ((True, h), (False, v)):
            key = (int(team), int(season))
            base = usual.get(key, 0.0)
            diff += (total[s] - base) if s else -(total[s] - base)
            usual[key] = base + params.team_alpha * (total[s] - base)
        values[i] = params.points * diff
        game_num, game_den = float(num[a:b].sum()), float(den[a:b].sum())
        for j in range(a, b):
            acc = book.setdefault(pid[j], [0.0, 0.0])
            acc[0] += num[j] - league * den[j]
            acc[1] += den[j]
        if game_den > 0:
            league += LEAGUE_ALPHA * (game_num / game_den - league)
    out[:] = values
    return out
