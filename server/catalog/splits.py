"""Splits of a baseball season line: the ways ``playerperfs`` and ``teamperfs`` divide one season.

Each split says how a game line is placed (``basis``) and what its values mean. The lines of a
split add up to the season: home + away, the months, and (for a split by phase) the regular
season beside the postseason; every split but ``phase`` reads the regular season, as the
season's stat line does, unless ``phase`` is asked.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Split:
    name: str  # the value of the ``split`` parameter
    label: str  # what the dashboard calls it
    doc: str


SPLITS: tuple[Split, ...] = (
    Split("homeaway", "Home and away", "home and away games (Value home or away)"),
    Split("hand", "Against left and right", "the other side's hand: a batter's line against "
              "left- and right-handed pitchers, a pitcher's against left- and right-handed "
              "batters (Value L or R; a switch hitter bats from the side he hit from; read from "
              "the play-by-play, so the codes a game credits as a whole, GS, W, L, SV, ER, PIT "
              "and LOB, and ERA are null)"),
    Split("month", "By month", "months of the season (Value 2023-04; a month's games by their "
                               "date)"),
    Split("phase", "Regular season and postseason", "phases of the season (Value regular, "
                                                    "playin or postseason)"),
)
BY_NAME = {s.name: s for s in SPLITS}
SPORTS = ("baseball",)  # the sports whose lines split (the season-line columns are baseball's)
BY_PLAY = ("hand",)  # splits read from the plays' credits, not from the game lines
WHOLE_GAME = ("GS", "W", "L", "SV", "HLD", "ER", "PIT", "LOB")  # credited per game, never by a play


SWITCH = ("B", "S")  # a switch hitter's bats: Retrosheet's B (both), other sources' S


def batting_side(bats: str | None, pitcher: str | None) -> str | None:
    """The side a batter hits from against this pitcher: a switch hitter bats left against a
    right-hander and right against a left-hander."""
    if bats in SWITCH and pitcher in ("L", "R"):
        return "L" if pitcher == "R" else "R"
    return bats


def describe() -> str:
    """The ``split`` parameter's documentation: every split and its values."""
    return "; ".join(f"{s.name}: {s.doc}" for s in SPLITS)
