"""Football's three outcomes from the Elo ratings: home win, draw, away win; their scores.

``server.models.elo`` rates clubs with the sport's declared constants (``SPORT_ELO["soccer"]``:
K, home advantage, eloratings.net's goal-difference multiplier, reversion between seasons, a
first rating by division). A football match can be drawn, which a two-outcome expectation
cannot say, so the rating difference ``d`` (home minus away, home advantage included) becomes
three chances by an ordered logit on Elo's own logistic scale (docs/models.md, "Football"):

    x = d ln(10) / 400            (the log-odds of Elo's win expectation)
    P(home) = s(b x - c),   P(away) = s(-b x - c),   P(draw) = 1 - P(home) - P(away)

with ``s`` the logistic function, ``c`` the draw threshold (the draw chance of two equal sides
is 1 - 2 s(-c)) and ``b`` the slope. Both are fitted by maximum likelihood on seasons that are
never scored against SPI (``fit_draw_model``) and declared in ``SOCCER_DRAW``. The three
chances are scored by ranked probability score, log loss and the three-outcome Brier score.
National teams are rated apart, by the World Football Elo Ratings' rules (``rate_soccer``).
For clubs the forecast blends these chances with a goal model's
(``server.models.football_goals``).
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from server.models.elo import ELO_SCALE, NATIONAL_ELO, EloParams, run_elo
from server.models.metrics import CALIBRATION_BINS

HOME, DRAW, AWAY = 0, 1, 2  # outcome codes, in the order the ranked probability score needs


@dataclass(frozen=True)
class DrawModel:
    """The ordered logit's constants: ``slope`` b on the Elo log-odds, ``threshold`` c."""

    slope: float
    threshold: float


# Fitted by ``fit_draw_model`` on 2023-24 and 2024-25 (the ten leagues' 6,808 league-round
# matches, ratings from ``SPORT_ELO["soccer"]``): never on the seasons scored against SPI
# (docs/models.md; bench/football_tuning.py prints the fit).
SOCCER_DRAW = DrawModel(slope=0.9531, threshold=0.6159)


def log_odds(diff: np.ndarray) -> np.ndarray:
    """Elo points of difference -> the log-odds of Elo's win expectation."""
    return np.asarray(diff, dtype=float) * math.log(10.0) / ELO_SCALE


def three_way(diff: np.ndarray, model: DrawModel = SOCCER_DRAW) -> np.ndarray:
    """(n, 3) chances of home win, draw, away win for rating differences ``diff`` (home minus
    away with the home advantage, Elo points); each row sums to 1."""
    x = model.slope * log_odds(diff)
    home = 1.0 / (1.0 + np.exp(-(x - model.threshold)))
    away = 1.0 / (1.0 + np.exp(-(-x - model.threshold)))
    return np.column_stack([home, 1.0 - home - away, away])


def with_outcomes(matches: pd.DataFrame) -> pd.DataFrame:
    """Matches (``score_home``, ``score_vis``) with their outcome code as ``outcome``."""
    return matches.assign(outcome=outcomes(matches["score_home"].to_numpy(float),
                                           matches["score_vis"].to_numpy(float)))


def outcomes(score_home: np.ndarray, score_away: np.ndarray) -> np.ndarray:
    """Outcome codes (``HOME``, ``DRAW``, ``AWAY``) of final scores."""
    h, a = np.asarray(score_home, dtype=float), np.asarray(score_away, dtype=float)
    return np.where(h > a, HOME, np.where(h < a, AWAY, DRAW)).astype(int)


def forecast_columns(elo: pd.DataFrame, model: DrawModel = SOCCER_DRAW) -> pd.DataFrame:
    """The forecast record's three chances from the elo block (``run_elo``'s frame): the
    difference each game's expectation used, before the game."""
    diff = (elo["helo_before"] - elo["velo_before"] + elo["elo_adjust"]).to_numpy(float)
    p = three_way(diff, model)
    return pd.DataFrame({"game_id": elo["game_id"].to_numpy(), "elo_home_prob": p[:, HOME],
                         "elo_draw_prob": p[:, DRAW], "elo_vis_prob": p[:, AWAY]})


