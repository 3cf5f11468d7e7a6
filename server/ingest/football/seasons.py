"""FC's season rows: one span for everything a season holds, whichever file came first.

A season of level FC holds a league season (``2022-23``, ID 2023), the European cups of that
season (qualifying from early July) and the internationals of the calendar year of its ID (the
2023 ones: a World Cup's summer is after the league season ends). Each ingest widens the
season's ``start`` and ``end`` to its own matches and never narrows them, so the row covers every
game of the season (the 2025-26 row ends with the 2026 World Cup's final) in any ingest order,
and a re-run changes nothing. A league season names the row (``2022-23``); a calendar year names
it (``2023``) only where no league season does.
"""
from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable

import sqlalchemy as sa

from server.store import schema
from server.store.loader import upsert

LEVEL = "FC"


def league_name(season: int) -> str:
    """2023 -> ``2022-23``."""
    return f"{season - 1}-{season % 100:02d}"


def widen(conn: sa.Connection, days: Iterable[tuple[int, dt.date]], source: str,
          names_league_season: bool) -> None:
    """Each season of ``days`` (season, match day) spanning its matches too. A source that
    ``names_league_season`` (league files, the cups) names the row and is its source; the
    internationals keep a held row's name and source and name only a row of their own."""
    spans: dict[int, list[dt.date]] = defaultdict(list)
    for season, day in days:
        spans[season].append(day)
    s = schema.seasons.c
    held = {r.season: r for r in conn.execute(
        sa.select(s.season, s.start, s.end, s.name, s.source).where(s.level == LEVEL))}
    rows = []
    for season, found in sorted(spans.items()):
        start, end = min(found), max(found)
        row = held.get(season)
        name, owner = (league_name(season), source) if names_league_season else (str(season), source)
        if row is not None:
            start, end = min(start, row.start), max(end, row.end)
            if not names_league_season:
                name, owner = row.name, row.source
        rows.append({"level": LEVEL, "season": season, "name": name, "start": start, "end": end,
                     "source": owner, "playoffs": None})
    upsert(conn, schema.seasons, rows)
