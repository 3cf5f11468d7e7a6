"""Rating Percentage Index (RPI) for college levels, as a series over game dates.

Source: NCAA men's basketball RPI (2004 revision): RPI = 0.25 WP + 0.50 OWP + 0.25 OOWP, where
WP weights a home win 0.6, a road win 1.4, a home loss 1.4, a road loss 0.6 (neutral: 1.0);
OWP is the average, over a team's games, of each opponent's unweighted winning percentage in
its games against others (games against the team itself excluded); OOWP is the average of the
opponents' OWP. Ties count half a win and half a loss.
"""
from __future__ import annotations

from itertools import pairwise

import numpy as np
import pandas as pd

WP_WEIGHT, OWP_WEIGHT, OOWP_WEIGHT = 0.25, 0.50, 0.25
HOME_WIN, ROAD_WIN, NEUTRAL = 0.6, 1.4, 1.0  # a home loss weighs ROAD_WIN, a road loss HOME_WIN

RPI_COLUMNS = ("season", "date", "team_id", "rank", "rpi", "wp", "owp", "oowp", "wins", "losses")


def _weights(home_result: np.ndarray, neutral: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Weighted (win, loss) credit of the home side and of the visitor per game."""
    hw = np.where(neutral, NEUTRAL, np.where(home_result > 0.5, HOME_WIN, ROAD_WIN))
    vw = np.where(neutral, NEUTRAL, np.where(home_result < 0.5, ROAD_WIN, HOME_WIN))
    return hw, vw


def rpi_snapshot(wins: np.ndarray, wwins: np.ndarray, wlosses: np.ndarray) -> np.ndarray:
    """RPI components for one date from cumulative matrices.

    ``wins[i, j]``: (unweighted) wins of team i over team j so far; ``wwins[i]``/``wlosses[i]``:
    weighted win and loss totals of team i. Returns an array (teams x 4): rpi, wp, owp, oowp
    (NaN for teams without a game).
    """
    games = wins + wins.T
    played = games.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        wp = wwins / (wwins + wlosses)
        # opp_excl[j, t]: team j's winning pct in games not against t
        opp_games = played[:, None] - games
        opp_wins = wins.sum(axis=1)[:, None] - wins
        opp_excl = np.where(opp_games > 0, opp_wins / np.where(opp_games > 0, opp_games, 1), 0.0)
        has = (opp_games > 0) & (games > 0)
        w = np.where(has, games, 0.0)
        owp = (w * opp_excl).sum(axis=0) / w.sum(axis=0)
        owp_f = np.where(np.isfinite(owp), owp, 0.0)
        oowp = (games * owp_f[None, :]).sum(axis=1) / played
        oowp = np.nan_to_num(oowp)
        owp = owp_f  # no opponent record yet (a season's first day) counts as 0
        rpi = WP_WEIGHT * wp + OWP_WEIGHT * owp + OOWP_WEIGHT * oowp
    out = np.column_stack([rpi, wp, owp, oowp])
    out[played == 0] = np.nan
    return out


def rpi_series(games: pd.DataFrame) -> pd.DataFrame:
    """One RPI snapshot per game date (ratings as of the end of that date) for each season.

    ``games``: season, date, home, visitor, score_home, score_vis, neutral; final games only.
    Returns ``RPI_COLUMNS`` rows for every team with at least one game by that date; rank 1 is
    the highest RPI on that date (ties share the lower rank).
    """
    frames = []
    for season, g in games.groupby("season", sort=True):
        g = g.sort_values("date", kind="stable")
        teams = np.unique(np.concatenate([g["home"].to_numpy(), g["visitor"].to_numpy()]))
        pos = {t: i for i, t in enumerate(teams)}
        n = len(teams)
        wins = np.zeros((n, n))
        wwins, wlosses = np.zeros(n), np.zeros(n)
        h = g["home"].map(pos).to_numpy()
        v = g["visitor"].map(pos).to_numpy()
        sh, sv = g["score_home"].to_numpy(float), g["score_vis"].to_numpy(float)
        res = np.where(sh > sv, 1.0, np.where(sh < sv, 0.0, 0.5))
        hw, vw = _weights(res, g["neutral"].fillna(False).to_numpy(bool))
        dates = g["date"].to_numpy()
        bounds = np.flatnonzero(np.r_[True, dates[1:] != dates[:-1], True])
        for a, b in pairwise(bounds):
            for i in range(a, b):
                wins[h[i], v[i]] += res[i]
                wins[v[i], h[i]] += 1.0 - res[i]
                wwins[h[i]] += res[i] * hw[i]
                wlosses[h[i]] += (1.0 - res[i]) * vw[i]
                wwins[v[i]] += (1.0 - res[i]) * vw[i]
                wlosses[v[i]] += res[i] * hw[i]
            snap = rpi_snapshot(wins, wwins, wlosses)
            ok = np.isfinite(snap[:, 0])
            r = snap[ok]
            frames.append(pd.DataFrame({
                "season": season, "date": dates[a], "team_id": teams[ok],
                "rank": pd.Series(-r[:, 0]).rank(method="min").to_numpy(int),
                "rpi": r[:, 0], "wp": r[:, 1], "owp": r[:, 2], "oowp": r[:, 3],
                "wins": np.rint(wins.sum(axis=1)[ok]).astype(int),
                "losses": np.rint(wins.sum(axis=0)[ok]).astype(int),
            }))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=list(RPI_COLUMNS))
