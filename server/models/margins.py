"""In-season margin model: home win probabilities from a ridge rating of scoring margins.

Used by ``server.models.elo.run_elo`` (``margin_weight``) to blend a faster-converging rating
into the Elo forecast early in a season rated from scratch.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

MARGIN_MIN_GAMES = 30  # season games before the margin model speaks (too noisy before)
MARGIN_TAU2_FLOOR = 0.01  # lower bound of the team-strength variance, (margin units)^2
MARGIN_HOME_RIDGE = 1e-3  # near-zero ridge on the home-advantage coefficient


def margin_win_exp(games: pd.DataFrame) -> np.ndarray:
    """Home win probability of every game from a ridge fit of scoring margins, using only the
    same season's final games on earlier dates (NaN before ``MARGIN_MIN_GAMES`` of them).

    ``games``: sorted by date, with season, date, home, visitor, score_home, score_vis and
    neutral. Model: margin = home advantage + strength(home) - strength(visitor) + noise, fitted
    by ridge regression whose penalty sigma^2 / tau^2 is set by empirical Bayes on the same past
    games (sigma^2: the margins' variance; tau^2: the variance of the teams' mean margins less
    its sampling part, floored at ``MARGIN_TAU2_FLOOR``) -- a James-Stein shrinkage of each team
    toward average, strongest early in the season. The predicted margin m maps to a win
    probability through the normal curve, Phi(m / s), s the fit's residual standard deviation
    (a tie, e.g. a hockey game to overtime, splits around m = 0 by continuity). Sources: ridge
    ratings of margins (Massey 1997, "Statistical models applied to the rating of sports
    teams"), empirical Bayes shrinkage (Efron & Morris 1975). All sums are running totals, so a
    season costs one small linear solve per date.
    """
    n = len(games)
    out = np.full(n, np.nan)
    if n == 0:
        return out
    codes, teams = pd.factorize(pd.concat([games["home"], games["visitor"]], ignore_index=True))
    t = len(teams)
    hi, vi = codes[:n], codes[n:]
    sh = games["score_home"].to_numpy(float)
    sv = games["score_vis"].to_numpy(float)
    home_col = ~games["neutral"].fillna(False).to_numpy(dtype=bool)
    season = games["season"].to_numpy()
    day = games["date"].to_numpy()
    start = 0
    while start < n:
        end = start
        while end < n and season[end] == season[start]:
            end += 1
        _margin_season(range(start, end), day, hi, vi, sh, sv, home_col, t, out)
        start = end
    return out


def _margin_season(rows: range, day: np.ndarray, hi: np.ndarray, vi: np.ndarray,
                   sh: np.ndarray, sv: np.ndarray, home_col: np.ndarray, t: int,
                   out: np.ndarray) -> None:
    """``margin_win_exp`` for one season's rows (a contiguous, date-sorted block)."""
    xtx = np.zeros((t + 1, t + 1))
    xty = np.zeros(t + 1)
    m_sum = m_sq = 0.0
    count = 0
    team_sum = np.zeros(t)  # sum of the team's margins (its own side's view)
    team_n = np.zeros(t)
    team_home = np.zeros(t)  # home games minus away games (non-neutral), for the home edge
    i, end = rows.start, rows.stop
    while i < end:
        j = i
        while j < end and day[j] == day[i]:
            j += 1
        if count >= MARGIN_MIN_GAMES:
            mean = m_sum / count
            var = max(m_sq / count - mean * mean, 1e-9)
            seen = team_n > 0
            # team mean margins net of the home edge; their spread less sampling noise
            team_mean = (team_sum[seen] - mean * team_home[seen]) / team_n[seen]
            tau2 = max(float(np.var(team_mean)) - var * float(np.mean(1.0 / team_n[seen])),
                       MARGIN_TAU2_FLOOR)
            ridge = np.full(t + 1, var / tau2)
            ridge[t] = MARGIN_HOME_RIDGE
            a = xtx + np.diag(ridge)
            beta = np.linalg.solve(a, xty)
            sse = float(m_sq - 2.0 * beta @ xty + beta @ xtx @ beta)
            s = math.sqrt(max(sse / count, 1e-9))
            for r in range(i, j):
                m = beta[hi[r]] - beta[vi[r]] + (beta[t] if home_col[r] else 0.0)
                out[r] = 0.5 * (1.0 + math.erf(m / (s * math.sqrt(2.0))))
        day_rows = np.arange(i, j)
        day_rows = day_rows[~(np.isnan(sh[i:j]) | np.isnan(sv[i:j]))]
        if len(day_rows):
            h, v, m = hi[day_rows], vi[day_rows], sh[day_rows] - sv[day_rows]
            hc = home_col[day_rows].astype(float)
            # X row: +1 at home, -1 at visitor, hc at the home-advantage column
            for a_, b_, val in ((h, h, 1.0), (v, v, 1.0), (h, v, -1.0), (v, h, -1.0)):
                np.add.at(xtx, (a_, b_), val)
            np.add.at(xtx, (h, t), hc)
            np.add.at(xtx, (t, h), hc)
            np.add.at(xtx, (v, t), -hc)
            np.add.at(xtx, (t, v), -hc)
            xtx[t, t] += hc.sum()
            np.add.at(xty, h, m)
            np.add.at(xty, v, -m)
            xty[t] += float((hc * m).sum())
            m_sum += float(m.sum())
            m_sq += float((m * m).sum())
            count += len(day_rows)
            np.add.at(team_sum, h, m)
            np.add.at(team_sum, v, -m)
            np.add.at(team_n, h, 1.0)
            np.add.at(team_n, v, 1.0)
            np.add.at(team_home, h, hc)
            np.add.at(team_home, v, -hc)
        i = j
