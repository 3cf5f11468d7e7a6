"""What the seasons endpoint says of a level's seasons, as the pages speak of it: which seasons
some days fall in (a chart's title names every season it draws), and why a table or a chart is
empty, in words true to the cause.

An empty view has one of a few causes, and each reads differently: the service is still loading
the season (a first build: the season's ``Loading``), the season has not started or has no
result yet (its ``Games`` and ``DataEnd``), the day asked is before the season's first (its
``Start``), the season's source holds no such data (its ``Granularity``), the page's filters
leave nothing of what the season holds, or nobody computed what the page shows from the games
held. Every fact comes from the API; the page only names what it shows and the filters in force.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

import pandas as pd

from components.plain import md
from services import api

# the seasons' ``Granularity`` flags a view may need, in words
HOLDS = {"PlayerPerfs": "game-by-game player lines", "TeamPerfs": "game-by-game team lines",
         "PlayByPlay": "play-by-play", "Pitches": "pitches", "Odds": "money lines"}
# what computes ratings, forecasts and stat tables from a level's games (``computed_by``)
RETABULATED = "the service computes them when it re-tabulates the level: `python -m server retabulate`"


@dataclass(frozen=True)
class Season:
    """One record of the seasons endpoint: its first day, games held, the last day with a
    result, the background fill's notice while it is not whole ('') and which data it holds
    (its ``Granularity``: "PlayerPerfs" -> "Y" or "N"). ``games`` is None where the API does
    not count them and ``results_known`` False where it does not say where results stop (a
    NatStat backend): nothing is concluded from a fact not given."""

    id: int
    start: dt.date | None
    games: int | None
    data_end: dt.date | None
    results_known: bool
    loading: str
    holds: dict[str, str]


def _day(value: object) -> dt.date | None:
    day = pd.to_datetime(pd.Series([value]), errors="coerce").iloc[0]
    return None if pd.isna(day) else day.date()


def _held(level: str) -> dict[int, Season]:
    frame = api.seasons(level)
    if frame.empty or "ID" not in frame.columns:
        return {}
    out = {}
    for row in frame.to_dict("records"):
        games = pd.to_numeric(pd.Series([row.get("Games")]), errors="coerce").iloc[0]
        loading = row.get("Loading")
        holds = {str(k).removeprefix("Granularity."): str(v) for k, v in row.items()
                 if str(k).startswith("Granularity.")}
        out[int(row["ID"])] = Season(int(row["ID"]), _day(row.get("Start")), None if pd.isna(games) else int(games),
                                     _day(row.get("DataEnd")), "DataEnd" in frame.columns,
                                     str(loading) if isinstance(loading, str) else "", holds)
    return out


def of_days(level: str, days: Iterable[object]) -> list[int]:
    """The seasons the days fall in, oldest first: each day's season is the one that started
    last on or before it (a season's postseason runs past its listed end)."""
    starts = sorted((s.start, s.id) for s in _held(level).values() if s.start is not None)
    found = set()
    for value in days:
        day = _day(value)
        owner = [season for start, season in starts if day is not None and start <= day]
        if owner:
            found.add(owner[-1])
    return sorted(found)


def why_empty(level: str, season: int | None, what: str, *, day: dt.date | None = None,
              needs: str = "", filters: str = "", unfiltered: Callable[[], bool] | None = None,
              computed_by: str = "", otherwise: str = "") -> str:
    """Why a view of ``what`` for the season shows nothing, from the level's seasons as the API
    lists them (``said`` words it)."""
    return said(_held(level), level, season, what, day=day, needs=needs, filters=filters, unfiltered=unfiltered,
                computed_by=computed_by, otherwise=otherwise)


def said(held: Mapping[int, Season], level: str, season: int | None, what: str, *, day: dt.date | None = None,
         needs: str = "", filters: str = "", unfiltered: Callable[[], bool] | None = None,
         computed_by: str = "", otherwise: str = "") -> str:
    """Why a view of ``what`` (a plural: "ELO ratings", "standings") for the season (and, with
    ``day``, as of that day) shows nothing. ``filters`` names the page's filters in force (the
    day alone when empty) and ``unfiltered`` says whether the season holds ``what`` without
    them (asked only when the season is whole and under way); ``needs`` is the seasons'
    ``Granularity`` flag ``what`` is made of (a season of results alone has no player lines);
    ``computed_by`` says what computes ``what`` from the games held, when that is the service's
    job, not the games' own (standings are the games; ratings, forecasts and stat tables are
    computed); ``otherwise`` is the page's own last word when none of these is the cause. The
    filters and the API's loading note are data (a team's name): said as text (``plain.md``)."""
    found = held.get(season) if season is not None else None
    name = f"{level} {api.season_name(level, season)}" if season is not None else level
    if found is not None and found.loading:
        return (f"Still loading: {md(found.loading)}. The {name} season's {what} appear when the service "
                "has loaded it (a first build fills it in the background).")
    if found is None:
        return (f"No {level} season is held yet, so no {what}." if not held else
                f"No {name} season is held, so no {what}: pick one of the level's seasons.")
    totals_only = found.games == 0 and found.start is None  # a season of totals (Lahman's): no schedule
    if found.games == 0 and not totals_only:
        return (f"The {name} season has not started: no games are held for it yet, and {what} start "
                "with its first games.")
    if day is not None and found.start is not None and day < found.start:
        return f"No {what} as of {day}: the {name} season starts on {found.start}."
    if found.results_known and found.data_end is None and not totals_only:
        return (f"The {name} season has not started: none of its {found.games or 0:,} games has a result yet, "
                f"and {what} start with its first results.")
    if needs and (found.holds.get(needs) == "N" or totals_only):
        return f"The {name} season holds no {HOLDS.get(needs, needs)} (its source has none), so no {what}."
    if unfiltered is not None and unfiltered():
        if day is not None and not filters:
            return (f"No {what} as of {day}: the {name} season's first are of a later day. Clear the day "
                    "to see the newest.")
        return f"No {what} match your filters ({md(filters)}): the {name} season has some without them."
    if computed_by and found.data_end is not None and found.games:
        return (f"{what[:1].upper()}{what[1:]} were not computed for the {name} season: its {found.games:,} "
                f"games are held (results to {found.data_end}), but no {what} were made from them "
                f"({computed_by}).")
    return otherwise or f"No {what} held for the {name} season."
