"""The sidebar's filters: the level, seasons, teams, days, a game state, a stat or any one
choice, a text search; each bound to the URL (components/url_binding.py), a drifting default
pinned for the copy-link (components/link_pins.py), reset when the level or season changes
(components/choice_resets.py).
"""
from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

import streamlit as st

from components.choice_resets import SEASON_DEPENDENT, forget, forget_level_records, keep_picks, reset_to_default
from components.link_pins import pin
from components.loading import level_filling
from components.plain import md
from components.url_binding import BIND, bound, warn_unknown
from server.catalog.parameters import MAX_TEXT
from services import api

LEVEL_KEY = "level"
SEASON_KEY = "season"  # a season's name in a link; a page's own season box may have another (``carried_season``)
DEFAULT_LEVEL = "MLB"
# label shown -> the games endpoint's `status` (the store's game states); None: every game
STATUSES: dict[str, str | None] = {"All": None, "Final": "final", "In progress": "inprogress",
                                   "Scheduled": "scheduled", "Postponed": "postponed", "No result": "noresult"}
EARLIEST = dt.date(1871, 1, 1)  # the first season Lahman holds


def level_picker(codes: Sequence[str], names: Mapping[str, str] | None = None) -> str:
    """The competition level every page follows; the URL carries the code (``?level=NBA``), the
    picker says its name (``names``: the API's glossary of levels) below it."""
    options = list(codes)
    index = options.index(DEFAULT_LEVEL) if DEFAULT_LEVEL in options else 0
    warn_unknown(LEVEL_KEY, options, "Level", options[index])
    # no format_func on a bound widget: the URL carries the formatted label, and links must
    # carry the code (``?level=NBA``)
    value = st.sidebar.selectbox("Level", options, index=index, key=LEVEL_KEY, bind=BIND,
                                 on_change=forget_level_records,
                                 help="Every page shows this level; the Glossary page lists them all.")
    if names and names.get(str(value)):
        st.sidebar.caption(md(names[str(value)]))
    return str(value)


def current_level() -> str:
    """The level chosen in the sidebar by app.py (which renders before every page)."""
    return str(st.session_state.get(LEVEL_KEY) or DEFAULT_LEVEL)


def carried_season(key: str, options: Sequence[int]) -> int | None:
    """The one season a link names as ``season`` (what the Games, Standings, Ratings, Projections
    and Leaders pages call it) for a picker that calls it ``key`` and that the link leaves out: a
    Standings link opened on Forecasts, a player or a team shows that season. A season the
    picker does not offer is said, as a value of its own name is (``warn_unknown``)."""
    if key == SEASON_KEY or st.query_params.get_all(key) or bound(SEASON_KEY):  # the page's own season box
        return None
    given = [v for v in st.query_params.get_all(SEASON_KEY) if v != ""]
    if len(given) != 1:
        return None
    warn_unknown(SEASON_KEY, options, "Season")
    return int(given[0]) if given[0].isdigit() and int(given[0]) in options else None


def season_picker(seasons: Sequence[int], *, key: str = SEASON_KEY, label: str = "Season",
                  default: int | None = None) -> int | None:
    """Newest season first; by default the newest (docs/api/index.md: 'current season'), or the
    season a link names (``carried_season``). A new season forgets the choices computed from it
    (``SEASON_DEPENDENT``)."""
    options = sorted({int(s) for s in seasons}, reverse=True)
    if not options:
        st.sidebar.caption("No season of this level is loaded yet: the service is loading it (the notice "
                           "above the page says what is ready)." if level_filling(current_level())
                           else "No seasons held for this level.")
        return None
    default = carried_season(key, options) or default
    index = options.index(default) if default in options else 0
    warn_unknown(key, options, label, options[index])
    reset_to_default(key, options[index])
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
    carried = carried_season(key, options)
    chosen = [carried] if carried is not None else [s for s in default if s in options]
    warn_unknown(key, options, label, ", ".join(str(s) for s in chosen))
    reset_to_default(key, chosen)
    values = [int(s) for s in st.sidebar.multiselect(label, options, default=chosen, key=key, bind=BIND)]
    pin(key, values)  # a default of the newest seasons moves with them
    return values


