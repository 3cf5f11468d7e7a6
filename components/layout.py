"""Page chrome: friendly errors, the data-source banner and footer, the copy-link box."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NoReturn
from urllib.parse import urlencode

import streamlit as st

from components import link_pins
from components.plain import md
from services import api
from services.client import retry_connection
from services.errors import ApiError, ConnectionFailed, KeyInvalid, KeyMissing, NotOffered

SOURCES_KEY = "_sources_shown"
NOTICES_KEY = "_notices_shown"
SECRET_PARAMS = frozenset({"key", "api_key"})


# below about 900 px (a laptop split in two, a tablet) headline figures shrink to fit their column
# instead of ending in "0.2…"; a small table wider than its column (a line score, a box score on a
# phone) scrolls inside its own box instead of being cut off at the screen's edge; a grid wider
# than its box shows a fade and an arrow at its right edge until scrolled to its end (a scroll-driven
# animation: no cue on a grid that fits, whose scroller has nothing to scroll); a grid's toolbar
# (shown on a hover or a tap, 44 px tall, drawn above the grid's top edge) has the room above the
# grid to itself instead of covering the last line of the caption or heading above; a fixed style
# sheet, no data in it
NARROW_STYLE = """<style>
[data-testid="stElementContainer"]:has(> div > [data-testid="stDataFrame"]) { padding-top: 1.75rem; }
[data-testid="stMarkdownContainer"] table { display: block; max-width: 100%; overflow-x: auto; }
[data-testid="stElementContainer"]:has(.chart-view-early) { display: none; }
[data-testid="stDataFrame"] { timeline-scope: --grid-across; }
[data-testid="stDataFrame"] .dvn-scroller { scroll-timeline: --grid-across inline; }
@keyframes grid-more-right { from, 96% { opacity: 1; } to { opacity: 0; } }
@media (max-width: 900px) {
  [data-testid="stDataFrame"]::after {
    content: "\\203A"; position: absolute; top: 0; right: 0; bottom: 0; width: 1.6rem; z-index: 2;
    display: flex; align-items: center; justify-content: center; pointer-events: none;
    font-size: 1.4rem; color: rgba(49, 51, 63, 0.7);
    background: linear-gradient(to right, rgba(255, 255, 255, 0), rgba(255, 255, 255, 0.95));
    opacity: 0; animation: grid-more-right linear both; animation-timeline: --grid-across;
  }
  [data-testid="stMetricValue"] { font-size: 1.35rem; }
  [data-testid="stMetricLabel"] p { font-size: 0.8rem; }
  h1 { font-size: 1.8rem; }
}
</style>"""


# a season's name in a page title: its hyphen a non-breaking one, so that a narrow screen wraps
# the title between words, never inside "2022-23" (Chromium breaks a line after a hyphen)
NON_BREAKING_HYPHEN = "\u2011"


def title_season(level: str, season: object) -> str:
    """``season``'s name as a page title prints it: "2022\u201123", which stays on one line."""
    return api.season_name(level, season).replace("-", NON_BREAKING_HYPHEN)


def narrow_screen_style() -> None:
    st.html(NARROW_STYLE)


def show_error(err: ApiError) -> NoReturn:
    """The one way a page reports an API failure: a sentence and what to do, then stop."""
    # the API's message may echo a filter of the link: text; the hint is the dashboard's own
    said = f"{md(err.message)} — {err.hint}"
    if isinstance(err, NotOffered):  # not a failure: what this page shows is not there
        st.info(f"**Not offered by this backend.** {said}", icon=":material/info:")
        st.stop()
    title = {KeyMissing: "API key missing", KeyInvalid: "API key rejected",
             ConnectionFailed: "API unreachable"}.get(type(err), "The API could not answer")
    st.error(f"**{title}.** {said}", icon=":material/error:")
    if isinstance(err, ConnectionFailed):
        st.button("Retry", key="retry_connection", on_click=retry_connection,
                  icon=":material/refresh:")
    st.stop()


def note_sources(sources: Iterable[str], notices: Iterable[str] = ()) -> None:
    """Remember which data sources (and the credits the API sent with them) this run showed."""
    shown: set[str] = st.session_state.setdefault(SOURCES_KEY, set())
    shown.update(s.lower() for s in sources if s)
    owed: list[str] = st.session_state.setdefault(NOTICES_KEY, [])
    owed.extend(n for n in notices if n and n not in owed)


