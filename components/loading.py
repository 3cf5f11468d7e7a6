"""The notice every page of a level shows while the service still loads that level in the
background (a first build, ``server.jobs.fill``): what it is doing, from ``/health``'s ``Fill``
("MLB 2021-2023 loading, 2 of 3 seasons"), and which of the level's seasons are not whole yet,
from ``seasons``' ``Loading``, so no page passes a half-built season off as whole. Nothing shows
once the level is whole, or on a backend whose ``/health`` has no ``Fill``."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd
import streamlit as st

from components.plain import md
from services import ApiError, api


def _loading_seasons(level: str) -> list[str] | None:
    """The names of the level's seasons the API marks as not whole, newest first; None when the
    API could not say (busy: the notice then speaks of the level's seasons as a whole)."""
    try:
        frame = api.seasons(level)
    except ApiError:
        return None
    if frame.empty or "Loading" not in frame.columns:
        return []
    marked = frame[frame["Loading"].fillna("").astype(str) != ""]
    names = marked["Name"] if "Name" in marked.columns else marked["ID"]
    return [str(n) for n in names if not pd.isna(n)]


def _listed(seasons: list[str]) -> str:
    """A few seasons by name; many as their span and count (Lahman's 1871 to 2023: 153)."""
    if len(seasons) <= 5:
        return ", ".join(seasons)
    return f"{seasons[-1]} to {seasons[0]}, {len(seasons)} seasons"


def notice(health: Mapping[str, Any], level: str) -> None:
    """An info box above the page while ``level`` is being loaded or computed."""
    doing = ((health.get("Fill") or {}).get("Levels") or {}).get(level)
    if not doing:
        return
    seasons = _loading_seasons(level)
    incomplete = ("until it is done: games, ratings, forecasts, stat tables or projections may "
                  "be missing, and figures may change.")
    if seasons is None:
        held = f"{level}'s seasons are incomplete {incomplete}"
    elif seasons:
        held = f"The seasons held so far ({md(_listed(seasons))}) are incomplete {incomplete}"
    else:
        held = f"No {level} season is ready yet."
    st.info(f"**{md(doing)}.** {held} The pages fill in as the service loads them in the background.",
            icon=":material/hourglass_top:")
