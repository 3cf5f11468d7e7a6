"""Elo ratings per sport, with the forecast record's elo block for every game.

The model is FiveThirtyEight's family of Elo systems (Silver & Fischer-Baum, "How We Calculate
NBA Elo Ratings", 2015; "How Our NHL Predictions Work", 2017; "How Our MLB Predictions Work",
2018): a logistic win expectation on the rating difference plus a home advantage, an update of
``K x margin multiplier x (result - expectation)``, and reversion toward the mean between
seasons. Two additions, both using only information from before each game:

* an early-season K boost, ``K x (1 + EARLY_BOOST x exp(-games_played / EARLY_GAMES))``, so
  ratings that start from a weak prior converge faster (margin-aware updates tolerate it);
* for baseball, a starting-pitcher adjustment: each starter carries a shrunken mean of the run
  residuals of his previous starts, converted to Elo points (538 uses a rolling game score);
* optionally (``margin_weight``; on for hockey, whose one season is rated from scratch), the
  forecast blends the Elo difference with an in-season ridge rating of scoring margins shrunk by
  empirical Bayes (``margin_win_exp``), which converges faster than K-limited Elo updates early in
  a season. The ratings themselves, and their updates, stay pure Elo.

``run_elo`` consumes a DataFrame of games (one row each, any order) and returns the elo block;
``server.jobs.retabulate`` feeds it from the store and the tests feed it from the real files.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from server.models.pitchers import PitcherBook

ELO_SCALE = 400.0  # rating points per factor of 10 in the odds (Elo's logistic scale)
DEFAULT_MEAN = 1500.0  # rating of an average team
WIN, DRAW, LOSS = 1.0, 0.5, 0.0


@dataclass(frozen=True)
class EloParams:
    """One sport's constants. Points are Elo rating points; games are the team's games played."""

    k: float  # points per unit of (result - expectation), before the margin multiplier
    home: float  # home advantage, points (not applied at neutral sites)
    mov: str  # margin multiplier family: "basketball" | "hockey" | "baseball" | "none"
    revert: float  # fraction of the distance to ``mean`` removed between seasons
    mean: float = DEFAULT_MEAN
    playoff_k: float = 1.0  # K multiplier in playoff games
    playoff_diff: float = 1.0  # rating-difference multiplier in playoff games (538 NFL: 1.2)
    early_boost: float = 0.0  # extra K fraction at a team's first game of a season
    early_games: float = 10.0  # games over which the boost decays by a factor e
    prior_scale: float = 0.0  # points per unit of previous-season win pct above .500
    pitcher_scale: float = 0.0  # runs mode: Elo points per run of a starter's run residual
    pitcher_shrink: float = 10.0  # runs mode: pseudo-starts of league-average pitching
    gs_points: float = 0.0  # game-score mode: Elo points per game-score point (538: 4.7)
    gs_alpha: float = 0.1  # game-score mode: weight of a start in a pitcher's rolling score
    gs_team_alpha: float = 0.1  # game-score mode: weight of a start in the team's rolling score
    margin_weight: float = 0.0  # weight of the in-season margin model in the win expectation


# Constants: margin families and reversion are 538's published values (NBA revert 1/4 to 1505,
# NHL K 6, home 50, revert 0.3; MLB revert 1/3). Basketball K, home and early boost were tuned on
# WNBA 1997-2021 (never on the NBA season we score); baseball K, home, early boost and pitcher
# constants on MLB 2023 (scored on 2022), and its prior scale on 2023 with 2022 records as the
# prior. Baseball's game-score pitcher mode (538's method, ``gs_points``) is off: tuned on 2023
# (with 2022 history) it gains ~0.001 there but loses ~0.001 on 2022, where no pitcher has
# history; the runs mode (starters from game logs or lines) is on. Hockey has no other season
# in the data: 538's K, home and margin constants, and the early boost that is best for WNBA
# seasons rated from scratch (2000-2021, each from 1505 with no history), since the one NHL
# season we hold is rated from scratch too. For the same reason hockey blends in the in-season
# margin model (``margin_win_exp``) with weight 0.4: the weight that is best (0.3-0.5) for those
# same from-scratch WNBA seasons, transferred unchanged (never fitted on NHL games). Basketball
# keeps it off: the WNBA gain is ~0.0003, the NBA one < 0.0001, and college levels (~350 teams)
# would make the per-date solve the costliest step of a re-tabulation. Soccer: club-Elo-like
# defaults, untuned.
SPORT_ELO: dict[str, EloParams] = {
    "basketball": EloParams(k=20.0, home=80.0, mov="basketball", revert=0.25, mean=1505.0,
                            early_boost=1.0, early_games=8.0, prior_scale=400.0),
    "hockey": EloParams(k=6.0, home=50.0, mov="hockey", revert=0.3, mean=1505.0,
                        playoff_diff=1.25, early_boost=2.0, early_games=8.0, prior_scale=300.0,
                        margin_weight=0.4),
    "baseball": EloParams(k=3.0, home=20.0, mov="baseball", revert=1 / 3, mean=1500.0,
                          early_boost=1.0, early_games=15.0, prior_scale=400.0,
                          pitcher_scale=10.0, pitcher_shrink=12.0),
    "soccer": EloParams(k=20.0, home=60.0, mov="soccer", revert=0.2, mean=1500.0),
}


def win_expectation(diff: float | np.ndarray) -> float | np.ndarray:
    """Home win expectation for a rating difference ``diff`` (home minus visitor, with every
    adjustment), in points. Elo's logistic curve: 1 / (1 + 10^(-diff/400)). Source: A. Elo,
    *The Rating of Chessplayers* (1978); 538 uses the same curve in every sport."""
    return 1.0 / (1.0 + np.power(10.0, -np.asarray(diff, dtype=float) / ELO_SCALE)) \
        if isinstance(diff, np.ndarray) else 1.0 / (1.0 + 10.0 ** (-diff / ELO_SCALE))


def mov_multiplier(family: str, margin: float, winner_diff: float) -> float:
    """Margin-of-victory multiplier of the K factor.

    ``margin``: winner's score minus loser's (points, goals, runs; 0 for a draw).
    ``winner_diff``: winner's rating minus loser's, with the home advantage, in points; it damps
    the multiplier for favourites (538's autocorrelation correction).
    Sources: basketball ((MOV+3)^0.8 / (7.5 + 0.006 diff)) from 538 NBA Elo; hockey
    (0.6686 ln MOV + 0.8048) x 2.05 / (0.001 diff + 2.05) from 538 NHL; baseball and soccer use
    538 NFL's ln(MOV + 1) x 2.2 / (0.001 diff + 2.2), scaled so a one-run game counts ~1.
    Returns 1 for draws and for family "none".
    """
    if margin <= 0 or family == "none":
        return 1.0
    if family == "basketball":
        return (margin + 3.0) ** 0.8 / (7.5 + 0.006 * winner_diff)
    if family == "hockey":
        return (0.6686 * math.log(margin) + 0.8048) * 2.05 / (0.001 * winner_diff + 2.05)
    damp = 2.2 / (0.001 * winner_diff + 2.2)
    return math.log(margin + 1.0) / math.log(2.0) * damp if family == "baseball" \
        else math.log(margin + 1.0) * damp


def revert(rating: float, params: EloParams) -> float:
    """The rating carried into a new season: ``revert`` of the way back to the mean."""
    return params.mean + (1.0 - params.revert) * (rating - params.mean)


def prior_rating(win_pct: float | None, params: EloParams) -> float:
    """A first-season rating from the previous season's win fraction (0..1), reverted like a
    carried rating; the mean when the record is unknown."""
    if win_pct is None or not np.isfinite(win_pct):
        return params.mean
    return revert(params.mean + params.prior_scale * (win_pct - 0.5), params)


ELO_COLUMNS = ("velo_before", "helo_before", "velo_after", "helo_after", "elo_k", "elo_adjust",
               "elo_points", "velo_change", "helo_change", "velo_win_exp", "helo_win_exp")


def run_elo(games: pd.DataFrame, params: EloParams,
            priors: Mapping[int, float] | None = None,
            pitcher_priors: Mapping[object, tuple[float, float]] | None = None) -> pd.DataFrame:
    """Rate every game in date order and return the elo block per game.

    ``games`` columns: game_id, season, date, home, visitor, score_home, score_vis (NaN when not
    final), neutral (bool), playoff (bool); optional home_sp, vis_sp (starting pitcher ids, or
    None) and home_sp_gs, vis_sp_gs (each starter's game score in this game, read only after
    the game). ``priors``: team id -> previous-season win fraction, for a team's first season here.
    ``pitcher_priors``: starter -> (run residual per start, pseudo-starts), see ``PitcherBook.seed``.
    Returns a DataFrame indexed like the sorted games with ``ELO_COLUMNS`` (the *_after, change
    and points columns are NaN for games without a final score) and ``game_id``.
    ``elo_adjust`` is the home-side adjustment added to the difference (home advantage, playoff
    scaling and pitcher adjustment, in points); ``elo_points`` the points exchanged (>= 0; the
    signed amounts are ``helo_change`` = -``velo_change``); win expectations sum to 1.
    """
    g = games.sort_values(["date", "game_id"], kind="stable").reset_index(drop=True)
    priors = priors or {}
    n = len(g)
    out = np.full((n, len(ELO_COLUMNS)), np.nan)
    rating: dict[int, float] = {}
    team_season: dict[int, int] = {}
    played: dict[int, int] = {}
    book = _pitcher_book(g, params)
    if book is not None and pitcher_priors:
        book.seed(pitcher_priors)
    has_sp = book is not None
    has_gs = has_sp and book.mode == "gamescore"
    cols = [g[c].to_numpy() for c in ("season", "home", "visitor", "score_home", "score_vis")]
    neutral = g["neutral"].fillna(False).to_numpy(dtype=bool)
    playoff = g["playoff"].fillna(False).to_numpy(dtype=bool)
    hsp = g["home_sp"].to_numpy() if has_sp else None
    vsp = g["vis_sp"].to_numpy() if has_sp else None
    hgs = g["home_sp_gs"].to_numpy(float) if has_gs else None
    vgs = g["vis_sp_gs"].to_numpy(float) if has_gs else None
    w = params.margin_weight
    margin_diff = _logit_points(margin_win_exp(g)) if w > 0 else None
    for i in range(n):
        season, h, v = int(cols[0][i]), int(cols[1][i]), int(cols[2][i])
        for t in (h, v):
            if t not in rating:
                rating[t] = prior_rating(priors.get(t), params)
                team_season[t] = season
                played[t] = 0
            elif team_season[t] != season:
                rating[t] = revert(rating[t], params)
                team_season[t] = season
                played[t] = 0
        rh, rv = rating[h], rating[v]
        adjust = 0.0 if neutral[i] else params.home
        if has_sp:
            adjust += book.adjustment(hsp[i], h) - book.adjustment(vsp[i], v)
        diff = rh - rv + adjust
        if playoff[i]:
            diff *= params.playoff_diff
            adjust = diff - (rh - rv)
        elo_diff = diff  # the Elo's own difference: its update uses this expectation
        we_elo = 1.0 / (1.0 + 10.0 ** (-diff / ELO_SCALE))
        if margin_diff is not None and margin_diff[i] == margin_diff[i]:
            # The forecast blends in the margin model (Elo points of its probability);
            # elo_adjust then carries that term too.
            diff = (1.0 - w) * diff + w * margin_diff[i]
            adjust = diff - (rh - rv)
        we = 1.0 / (1.0 + 10.0 ** (-diff / ELO_SCALE))
        k = params.k * (params.playoff_k if playoff[i] else 1.0)
        gp = 0.5 * (played[h] + played[v])
        k *= 1.0 + params.early_boost * math.exp(-gp / params.early_games)
        row = out[i]
        row[0], row[1], row[4], row[5], row[9], row[10] = rv, rh, k, adjust, 1.0 - we, we
        sh, sv = cols[3][i], cols[4][i]
        if sh != sh or sv != sv or sh is None or sv is None:  # NaN: not final
            continue
        result = WIN if sh > sv else LOSS if sh < sv else DRAW
        winner_diff = elo_diff if sh >= sv else -elo_diff
        mult = mov_multiplier(params.mov, abs(float(sh) - float(sv)), winner_diff)
        points = k * mult * (result - we_elo)
        rating[h], rating[v] = rh + points, rv - points
        played[h] += 1
        played[v] += 1
        row[2], row[3], row[6], row[7], row[8] = rv - points, rh + points, abs(points), -points, points
        if has_gs:
            book.record(hsp[i], h, hgs[i])
            book.record(vsp[i], v, vgs[i])
        elif has_sp:
            book.record(hsp[i], h, float(sv))
            book.record(vsp[i], v, float(sh))
    res = pd.DataFrame(out, columns=list(ELO_COLUMNS))
    res.insert(0, "game_id", g["game_id"].to_numpy())
    return res


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
            sse = m_sq - 2.0 * beta @ xty + beta @ xtx @ beta
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


def _logit_points(p: np.ndarray) -> np.ndarray:
    """Elo points of a win probability (the inverse of ``win_expectation``); NaN stays NaN."""
    with np.errstate(divide="ignore", invalid="ignore"):
        q = np.clip(p, 1e-6, 1 - 1e-6)
        return ELO_SCALE * np.log10(q / (1.0 - q))


def _pitcher_book(g: pd.DataFrame, params: EloParams) -> PitcherBook | None:
    """Game-score mode when the games carry starters' game scores, runs mode when they carry
    only the starters, none otherwise (or when the sport's constants switch it off)."""
    if "home_sp" not in g.columns or not g["home_sp"].notna().any():
        return None
    if "home_sp_gs" in g.columns and params.gs_points > 0:
        return PitcherBook("gamescore", params.gs_points, params.gs_alpha, params.gs_team_alpha,
                           params.pitcher_shrink)
    if params.pitcher_scale > 0:
        return PitcherBook("runs", params.pitcher_scale, params.gs_alpha, params.gs_team_alpha,
                           params.pitcher_shrink)
    return None


def with_overrides(params: EloParams, **changes: float | str) -> EloParams:
    """A copy of ``params`` with some constants changed (tuning and tests)."""
    return replace(params, **changes)  # type: ignore[arg-type]