def note_page(page: Any) -> None:
    """``note_sources`` for a services ``Page`` (its meta ``Source`` and ``Notices``)."""
    note_sources(page.sources, page.notices)


def note_data_ends(level: str, seasons: Iterable[int] | None) -> None:
    """Say in words where a season's data stops before the season did (the seasons'
    ``DataEnd`` and ``NoResultGames``), for the seasons shown (None: every season)."""
    shown = None if seasons is None else set(seasons)
    for season, (day, missing) in sorted(api.data_ends(level).items(), reverse=True):
        if shown is None or season in shown:
            games = f"{missing} game{'s' if missing != 1 else ''}"
            st.info(f"The {level} {md(api.season_name(level, season))} data stops on {day:%d %B %Y}: {games} "
                    f"listed after it "
                    f"{'have' if missing != 1 else 'has'} no result in the source (shown as 'No "
                    "result', counted in no record, rating or projection).",
                    icon=":material/event_busy:")


def reset_notes() -> None:
    """Notices are owed per run, for what this run shows (app.py calls this first)."""
    st.session_state[SOURCES_KEY] = set()
    st.session_state[NOTICES_KEY] = []


def level_sources(health_doc: dict[str, Any], level: str) -> set[str]:
    """The data sources /health lists for a level (its ``Levels`` entries: ``Level``,
    ``Sources``)."""
    for entry in health_doc.get("Levels") or []:
        if str(entry.get("Level", "")).lower() == level.lower():
            return {str(s).lower() for s in entry.get("Sources") or []}
    return set()


def source_banner(sources: set[str], notices: dict[str, str]) -> None:
    """Which sources the level's data comes from, with the API's own notices for them
    (``/health``'s ``Notices``): simulated data says so, Retrosheet's notice shows beside it."""
    if "simulated" in sources:
        st.sidebar.info(md(notices.get("simulated", "Simulated data.")), icon=":material/science:")
    real = sorted(s for s in sources if s != "simulated")
    if real:
        st.sidebar.success("Real data: " + md(", ".join(real)), icon=":material/verified:")
    if "retrosheet" in sources and "retrosheet" in notices:
        st.sidebar.caption(md(notices["retrosheet"]))  # owed wherever Retrosheet's data shows


def footer_lines(notices: list[str]) -> list[str]:
    """The notices the API sent with what this run showed, once each, in the order given."""
    return list(dict.fromkeys(n for n in notices if n))


def footer() -> None:
    """Credits owed by the data on screen (Retrosheet's notice is required wherever its data shows)."""
    lines = footer_lines(st.session_state.get(NOTICES_KEY, []))
    if lines:
        st.divider()
        st.caption("  \n".join(md(line) for line in lines))  # one element: each costs the browser time before the chart


def share_link() -> str:
    """This view's address: the page URL, every bound filter, and each value the URL leaves out
    as a default that drifts (``link_pins.pin``: the newest season, the latest day, the top teams),
    so the link opens this view next month too; never the API key. Stable defaults (the level,
    a status of All) stay out, and a link without a season still opens the newest."""
    # every value of a repeated parameter (a multiselect's), which ``to_dict`` would drop
    params = [(k, v) for k in st.query_params for v in st.query_params.get_all(k)]
    in_params = {k for k, _ in params}
    params += [(k, v) for k, values in link_pins.pinned().items() if k not in in_params for v in values]
    params = [(k, v) for k, v in params if k.lower() not in SECRET_PARAMS]
    base = (st.context.url or "").split("?", 1)[0]
    return f"{base}?{urlencode(params)}" if params else base


def copy_link() -> None:
    """A popover, not an expander: its content mounts only when opened, so the code block's
    syntax highlighter (1.5 MB of JavaScript) never delays the page's first chart."""
    with st.popover("Copy link to this view", icon=":material/link:"):
        st.code(share_link(), language=None)
        st.caption("The link carries the filters, the tab and the selected record, never the API key. It also "
                   "names what the page picked for you (the newest season, the latest day, the top teams), which "
                   "the address bar leaves out, so it opens this same view after newer data arrives.")
