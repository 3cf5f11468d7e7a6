"""Elo ratings per sport, with the forecast record's elo block for every game.

FiveThirtyEight's family of Elo systems: a logistic win expectation on the rating difference plus
a home advantage (``win_expectation``), an update of ``K x margin multiplier x (result -
expectation)`` (``home_points``), and reversion toward the mean between seasons; with an
early-season K boost, first-season priors from earlier records, baseball's starting-pitcher and
lineup adjustments and an optional in-season margin blend, all from information known before each
game. ``run_elo`` turns a DataFrame of games into the elo block (``server.jobs.retabulate`` feeds
it from the store, the tests from the real files). Where every constant comes from, and each idea
tried with its score, is recorded in ``docs/elo-tuning.md``.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np
import pandas as pd

from server.models.margins import margin_win_exp
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
    early_games: float = 10.0  # games over which the boost decays (see ``early_factor``)
    early_shape: str = "exp"  # decay of the boost: "exp" | "kalman" (see ``early_factor``)
    prior_scale: float = 0.0  # points per unit of previous-season win pct above .500
    gs_points: float = 0.0  # Elo points per game-score point of a starter (538: 4.7); 0 = off
    gs_alpha: float = 0.1  # weight of a start in a pitcher's rolling game score
    gs_team_alpha: float = 0.1  # weight of a start in the team's rolling game score
    gs_debut: float = 0.0  # rolling game score of a starter without history, over the league
    margin_weight: float = 0.0  # weight of the in-season margin model in the win expectation
    tier_gap: float = 0.0  # football: points below the mean per division under the top flight
    # at a club's first match (``server.models.football.first_ratings``)
    promoted_gap: float = 0.0  # football: points below that for a club new to a league here
    # extra K fraction at a team's first game here, decaying over ``first_games`` of its games
    # here (all seasons): a first rating is a guess, not a record (see ``first_factor``)
    first_boost: float = 0.0
    first_games: float = 38.0


# Sources and tuning of every constant: docs/elo-tuning.md (never tuned on the season scored).
SPORT_ELO: dict[str, EloParams] = {
    "basketball": EloParams(k=20.0, home=80.0, mov="basketball", revert=0.25, mean=1505.0,
                            early_boost=1.0, early_games=8.0, prior_scale=400.0),
    "hockey": EloParams(k=6.0, home=50.0, mov="hockey", revert=0.3, mean=1505.0,
                        playoff_diff=1.25, early_boost=2.0, early_games=8.0, early_shape="kalman",
                        prior_scale=300.0, margin_weight=0.4),
    "baseball": EloParams(k=3.0, home=20.0, mov="baseball", revert=1 / 3, mean=1500.0,
                          early_boost=1.0, early_games=15.0, prior_scale=400.0,
                          gs_points=4.7, gs_alpha=0.03, gs_team_alpha=0.05, gs_debut=-3.0,
                          margin_weight=0.1),
    "soccer": EloParams(k=20.0, home=50.0, mov="soccer", revert=0.0, mean=1500.0,
                        early_boost=1.0, tier_gap=300.0, promoted_gap=100.0, first_boost=2.0,
                        first_games=10.0),
}
# National teams: the World Football Elo Ratings (eloratings.net) as published: K by the
# match's importance (the competition's ``elo_k``, a game's ``match_k``; ``k`` here is a
# friendly's), its goal-difference multiplier, 100 points of home advantage unless neutral, no
# reversion, no early boost (server.models.football.rate_soccer).
NATIONAL_ELO = EloParams(k=20.0, home=100.0, mov="eloratings", revert=0.0, mean=1500.0)


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
    if family == "eloratings":  # eloratings.net: 1, 1.5 by two goals, (11 + N) / 8 by N >= 3
        return 1.0 if margin <= 1 else 1.5 if margin == 2 else (11.0 + margin) / 8.0
    if family == "basketball":
        return float((margin + 3.0) ** 0.8) / (7.5 + 0.006 * winner_diff)
    if family == "hockey":
        return (0.6686 * math.log(margin) + 0.8048) * 2.05 / (0.001 * winner_diff + 2.05)
    damp = 2.2 / (0.001 * winner_diff + 2.2)
    return math.log(margin + 1.0) / math.log(2.0) * damp if family == "baseball" \
        else math.log(margin + 1.0) * damp


def early_factor(games_played: float, params: EloParams) -> float:
    """Multiplier of K after ``games_played`` games of the season (the two teams' mean).

    "exp": ``1 + early_boost x exp(-games / early_games)``. "kalman": ``1 + early_boost /
    (1 + games / early_games)``, the shape of a Kalman filter's (or Glicko's) gain for a
    rating whose prior variance shrinks as games inform it: after g games the variance is
    sigma0^2 / (1 + g sigma0^2 / s^2), so the extra gain decays like 1 / (1 + g / tau), more
    slowly in its tail than the exponential. Both give ``1 + early_boost`` at the first game.
    """
    x = games_played / params.early_games
    if params.early_shape == "kalman":
        return 1.0 + params.early_boost / (1.0 + x)
    return 1.0 + params.early_boost * math.exp(-x)


def first_factor(games_here: float, params: EloParams) -> float:
    """Multiplier of K after ``games_here`` games since the teams' first game in the data (the
    two teams' mean): ``1 + first_boost x exp(-games / first_games)``. Unlike the early-season
    boost it does not come back each season: it lets a first rating, which knows nothing of
    the team, move to where its results put it."""
    if params.first_boost == 0.0:
        return 1.0
    return 1.0 + params.first_boost * math.exp(-games_here / params.first_games)


def revert(rating: float, params: EloParams) -> float:
    """The rating carried into a new season: ``revert`` of the way back to the mean."""
    return params.mean + (1.0 - params.revert) * (rating - params.mean)


def prior_rating(win_pct: float | None, params: EloParams, seasons_ago: int = 1) -> float:
    """A first-season rating from an earlier win fraction (0..1), reverted like a carried rating
    once per season between the record and the first season (``seasons_ago``: 1 for the season
    just before; at least 1); the mean when the record is unknown. 538 reverts every rating
    by ``revert`` each off-season, so a record two seasons old has been through it twice."""
    if win_pct is None or not np.isfinite(win_pct):
        return params.mean
    rating = params.mean + params.prior_scale * (win_pct - 0.5)
    for _ in range(max(1, seasons_ago)):
        rating = revert(rating, params)
    return rating


NAN = float("nan")


class EloRow(NamedTuple):
    """The elo block of one game (the forecast record's columns), in points. The *_after,
    points and change fields stay NaN for a game without a final score."""

    velo_before: float
    helo_before: float
    velo_after: float
    helo_after: float
    elo_k: float
    elo_adjust: float
    elo_points: float
    velo_change: float
    helo_change: float
    velo_win_exp: float
    helo_win_exp: float


ELO_COLUMNS = EloRow._fields


def home_points(params: EloParams, k: float, score_home: float, score_vis: float,
                elo_diff: float, expectation: float) -> float:
    """Rating points the home side gains from a final score (the visitor loses as many).

    ``k``: the game's K factor (playoff and early-season multipliers applied); ``elo_diff``:
    home minus visitor with every adjustment, in points; ``expectation``: the home win
    expectation of that difference. 538's update: K x margin multiplier x (result -
    expectation), result 1, 1/2 or 0; the multiplier is damped by the winner's difference.
    """
    result = WIN if score_home > score_vis else LOSS if score_home < score_vis else DRAW
    winner_diff = elo_diff if score_home >= score_vis else -elo_diff
    mult = mov_multiplier(params.mov, abs(float(score_home) - float(score_vis)), winner_diff)
    return k * mult * (result - expectation)


def run_elo(games: pd.DataFrame, params: EloParams,
            priors: Mapping[int, float] | None = None,
            pitcher_priors: Mapping[object, tuple[float, float]] | None = None,
            prior_age: Mapping[int, int] | None = None,
            initial: Mapping[int, float] | None = None) -> pd.DataFrame:
    """Rate every game in date order and return the elo block per game.

    ``games`` columns: game_id, season, date, home, visitor, score_home, score_vis (NaN when not
    final), neutral (bool), playoff (bool); optional home_sp, vis_sp (starting pitcher ids, or
    None) and home_sp_gs, vis_sp_gs (each starter's game score in this game, read only after
    the game); optional lineup_adjust (home-minus-visitor lineup points known before the game,
    ``server.models.lineups``); optional match_k (the game's own K in place of ``params.k``:
    a national team match's importance). ``priors``: team id -> earlier win fraction, for a team's first
    season here; ``prior_age``: team id -> seasons between that record and the first season
    (1 when absent); ``initial``: team id -> rating at its first game here, in place of any
    prior (football's first rating by division). ``pitcher_priors``: starter -> (game-score
    deviation, starts), see ``server.models.pitchers.pitcher_seeds``.
    Returns a DataFrame indexed like the sorted games with ``game_id`` and ``ELO_COLUMNS``
    (``EloRow``). ``elo_adjust`` is the home-side adjustment added to the difference (home
    advantage, playoff scaling, pitcher and lineup adjustments, margin blend, in points);
    ``elo_points`` the points exchanged (>= 0; the signed amounts are ``helo_change`` =
    -``velo_change``); win expectations sum to 1.
    """
    g = games.sort_values(["date", "game_id"], kind="stable").reset_index(drop=True)
    priors = priors or {}
    prior_age = prior_age or {}
    initial = initial or {}
    rows: list[EloRow] = []
    rating: dict[int, float] = {}
    team_season: dict[int, int] = {}
    played: dict[int, int] = {}
    here: dict[int, int] = {}  # games since the team's first here (``first_factor``)
    book = _pitcher_book(g, params)
    if book is not None and pitcher_priors:
        book.seed(pitcher_priors)
    seasons, homes, visitors, scores_home, scores_vis = (
        g[c].to_numpy() for c in ("season", "home", "visitor", "score_home", "score_vis"))
    neutral = g["neutral"].fillna(False).to_numpy(dtype=bool)
    playoff = g["playoff"].fillna(False).to_numpy(dtype=bool)
    hsp = g["home_sp"].to_numpy() if book is not None else np.empty(0)
    vsp = g["vis_sp"].to_numpy() if book is not None else np.empty(0)
    hgs = g["home_sp_gs"].to_numpy(float) if book is not None else np.empty(0)
    vgs = g["vis_sp_gs"].to_numpy(float) if book is not None else np.empty(0)
    lineup = g["lineup_adjust"].to_numpy(float) if "lineup_adjust" in g.columns else None
    match_k = g["match_k"].to_numpy(float) if "match_k" in g.columns else None
    w = params.margin_weight
    margin_diff = _logit_points(margin_win_exp(g)) if w > 0 else None
    for i in range(len(g)):
        season, h, v = int(seasons[i]), int(homes[i]), int(visitors[i])
        for t in (h, v):
            if t not in rating:
                rating[t] = initial[t] if t in initial \
                    else prior_rating(priors.get(t), params, prior_age.get(t, 1))
                team_season[t] = season
                played[t] = 0
                here[t] = 0
            elif team_season[t] != season:
                rating[t] = revert(rating[t], params)
                team_season[t] = season
                played[t] = 0
        rh, rv = rating[h], rating[v]
        adjust = 0.0 if neutral[i] else params.home
        if book is not None:
            adjust += book.adjustment(hsp[i], h) - book.adjustment(vsp[i], v)
        if lineup is not None and lineup[i] == lineup[i]:
            adjust += lineup[i]
        diff = rh - rv + adjust
        if playoff[i]:
            diff *= params.playoff_diff
            adjust = diff - (rh - rv)
        elo_diff = diff  # the Elo's own difference: its update uses this expectation
        if margin_diff is not None and margin_diff[i] == margin_diff[i]:
            # The forecast blends in the margin model (Elo points of its probability);
            # elo_adjust then carries that term too.
            diff = (1.0 - w) * diff + w * margin_diff[i]
            adjust = diff - (rh - rv)
        we = float(win_expectation(diff))
        base_k = match_k[i] if match_k is not None and match_k[i] == match_k[i] else params.k
        k = base_k * (params.playoff_k if playoff[i] else 1.0)
        k *= early_factor(0.5 * (played[h] + played[v]), params)
        k *= first_factor(0.5 * (here[h] + here[v]), params)
        sh, sv = scores_home[i], scores_vis[i]
        if sh is None or sv is None or math.isnan(sh) or math.isnan(sv):  # not final: no update
            rows.append(EloRow(velo_before=rv, helo_before=rh, velo_after=NAN, helo_after=NAN,
                               elo_k=k, elo_adjust=adjust, elo_points=NAN, velo_change=NAN,
                               helo_change=NAN, velo_win_exp=1.0 - we, helo_win_exp=we))
            continue
        points = home_points(params, k, sh, sv, elo_diff, float(win_expectation(elo_diff)))
        rating[h], rating[v] = rh + points, rv - points
        played[h] += 1
        played[v] += 1
        here[h] += 1
        here[v] += 1
        rows.append(EloRow(velo_before=rv, helo_before=rh, velo_after=rv - points,
                           helo_after=rh + points, elo_k=k, elo_adjust=adjust,
                           elo_points=abs(points), velo_change=-points, helo_change=points,
                           velo_win_exp=1.0 - we, helo_win_exp=we))
        if book is not None:
            book.record(hsp[i], h, hgs[i])
            book.record(vsp[i], v, vgs[i])
    block = np.array(rows, dtype=float).reshape(len(rows), len(ELO_COLUMNS))
    res = pd.DataFrame(block, columns=list(ELO_COLUMNS))
    res.insert(0, "game_id", g["game_id"].to_numpy())
    return res


def _logit_points(p: np.ndarray) -> np.ndarray:
    """Elo points of a win probability (the inverse of ``win_expectation``); NaN stays NaN."""
    with np.errstate(divide="ignore", invalid="ignore"):
        q: np.ndarray = np.clip(p, 1e-6, 1 - 1e-6)
        return ELO_SCALE * np.log10(q / (1.0 - q))


def _pitcher_book(g: pd.DataFrame, params: EloParams) -> PitcherBook | None:
    """538's rolling game-score book when the games carry starters and their game scores and
    the sport's constants switch it on; None otherwise."""
    if "home_sp" not in g.columns or "home_sp_gs" not in g.columns or params.gs_points <= 0 \
            or not g["home_sp"].notna().any():
        return None
    return PitcherBook(params.gs_points, params.gs_alpha, params.gs_team_alpha, params.gs_debut)


def with_overrides(params: EloParams, **changes: float | str) -> EloParams:
    """A copy of ``params`` with some constants changed (tuning and tests)."""
    # mypy checks ``replace``'s keywords against every field's type; the overrides mix floats
    # and the ``mov`` family name by design, so the union cannot match each field.
    return replace(params, **changes)  # type: ignore[arg-type]
