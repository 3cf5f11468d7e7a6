"""The analysts' dashboard: navigation, connection status, level picker, data-source notices.

Run with ``streamlit run app.py``; the API is found through SPORTS_API_URL / SPORTS_API_KEY or
``.streamlit/secrets.toml`` (docs/dashboard.md). Every filter lives in the URL, so links reproduce views.
"""
from __future__ import annotations

from typing import Any

import streamlit as st

from components import filters, layout, link_pins, loading, page_sections
from components.plain import md
from services import ApiError, NotOffered, api, health, load_config, run_epoch

st.set_page_config(page_title="Sports analytics workbench", page_icon=":material/sports_baseball:",
                   layout="wide")

# One file per area in app_pages/, not pages/: a pages/ folder beside the entrypoint is Streamlit's
# legacy auto-discovery, which competes with st.navigation for a deep link's first load (the
# Streamlit team's own guidance names the folder app_pages/ for that reason).
PAGES = [
    st.Page("app_pages/overview.py", title="Overview", icon=":material/home:", default=True,
            help="Latest and in-progress games of the level."),
    st.Page("app_pages/games.py", title="Games", icon=":material/scoreboard:",
            help="Games by season, team, dates and status, with a game's line score, plays and forecast."),
    st.Page("app_pages/ratings.py", title="Ratings", icon=":material/trending_up:",
            help="ELO rankings and series over a season; RPI for college levels."),
    st.Page("app_pages/standings.py", title="Standings", icon=":material/format_list_bulleted:",
            help="The table by league and division as of any day, with projected wins and playoff odds."),
    st.Page("app_pages/projections.py", title="Projections", icon=":material/insights:",
            help="Where the season will end: projected records, playoff and title odds as of any day."),
    st.Page("app_pages/forecasts.py", title="Forecasts vs outcomes", icon=":material/query_stats:",
            help="Calibration, Brier score and log loss, ELO against money lines, upsets."),
    st.Page("app_pages/playbyplay.py", title="Play-by-play", icon=":material/format_list_numbered:",
            help="A game's events, score over the game, and pitches per plate appearance."),
    st.Page("app_pages/players.py", title="Players and teams", icon=":material/groups:",
            help="Search players and teams: profile, seasons, game log and ELO."),
    st.Page("app_pages/compare.py", title="Compare", icon=":material/compare_arrows:",
            help="Two to four players or teams side by side: season lines, a stat over careers, ELO."),
    st.Page("app_pages/leaders.py", title="Leaders", icon=":material/leaderboard:",
            help="Stat leaders by code, players or teams, with qualifiers."),
    st.Page("app_pages/glossary.py", title="Glossary", icon=":material/menu_book:",
            help="Levels, sublevels, stat codes and nations."),
]


def _levels() -> tuple[list[str], dict[str, str]]:
    """Level codes and names from the glossary (levels are the API's data); when the API cannot
    answer, the one error message says why and what to do."""
    try:
        table = api.glossary(filters.DEFAULT_LEVEL, "levels")
    except ApiError as err:
        layout.show_error(err)
    names = dict(zip(table["ID"].astype(str), table["Name"].astype(str), strict=True))
    return list(names), names


def _health() -> dict[str, Any] | ApiError:
    """/health, asked first in every run: while the store still fills in the background, the
    run keeps its documents to itself (``run_epoch``), so the notice, the sidebar and the page
    all show one moment's data."""
    try:
        doc = health()
    except ApiError as err:
        run_epoch(False)
        loading.remember({})  # nothing known of a fill: no message says one runs
        return err
    run_epoch(loading.filling(doc))
    loading.remember(doc)
    return doc


def _connection(doc: dict[str, Any] | ApiError, level: str) -> tuple[set[str], dict[str, str]]:
    """Sidebar status from /health (the level's name is under its picker, not repeated); returns the data sources /health
    lists for the level and the notices it gives for each source."""
    config = load_config()
    if isinstance(doc, NotOffered):  # a NatStat backend without this service's /health
        st.sidebar.caption(f":material/cloud_done: NatStat backend · {md(config.url)}")
        return set(), {}
    if isinstance(doc, ApiError):
        st.sidebar.error(f"API not reachable at {md(config.url)}", icon=":material/cloud_off:")
        st.sidebar.caption(doc.hint)
        return set(), {}
    st.sidebar.caption(f":material/cloud_done: API {md(doc.get('Status', 'ok'))} · {md(config.url)}")
    if not config.key:
        st.sidebar.warning("No API key: run `python -m server keys issue` and set SPORTS_API_KEY.")
    return layout.level_sources(doc, level), dict(doc.get("Notices") or {})


def _notices(level: str) -> tuple[str, ...]:
    """The credits the level's data owes, for the footer (empty when the API cannot answer)."""
    try:
        return api.level_notices(level)
    except ApiError:
        return ()


def main() -> None:
    layout.reset_notes()
    link_pins.reset_pins()
    layout.narrow_screen_style()
    navigation = st.navigation(PAGES)
    st.session_state[page_sections.PAGE_KEY] = navigation.url_path or "overview"  # names its chart box
    codes, names = _levels()  # the glossary's levels; an API that cannot answer stops here
    doc = _health()
    level = filters.level_picker(codes, names)
    if isinstance(doc, dict):
        loading.notice(doc, level)  # above the page: the level still loading says what is ready
    try:
        navigation.run()
    finally:
        # below the page's own filters, so that on a phone the level and the season come first
        # in the sidebar, within reach without scrolling it; after a page that stopped too
        sources, owed = _connection(doc, level)
        layout.source_banner(sources, owed)
        layout.note_sources(sources, _notices(level) if sources else ())
        layout.footer()
        filters.enter_applies_dates()  # last: nothing to see, so it moves nothing on the page
        page_sections.chosen_tab_in_view()


main()
