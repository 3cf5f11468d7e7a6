"""Players and teams: search, profile, seasons, game log chart; a team's seasons and ELO."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from components import charts, filters, layout
from components.tables import records_frame as _frame, show_table
from services import ApiError, api

PAGE_SIZE = 50
PROFILE = ("Team", "Height", "Weight", "DateOfBirth", "Hometown", "Nation", "CareerStart", "CareerEnd")
NOT_STATS = frozenset({"ID", "Game_ID", "Player_ID", "Team_ID", "Opponent_ID", "Season"})


def _player(level: str) -> None:
    search = filters.text_filter("Search players", key="q", placeholder="five letters or more")
    page_no = filters.page_number(key="players_page")
    found = api.players(level, search=search if len(search) > 4 else None, page=page_no, size=PAGE_SIZE)
    st.caption(f"{found.total} players · page {page_no} of {found.pages} · click a row to open a profile")
    show_table(found.frame, name="players", columns=("ID", "Name", "Team", "CareerStart", "CareerEnd", "Nation"),
               select_into="player", height=260)
    player_id = filters.id_input("Player ID", key="player")
    if not player_id:
        return
    base = api.player(level, player_id)
    seasons = _frame(base.get("seasons"))
    years = [int(s) for s in seasons.get("Season", seasons.get("ID", pd.Series(dtype=int))).dropna()]
    season = filters.season_picker(years, key="player_season", label="Player season")
    detail = api.player(level, player_id, season) if season else base
    st.subheader(str(detail.get("Name") or f"Player {player_id}"))
    cols = st.columns(4)
    for i, name in enumerate(PROFILE):
        cols[i % 4].metric(name, str(detail.get(name) if detail.get(name) is not None else "—"))
    for line in detail.get("insights") or []:
        st.markdown(f"- {line}")
    games = _frame(detail.get("games"))
    games.columns = [str(c).removeprefix("stats.") for c in games.columns]
    numeric = [c for c in games.columns if c not in NOT_STATS and pd.api.types.is_numeric_dtype(games[c])]
    stat = filters.choice("Game log stat", numeric or ["—"], key="log_stat")
    st.plotly_chart(charts.game_log(games, stat=stat, title=f"Game log {season or ''}: {stat}"), key="game_log")
    show_table(games, name="player_games", empty="No game log for this season.")
    show_table(_frame(detail.get("stats")), name="player_stats", empty="No season stats held.")
    st.markdown("**Seasons**")
    show_table(seasons, name="player_seasons", empty="No seasons held.")


def _team(level: str) -> None:
    ids = filters.name_to_id(api.teams(level))
    team = filters.team_picker(list(ids))
    if not team or team not in ids:
        show_table(api.teams(level), name="teams", empty="No teams held for this level.")
        st.info("Pick a team in the sidebar.")
        return
    detail = api.team(level, ids[team])
    st.subheader(team)
    st.caption(" · ".join(str(detail.get(k)) for k in ("City", "Venue", "Sublevel") if detail.get(k)))
    st.metric("Current ELO", str(detail.get("ELO") or "—"))
    seasons = _frame(detail.get("seasons"))
    st.plotly_chart(charts.win_loss(seasons, f"{team}: wins and losses by season"), key="team_seasons")
    years = [int(s) for s in seasons.get("Season", pd.Series(dtype=int)).dropna()]
    season = filters.season_picker(years, key="team_season", label="ELO season")
    series = api.elo(level, season=season, team_id=ids[team]).assign(Team=team)
    st.plotly_chart(charts.rating_series(series, value="ELOAfter", title=f"{team}: ELO in {season}"), key="team_elo")
    show_table(series, name="team_elo", empty="No ELO series for this season.")
    show_table(seasons, name="team_seasons")


def main() -> None:
    level = filters.current_level()
    mode = filters.choice("Show", ["Players", "Teams"], key="pt_mode")
    st.title(f"{level} {mode.lower()}")
    if mode == "Teams":
        _team(level)
    else:
        _player(level)
    layout.copy_link()


try:
    main()
except ApiError as err:
    layout.show_error(err)
