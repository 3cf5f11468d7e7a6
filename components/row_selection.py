"""A click on a table's row that opens its record: which row was picked, and the record's ID
put where the page that shows it reads it."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from components.filters import LEVEL_KEY


# a table a click opens from: a click on any cell picks its row (a row alone is picked only by the
# narrow checkbox at its left edge, which analysts miss)
PICK_MODES: Final = ("single-row", "single-cell")


def picked_row(state: Any) -> int | None:
    """The row a table's selection state picked, by its checkbox or by a click on one of its
    cells (its position in the data given, however the grid is sorted), or None."""
    selection = getattr(state, "selection", None)
    rows = list(getattr(selection, "rows", []) or [])
    cells = list(getattr(selection, "cells", []) or [])
    if rows:
        return int(rows[0])
    return int(cells[0][0]) if cells else None


def query_for_switch(query: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """The query of a link opened from a callback (``st.switch_page``), less what a widget of
    this page binds: those values go through the widget's state, the only way a bound URL value
    can change, and the widget of the same key on the page opened reads them there."""
    with get_script_run_ctx().session_state.query_params() as params:  # type: ignore[union-attr]
        bound = {k for k, _ in query if params.is_bound(k)}
    for key, value in query:
        if key in bound and key != LEVEL_KEY:  # the level is the same on every link of a page
            st.session_state[key] = int(value) if value.isdigit() else value
    return [(k, v) for k, v in query if k not in bound]


def select_id(key: str, ids: Sequence[int], table_key: str, tab: tuple[str, str] | None = None) -> None:
    """Selection callback of a table: put the picked row's ID into the bound ``key`` widget
    (and, with ``tab``, open the tab that shows it)."""
    row = picked_row(st.session_state.get(table_key))
    if row is not None and row < len(ids):
        st.session_state[key] = int(ids[row])
        if tab is not None:
            st.session_state[tab[0]] = tab[1]
