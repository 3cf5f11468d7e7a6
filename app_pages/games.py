"""Games: filters in the URL, a server-side paged list, and the selected game's detail."""
from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass
from functools import partial

import pandas as pd
import streamlit as st

from components import (chart_view, charts, extra_time, filters, layout, links, page_sections, phases, season_facts,
                        team_view, ties)
from components.game_detail import show_game
from components.plain import md
from components.tables import csv_bytes, download, show_table
from services import ApiError, Page, api
from services.client import MAX_FOLLOWED_PAGES

SHOWN_PAGES = 5  # pages of 1,000: a full MLB season (2,430 games) and more, charted and sorted whole
GAME_COLUMNS = ("ID", "GameDay", "GameNo", "Visitor", "ScoreVis", "Home", "ScoreHome", "GameStatus",
                "Overtime", "LeagueName", "Phase")
TABS_KEY, LIST_TAB, GAME_TAB = "tab", "Games", "Game detail"
ALL_COMPETITIONS = "All competitions"
COMPETITION_ORDER = {"Domestic": 0, "Cup": 1, "International": 2}  # the picker's order by LeagueType


@dataclass(frozen=True)
class Query:
    """The list's filters, as the games endpoint takes them (status and phase filtered by the
    API, so that totals stay exact)."""

    season: int | None
    team_id: int | None
    start: dt.date | None
    end: dt.date | None
    status: str | None
    phase: str | None = None
    sublevel: int | None = None  # one league or competition (football's)


def _matched(level: str, query: Query) -> Page:
    """Every game the filters match, up to SHOWN_PAGES pages: the chart and the table's sort
    cover all of them, not one screenful."""
    return api.all_games(level, max_pages=SHOWN_PAGES, **asdict(query))


def _all_games_csv(level: str, query: Query) -> bytes:
    """Every matching game up to the client's bound (built when the button is clicked)."""
    frame: pd.DataFrame = api.all_games(level, **asdict(query)).frame
    return csv_bytes(frame)


def _drawn(level: str, query: Query, games: pd.DataFrame) -> list[int]:
    """The seasons a chart of ``games`` draws: the season asked, else those the days fall in."""
    return [query.season] if query.season else season_facts.of_days(level, games.get("GameDay", []))


