"""Pitch sequences for simulated plate appearances, drawn once from a count-by-count model.

A plate appearance first draws how it ends (strikeout, walk, hit by pitch or a ball in play) and
then one sequence that ends that way from a pool built here, so every count and pitch is
consistent with the outcome. Codes are Retrosheet's: B ball, C called strike, S swinging strike,
F foul, X in play, H hit by pitch.
"""
from __future__ import annotations

from collections.abc import Iterator
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


class _Bounds(NamedTuple):
    """Where a uniform draw stops meaning each pitch, cumulative in this order (above ``hbp``: in
    play); the sums land exactly on 0.525, 0.635, 0.915, 0.918."""

    ball: float
    called: float
    swinging: float
    foul: float
    hbp: float


def _bounds(rates: PitchRates) -> _Bounds:
    ball = rates.ball
    called = ball + rates.called_strike
    swinging = called + rates.swinging_strike
    foul = swinging + rates.foul
    return _Bounds(ball, called, swinging, foul, foul + rates.hit_by_pitch)


def _pitch(r: float, bounds: _Bounds) -> str:
    """The pitch a uniform draw ``r`` is."""
    if r < bounds.ball:
        return "B"
    if r < bounds.called:
        return "C"
    if r < bounds.swinging:
        return "S"
    if r < bounds.foul:
        return "F"
    return "H" if r < bounds.hbp else "X"


_ENDS_ON_ITS_PITCH = {"H": "HBP", "X": "X"}  # the other ends: the fourth ball, the third strike


def _sequence(draws: Iterator[float], bounds: _Bounds) -> tuple[str, PitchSequence]:
    """One plate appearance, a pitch a draw until it ends; how it ended (K, BB, HBP or X) and
    its sequence. A foul is a strike until two, then the count stays."""
    balls = strikes = 0
    codes: list[str] = []
    counts: list[tuple[int, int]] = []
    while True:
        counts.append((balls, strikes))
        code = _pitch(next(draws), bounds)
        codes.append(code)
        if code == "B":
            balls += 1
        elif code == "C" or code == "S":
            strikes += 1
        elif code == "F":
            strikes = min(2, strikes + 1)
        end = "BB" if balls == 4 else "K" if strikes == 3 else _ENDS_ON_ITS_PITCH.get(code)
        if end is not None:
            last = counts[-1]  # the count the last pitch was thrown in
            return end, PitchSequence("".join(codes), f"{last[0]}-{last[1]}", counts)


def _build_pools(n: int = 24000, rates: PitchRates = PITCH_RATES) -> dict[str, list[PitchSequence]]:
    """``n`` sequences from a fixed seed, by how they end: K, BB, HBP or X (in play)."""
    rng = np.random.default_rng(20260101)
    draws = iter(rng.random(n * 16).tolist())
    bounds = _bounds(rates)
    pools: dict[str, list[PitchSequence]] = {"K": [], "BB": [], "HBP": [], "X": []}
    for _ in range(n):
        end, sequence = _sequence(draws, bounds)
        pools[end].append(sequence)
    return pools


POOLS = _build_pools()
POOL_SIZES = {k: len(v) for k, v in POOLS.items()}
