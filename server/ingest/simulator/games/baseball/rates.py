"""Every probability and limit of a simulated baseball game, by name.

The outcome of a plate appearance comes from ``rules.BASEBALL_PA`` (MLB-like rates per plate
appearance), tilted by the two teams' strengths and home field (``outcome_bounds``); what the
runners, the fielders and the managers do then comes from ``RATES``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from server.catalog.simulated import BASEBALL_PA

OUTCOMES = tuple(BASEBALL_PA)  # K, BB, HBP, 1B, 2B, 3B, HR, E, GO, FO
_BASE_P = np.array([BASEBALL_PA[k] for k in OUTCOMES])
_ON_BASE = np.array([k in ("BB", "HBP", "1B", "2B", "3B", "HR") for k in OUTCOMES])


@dataclass(frozen=True)
class BaseballRates:
    """Chances (0-1), pitch counts and margins, each used by one event or decision."""

    bench_start: float = 0.1  # a bench player starts in a given lineup slot
    strength_effect: float = 0.09  # log change in on-base rates per unit of strength difference
    steal_attempt: float = 0.045  # before a plate appearance, runner on first only, < 2 out
    steal_success: float = 0.77
    single_scores_from_second: float = 0.6
    single_first_to_third: float = 0.28  # when the runner from second stopped short of third
    double_scores_from_first: float = 0.42
    double_play: float = 0.45  # a grounder with a runner on first and fewer than two out
    grounder_scores_from_third: float = 0.5  # fewer than two out, bases not loaded
    sacrifice_fly: float = 0.55  # an outfield fly with a runner on third and fewer than two out
    starter_pitches: float = 90.0  # a starter's limit: this plus up to ``starter_pitches_spread``
    starter_pitches_spread: float = 15.0
    starter_runs: int = 6  # runs allowed that take a starter out at once
    reliever_pitches: float = 15.0  # a reliever's limit beyond his pitches so far, plus up to
    reliever_pitches_spread: float = 20.0  # ``reliever_pitches_spread``
    reliever_outs: int = 3  # outs after which a reliever gives way at the next half inning
    spent_bullpen_pitches: float = 30.0  # with nobody left to bring in, the limit moves by this
    save_margin: int = 3  # the most a finishing reliever may lead by for a save


RATES = BaseballRates()


def outcome_bounds(offense: float, defense: float, home: bool, scoring: float, home_edge: float,
                   rates: BaseballRates = RATES) -> list[float]:
    """Cumulative chances of the outcomes (in ``OUTCOMES`` order) for one side at bat.

    On-base outcomes scale by exp(strength_effect x strength difference, plus the home edge)
    times the level's scoring factor; the outs and errors shrink so the chances still sum to 1.
    """
    f = np.exp(rates.strength_effect * (offense - defense) + (home_edge if home else 0.0)) * scoring
    p = np.where(_ON_BASE, _BASE_P * f, _BASE_P)
    p[~_ON_BASE] *= (1 - p[_ON_BASE].sum()) / p[~_ON_BASE].sum()
    cumulative: list[float] = np.cumsum(p).tolist()
    return cumulative
