"""Overview: the level's in-progress games and latest results, and how fresh each level's data is."""
from __future__ import annotations


import pandas as pd
import streamlit as st

from components import chart_view, charts, extra_time, layout, links, page_sections, season_facts
from components.filters import current_level
from server.catalog import clock
from components.tables import pick_columns, show_table
from services import ApiError, NotOffered, api, health

GAME_COLUMNS = ("ID", "GameDay", "LeagueName", "Visitor", "ScoreVis", "Home", "ScoreHome", "GameStatus", "Overtime",
                links.LINK_COLUMN)
LATEST_COUNT = 25
LEVELS_KEY = "levels_held"  # the levels' table, a click below the games


def _levels_table() -> pd.DataFrame:
    try:
        levels = health().get("Levels") or []
    except NotOffered:  # a NatStat backend has no /health of ours: the expander says so
        return pd.DataFrame()
    frame = pd.DataFrame([v for v in levels if isinstance(v, dict)])
    if "Sources" in frame.columns:
        frame["Sources"] = frame["Sources"].map(lambda v: ", ".join(v) if isinstance(v, list) else v)
    return pick_columns(frame, ("Level", "NewestGame", "Sources")) if not frame.empty else frame


def main() -> None:
    level = current_level()
    st.title(f"{level}: latest games")
    live = api.games(level, status="inprogress", size=LATEST_COUNT)
    today = api.games(level, limit="today", size=LATEST_COUNT)
    # newest first would lead with scheduled games: results are the finished games up to today
    latest = api.games(level, status="final", end=clock.today(), size=LATEST_COUNT)
    layout.note_page(latest)
    newest = str(latest.frame["GameDay"].iloc[0]) if not latest.frame.empty else "—"
    cols = st.columns(4)
    cols[0].metric("In progress", live.total)
    cols[1].metric("Today", today.total)
    cols[2].metric("Finished games", f"{latest.total:,}")
    cols[3].metric("Newest result", newest)
    # the games first, their chart one click below (a view opens on grids or on charts: page_sections.disclosure);
    # each game opens its detail on the Games page, the same link column as every page's
    game_link = links.link_format("game")
    sport = api.level_sport(level)
    columns = extra_time.columns(GAME_COLUMNS, sport)
    if not live.frame.empty:
        st.subheader("In progress")
        show_table(links.with_link(extra_time.mark(live.frame, sport), "ID", "game", level), name="in_progress",
                   columns=columns, formats=game_link, hidden=("ID",))
    st.subheader("Latest results")
    show_table(links.with_link(extra_time.mark(latest.frame, sport), "ID", "game", level), name="latest",
               columns=columns,
               formats=game_link, hidden=("ID",), empty="No finished games held for this level yet.")
    if not latest.frame.empty:
        chart = page_sections.chart_below("Chart: home margins of the latest results")
        if chart.open:
            drawn = season_facts.of_days(level, latest.frame.get("GameDay", []))
            title = charts.level_season_title(level, drawn, f"home margin of the {len(latest.frame)} latest results")
            chart_view.draw(charts.results(latest.frame, title, tie=charts.tie_word(api.level_sport(level))),
                            key="overview_chart", where=chart)
    held = page_sections.disclosure("Data held per level", key=LEVELS_KEY, icon=":material/database:")
    if held.open:
        with held:
            show_table(_levels_table(), name="levels", csv=False,
                       empty="The API did not list its levels (a NatStat backend does not).")
    layout.copy_link()


try:
    main()
except ApiError as err:
    layout.show_error(err)
