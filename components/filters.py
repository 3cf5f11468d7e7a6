"""Filter widgets, each bound to the URL (``bind="query-params"``): the key is the URL name.

The URL is the source of truth (design 7): a pasted link seeds every widget, and a value equal
to its default is left out of the URL to keep links short.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

import streamlit as st

BIND = "query-params"
LEVEL_KEY = "level"
DEFAULT_LEVEL = "MLB"
# the glossary's levels (spec part 1); used only when the API cannot list them
FALLBACK_LEVELS: tuple[str, ...] = (
    "MLB", "MiLB", "KBO", "NPB", "CBB", "NBA", "WNBA", "GL", "EuroBB", "MBB", "MB2", "MB3", "WBB",
    "WB2", "WB3", "MBIA", "WBIA", "MBJC", "WBJC", "NHL", "KHL", "MHK", "FC",
)
STATUSES: tuple[str, ...] = ("All", "Final", "In progress", "Today", "Not started")


def level_picker(codes: Sequence[str], names: dict[str, str] | None = None) -> str:
    """The competition level every page follows; the URL carries the code (``?level=NBA``)."""
    options = list(codes) or list(FALLBACK_LEVELS)
    index = options.index(DEFAULT_LEVEL) if DEFAULT_LEVEL in options else 0
    value = st.sidebar.selectbox("Level", options, index=index, key=LEVEL_KEY, bind=BIND,
                                 help="Every page shows this level; the Glossary page lists them all.")
    if names and str(value) in names:
        st.sidebar.caption(names[str(value)])
    return str(value)


def current_level() -> str:
    """The level chosen in the sidebar by app.py (which renders before every page)."""
    return str(st.session_state.get(LEVEL_KEY) or DEFAULT_LEVEL)


def season_picker(seasons: Sequence[int], *, key: str = "season", label: str = "Season") -> int | None:
    """Newest season first and by default (the contract's 'current season')."""
    options = sorted({int(s) for s in seasons}, reverse=True)
    if not options:
        st.sidebar.caption("No seasons held for this level.")
        return None
    return st.sidebar.selectbox(label, options, index=0, key=key, bind=BIND)


def seasons_picker(seasons: Sequence[int], *, key: str = "seasons", default_count: int = 3) -> list[int]:
    options = sorted({int(s) for s in seasons}, reverse=True)
    return list(st.sidebar.multiselect("Seasons", options, default=options[:default_count], key=key,
                                       bind=BIND))


def team_picker(names: Sequence[str], *, key: str = "team", label: str = "Team") -> str | None:
    """One team by name, or ``None`` for all teams."""
    return st.sidebar.selectbox(label, sorted(set(names)), index=None, placeholder="All teams", key=key,
                                bind=BIND)


def teams_picker(names: Sequence[str], default: Sequence[str], *, key: str = "teams") -> list[str]:
    options = sorted(set(names))
    chosen = [n for n in default if n in options]
    return list(st.sidebar.multiselect("Teams", options, default=chosen, key=key, bind=BIND,
                                       max_selections=8))


def date_range_picker(*, prefix: str = "") -> tuple[dt.date | None, dt.date | None]:
    start = st.sidebar.date_input("From", value=None, key=f"{prefix}start", bind=BIND,
                                  min_value=dt.date(1871, 1, 1))
    end = st.sidebar.date_input("To", value=None, key=f"{prefix}end", bind=BIND,
                                min_value=dt.date(1871, 1, 1))
    if start and end and end < start:
        st.sidebar.warning("'To' is before 'From': the range is ignored.")
        return None, None
    return start, end


def date_picker(label: str, *, key: str) -> dt.date | None:
    return st.sidebar.date_input(label, value=None, key=key, bind=BIND, min_value=dt.date(1871, 1, 1))


def status_picker(*, key: str = "status") -> str:
    return str(st.sidebar.selectbox("Status", STATUSES, index=0, key=key, bind=BIND))


def choice(label: str, options: Sequence[str], *, key: str, sidebar: bool = True) -> str:
    where = st.sidebar if sidebar else st
    return str(where.selectbox(label, list(options), index=0, key=key, bind=BIND))


def text_filter(label: str, *, key: str, placeholder: str = "") -> str:
    return str(st.sidebar.text_input(label, key=key, bind=BIND, placeholder=placeholder) or "").strip()


def toggle(label: str, *, key: str, default: bool = False) -> bool:
    return bool(st.sidebar.checkbox(label, value=default, key=key, bind=BIND))


def page_number(*, key: str = "page") -> int:
    """Server-side paging: the page number lives in the URL like any filter."""
    value = st.sidebar.number_input("Page", min_value=1, value=1, step=1, key=key, bind=BIND)
    return int(value or 1)


def id_input(label: str, *, key: str, help: str | None = None) -> int | None:
    value = st.number_input(label, min_value=1, value=None, step=1, key=key, bind=BIND, help=help,
                            placeholder="pick a row above or type an ID")
    return int(value) if value else None


def select_id(key: str, ids: Sequence[int], table_key: str) -> None:
    """Selection callback of a table: put the picked row's ID into the bound ``key`` widget."""
    selection = st.session_state.get(table_key)
    rows = list(getattr(getattr(selection, "selection", None), "rows", []) or [])
    if rows and rows[0] < len(ids):
        st.session_state[key] = int(ids[rows[0]])


def name_to_id(frame: Any, name_column: str = "Name", id_column: str = "ID") -> dict[str, int]:
    """Team (or player) name → ID from a list DataFrame; the URL carries names, the API wants IDs."""
    if getattr(frame, "empty", True) or name_column not in frame.columns or id_column not in frame.columns:
        return {}
    return {str(n): int(i) for n, i in zip(frame[name_column], frame[id_column], strict=True)}
