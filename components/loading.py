"""The notice every page of a level shows while the service still loads that level in the
background (a first build, ``server.jobs.fill``): what it is doing, from ``/health``'s ``Fill``
("MLB 2021-2023 loading, 2 of 3 seasons"), and per season what is ready so far, from
``seasons`` (its games and what they hold; its ``Loading`` while the level is not whole), so no
page passes a half-built season off as whole and no message contradicts what the page shows.
Nothing shows once the level is whole, or on a backend whose ``/health`` has no ``Fill``."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd
import streamlit as st

from components.plain import md
from components.season_facts import HOLDS
from services import ApiError, api

FILLING_KEY = "_levels_filling"  # session state: level -> its notice, from this run's /health
# what a season's games carry, in the order a reader looks for it (``HOLDS``' words)
READY = ("PlayerPerfs", "PlayByPlay", "Pitches", "Odds")
LATER = "ratings, forecasts, stat tables and projections"


def filling(health: Mapping[str, Any]) -> bool:
    """Whether the store still fills in the background (``Fill``'s ``State``)."""
    return str((health.get("Fill") or {}).get("State") or "") == "loading"


def remember(health: Mapping[str, Any]) -> None:
    """Keep this run's levels not yet whole, for the messages that speak of a level's seasons."""
    st.session_state[FILLING_KEY] = dict((health.get("Fill") or {}).get("Levels") or {})


def level_filling(level: str) -> str | None:
    """The notice of ``level`` while the service still loads it (this run's /health), else None."""
    found = (st.session_state.get(FILLING_KEY) or {}).get(level)
    return str(found) if found else None


def _count(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def season_lines(frame: pd.DataFrame, level: str) -> list[str]:
    """One line per season the API lists, newest first: its games and what they carry so far
    ("2021: 2,430 games, with game-by-game player lines and play-by-play"), or that none is in."""
    lines = []
    games = pd.to_numeric(frame.get("Games", pd.Series(0, index=frame.index)), errors="coerce").fillna(0)
    for (_, row), count in zip(frame.iterrows(), games, strict=True):
        name = row.get("Name") if isinstance(row.get("Name"), str) else str(row.get("ID"))
        if not count:
            lines.append(f"{md(name)}: listed, no game loaded yet")
            continue
        held = [HOLDS[flag] for flag in READY if str(row.get(f"Granularity.{flag}", "")) == "Y"]
        lines.append(f"{md(name)}: {_count(int(count), 'game')}" + (f", with {', '.join(held)}" if held else ""))
    return lines


def notice(health: Mapping[str, Any], level: str) -> None:
    """An info box above the page while ``level`` is being loaded or computed: what the fill is
    doing, then each season held so far and what it holds, and what comes last for all of them."""
    doing = ((health.get("Fill") or {}).get("Levels") or {}).get(level)
    if not doing:
        return
    try:
        frame = api.seasons(level)
    except ApiError:  # busy: the notice then speaks of the level's seasons as a whole
        frame = None
    if frame is None:
        held = f"{md(level)}'s seasons are incomplete until it is done."
    elif frame.empty:
        held = f"No {md(level)} season is loaded yet."
    else:
        lines = season_lines(frame, level)
        held = ("Ready so far, season by season:\n" + "\n".join(f"- {line}" for line in lines)
                + f"\n\nUntil the level is done, its {LATER} may be missing and figures may change; "
                  "a season not listed here is still to come.")
    st.info(f"**{md(doing)}.** {held}\n\nThe pages fill in as the service loads them in the background.",
            icon=":material/hourglass_top:")
