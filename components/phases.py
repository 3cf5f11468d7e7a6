"""Regular season or postseason, as the API says it: every game record carries its ``Phase``.

The store holds each game's phase as its source gives it (``server.catalog.phases``: regular,
cupfinal, playin, postseason, preseason); a page never infers it from dates (a season spanning two years
plays its regular season in October to December). The "Games of" choice asks the API for the
phases it stands for, so totals stay exact; ``mark`` names each row's phase in words. Pure
functions: no Streamlit, no HTTP.
"""
from __future__ import annotations

import pandas as pd

from server.catalog import phases as catalog
from server.catalog.playoffs import REAL_FORMATS

REGULAR, PLAY_IN, POSTSEASON, BOTH = "Regular season", "Play-in", "Postseason", "Both"
PHASES = (REGULAR, POSTSEASON, BOTH)  # the choices of a level without a play-in
PHASE = "Phase"
# The words a page shows for each of the API's phases.
LABELS = {catalog.PRESEASON: "Preseason", catalog.REGULAR: REGULAR,
          catalog.CUP_FINAL: "Cup final", catalog.PLAYIN: PLAY_IN, catalog.POSTSEASON: POSTSEASON}
# The API's phases each choice stands for: "Postseason" is the play-in and the postseason, as
# the playoff picture and ``seasontype=postseason`` count them.
CHOSEN: dict[str, tuple[str, ...] | None] = {REGULAR: (catalog.REGULAR,), PLAY_IN: (catalog.PLAYIN,),
                                             POSTSEASON: catalog.AFTER_REGULAR, BOTH: None}


def choices(level: str) -> tuple[str, ...]:
    """The "Games of" choices of ``level``: the play-in one of its own where the level's declared
    postseason plays one (``server.catalog.playoffs``: the NBA from 2020-21)."""
    if any(f.level == level and f.kind == "play_in" for f in REAL_FORMATS):
        return (REGULAR, PLAY_IN, POSTSEASON, BOTH)
    return PHASES


# A stat table is one phase's (the API tabulates each apart): the choices a Leaders table takes.
TABLES = {REGULAR: catalog.REGULAR, POSTSEASON: catalog.POSTSEASON}


def asked(choice: str) -> str | None:
    """The API's ``phase`` parameter for a "Games of" choice (None: every phase)."""
    wanted = CHOSEN.get(choice)
    return ",".join(wanted) if wanted else None


def label(phase: object) -> str:
    """A phase of the API in words ("playin" is "Play-in"); an unknown one as it came."""
    return LABELS.get(str(phase), "" if phase is None else str(phase))


def mark(frame: pd.DataFrame, column: str = PHASE) -> pd.DataFrame:
    """``frame`` with its API ``column`` (the records' ``Phase``) in words, as PHASE."""
    if frame.empty or column not in frame.columns:
        return frame.assign(**{PHASE: pd.Series(dtype=object)}) if frame.empty else frame
    return frame.assign(**{PHASE: [label(p) for p in frame[column]]})


def rows_in(frame: pd.DataFrame, choice: str) -> pd.DataFrame:
    """The rows of a "Games of" choice (all of them for BOTH), by their marked PHASE."""
    wanted = CHOSEN.get(choice)
    if wanted is None or PHASE not in frame.columns:
        return frame
    return frame[frame[PHASE].isin([label(p) for p in wanted])]
