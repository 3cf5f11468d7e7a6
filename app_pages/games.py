"""Games: filters in the URL, a server-side paged list, and the selected game's detail."""
from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass
from functools import partial

import pandas as pd
import streamlit as st

from components import charts, filters, layout
from components.game_detail import show_game
from components.tables import download, show_table
from services import ApiError, Page, api
from services.client import MAX_FOLLOWED_PAGES

SHOWN_PAGES = 5  # pages of 1,000: a full MLB season (2,430 games) and more, charted and sorted whole
GAME_COLUMNS = ("ID", "GameDay", "GameNo", "Visitor", "ScoreVis", "Home", "ScoreHome", "GameStatus",
                "Overtime", "League")
TABS_KEY, LIST_TAB, GAME_TAB = "tab", "Games", "Game detail"


@dataclass(frozen=True)
class Query:
    """The list's filters, as the games endpoint takes them (status filtered by the API)."""

    season: int | None
    team_id: int | None
    start: dt.date | None
    end: dt.date | None
    status: str | None


def _matched(level: str, query: Query) -> Page:
    """Every game the filters match, up to SHOWN_PAGES pages: the chart and the table's sort
    cover all of them, not one screenful."""
    return api.all_games(level, max_pages=SHOWN_PAGES, **asdict(query))


def _all_games_csv(level: str, query: Query) -> bytes:
    """Every matching game up to the client's bound (built when the button is clicked)."""
    frame: pd.DataFrame = api.all_games(level, **asdict(query)).frame
    return str(frame.to_csv(index=False)).encode()


def _list(level: str, query: Query) -> None:
    result = _matched(level, query)
    layout.note_page(result)
    shown = len(result.frame)
    if result.truncated:
        st.warning(f"{result.total:,} games match: the chart and table hold the newest {shown:,}. "
                   "Narrow the season, team or dates to see them all.", icon=":material/filter_alt:")
    st.plotly_chart(charts.results(result.frame, tie=charts.tie_word(api.level_sport(level))), key="games_chart")
    st.caption(f"{result.total:,} games" + (f" · the newest {shown:,} shown" if result.truncated else "")
               + " · sort by any column · click a row to open the game")
    show_table(result.frame, name="games", columns=GAME_COLUMNS, select_into="game", hidden=("ID",),
               open_tab=(TABS_KEY, GAME_TAB), empty="No games match these filters.", csv=not result.truncated)
    if result.truncated:
        bound = MAX_FOLLOWED_PAGES * api.LIST_PAGE_SIZE
        label = (f"Download all {result.total:,} matching games (CSV)" if result.total <= bound else
                 f"Download the newest {bound:,} of {result.total:,} games (CSV; the download stops there)")
        download(label, partial(_all_games_csv, level, query), name="games_all")


def main() -> None:
    level = filters.current_level()
    season = filters.season_picker(api.season_ids(level, with_games=True))
    teams = filters.name_to_id(api.teams(level, season))
    team = filters.team_picker(list(teams))
    start, end = filters.date_range_picker()
    status = filters.status_picker()
    game_id = filters.id_input("Game ID", key="game", sidebar=True,
                               help="The game shown in 'Game detail'; click a row of the list to pick one.")
    st.title(f"{level} games")
    query = Query(season, teams.get(team or ""), start, end, status)
    tabs = filters.tabs([LIST_TAB, GAME_TAB], key=TABS_KEY, default=GAME_TAB if game_id else LIST_TAB)
    if tabs[LIST_TAB].open:
        with tabs[LIST_TAB]:
            _list(level, query)
    if tabs[GAME_TAB].open:
        with tabs[GAME_TAB]:
            if game_id:
                detail = api.game(level, game_id)
                show_game(detail, api.level_sport(level), api.perfs(level, "playerperfs", game_id=game_id))
            else:
                st.info("Pick a game: click a row of the list, or type its ID in the sidebar.")
    layout.copy_link()


try:
    main()
except ApiError as err:
    layout.show_error(err)
