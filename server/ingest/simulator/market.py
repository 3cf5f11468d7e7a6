"""A bookmaker's lines: money lines with a margin, a spread and a total, opened a day before the
start and closed at it, priced from the teams' hidden strengths plus noise that drifts.

Not every game is priced: each level declares the share a book covers (``LevelPlan.odds``: about
88% at professional levels, fewer the lower the level); a line is only posted once its time has
come by the build clock.
"""
from __future__ import annotations

import datetime as dt
from typing import NamedTuple

import numpy as np

from server.ingest.simulator.writer import ts

VIG = 0.045  # bookmaker margin over the two sides
# (rating scale to a win probability, expected total, margin per probability point, spread step)
_MARKETS = {"baseball": (0.17, 8.8, 3.0, 1.5), "basketball": (0.55, 222.0, 28.0, 0.5),
            "hockey": (0.2, 6.1, 3.0, 1.5), "soccer": (0.3, 2.6, 2.5, 0.25)}
BOOK = "SimBook"


class PricedGame(NamedTuple):
    """What the book knows of a game it prices."""

    game_id: int
    start: dt.datetime
    home_strength: float
    visitor_strength: float
    scoring: float  # the level's scoring scale (the total moves with it)


def american(p: float) -> int:
    """American odds of an implied probability (margin included), rounded like a book's."""
    p = min(max(p, 0.02), 0.98)
    if p >= 0.5:
        return -int(round(100 * p / (1 - p) / 5) * 5)
    return int(round(100 * (1 - p) / p / 5) * 5)


def price(sport: str, coverage: float, rng: np.random.Generator, games: list[PricedGame],
          now: dt.datetime) -> list[tuple[object, ...]]:
    """Odds rows (in the odds table's column order) for the games the book covers."""
    k, total0, margin_k, step = _MARKETS[sport]
    out: list[tuple[object, ...]] = []
    n = len(games)
    if not n:
        return out
    priced = rng.random(n) < coverage
    noise_open = rng.normal(0, 0.035, n)
    drift = rng.normal(0, 0.025, n)
    tot_noise = rng.normal(0, 0.04, n)
    for j, g in enumerate(games):
        if not priced[j]:
            continue
        start = g.start
        fair = 1 / (1 + np.exp(-(k * (g.home_strength - g.visitor_strength) + 0.12)))
        p_open = float(np.clip(fair + noise_open[j], 0.05, 0.95))
        p_close = float(np.clip(fair + 0.5 * noise_open[j] + drift[j], 0.05, 0.95))
        total = round(total0 * g.scoring * (1 + tot_noise[j]) / 0.5) * 0.5
        for taken, p, at in (("open", p_open, start - dt.timedelta(hours=24)), ("close", p_close, start)):
            if at > now:
                continue
            home_ml = american(p + VIG / 2)
            vis_ml = american(1 - p + VIG / 2)
            spread = -round((p - 0.5) * margin_k / step) * step
            if sport in ("baseball", "hockey"):
                spread = -1.5 if p >= 0.5 else 1.5
            out.append((g.game_id, taken, ts(at), BOOK, vis_ml, home_ml, float(spread), float(total)))
    return out