def club_debuts(games: pd.DataFrame, tier_of: Mapping[int, int]) -> dict[int, tuple[int, bool]]:
    """Each club's start here: (divisions below the top flight of its first match's league,
    whether it was new to a league already here). ``tier_of``: sublevel ID -> 1 for a top
    flight, 2 for the next, ...; 1 when unknown. A club new to a league in a later season than
    the league's first here came up from a division the files do not hold (a promoted club),
    which is known before its first match; the clubs of a league's first season here are just
    its clubs."""
    ordered = games.sort_values(["date", "game_id"], kind="stable")
    subs = pd.to_numeric(ordered["sublevel_id"], errors="coerce").fillna(0).astype("int64")
    first_season: dict[int, int] = {}  # league -> its first season here
    out: dict[int, tuple[int, bool]] = {}
    for home, vis, sub, season in zip(ordered["home"].to_numpy(), ordered["visitor"].to_numpy(),
                                      subs.to_numpy(), ordered["season"].to_numpy()):
        league = int(sub)
        started = first_season.setdefault(league, int(season))
        debut = (tier_of.get(league, 1) - 1, league in tier_of and int(season) > started)
        for team in (int(home), int(vis)):
            out.setdefault(team, debut)
    return out


def first_ratings(games: pd.DataFrame, tier_of: Mapping[int, int], params: EloParams
                  ) -> dict[int, float]:
    """Each club's rating at its first match here: the mean, less ``params.tier_gap`` for every
    division its first match's league sits below the top flight, and ``params.promoted_gap``
    less for a club new to a league already here (``club_debuts``). Without them a club
    promoted into a league would bring the rating it earned against weaker clubs, as if two
    divisions were one, or start as its new league's average club."""
    if params.tier_gap == 0.0 or not tier_of:
        return {}
    return {team: params.mean - params.tier_gap * below - params.promoted_gap * promoted
            for team, (below, promoted) in club_debuts(games, tier_of).items()}


def rate_soccer(games: pd.DataFrame, params: EloParams, tier_of: Mapping[int, int],
                national_k: Mapping[int, float], priors: Mapping[int, float] | None = None,
                prior_age: Mapping[int, int] | None = None) -> pd.DataFrame:
    """The elo block of a football level's games: clubs rated with ``params`` (first ratings
    by division), national teams apart with the World Football Elo Ratings' rules
    (``NATIONAL_ELO``, each match's K its competition's, ``national_k``: sublevel ID -> K).
    The two never meet, so two pools: a club's rating is never set against a nation's."""
    subs = pd.to_numeric(games["sublevel_id"], errors="coerce").fillna(0).astype("int64")
    national = subs.isin(list(national_k)).to_numpy()
    clubs = games[~national]
    out = [run_elo(clubs, params, priors, None, prior_age, first_ratings(clubs, tier_of, params))]
    if national.any():
        nations = games[national].assign(match_k=subs[national].map(national_k).to_numpy(float))
        out.append(run_elo(nations, NATIONAL_ELO))
    return pd.concat(out, ignore_index=True) if len(out) > 1 else out[0]


def unranked_nations(games: pd.DataFrame, national_k: Mapping[int, float],
                     ranked_by: frozenset[int]) -> set[int]:
    """The national teams that never played a match of the ``ranked_by`` competitions (sublevel
    IDs: the World Cup and its qualification, which FIFA's members enter): a pool apart, whose
    ratings are not comparable with the ranked nations' (``server.catalog.football.
    internationals.RANKED_BY``)."""
    subs = pd.to_numeric(games["sublevel_id"], errors="coerce").fillna(0).astype("int64")
    national = games[subs.isin(list(national_k)).to_numpy()]
    ranked = games[subs.isin(list(ranked_by)).to_numpy()]
    every = set(national["home"].astype(int)) | set(national["visitor"].astype(int))
    return every - set(ranked["home"].astype(int)) - set(ranked["visitor"].astype(int))


# ---------------------------------------------------------------- scores


def ranked_probability_score(p: np.ndarray, y: np.ndarray) -> float:
    """Mean ranked probability score of (n, 3) chances ordered home, draw, away against outcome
    codes: half the sum of squared differences of the cumulative distributions (Epstein 1969;
    the football form of Constantinou and Fenton 2012). 0 is perfect; lower is better."""
    onehot = np.eye(3)[np.asarray(y, dtype=int)]
    cum = np.cumsum(p, axis=1)[:, :2] - np.cumsum(onehot, axis=1)[:, :2]
    return float(np.mean(0.5 * np.sum(cum ** 2, axis=1)))


def log_loss3(p: np.ndarray, y: np.ndarray) -> float:
    """Mean negative log of the chance given to what happened (natural log)."""
    chosen = np.asarray(p, dtype=float)[np.arange(len(y)), np.asarray(y, dtype=int)]
    return float(-np.mean(np.log(np.clip(chosen, 1e-15, 1.0))))


