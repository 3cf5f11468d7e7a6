"""Players and teams page: search, profile with game log chart; a team's seasons and ELO."""
from __future__ import annotations

import pandas as pd
import pytest

from server.catalog.parameters import MAX_TEXT
from services import api
from tests.dashboard._apptest import assert_clean, figures, open_page, titles, trace_points
from tests.dashboard.conftest import ApiServer


def test_player_profile_from_url(dashboard_env: ApiServer) -> None:
    season = api.season_ids("NBA", with_games=True)[1]  # a whole season: the newest may have just begun
    leader = api.stats("NBA", "player", "PTS", season=season, size=1).frame.iloc[0]
    player = {"ID": leader["Player_ID"], "Name": leader["Name"]}
    at = open_page("players", {"level": "NBA", "player": str(int(player["ID"]))})
    assert_clean(at)
    assert at.number_input(key="player").value == int(player["ID"])
    assert any(str(player["Name"]) in s.value for s in at.subheader)
    newest = max(s["Season"] for s in api.player("NBA", int(player["ID"]))["seasons"] if s.get("Games"))
    assert titles(at)[0] == f"NBA {api.season_name('NBA', newest)}: {player['Name']}, game log: PTS", "the level and the season drawn"
    assert at.selectbox(key="log_stat").value == "PTS", "a basketball game log opens on points"
    assert trace_points(figures(at)[0]) > 0


def test_player_search_pages_server_side(dashboard_env: ApiServer) -> None:
    name = str(api.players("MLB", size=1).frame.iloc[0]["Name"])
    word = max(name.split(), key=len)
    at = open_page("players", {"level": "MLB", "q": word})
    assert_clean(at)
    table = at.dataframe[0].value
    assert len(table) and table["Name"].str.contains(word, case=False).all()


@pytest.mark.parametrize("page,key", [("players", "q"), ("compare", "who_q")])
def test_a_search_longer_than_the_api_takes_is_cut_to_it_not_an_error(dashboard_env: ApiServer, page: str,
                                                                      key: str) -> None:
    """A pasted paragraph, or a link carrying one: the box holds what the API answers
    (``MAX_TEXT`` characters, more being a 400), and the page searches, with no error box."""
    at = open_page(page, {"level": "MLB", key: "a" * (MAX_TEXT + 100)})
    assert_clean(at)
    assert [len(box.value or "") for box in at.text_input if box.key == key] == [MAX_TEXT]


def test_team_profile_from_url(dashboard_env: ApiServer) -> None:
    team = str(api.teams("NBA")["Name"].iloc[0])
    seasons = open_page("players", {"level": "NBA", "tab": "Teams", "team": team})
    assert_clean(seasons)
    assert seasons.selectbox(key="team").value == team
    held = api.team("NBA", int(api.teams("NBA")["ID"].iloc[0]))["seasons"]
    assert len(seasons.dataframe[0].value) == len(held) and not titles(seasons), "a team opens on its seasons"
    # a season reads as the level names it, "2022-23", in the Season column as in chart titles
    name = api.season_names("NBA")
    assert all("-" in n for n in name.values()), name
    assert set(seasons.dataframe[0].value["Season"]) == {name[int(s["Season"])] for s in held}
    chart = open_page("players", {"level": "NBA", "tab": "Teams", "team": team, "chart_players": "true"})
    years = sorted(int(s["Season"]) for s in held)
    assert titles(chart) == [f"NBA {name[years[0]]} to {name[years[-1]]}: {team}, wins and losses by season"]
    at = open_page("players", {"level": "NBA", "tab": "Teams", "team": team, "team_section": "ELO"})
    assert_clean(at)
    newest = api.season_ids("NBA", with_games=True)[0]
    assert titles(at) == [f"NBA {name[newest]}: {team} ELO"] and not at.dataframe, "the ELO, its games a click below"
    switched = open_page("players", {"level": "NBA", "tab": "Teams", "team": team, "section": "Season statistics"})
    assert not switched.sidebar.warning, "a player's section left in the link does not trouble the team's tabs"


def test_a_teams_seasons_show_no_name_column_where_no_season_holds_one() -> None:
    """A results source names no season's team (NHL from FiveThirtyEight): no empty Name column,
    and no Ties column of zeros (basketball has none); a season played under its own name keeps
    it, and a season with ties shows them."""
    from components import team_view

    seasons = pd.DataFrame([{"Season": 2023, "Name": None, "Wins": 65, "Losses": 17, "Ties": 0, "PostWins": 3,
                             "PostLosses": 4, "PostUnplayed": []}])
    assert list(team_view.seasons_table(seasons).columns) == ["Season", "Wins", "Losses", "Postseason"]
    named = team_view.seasons_table(seasons.assign(Name=["Boston Bruins"], Ties=[3]))
    assert list(named["Name"]) == ["Boston Bruins"] and list(named["Ties"]) == [3]
