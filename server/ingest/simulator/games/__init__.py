"""Game simulators, one per sport, and what they hand back.

Each simulator plays one game from its own random stream and returns a ``GameOut``: the score,
the plays (every run, point or goal of the score is a play's ``points``), the pitches where
the sport has them, and the player lines. Team lines are the sums of the player lines, so the
box score, the play-by-play and the lines agree by construction.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, NamedTuple

import numpy as np

from server.catalog.simulated import LevelPlan
from server.ingest.simulator.world import Person


class Play(NamedTuple):
    """One play-by-play event, in the plays table's column order (less the game's keys).

    The last eight fields are baseball's (the count before the last pitch, the hands, the pitch
    codes, the outs and runners after the play as the plays table holds them, and before it);
    other sports leave them out. The busiest simulators build plays with ``new_play``.
    """

    period: int
    half: str | None  # "top" or "bottom" (baseball)
    clock: str | None  # time left in the period, or the match minute
    side: int  # 0 visitor, 1 home: the team the play is credited to
    player: int | None
    pitcher: int | None
    event: str
    explanation: str
    scoring: bool
    points: int  # runs, points or goals the play adds to ``side``'s score
    tags: str
    the_count: str | None = None
    pitcher_hand: str | None = None
    batter_hand: str | None = None
    sequence: str | None = None
    outs: int | None = None
    bases: int | None = None  # bits: 1 first, 2 second, 4 third
    outs_before: int | None = None  # the outs and runners the play began with
    bases_before: int | None = None


# A Play from all nineteen fields in order, made in C: NamedTuple's own constructor is a Python
# function, and the basketball and baseball loops make most of a build's plays (about 8% of an
# NBA level's build time when they called Play(...)). No defaults: baseball's eight come as None.
new_play: Callable[[tuple[Any, ...]], Play] = partial(tuple.__new__, Play)


class PlayerLine(NamedTuple):
    """One player's box-score line in a game."""

    player: int
    side: int  # 0 visitor, 1 home
    starter: bool
    position: str
    stats: dict[str, int]  # stat code -> value, zeros left out (see ``clean``)
    slot: int | None = None  # baseball: his place in the batting order (1-9); None for pitchers


class PlatePitches(NamedTuple):
    """The pitches of one plate appearance (baseball)."""

    play_index: int  # index into ``GameOut.plays`` of the play that ends the plate appearance
    inning: int
    half: int  # 0 top, 1 bottom
    pitcher: int
    batter: int
    codes: str  # one Retrosheet pitch code a pitch
    counts: list[tuple[int, int]]  # (balls, strikes) before each pitch


@dataclass
class GameIn:
    plan: LevelPlan
    people: dict[int, Person]
    rosters: tuple[list[int], list[int]]  # (visitor, home) roster player ids on the game day
    strength: tuple[float, float]
    team_games: tuple[int, int]  # games each team played before this one (pitching rotation)
    names: tuple[str, str]  # team nicknames for play text
    playoff: bool
    cut: float  # fraction of the game played (1.0: final)


@dataclass
class GameOut:
    score: list[int]  # [visitor, home]
    periods: int
    overtime: str | None
    status: str  # "Final" or the in-game clock
    plays: list[Play]
    lines: list[PlayerLine]
    line_score: dict[str, list[int]]
    winner: int | None  # side, None for a tie or an unfinished game
    pitches: list[PlatePitches] = field(default_factory=list)
    info: dict[str, Any] = field(default_factory=dict)


class Uniforms:
    """Pre-drawn uniforms consumed one at a time: far cheaper than a numpy call per draw."""

    def __init__(self, rng: np.random.Generator, n: int = 2048) -> None:
        self._rng = rng
        self._n = n
        self._buf: list[float] = rng.random(n).tolist()
        self._i = -1

    def __call__(self) -> float:
        self._i += 1
        if self._i >= self._n:
            self._buf = self._rng.random(self._n).tolist()
            self._i = 0
        return self._buf[self._i]

    def pick(self, n: int) -> int:
        return int(self() * n)


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def clean(stats: dict[str, int]) -> dict[str, int]:
    """A line carries the codes that are not zero (a missing code means zero)."""
    return {k: v for k, v in stats.items() if v}
