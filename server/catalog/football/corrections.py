"""Where a result file states a fact wrongly, the correction, declared with its evidence.

openfootball's League One 2025-26 file dates every match from the 24th round on a year early
(the 24th round on 1 January 2025, five months before the season's first round on 1 August
2025): read as given, 276 matches would be played before the season began, League One's
ratings would take them out of order and the season would seem to start in January 2025. A
date shift moves the matches of one league-season dated before ``before`` by ``years``; the
realdata test of the ingest checks that no league file dates a match before its first round.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass


@dataclass(frozen=True)
class DateShift:
    league: str  # server.catalog.football.LEAGUES code
    season: int  # the year the season ends
    before: dt.date  # the file's dates before this day are wrong by ``years``
    years: int
    reason: str
    source: str


DATE_SHIFTS: tuple[DateShift, ...] = (
    DateShift("en.3", 2026, dt.date(2025, 7, 1), 1,
              "rounds 24 to 46 (January to May 2026) are dated 2025",
              "openfootball 2025-26/en.3.json against its own round order"),
)


def corrected_day(league: str, season: int, day: dt.date) -> dt.date:
    """The match day a league-season's file gives, with its declared shift applied."""
    for shift in DATE_SHIFTS:
        if shift.league == league and shift.season == season and day < shift.before:
            return day.replace(year=day.year + shift.years)
    return day
