"""Filter widgets, each bound to the URL (``bind="query-params"``): the key is the URL name.

The URL is the source of truth (design 7): a pasted link seeds every widget, and a value equal
to its default is left out of the URL to keep links short. Tabs are bound too, and only the open
tab's content runs, so a link reopens the same tab and a page computes only what it shows.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any, Final

import streamlit as st

BIND: Final = "query-params"
LEVEL_KEY = "level"
DEFAULT_LEVEL = "MLB"
# the glossary's levels (spec part 1); used only when the API cannot list them
FALLBACK_LEVELS: tuple[str, ...] = (
    "MLB", "MiLB", "KBO", "NPB", "CBB", "NBA", "WNBA", "GL", "EuroBB", "MBB", "MB2", "MB3", "WBB",
    "WB2", "WB3", "MBIA", "WBIA", "MBJC", "WBJC", "NHL", "KHL", "MHK", "FC",
)
# label shown -> the games endpoint's `status` (the store's game states); None: every game
STATUSES: dict[str, str | None] = {"All": None, "Final": "final", "In progress": "inprogress",
                                   "Scheduled": "scheduled", "Postponed": "postponed"}
EARLIEST = dt.date(1871, 1, 1)  # the first season Lahman holds


# what names a record of one level: a game ID of MLB means nothing in the NBA. Choices among a
# level's options (season, team, stat) need no reset: a value the new level lacks is dropped.
PER_LEVEL_VALUES: dict[str, Any] = {"game": None, "player": None, "q": "", "pbp_player": ""}


def _forget_level_records() -> None:
    """On a new level, clear the bound record IDs and searches (through session state: a bound
    widget's URL value can only be changed that way)."""
    for key, empty in PER_LEVEL_VALUES.items():
        if key in st.session_state:
            st.session_state[key] = empty


def level_picker(codes: Sequence[str]) -> str:
    """The competition level every page follows; the URL carries the code (``?level=NBA``)."""
    options = list(codes) or list(FALLBACK_LEVELS)
    index = options.index(DEFAULT_LEVEL) if DEFAULT_LEVEL in options else 0
    # no format_func on a bound widget: the URL carries the formatted label, and links must
    # carry the code (``?level=NBA``)
    value = st.sidebar.selectbox("Level", options, index=index, key=LEVEL_KEY, bind=BIND,
                                 on_change=_forget_level_records,
                                 help="Every page shows this level; the Glossary page lists them all.")
    return str(value)


def current_level() -> str:
    """The level chosen in the sidebar by app.py (which renders before every page)."""
    return str(st.session_state.get(LEVEL_KEY) or DEFAULT_LEVEL)


def season_picker(seasons: Sequence[int], *, key: str = "season", label: str = "Season",
                  default: int | None = None) -> int | None:
    """Newest season first; by default the newest (the contract's 'current season')."""
    options = sorted({int(s) for s in seasons}, reverse=True)
    if not options:
        st.sidebar.caption("No seasons held for this level.")
        return None
    index = options.index(default) if default in options else 0
    value = st.sidebar.selectbox(label, options, index=index, key=key, bind=BIND)
    return int(value) if value is not None else None


def seasons_picker(seasons: Sequence[int], *, key: str = "seasons",
                   default: Sequence[int] = ()) -> list[int]:
    options = sorted({int(s) for s in seasons}, reverse=True)
    chosen = [s for s in default if s in options]
    return [int(s) for s in st.sidebar.multiselect("Seasons", options, default=chosen, key=key, bind=BIND)]


def team_picker(names: Sequence[str], *, key: str = "team", label: str = "Team") -> str | None:
    """One team by name, or ``None`` for all teams."""
    value = st.sidebar.selectbox(label, sorted(set(names)), index=None, placeholder="All teams", key=key,
                                 bind=BIND)
    return str(value) if value is not None else None


def teams_picker(names: Sequence[str], default: Sequence[str], *, key: str = "teams") -> list[str]:
    options = sorted(set(names))
    chosen = [n for n in default if n in options]
    return [str(t) for t in st.sidebar.multiselect("Teams", options, default=chosen, key=key, bind=BIND,
                                                   max_selections=8, placeholder="Pick teams to compare")]


def date_range_picker(*, prefix: str = "") -> tuple[dt.date | None, dt.date | None]:
    start = st.sidebar.date_input("From", value=None, key=f"{prefix}start", bind=BIND, min_value=EARLIEST)
    end = st.sidebar.date_input("To", value=None, key=f"{prefix}end", bind=BIND, min_value=EARLIEST)
    if start and end and end < start:
        st.sidebar.warning("'To' is before 'From': the range is ignored.")
        return None, None
    return start, end


def date_picker(label: str, *, key: str, help: str | None = None) -> dt.date | None:
    value: dt.date | None = st.sidebar.date_input(label, value=None, key=key, bind=BIND, min_value=EARLIEST,
                                                  help=help)
    return value


def status_picker(*, key: str = "status") -> str | None:
    """A game state for the API's ``status`` filter, or None for every game."""
    label = st.sidebar.selectbox("Status", list(STATUSES), index=0, key=key, bind=BIND)
    return STATUSES.get(str(label))


def choice(label: str, options: Sequence[str], *, key: str, sidebar: bool = True, index: int = 0,
           help: str | None = None) -> str:
    """One of ``options``, as written in the URL (a bound select box carries its label there, so
    options are the values themselves, never formatted)."""
    where = st.sidebar if sidebar else st
    return str(where.selectbox(label, list(options), index=index, key=key, bind=BIND, help=help))


def text_filter(label: str, *, key: str, placeholder: str = "", help: str | None = None) -> str:
    return str(st.sidebar.text_input(label, key=key, bind=BIND, placeholder=placeholder, help=help) or "").strip()


def toggle(label: str, *, key: str, default: bool = False) -> bool:
    return bool(st.sidebar.checkbox(label, value=default, key=key, bind=BIND))


def pager(pages: int, *, key: str) -> int:
    """Server-side paging: the page number lives in the URL like any filter."""
    # persist_state: the page survives a visit to another tab (the game detail) and back
    return int(st.pagination(max(1, pages), key=key, bind=BIND, width="stretch", persist_state="page"))


def tabs(labels: Sequence[str], *, key: str, default: str | None = None) -> dict[str, Any]:
    """URL-bound tabs (``?<key>=<label>``); only the open one's ``.open`` is True, so a page
    renders (and asks the API for) what the analyst looks at, not every tab."""
    containers = st.tabs(list(labels), key=key, bind=BIND, default=default)
    return dict(zip(labels, containers, strict=True))


def id_input(label: str, *, key: str, help: str | None = None, sidebar: bool = False) -> int | None:
    where = st.sidebar if sidebar else st
    value = where.number_input(label, min_value=1, value=None, step=1, key=key, bind=BIND, help=help,
                               placeholder="pick a row or type an ID")
    return int(value) if value else None


def select_id(key: str, ids: Sequence[int], table_key: str, tab: tuple[str, str] | None = None) -> None:
    """Selection callback of a table: put the picked row's ID into the bound ``key`` widget
    (and, with ``tab``, open the tab that shows it)."""
    selection = st.session_state.get(table_key)
    rows = list(getattr(getattr(selection, "selection", None), "rows", []) or [])
    if rows and rows[0] < len(ids):
        st.session_state[key] = int(ids[rows[0]])
        if tab is not None:
            st.session_state[tab[0]] = tab[1]


def name_to_id(frame: Any, name_column: str = "Name", id_column: str = "ID") -> dict[str, int]:
    """Team (or player) name → ID from a list DataFrame; the URL carries names, the API wants IDs."""
    if getattr(frame, "empty", True) or name_column not in frame.columns or id_column not in frame.columns:
        return {}
    return {str(n): int(i) for n, i in zip(frame[name_column], frame[id_column], strict=True)}
