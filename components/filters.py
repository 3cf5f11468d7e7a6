"""Filter widgets, each bound to the URL (``bind="query-params"``): the key is the URL name.

The URL is the source of truth (docs/dashboard.md): a pasted link seeds every widget, and a value equal
to its default is left out of the URL to keep links short. Tabs are bound too, and only the open
tab's content runs, so a link reopens the same tab and a page computes only what it shows.

Some defaults drift: the newest season, the latest day with ratings or projections, the top
teams. Left out of a link, they would open another view once newer data is loaded, so the
pickers that compute such a default ``pin`` the value they show, and the copy-link
(``layout.share_link``) names every pinned value the URL leaves out.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from components.loading import level_filling
from components.plain import md
from server.catalog.parameters import MAX_TEXT
from services import api

BIND: Final = "query-params"
LEVEL_KEY = "level"
DEFAULT_LEVEL = "MLB"
# label shown -> the games endpoint's `status` (the store's game states); None: every game
STATUSES: dict[str, str | None] = {"All": None, "Final": "final", "In progress": "inprogress",
                                   "Scheduled": "scheduled", "Postponed": "postponed", "No result": "noresult"}
EARLIEST = dt.date(1871, 1, 1)  # the first season Lahman holds


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
PINS_KEY = "_link_pins"
DEFAULTS_KEY = "_list_defaults"  # the default each multiselect last offered


def reset_pins() -> None:
    """Pins are this run's (app.py calls this before the page): one page never names another's."""
    st.session_state[PINS_KEY] = {}


def pin(key: str, value: object) -> None:
    """Have the copy-link name ``key=value`` even where the URL leaves it out: ``value`` is what
    a default resolved to from the data held now (the newest season, the latest day), which a
    link without it would resolve differently after newer data arrives. A list names each item;
    ``None`` or an empty list names nothing."""
    items = value if isinstance(value, list | tuple) else [] if value is None else [value]
    if items:
        st.session_state.setdefault(PINS_KEY, {})[key] = [str(v) for v in items]


def pinned() -> dict[str, list[str]]:
    """URL name -> the values this run pinned, as the URL writes them (a day as YYYY-MM-DD)."""
    pins: dict[str, list[str]] = st.session_state.get(PINS_KEY, {})
    return dict(pins)


def forget(keys: Sequence[str]) -> None:
    """Have these widgets take their page's default on the next run. Deleting a widget's state
    is not enough in a browser (the page sends the widget's old value back with the rerun), so
    each picker sets the default it computes through session state (``_reset``)."""
    pending: set[str] = st.session_state.setdefault(RESET_KEY, set())
    pending.update(keys)


def _reset(key: str, value: Any) -> None:
    """Set ``key`` to its page default if a change of level or season asked for it."""
    pending: set[str] = st.session_state.get(RESET_KEY, set())
    if key in pending:
        pending.discard(key)
        st.session_state[key] = value


def _keep(key: str, options: Sequence[str], default: Sequence[str]) -> None:
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


def _forget_level_records() -> None:
    """On a new level, clear the bound record IDs and searches (through session state: a bound
    widget's URL value can only be changed that way), and the level's dependent choices."""
    for key, empty in PER_LEVEL_VALUES.items():
        if key in st.session_state:
            st.session_state[key] = empty
    forget(LEVEL_DEPENDENT)


def warn_unknown(key: str, options: Sequence[object], label: str, default: object = None) -> None:
    """A link's value for ``key`` that is not among ``options`` (``season=1800``, ``level=XYZ``)
    is dropped by the widget; say so, and what is shown instead, rather than silently showing
    something else."""
    given = [v for v in st.query_params.get_all(key) if v != ""]
    allowed = {str(o) for o in options}
    wrong = [v for v in given if v not in allowed]
    if wrong:  # the link's values, and the names shown instead, are text (``md``), never markup
        instead = f": showing {md(default)}" if default not in (None, "", [], ()) else ": showing the default"
        quoted = ", ".join(f"'{md(w)}'" for w in wrong)
        st.sidebar.warning(f"The link's {label.lower()} {quoted} is not available "
                           f"here{instead}.", icon=":material/link_off:")


def level_picker(codes: Sequence[str], names: Mapping[str, str] | None = None) -> str:
    """The competition level every page follows; the URL carries the code (``?level=NBA``), the
    picker says its name (``names``: the API's glossary of levels) below it."""
    options = list(codes)
    index = options.index(DEFAULT_LEVEL) if DEFAULT_LEVEL in options else 0
    warn_unknown(LEVEL_KEY, options, "Level", options[index])
    # no format_func on a bound widget: the URL carries the formatted label, and links must
    # carry the code (``?level=NBA``)
    value = st.sidebar.selectbox("Level", options, index=index, key=LEVEL_KEY, bind=BIND,
                                 on_change=_forget_level_records,
                                 help="Every page shows this level; the Glossary page lists them all.")
    if names and names.get(str(value)):
        st.sidebar.caption(md(names[str(value)]))
    return str(value)


def current_level() -> str:
    """The level chosen in the sidebar by app.py (which renders before every page)."""
    return str(st.session_state.get(LEVEL_KEY) or DEFAULT_LEVEL)


def season_picker(seasons: Sequence[int], *, key: str = "season", label: str = "Season",
                  default: int | None = None) -> int | None:
    """Newest season first; by default the newest (docs/api/index.md: 'current season'). A new
    season forgets the choices computed from it (``SEASON_DEPENDENT``)."""
    options = sorted({int(s) for s in seasons}, reverse=True)
    if not options:
        st.sidebar.caption("No season of this level is loaded yet: the service is loading it (the notice "
                           "above the page says what is ready)." if level_filling(current_level())
                           else "No seasons held for this level.")
        return None
    index = options.index(default) if default in options else 0
    warn_unknown(key, options, label, options[index])
    _reset(key, options[index])
    value = st.sidebar.selectbox(label, options, index=index, key=key, bind=BIND,
                                 on_change=forget, args=(SEASON_DEPENDENT,))
    pin(key, value)  # the newest season changes when a new one is loaded
    named = api.season_name(current_level(), value) if value is not None else ""
    if named and named != str(value):  # the URL and the picker carry the ID, the year it ends
        st.sidebar.caption(f"The {md(named)} season")
    return int(value) if value is not None else None


def seasons_picker(seasons: Sequence[int], *, key: str = "seasons",
                   default: Sequence[int] = (), label: str = "Seasons") -> list[int]:
    options = sorted({int(s) for s in seasons}, reverse=True)
    chosen = [s for s in default if s in options]
    warn_unknown(key, options, label, ", ".join(str(s) for s in chosen))
    _reset(key, chosen)
    values = [int(s) for s in st.sidebar.multiselect(label, options, default=chosen, key=key, bind=BIND)]
    pin(key, values)  # a default of the newest seasons moves with them
    return values


def team_picker(names: Sequence[str], *, key: str = "team", label: str = "Team") -> str | None:
    """One team by name, or ``None`` for all teams; a new season keeps the team if it played in it."""
    warn_unknown(key, list(names), label, "all teams")
    _reset(key, st.session_state.get(key) if st.session_state.get(key) in set(names) else None)
    value = st.sidebar.selectbox(label, sorted(set(names)), index=None, placeholder="All teams", key=key,
                                 bind=BIND)
    return str(value) if value is not None else None


def teams_picker(names: Sequence[str], default: Sequence[str], *, key: str = "teams") -> list[str]:
    options = sorted(set(names))
    chosen = [n for n in default if n in options]
    warn_unknown(key, options, "Teams", ", ".join(chosen))
    _keep(key, options, chosen)
    values = [str(t) for t in st.sidebar.multiselect("Teams", options, default=chosen, key=key, bind=BIND,
                                                     max_selections=8, placeholder="Pick teams to compare")]
    pin(key, values)  # the default, the top-rated or likeliest teams, changes with every game day
    return values


MAX_COMPARED = 4


def link_id(value: str) -> int | None:
    """A record's ID as a link names it: the number itself (``who=443``), or, in a link made
    before IDs stood alone, the number a "Name (443)" label ends with; None for any other text."""
    text = value.strip()
    if text.isdigit():
        return int(text)
    head, _, tail = text.rpartition("(")
    number = tail.removesuffix(")")
    return int(number) if head and tail.endswith(")") and number.isdigit() else None


def picked_ids(key: str) -> list[int]:
    """The records an ``id_picker`` holds before it is drawn: this session's, else the link's."""
    if key in st.session_state:
        return [int(v) for v in st.session_state[key] or []]
    return list(dict.fromkeys(i for i in (link_id(v) for v in st.query_params.get_all(key)) if i is not None))


def id_picker(label: str, labels: Mapping[int, str], *, key: str, placeholder: str) -> list[int]:
    """Two to MAX_COMPARED records by ID, each shown by its label (a person's name with what
    tells namesakes apart, never the ID); the URL carries the IDs alone (``?who=443&who=605``).

    Not a bound widget: a bound multiselect writes the label it shows into the URL, and leaves
    out of it a value equal to its default, so a link's picks, offered as the default, vanished
    from the address bar after the first load and a reload showed nothing. Here the page writes
    the IDs picked into the URL itself on every run."""
    given = [v for v in st.query_params.get_all(key) if v != ""]
    warn_unknown(key, [v for v in given if link_id(v) is not None], label, "")
    held = [i for i in picked_ids(key) if i in labels][:MAX_COMPARED]  # only what is offered
    if st.session_state.get(key) != held:
        st.session_state[key] = held
    values = st.sidebar.multiselect(label, list(labels), format_func=lambda i: labels.get(i, str(i)), key=key,
                                    max_selections=MAX_COMPARED, placeholder=placeholder)
    ids = [int(v) for v in values]
    if ids:
        st.query_params[key] = [str(i) for i in ids]
    elif key in st.query_params:
        del st.query_params[key]
    return ids


def compare_picker(label: str, options: Sequence[str], *, key: str, placeholder: str) -> list[str]:
    """Two to MAX_COMPARED records to set side by side (Compare), in the order picked. No
    default: a bound multiselect leaves a value equal to its default out of the URL, so a
    link's picks offered as the default dropped from the address bar after the first load."""
    offered = list(dict.fromkeys(options))
    warn_unknown(key, offered, label, "")
    _keep(key, offered, [])
    values = st.sidebar.multiselect(label, offered, default=[], key=key, bind=BIND,
                                    max_selections=MAX_COMPARED, placeholder=placeholder)
    pin(key, values)  # the copy-link names the picks however the URL holds them
    return [str(v) for v in values]


# The date box commits a typed day when it loses focus, not on Enter, where analysts expect it
# (as in every other box of the sidebar): Enter in a date box leaves the box, which applies it.
# Installed once per browser page; the day's keystrokes stay the widget's own.
ENTER_APPLIES_DATES: Final = """<script>
if (!window.sportsEnterAppliesDates) {
  window.sportsEnterAppliesDates = true;
  document.addEventListener("keydown", (event) => {
    const inField = (el) => el && el.closest && el.closest('[data-testid="stDateInputField"]');
    if (event.key !== "Enter" || event.altKey || !event.isTrusted || !inField(event.target)) return;
    event.preventDefault();
    // Escape closes the calendar the box opened, which applies the day; a box without one
    // applies it when it loses focus
    event.target.dispatchEvent(new KeyboardEvent("keydown", {key: "Escape", code: "Escape", bubbles: true}));
    setTimeout(() => { if (inField(document.activeElement)) document.activeElement.blur(); }, 0);
  }, true);
}
</script>"""


def enter_applies_dates() -> None:
    """Have Enter in any date box apply the day typed (app.py, once a run, after the page)."""
    st.html(ENTER_APPLIES_DATES, unsafe_allow_javascript=True, width="content")


def date_range_picker(*, prefix: str = "") -> tuple[dt.date | None, dt.date | None]:
    start = st.sidebar.date_input("From", value=None, key=f"{prefix}start", bind=BIND, min_value=EARLIEST)
    end = st.sidebar.date_input("To", value=None, key=f"{prefix}end", bind=BIND, min_value=EARLIEST)
    if start and end and end < start:
        st.sidebar.warning("'To' is before 'From': the range is ignored.")
        return None, None
    return start, end


def date_picker(label: str, *, key: str, help: str | None = None) -> dt.date | None:
    """One day, or None (the page's default: the newest, which the page ``pin``s once it knows
    which day that is)."""
    _reset(key, None)
    value: dt.date | None = st.sidebar.date_input(label, value=None, key=key, bind=BIND, min_value=EARLIEST,
                                                  help=help)
    return value


def status_picker(*, key: str = "status") -> str | None:
    """A game state for the API's ``status`` filter, or None for every game."""
    warn_unknown(key, list(STATUSES), "Status", "All")
    _reset(key, "All")
    label = st.sidebar.selectbox("Status", list(STATUSES), index=0, key=key, bind=BIND)
    return STATUSES.get(str(label))


def choice(label: str, options: Sequence[str], *, key: str, sidebar: bool = True, index: int = 0,
           help: str | None = None, drifts: bool = False, on_change: Callable[[], None] | None = None) -> str:
    """One of ``options``, as written in the URL (a bound select box carries its label there, so
    options are the values themselves, never formatted). ``drifts``: ``index`` is computed from
    data that may grow, so the copy-link names the value."""
    where = st.sidebar if sidebar else st
    warn_unknown(key, options, label, options[index] if 0 <= index < len(options) else None)
    _reset(key, options[index] if 0 <= index < len(options) else None)
    value = str(where.selectbox(label, list(options), index=index, key=key, bind=BIND, help=help, on_change=on_change))
    if drifts:
        pin(key, value)
    return value


def text_filter(label: str, *, key: str, placeholder: str = "", help: str | None = None,
                on_change: Callable[[], None] | None = None) -> str:
    """A sidebar text box taking no more than the API answers (longer is a 400, not a search)."""
    return str(st.sidebar.text_input(label, key=key, bind=BIND, placeholder=placeholder, help=help,
                                     max_chars=MAX_TEXT, on_change=on_change) or "").strip()


def toggle(label: str, *, key: str, default: bool = False, on_change: Callable[[], None] | None = None) -> bool:
    return bool(st.sidebar.checkbox(label, value=default, key=key, bind=BIND, on_change=on_change))


def pager(pages: int, *, key: str) -> int:
    """Server-side paging: the page number lives in the URL like any filter."""
    # persist_state: the page survives a visit to another tab (the game detail) and back
    return int(st.pagination(max(1, pages), key=key, bind=BIND, width="stretch", persist_state="page"))


def tabs(labels: Sequence[str], *, key: str, default: str | None = None) -> dict[str, Any]:
    """URL-bound tabs (``?<key>=<label>``); only the open one's ``.open`` is True, so a page
    renders (and asks the API for) what the analyst looks at, not every tab."""
    warn_unknown(key, labels, "Tab", default or labels[0])
    containers = st.tabs(list(labels), key=key, bind=BIND, default=default)
    return dict(zip(labels, containers, strict=True))


def disclosure(label: str, *, key: str, icon: str | None = None) -> Any:
    """A URL-bound expander (``?<key>=true`` while open), closed on arrival; its ``.open`` says
    whether to run its content. It holds the records behind a chart, one click below it: a view
    opens on charts or on grids, never both, because the second kind's code and drawing land
    before the first is shown (bench/dashboard.py, Players: a grid under the chart took its first
    chart from 1.25x to 1.43-1.50x the one-chart page; the grid behind this box, 1.27x)."""
    return st.expander(label, key=key, bind=BIND, icon=icon)


CHART_BELOW: Final = "chart"  # a link's name for the chart box of the page it opens (``chart_below``)
PAGE_KEY: Final = "_page"  # session state: the page this run shows (app.py), as its URL names it


def chart_key() -> str:
    """The chart box's name on this page (``chart_games``): one name a page. A name shared by
    every page kept the box open in the session, so a box opened on one page opened itself on
    the next; the session cannot tell a click in the sidebar from a link pasted into the tab."""
    return f"{CHART_BELOW}_{st.session_state.get(PAGE_KEY) or 'overview'}"


def chart_below(label: str, *, icon: str = ":material/bar_chart:") -> Any:
    """A table-led view's chart, a click below its table (``disclosure``): one such box a page.
    A link's ``chart=true`` (the name every page's box answered to before each had its own)
    opens the box of the page it lands on, then gives way to that page's own name."""
    key = chart_key()
    given = st.query_params.get_all(CHART_BELOW)
    if given:
        opened = given[-1].lower() == "true"
        st.session_state[key] = opened
        del st.query_params[CHART_BELOW]
        if opened:  # the address keeps the box open under the page's own name, for the next link
            st.query_params[key] = "true"
    return disclosure(label, key=key, icon=icon)


def id_input(label: str, *, key: str, help: str | None = None, sidebar: bool = False) -> int | None:
    where = st.sidebar if sidebar else st
    value = where.number_input(label, min_value=1, value=None, step=1, key=key, bind=BIND, help=help,
                               placeholder="pick a row or type an ID")
    return int(value) if value else None


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


def name_to_id(frame: Any, name_column: str = "Name", id_column: str = "ID") -> dict[str, int]:
    """Team (or player) name → ID from a list DataFrame; the URL carries names, the API wants IDs."""
    if getattr(frame, "empty", True) or name_column not in frame.columns or id_column not in frame.columns:
        return {}
    return {str(n): int(i) for n, i in zip(frame[name_column], frame[id_column], strict=True)}
