"""Overview: the level's in-progress games and the latest results."""
from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import streamlit as st

from components import charts, layout
from components.filters import current_level
from components.tables import show_table
from services import ApiError, api

GAME_COLUMNS = ("ID", "GameDay", "Visitor", "ScoreVis", "Home", "ScoreHome", "GameStatus", "Overtime")
LATEST_COUNT = 25
SERVICE_ZONE = ZoneInfo("America/New_York")  # the API's day boundary (contract 4)


def main() -> None:
    level = current_level()
    st.title(f"{level}: latest games")
    live = api.games(level, limit="inprogress", size=LATEST_COUNT)
    today = api.games(level, limit="today", size=LATEST_COUNT)
    # newest first would lead with scheduled games: results are the games up to today
    latest = api.games(level, end=dt.datetime.now(SERVICE_ZONE).date(), size=LATEST_COUNT)
    layout.note_sources(latest.sources)
    cols = st.columns(3)
    cols[0].metric("In progress", live.total)
    cols[1].metric("Today", today.total)
    cols[2].metric("Games up to today", latest.total)
    st.plotly_chart(charts.game_scores(latest.frame), key="overview_chart")
    st.subheader("In progress")
    show_table(live.frame, name="in_progress", columns=GAME_COLUMNS, empty="No game is in progress right now.")
    st.subheader("Latest results")
    show_table(latest.frame, name="latest", columns=GAME_COLUMNS, empty="No games held for this level yet.")
    layout.copy_link()


try:
    main()
except ApiError as err:
    layout.show_error(err)
