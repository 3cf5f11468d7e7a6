"""League strength from the matches between leagues: the spec's ``LeagueFactor`` (0 to 1).

A domestic league's clubs play only each other, so their results say nothing of how strong the
league is; the European cups are where its clubs meet other leagues' clubs. Each cup match is
read as a result between two groups: a club's domestic league that season (a sublevel we hold),
or, for a club whose league we do not hold, its nation. One rating per group is fitted by
maximum likelihood, on the Elo scale, to every result: the expected score of the home side is
``1 / (1 + 10 ** (-(r_home - r_away + home) / 400))`` (``home`` the soccer Elo's home
advantage, none at a neutral final), a win scores 1, a draw (a shoot-out included) 0.5. A weak
normal prior (``PRIOR_SD`` points) holds a group with few matches near the middle.

The factor of a league is twice the expected score of its group against the strongest league's
on neutral ground: 1.0 for the strongest, 0.5 for a league whose clubs score a quarter against
it, near 0 for one far below. It measures the league's clubs that reach Europe, the only ones
the matches show; a league with fewer than ``MIN_MATCHES`` such matches has none (null).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from server.models.elo import SPORT_ELO

PRIOR_SD = 200.0  # points: a group's rating before its matches say otherwise
MIN_MATCHES = 20  # cup matches against other groups before a league gets a factor
HOME = SPORT_ELO["soccer"].home  # the soccer Elo's home advantage, points
_SCALE = np.log(10) / 400


@dataclass(frozen=True)
class Result:
    """A match between two groups: ``score`` the home side's (1 win, 0.5 draw, 0 loss)."""
    home: str
    away: str
    score: float
    neutral: bool = False


def ratings(results: Sequence[Result], iterations: int = 50) -> dict[str, float]:
    """Each group's fitted rating (points, mean 0 under the prior), by Newton's method on the
    penalised log-likelihood; matches within one group say nothing and are left out."""
    between = [r for r in results if r.home != r.away]
    groups = sorted({g for r in between for g in (r.home, r.away)})
    if not groups:
        return {}
    index = {g: i for i, g in enumerate(groups)}
    h = np.array([index[r.home] for r in between])
    a = np.array([index[r.away] for r in between])
    y = np.array([r.score for r in between], dtype=float)
    adv = np.array([0.0 if r.neutral else HOME for r in between])
    n = len(groups)
    rating = np.zeros(n)
    precision = 1.0 / PRIOR_SD ** 2
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-_SCALE * (rating[h] - rating[a] + adv)))
        resid = _SCALE * (y - p)
        grad = np.zeros(n)
        np.add.at(grad, h, resid)
        np.add.at(grad, a, -resid)
        grad -= precision * rating
        w = _SCALE ** 2 * p * (1 - p)
        hess = np.zeros((n, n))
        np.add.at(hess, (h, h), -w)
        np.add.at(hess, (a, a), -w)
        np.add.at(hess, (h, a), w)
        np.add.at(hess, (a, h), w)
        hess -= precision * np.eye(n)
        step = np.linalg.solve(hess, grad)
        rating -= step
        if np.max(np.abs(step)) < 1e-6:
            break
    return {g: float(rating[index[g]]) for g in groups}


def factors(results: Sequence[Result], leagues: Sequence[str]) -> dict[str, float | None]:
    """``LeagueFactor`` of each of ``leagues`` (groups): twice its expected score against the
    strongest of them on neutral ground; None for a league with fewer than ``MIN_MATCHES``
    matches against other groups."""
    fitted = ratings(results)
    played: Mapping[str, int] = _counts(results)
    rated = {g: fitted[g] for g in leagues if played.get(g, 0) >= MIN_MATCHES}
    if not rated:
        return {g: None for g in leagues}
    top = max(rated.values())
    return {g: (round(2.0 / (1.0 + 10 ** ((top - rated[g]) / 400)), 4) if g in rated else None)
            for g in leagues}


def _counts(results: Sequence[Result]) -> dict[str, int]:
    out: dict[str, int] = {}
    for r in results:
        if r.home != r.away:
            out[r.home] = out.get(r.home, 0) + 1
            out[r.away] = out.get(r.away, 0) + 1
    return out
