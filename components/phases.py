"""Regular season or postseason, for records the API sends without saying which.

The list records of games, forecasts and player lines carry no playoff flag; the seasons list
gives each season's ``End`` (its last regular-season day), and the game detail's ``Playoff``
names the round. A game after ``End`` is a playoff game; on ``End`` itself both can be played,
so the detail decides for those few. Pure functions: no Streamlit, no HTTP.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Mapping

import pandas as pd

REGULAR, POSTSEASON, BOTH = "Regular season", "Postseason", "Both"
PHASES = (REGULAR, POSTSEASON, BOTH)
PHASE = "Phase"


def phase_of(day: object, season_end: dt.date | None, playoff: bool = False) -> str:
    """Regular season or postseason: a game after the season's ``End`` (the seasons endpoint) is
    a playoff game; on that day itself both can be played, and ``playoff`` (the game detail's
    ``Playoff``) decides."""
    when = pd.to_datetime(str(day), errors="coerce")
    if season_end is None or pd.isna(when):
        return REGULAR
    return POSTSEASON if when.date() > season_end or (playoff and when.date() == season_end) else REGULAR


def games_on_end_day(records: object, season_end: dt.date | None, id_field: str = "Game_ID") -> list[int]:
    """The game IDs of ``records`` played on the season's ``End`` day (the ones a date cannot place)."""
    if season_end is None or not isinstance(records, list):
        return []
    day = season_end.isoformat()
    return [int(r[id_field]) for r in records if isinstance(r, dict) and str(r.get("GameDay")) == day
            and r.get(id_field) is not None]




def mark(frame: pd.DataFrame, ends: Mapping[int, dt.date], playoff_ids: set[int] | frozenset[int] = frozenset(),
         *, day: str = "GameDay", season: str = "Season", game: str = "ID") -> pd.DataFrame:
    """``frame`` with a PHASE column, each row placed by its season's ``End`` (``ends``)."""
    if frame.empty:
        return frame.assign(**{PHASE: pd.Series(dtype=object)})
    seasons = frame[season] if season in frame.columns else pd.Series([None] * len(frame), index=frame.index)
    ids = frame[game] if game in frame.columns else pd.Series([None] * len(frame), index=frame.index)
    phases = [phase_of(d, ends.get(int(s)) if pd.notna(s) else None, g in playoff_ids)
              for d, s, g in zip(frame[day], seasons, ids, strict=True)]
    return frame.assign(**{PHASE: pd.Series(phases, index=frame.index, dtype=object)})


def only(frame: pd.DataFrame, phase: str) -> pd.DataFrame:
    """The rows of one phase (all of them for BOTH)."""
    return frame if phase == BOTH or PHASE not in frame.columns else frame[frame[PHASE] == phase]
