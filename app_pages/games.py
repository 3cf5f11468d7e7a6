"""Games: filters in the URL, a server-side paged table, and the selected game's detail."""
from __future__ import annotations

import streamlit as st

from components import charts, filters, layout
from components.analysis import column
from components.game_detail import show_game
from components.tables import show_table
from services import ApiError, api

PAGE_SIZE = 50
GAME_COLUMNS = ("ID", "GameDay", "GameNo", "Visitor", "ScoreVis", "Home", "ScoreHome", "GameStatus",
                "Overtime", "League")
LIMITS = {"In progress": "inprogress", "Today": "today"}


def main() -> None:
    level = filters.current_level()
    st.title(f"{level} games")
    season = filters.season_picker(api.seasons(level).get("ID", []))
    teams = filters.name_to_id(api.teams(level, season))
    team = filters.team_picker(list(teams))
    start, end = filters.date_range_picker()
    status = filters.status_picker()
    page_no = filters.page_number(key="games_page")
    result = api.games(level, season=season, team_id=teams.get(team or ""), start=start, end=end,
                       limit=LIMITS.get(status), page=page_no, size=PAGE_SIZE)
    layout.note_sources(result.sources)
    frame = result.frame
    if status in ("Final", "Not started") and not frame.empty:
        final = column(frame, "GameStatus").fillna("").astype(str).str.startswith("Final")
        frame = frame[final if status == "Final" else ~final & (column(frame, "GameStatus").fillna("") == "")]
        st.caption(f"Status '{status}' filters the rows of this page.")
    st.caption(f"{result.total} games · page {page_no} of {result.pages} · click a row to open the game")
    show_table(frame, name="games", columns=GAME_COLUMNS, select_into="game")
    st.plotly_chart(charts.game_scores(frame), key="games_chart")
    game_id = filters.id_input("Game ID", key="game", help="The game shown below; part of the link.")
    if game_id:
        show_game(api.game(level, game_id))
    layout.copy_link()


try:
    main()
except ApiError as err:
    layout.show_error(err)
