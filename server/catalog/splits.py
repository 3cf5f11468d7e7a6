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
    Split("month", "By month", "months of the season (Value 2023-04; a month's games by their "
                               "date)"),
    Split("phase", "Regular season and postseason", "phases of the season (Value regular, "
                                                    "playin or postseason)"),
)
BY_NAME = {s.name: s for s in SPLITS}
SPORTS = ("baseball",)  # the sports whose lines split (the season-line columns are baseball's)


def describe() -> str:
    """The ``split`` parameter's documentation: every split and its values."""
    return "; ".join(f"{s.name}: {s.doc}" for s in SPLITS)
