"""The state of a simulated baseball game: the two sides, the inning, outs, bases and score.

Stat lines are lists indexed by the constants below (``line[HR] += 1``): a game counts a few
thousand of them, and list slots are far cheaper than dict keys. ``STAT_CODES`` names them
for the box score.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from server.ingest.simulator.games import PlatePitches, Play, Uniforms
from server.ingest.simulator.world import Person

STAT_CODES = ("PA", "AB", "R", "H", "2B", "3B", "HR", "RBI", "BB", "IBB", "SO", "HBP", "SH", "SF",
              "SB", "CS", "GDP", "LOB", "W", "L", "SV", "GS", "OUTS", "BF", "HA", "RA", "ER", "BBA",
              "K", "HRA", "WP", "PIT", "PO", "A", "E", "HLD")
PA, AB, R, H, D2, D3, HR, RBI, BB, IBB, SO, HBP, SH, SF, SB, CS, GDP, LOB, W, L, SV, GS, OUTS, BF, \
    HA, RA, ER, BBA, K, HRA, WP, PIT, PO, A, E, HLD = range(len(STAT_CODES))
FIELD_POSITIONS = ("C", "1B", "2B", "3B", "SS", "LF", "CF", "RF", "DH")  # lineup slots' positions


def new_line() -> list[int]:
    return [0] * len(STAT_CODES)


@dataclass(slots=True)
class Side:
    """One team in the game: its batting order, who fields where and who pitches."""

    order: list[int]  # the nine batters in batting order
    defense: dict[str, int]  # position ("C" .. "DH", "P") -> player
    starter: int  # the starting pitcher
    bullpen: list[int]  # relievers in the order they come in
    pitcher: int = 0  # pitching now, kept equal to ``defense["P"]`` (the starter at first)
    bounds: list[float] = field(default_factory=list)  # outcome chances at bat (rates.outcome_bounds)
    pitch_limit: float = 0.0  # pitches after which the pitcher comes out
    relievers_used: int = 0
    outs_at_entry: int = 0  # the pitcher's outs when he came in
    batters_up: int = 0  # plate appearances so far (the next batter is order[batters_up % 9])

    def __post_init__(self) -> None:
        self.defense["P"] = self.pitcher = self.starter


@dataclass(slots=True)
class PlateAppearance:
    """One batter's turn: who faces whom, and what the event made of it."""

    batter: int
    pitcher: int
    sequence: str  # pitch codes (pitches.POOLS)
    the_count: str  # balls-strikes before the last pitch
    outs: int = 0  # outs the play made
    scored: list[int] = field(default_factory=list)  # runners (the batter too) who crossed the plate
    rbi: bool = True  # the batter is credited with the runs
    earned: bool = True  # the runs are charged as earned
    event: str = ""
    explanation: str = ""
    tags: str = ""


@dataclass(slots=True)
class GameState:
    """Everything an event reads or changes. Side 0 is the visitor, 1 the home team; in the top
    half (``half`` 0) the visitor bats. ``begin_half`` sets the half and who bats and fields
    (attributes, not properties: they are read a few times in every plate appearance)."""

    people: dict[int, Person]
    u: Uniforms  # the game's uniform draws, taken in a fixed order
    sides: tuple[Side, Side]
    lines: dict[int, list[int]]  # player -> stat line (STAT_CODES)
    positions: dict[int, str]  # player -> the position his box-score line shows
    record_pitches: bool = False
    inning: int = 0
    half: int = 0
    half_name: str = "top"
    batting: Side = field(init=False)
    fielding: Side = field(init=False)
    outs: int = 0
    bases: list[int | None] = field(default_factory=lambda: [None, None, None])  # first, second, third
    score: list[int] = field(default_factory=lambda: [0, 0])
    plays: list[Play] = field(default_factory=list)
    pitches: list[PlatePitches] = field(default_factory=list)
    # (side that went ahead, its pitcher then, the pitcher who gave up the lead): pitchers of record
    go_ahead: list[tuple[int, int, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.begin_half(0)

    def begin_half(self, half: int) -> None:
        """A half inning starts: nobody out, nobody on (0 top, 1 bottom)."""
        self.half = half
        self.half_name = "top" if half == 0 else "bottom"
        self.batting = self.sides[half]
        self.fielding = self.sides[1 - half]
        self.outs = 0
        self.bases = [None, None, None]