def brier3(p: np.ndarray, y: np.ndarray) -> float:
    """Mean three-outcome Brier score: the sum over outcomes of the squared error (0 to 2)."""
    onehot = np.eye(3)[np.asarray(y, dtype=int)]
    return float(np.mean(np.sum((np.asarray(p, dtype=float) - onehot) ** 2, axis=1)))


def scores(p: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """Count, ranked probability score, log loss and Brier score of three-way chances."""
    return {"count": float(len(y)), "rps": ranked_probability_score(p, y),
            "log_loss": log_loss3(p, y), "brier": brier3(p, y)}


OUTCOME_NAMES = ("home", "draw", "away")  # in the order of the outcome codes


def outcome_calibration(p: np.ndarray, y: np.ndarray, bins: int = CALIBRATION_BINS
                        ) -> list[dict[str, Any]]:
    """Each outcome's calibration in ``calibration``'s equal-width bins: outcome name, bin, its
    edges, count, mean chance given and how often that outcome happened (NaN for an empty bin).

    Counted with ``np.bincount``, not one small DataFrame per outcome: the ``outcomes``
    endpoint asks for 2-3 of these per league and forecaster, and building, assigning and
    joining those frames was half of its time (figures in ``server.endpoints.outcomes``)."""
    y = np.asarray(y, dtype=int)
    out: list[dict[str, Any]] = []
    for code, name in enumerate(OUTCOME_NAMES):
        chance = np.asarray(p[:, code], dtype=float)
        idx = np.minimum((chance * bins).astype(int), bins - 1)
        count = np.bincount(idx, minlength=bins)
        given = np.bincount(idx, weights=chance, minlength=bins)
        happened = np.bincount(idx, weights=(y == code).astype(float), minlength=bins)
        for b in range(bins):
            n = int(count[b])
            out.append({"bin": b, "low": b / bins, "high": (b + 1) / bins, "count": n,
                        "mean_predicted": float(given[b] / n) if n else float("nan"),
                        "observed": float(happened[b] / n) if n else float("nan"),
                        "outcome": name})
    return out


def fit_draw_model(diff: np.ndarray, y: np.ndarray) -> DrawModel:
    """Maximum-likelihood slope and threshold of the ordered logit for rating differences and
    outcomes (Newton's method on the two constants, from b = 1, c = 0.5)."""
    x = log_odds(diff)
    b, c = 1.0, 0.5
    for _ in range(50):
        grad, hess = _loglik_derivatives(x, np.asarray(y, dtype=int), b, c)
        step = np.linalg.solve(hess, grad)
        b, c = b - step[0], c - step[1]
        if float(np.max(np.abs(step))) < 1e-9:
            break
    return DrawModel(slope=round(float(b), 4), threshold=round(float(c), 4))


def _loglik_derivatives(x: np.ndarray, y: np.ndarray, b: float, c: float
                        ) -> tuple[np.ndarray, np.ndarray]:
    """Gradient and Hessian of the log-likelihood in (b, c), by central differences of the
    analytic gradient (two constants: exact enough, and short)."""
    def grad(bb: float, cc: float) -> np.ndarray:
        return np.array(_gradient(x, y, bb, cc))
    h = 1e-5
    g0 = grad(b, c)
    hess = np.column_stack([(grad(b + h, c) - grad(b - h, c)) / (2 * h),
                            (grad(b, c + h) - grad(b, c - h)) / (2 * h)])
    return g0, hess


def _gradient(x: np.ndarray, y: np.ndarray, b: float, c: float) -> tuple[float, float]:
    sh = 1.0 / (1.0 + np.exp(-(b * x - c)))  # P(home)
    sa = 1.0 / (1.0 + np.exp(-(-b * x - c)))  # P(away)
    pd_ = np.clip(1.0 - sh - sa, 1e-12, None)
    dh_db, dh_dc = sh * (1 - sh) * x, -sh * (1 - sh)
    da_db, da_dc = -sa * (1 - sa) * x, -sa * (1 - sa)
    gb = np.where(y == HOME, dh_db / sh, np.where(y == AWAY, da_db / sa, -(dh_db + da_db) / pd_))
    gc = np.where(y == HOME, dh_dc / sh, np.where(y == AWAY, da_dc / sa, -(dh_dc + da_dc) / pd_))
    return float(np.sum(gb)), float(np.sum(gc))