def _team_view(level: str, games: pd.DataFrame, team: str, tie: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """W-L, differential and scoring from ``team``'s side; an opponent filter. Returns the games
    left after the opponent filter, and the same games from the team's side."""
    side = team_view.team_side(games, team, tie=tie[:1])
    opponents = sorted(set(side["Opponent"])) if not side.empty else []
    opponent = filters.team_picker(opponents, key="opponent", label="Opponent")
    if opponent:
        side = side[side["Opponent"] == opponent]
        games = games[(games["Home"].astype(str) == opponent) | (games["Visitor"].astype(str) == opponent)]
    tally = team_view.record(side)
    cols = st.columns(4)
    draws = tie == charts.tie_word("soccer")  # soccer reads W-D-L
    cols[0].metric("Record", team_view.record_text(str(tally["W"]), str(tally["L"]), str(tally["T"]) if tally["T"] else None,
                                                   draws=draws),
                   help="Wins-draws-losses of the finished games listed" if draws else
                   f"Wins-losses{f'-{tie.lower()}s' if tally['T'] else ''} of the finished games listed")
    cols[1].metric("Differential", f"{tally['Diff']:+d}", help="Scored minus conceded over these games")
    cols[2].metric("Scored per game", f"{side['For'].mean():.2f}" if len(side) else "—")
    cols[3].metric("Conceded per game", f"{side['Against'].mean():.2f}" if len(side) else "—")
    return games, side


def _list(level: str, query: Query, team: str | None) -> None:
    result = _matched(level, query)
    layout.note_page(result)
    layout.note_data_ends(level, None if query.season is None else [query.season])
    frame = phases.mark(result.frame)
    shown = len(frame)
    if result.truncated:
        st.warning(f"{result.total:,} games match: the chart and table hold the newest {len(result.frame):,}. "
                   "Narrow the season, team or dates to see them all.", icon=":material/filter_alt:")
    tie = charts.tie_word(api.level_sport(level))
    drawn = _drawn(level, query, frame)
    side = pd.DataFrame()
    if team:
        frame, side = _team_view(level, frame, team, tie)
        shown = len(frame)
    of = f" in {layout.title_season(level, query.season)}" if query.season is not None else ""
    st.caption(f"{result.total:,} games{of}" + (f" · {shown:,} shown" if shown != result.total else "")
               + " · sort by any column · click a row to open the game")
    # the list first, its chart one click below (a view opens on grids or on charts: page_sections.disclosure)
    sport = api.level_sport(level)
    listed = ties.mark(extra_time.mark(frame, sport))  # a cup tie's second leg: its aggregate
    show_table(listed, name="games", columns=ties.columns(extra_time.columns(GAME_COLUMNS, sport), listed),
               select_into="game", hidden=("ID",),
               open_tab=(TABS_KEY, GAME_TAB), empty="No games match these filters.", csv=not result.truncated)
    if result.truncated:
        bound = MAX_FOLLOWED_PAGES * api.LIST_PAGE_SIZE
        label = (f"Download all {result.total:,} matching games (CSV)" if result.total <= bound else
                 f"Download the newest {bound:,} of {result.total:,} games (CSV; the download stops there)")
        download(label, partial(_all_games_csv, level, query), name="games_all")
    if frame.empty:
        return
    box = page_sections.chart_below(f"Chart: the margins of {md(team)}" if team else "Chart: home margins")
    if not box.open:
        return
    with box:
        if team:
            chart_view.draw(charts.team_margins(side, team, scope=charts.scope(level, drawn)), key="team_margins_chart")
        else:
            title = charts.level_season_title(level, drawn, "home margin of the listed games")
            chart_view.draw(charts.results(frame, tie=tie, title=title), key="games_chart")


def _odds(level: str, season: int | None, team_id: int) -> pd.DataFrame:
    """A team's projections over the game's season (its playoff odds day by day)."""
    return api.projections(level, season=season, team_id=team_id).frame


def _competition_picker(level: str) -> int | None:
    """One league or competition's games, where the level's games name theirs (football: a
    season holds the leagues, the European cups and the year's internationals); None for all."""
    sublevels = api.glossary(level, "sublevels")
    if sublevels.empty or "LeagueType" not in sublevels.columns:
        return None
    named = sublevels.dropna(subset=["LeagueType"])
    named = named.assign(_kind=named["LeagueType"].map(COMPETITION_ORDER).fillna(len(COMPETITION_ORDER)))
    named = named.sort_values(["_kind", "Abbrev", "Name"])  # leagues by nation and tier, cups, the rest
    if named.empty:
        return None
    ids = dict(zip(named["Name"].astype(str), named["ID"].astype(int)))
    picked = filters.choice("Competition", [ALL_COMPETITIONS, *ids], key="competition", sidebar=True,
                            help="A league, a cup or an international tournament; all of them by "
                                 "default.")
    return ids.get(picked)


def main() -> None:
    level = filters.current_level()
    season = filters.season_picker(api.season_ids(level, with_games=True))
    teams = filters.name_to_id(api.teams(level, season))
    team = filters.team_picker(list(teams))
    start, end = filters.date_range_picker()
    status = filters.status_picker()
    choices = phases.choices(level)
    phase = filters.choice("Games of", choices, key="games_phase", index=choices.index(phases.BOTH), sidebar=True)
    sublevel = _competition_picker(level)
    game_id = filters.id_input("Game ID", key="game", sidebar=True,
                               help="The game shown in 'Game detail'; click a row of the list to pick one.")
    st.title(f"{level} games")  # a game's detail may be of another season than the list's
    query = Query(season, teams.get(team or ""), start, end, status, phases.asked(phase), sublevel)
    tabs = page_sections.tabs([LIST_TAB, GAME_TAB], key=TABS_KEY, default=GAME_TAB if game_id else LIST_TAB)
    if tabs[LIST_TAB].open:
        with tabs[LIST_TAB]:
            _list(level, query, team)
    if tabs[GAME_TAB].open:
        with tabs[GAME_TAB]:
            if game_id:
                detail = api.game(level, game_id)
                links.open_button("Play-by-play of this game", links.plays_url(level, game_id),
                                  icon=":material/format_list_numbered:")
                show_game(detail, api.level_sport(level), partial(api.boxscore, level, game_id),
                          partial(_odds, level, detail.get("Season")),
                          partial(api.winprob, level, game_id) if api.level_serves(level, "winprob") else None,
                          level=level)
            else:
                st.info("Pick a game: click a row of the list, or type its ID in the sidebar.")
    layout.copy_link()


try:
    main()
except ApiError as err:
    layout.show_error(err)