def team_picker(names: Sequence[str], *, key: str = "team", label: str = "Team") -> str | None:
    """One team by name, or ``None`` for all teams; a new season keeps the team if it played in it."""
    warn_unknown(key, list(names), label, "all teams")
    reset_to_default(key, st.session_state.get(key) if st.session_state.get(key) in set(names) else None)
    value = st.sidebar.selectbox(label, sorted(set(names)), index=None, placeholder="All teams", key=key,
                                 bind=BIND)
    return str(value) if value is not None else None


def teams_picker(names: Sequence[str], default: Sequence[str], *, key: str = "teams") -> list[str]:
    options = sorted(set(names))
    chosen = [n for n in default if n in options]
    warn_unknown(key, options, "Teams", ", ".join(chosen))
    keep_picks(key, options, chosen)
    values = [str(t) for t in st.sidebar.multiselect("Teams", options, default=chosen, key=key, bind=BIND,
                                                     max_selections=8, placeholder="Pick teams to compare")]
    pin(key, values)  # the default, the top-rated or likeliest teams, changes with every game day
    return values


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
    reset_to_default(key, None)
    value: dt.date | None = st.sidebar.date_input(label, value=None, key=key, bind=BIND, min_value=EARLIEST,
                                                  help=help)
    return value


def status_picker(*, key: str = "status") -> str | None:
    """A game state for the API's ``status`` filter, or None for every game."""
    warn_unknown(key, list(STATUSES), "Status", "All")
    reset_to_default(key, "All")
    label = st.sidebar.selectbox("Status", list(STATUSES), index=0, key=key, bind=BIND)
    return STATUSES.get(str(label))


def choice(label: str, options: Sequence[str], *, key: str, sidebar: bool = True, index: int = 0,
           help: str | None = None, drifts: bool = False, on_change: Callable[[], None] | None = None) -> str:
    """One of ``options``, as written in the URL (a bound select box carries its label there, so
    options are the values themselves, never formatted). ``drifts``: ``index`` is computed from
    data that may grow, so the copy-link names the value."""
    where = st.sidebar if sidebar else st
    warn_unknown(key, options, label, options[index] if 0 <= index < len(options) else None)
    reset_to_default(key, options[index] if 0 <= index < len(options) else None)
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


def id_input(label: str, *, key: str, help: str | None = None, sidebar: bool = False) -> int | None:
    where = st.sidebar if sidebar else st
    value = where.number_input(label, min_value=1, value=None, step=1, key=key, bind=BIND, help=help,
                               placeholder="pick a row or type an ID")
    return int(value) if value else None


def name_to_id(frame: Any, name_column: str = "Name", id_column: str = "ID") -> dict[str, int]:
    """Team (or player) name → ID from a list DataFrame; the URL carries names, the API wants IDs.

    A name two rows share (the Baltimore Orioles of 1882-1899 and today's, in a list of every
    season's teams) stays the active team's (``Active`` Y, else the first listed), and the
    other's label adds its abbreviation, "Baltimore Orioles (BLN)" (and its ID where that is
shared too, or the ID alone where it has none):
    each team can be picked, and a link naming the team reaches today's."""
    if getattr(frame, "empty", True) or name_column not in frame.columns or id_column not in frame.columns:
        return {}
    names = [str(n) for n in frame[name_column]]
    ids = [int(i) for i in frame[id_column]]
    active = [str(a) == "Y" for a in frame["Active"]] if "Active" in frame.columns else [False] * len(ids)
    abbrevs = list(frame["Abbrev"]) if "Abbrev" in frame.columns else [None] * len(ids)
    keeper: dict[str, int] = {}  # the row that keeps a shared name: the active one, else the first
    for k, (name, is_active) in enumerate(zip(names, active, strict=True)):
        if name not in keeper or (is_active and not active[keeper[name]]):
            keeper[name] = k
    pairs = Counter(zip(names, map(str, abbrevs), strict=True))

    def label(k: int, name: str, ident: int, abbrev: object) -> str:
        if keeper[name] == k:
            return name
        if isinstance(abbrev, str) and abbrev and pairs[(name, abbrev)] == 1:
            return f"{name} ({abbrev})"
        return f"{name} ({abbrev}, ID {ident})" if isinstance(abbrev, str) and abbrev else f"{name} (ID {ident})"

    return {label(k, name, ident, abbrev): ident
            for k, (name, ident, abbrev) in enumerate(zip(names, ids, abbrevs, strict=True))}
