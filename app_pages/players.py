"""Players and teams: search, profile, seasons, game log chart; a team's seasons and ELO."""
from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from components import charts, filters, layout
from components.tables import records_frame as _frame, show_table
from services import ApiError, api

PAGE_SIZE = 50
SEARCH_MIN = 5  # contract 4: searches of 4 characters or fewer are ignored
NOT_STATS = frozenset({"ID", "Game_ID", "Player_ID", "Team_ID", "Opponent_ID", "Season"})
# a game log opens on the first of these the player has (batters, pitchers, scorers, keepers)
PREFERRED_STATS = ("PTS", "H", "G", "K", "SO", "OUTS", "REB", "AST", "SOG", "SV", "MIN")
TABS_KEY, PLAYERS_TAB, TEAMS_TAB = "tab", "Players", "Teams"
FORMATS = {"ELOAfter": st.column_config.NumberColumn("ELO after", format="%.1f"),
           "ELOBefore": st.column_config.NumberColumn("ELO before", format="%.1f"),
           "Change": st.column_config.NumberColumn(format="%+.1f"),
           "WinExp": st.column_config.NumberColumn(format="%.3f")}


def _profile_line(detail: dict[str, Any]) -> str:
    parts = [detail.get("Team"), detail.get("Position"),
             f"bats {detail['Bats']}, throws {detail['Throws']}" if detail.get("Bats") else None,
             f"{detail['Height']}, {detail['Weight']} lb" if detail.get("Height") and detail.get("Weight") else None,
             f"born {detail['DateOfBirth']}" if detail.get("DateOfBirth") else None,
             ", ".join(str(v) for v in (detail.get("Hometown"), detail.get("Nation")) if v) or None,
             f"career {detail.get('CareerStart') or '?'}–{detail.get('CareerEnd') or '?'}"]
    return " · ".join(str(p) for p in parts if p)


def _default_stat(games: pd.DataFrame, numeric: list[str]) -> int:
    """The index of the stat a game log opens on: a preferred one the player actually recorded."""
    recorded = [c for c in numeric if pd.to_numeric(games[c], errors="coerce").fillna(0).abs().sum() > 0]
    for code in (*PREFERRED_STATS, *recorded):
        if code in recorded:
            return numeric.index(code)
    return 0


def _search(level: str, expanded: bool) -> None:
    search = filters.text_filter("Search players", key="q", placeholder=f"{SEARCH_MIN} letters or more",
                                 help="Part of a name; shorter searches list everyone.")
    with st.expander("Find a player", expanded=expanded, icon=":material/search:"):
        query = search if len(search) >= SEARCH_MIN else None
        first = api.players(level, search=query, page=1, size=PAGE_SIZE)
        slot = st.container()
        page_no = filters.pager(first.pages, key="players_page") if first.pages > 1 else 1
        found = first if page_no == 1 else api.players(level, search=query, page=page_no, size=PAGE_SIZE)
        with slot:
            st.caption(f"{found.total:,} players · page {page_no} of {found.pages} · click a row to open a profile")
            show_table(found.frame, name="players", select_into="player", height=280,
                       columns=("ID", "Name", "Team", "Position", "CareerStart", "CareerEnd", "Nation"))


def _player(level: str) -> None:
    player_id = filters.id_input("Player ID", key="player", sidebar=True, help="Click a row of the search to pick one.")
    _search(level, expanded=not player_id)
    if not player_id:
        return
    base = api.player(level, player_id)
    seasons = _frame(base.get("seasons"))
    years = [int(s) for s in seasons.get("Season", pd.Series(dtype=int)).dropna()]
    played = seasons[pd.to_numeric(seasons.get("Games", pd.Series(dtype=float)), errors="coerce").fillna(0) > 0]
    newest = int(played["Season"].max()) if "Season" in played.columns and len(played) else None
    season = filters.season_picker(years, key="player_season", label="Player season", default=newest)
    detail = api.player(level, player_id, season) if season else base
    st.subheader(str(detail.get("Name") or f"Player {player_id}"))
    st.caption(_profile_line(detail))
    for line in detail.get("insights") or []:
        st.markdown(f"- {line}")
    games = _frame(detail.get("games"))
    games.columns = [str(c).removeprefix("stats.") for c in games.columns]
    numeric = [c for c in games.columns if c not in NOT_STATS and pd.api.types.is_numeric_dtype(games[c])]
    stat = filters.choice("Game log stat", numeric or ["—"], key="log_stat", index=_default_stat(games, numeric))
    st.plotly_chart(charts.game_log(games, stat=stat, title=f"Game log {season or ''}: {stat}"), key="game_log")
    # ids out, and the stats this player never recorded (a batter's pitching columns)
    log = games.drop(columns=[c for c in ("ID", "Team_ID", "Opponent_ID") if c in games.columns]).dropna(
        axis=1, how="all")
    show_table(log, name=f"player_{player_id}_games", empty="No game log for this season.")
    st.markdown(f"**Season {season or ''} statistics and ranks**")
    show_table(_frame(detail.get("stats")), name=f"player_{player_id}_stats", empty="No season stats held.")
    st.markdown("**Seasons**")
    show_table(seasons, name=f"player_{player_id}_seasons", empty="No seasons held.")


def _team(level: str) -> None:
    teams = api.teams(level)
    ids = filters.name_to_id(teams)
    team = filters.team_picker(list(ids))
    if not team or team not in ids:
        st.info("Pick a team in the sidebar.")
        show_table(teams, name="teams", columns=("ID", "Name", "Abbrev", "Sublevel"),
                   empty="No teams held for this level.")
        return
    detail = api.team(level, ids[team])
    seasons = _frame(detail.get("seasons"))
    rated = set(api.season_ids(level, with_games=True))  # ELO exists only where games are held
    years = [int(s) for s in seasons.get("Season", pd.Series(dtype=int)).dropna() if int(s) in rated]
    season = filters.season_picker(years, key="team_season", label="ELO season")
    st.subheader(team)
    elo = detail.get("ELO")
    st.caption(" · ".join(str(detail.get(k)) for k in ("City", "Venue", "Sublevel") if detail.get(k))
               + (f" · current ELO {float(elo):.1f}" if elo is not None else ""))
    series = api.elo(level, season=season, team_id=ids[team]).assign(Team=team)
    left, right = st.columns(2)
    left.plotly_chart(charts.rating_series(series, value="ELOAfter", title=f"{team}: ELO in {season}", axis="ELO"),
                      key="team_elo")
    right.plotly_chart(charts.win_loss(seasons, f"{team}: wins and losses by season"), key="team_seasons")
    show_table(series, name=f"team_{ids[team]}_elo", formats=FORMATS, empty="No ELO series for this season.",
               columns=("Date", "Opponent", "Result", "ELOBefore", "ELOAfter", "Change", "WinExp", "Game_ID"))
    show_table(seasons, name=f"team_{ids[team]}_seasons", empty="No seasons held.")


def main() -> None:
    level = filters.current_level()
    st.title(f"{level} players and teams")
    tabs = filters.tabs([PLAYERS_TAB, TEAMS_TAB], key=TABS_KEY)
    if tabs[PLAYERS_TAB].open:
        with tabs[PLAYERS_TAB]:
            _player(level)
    if tabs[TEAMS_TAB].open:
        with tabs[TEAMS_TAB]:
            _team(level)
    layout.copy_link()


try:
    main()
except ApiError as err:
    layout.show_error(err)
