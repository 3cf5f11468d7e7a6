"""Choices that give way to their page's default when the level or the season changes.

A record ID of one level means nothing in another, and a default computed from the level or the
season (its newest seasons, its top-rated teams) must be computed again for the new one, exactly
as a fresh link to it would: the level and season pickers ``forget`` them, and each picker
resets itself (``reset_to_default``, ``keep_picks``) on its next run.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import streamlit as st

# what names a record of one level: a game ID of MLB means nothing in the NBA.
PER_LEVEL_VALUES: dict[str, Any] = {"game": None, "player": None, "q": "", "pbp_player": "", "who": [], "who_q": ""}
# choices whose default a page computes from the level (its newest seasons, its top-rated teams,
# its headline stat): forgotten on a new level, so the page picks its default again, exactly as a
# fresh link to the new level would (a kept value the new level lacks would leave them empty)
LEVEL_DEPENDENT = ("season", "team", "teams", "fc_seasons", "stat", "player_season", "team_season", "log_stat",
                   "log_phase", "opponent", "rating_seasons", "group", "asof", "snapshot")
# and those computed from the season or lying within it (the top teams of that season, a day of it)
SEASON_DEPENDENT = ("teams", "team", "opponent", "rating_seasons", "asof", "snapshot")


RESET_KEY = "_choices_to_reset"
DEFAULTS_KEY = "_list_defaults"  # the default each multiselect last offered


def forget(keys: Sequence[str]) -> None:
    """Have these widgets take their page's default on the next run. Deleting a widget's state
    is not enough in a browser (the page sends the widget's old value back with the rerun), so
    each picker sets the default it computes through session state (``reset_to_default``)."""
    pending: set[str] = st.session_state.setdefault(RESET_KEY, set())
    pending.update(keys)


def reset_to_default(key: str, value: Any) -> None:
    """Set ``key`` to its page default if a change of level or season asked for it."""
    pending: set[str] = st.session_state.get(RESET_KEY, set())
    if key in pending:
        pending.discard(key)
        st.session_state[key] = value


def keep_picks(key: str, options: Sequence[str], default: Sequence[str]) -> None:
    """A multiselect's reset after a change of season: the teams the analyst picked stay where
    the new season has them; picks left as the page's default (the top-rated teams of the season
    before) take the new season's default, as a fresh link to it shows. A new level has other
    teams: the default."""
    pending: set[str] = st.session_state.get(RESET_KEY, set())
    defaults: dict[str, list[str]] = st.session_state.setdefault(DEFAULTS_KEY, {})
    if key in pending:
        pending.discard(key)
        current = list(st.session_state.get(key) or [])
        kept = [v for v in current if v in options] if current != defaults.get(key) else []
        st.session_state[key] = kept or list(default)
    defaults[key] = list(default)


def forget_level_records() -> None:
    """On a new level, clear the bound record IDs and searches (through session state: a bound
    widget's URL value can only be changed that way), and the level's dependent choices."""
    for key, empty in PER_LEVEL_VALUES.items():
        if key in st.session_state:
            st.session_state[key] = empty
    forget(LEVEL_DEPENDENT)
