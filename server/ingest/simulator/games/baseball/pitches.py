"""Pitch sequences for simulated plate appearances, drawn once from a count-by-count model.

A plate appearance first draws how it ends (strikeout, walk, hit by pitch or a ball in play) and
then one sequence that ends that way from a pool built here, so every count and pitch is
consistent with the outcome. Codes are Retrosheet's: B ball, C called strike, S swinging strike,
F foul, X in play, H hit by pitch.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from server.catalog.pitches import PITCH_CODES

RESULTS = {code: PITCH_CODES[code][0] for code in "BCSFXH"}  # what each drawn code means


@dataclass(frozen=True)
class PitchRates:
    """What one pitch does, whatever the count (the rest are put in play)."""

    ball: float = 0.355
    called_strike: float = 0.17
    swinging_strike: float = 0.11
    foul: float = 0.28  # a strike until two, then the count stays
    hit_by_pitch: float = 0.003


PITCH_RATES = PitchRates()


class PitchSequence(NamedTuple):
    codes: str  # one code a pitch
    the_count: str  # "balls-strikes" before the last pitch
    counts: list[tuple[int, int]]  # (balls, strikes) before each pitch


def _build_pools(n: int = 24000, rates: PitchRates = PITCH_RATES) -> dict[str, list[PitchSequence]]:
    """``n`` sequences from a fixed seed, by how they end: K, BB, HBP or X (in play)."""
    rng = np.random.default_rng(20260101)
    u = rng.random(n * 16).tolist()
    # Cumulative bounds, in this order; the sums land exactly on 0.525, 0.635, 0.915, 0.918.
    ball = rates.ball
    called = ball + rates.called_strike
    swinging = called + rates.swinging_strike
    foul = swinging + rates.foul
    hbp = foul + rates.hit_by_pitch
    i = 0
    pools: dict[str, list[PitchSequence]] = {"K": [], "BB": [], "HBP": [], "X": []}
    for _ in range(n):
        b = s = 0
        codes = []
        counts = []
        while True:
            r = u[i]
            i += 1
            counts.append((b, s))
            if r < ball:
                codes.append("B")
                b += 1
                if b == 4:
                    kind = "BB"
                    break
            elif r < called:
                codes.append("C")
                s += 1
                if s == 3:
                    kind = "K"
                    break
            elif r < swinging:
                codes.append("S")
                s += 1
                if s == 3:
                    kind = "K"
                    break
            elif r < foul:
                codes.append("F")
                s = min(2, s + 1)
            elif r < hbp:
                codes.append("H")
                kind = "HBP"
                break
            else:
                codes.append("X")
                kind = "X"
                break
        last = counts[-1]
        pools[kind].append(PitchSequence("".join(codes), f"{last[0]}-{last[1]}", counts))
    return pools


POOLS = _build_pools()
POOL_SIZES = {k: len(v) for k, v in POOLS.items()}
