"""Rows of upsets, leaders, ratings, game logs and search results link to their game, player or team,
in a column no wider than its words."""
from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

from components import links
from services import api
from tests.dashboard._apptest import assert_clean, open_page
from tests.dashboard.conftest import ApiServer


def _links(at: object, index: int) -> list[str]:
    table = at.dataframe[index]  # type: ignore[attr-defined]
    config = json.loads(table.proto.columns)
    assert config[links.LINK_COLUMN]["type_config"]["type"] == "link"
    assert config[links.LINK_COLUMN]["pinned"] is True, "shown first, in view however wide the table"
    # as narrow as "profile" needs: left to the grid, it took 105 px of a phone's 358
    assert 0 < config[links.LINK_COLUMN].get("width", 0) <= 72, config[links.LINK_COLUMN]
    return [str(u) for u in table.value[links.LINK_COLUMN]]


def _query(url: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}


def test_upsets_open_their_game(dashboard_env: ApiServer) -> None:
    older = api.season_ids("MLB", with_games=True)[1]  # not the newest: the season must travel
    at = open_page("forecasts", {"level": "MLB", "tab": "Biggest upsets", "fc_seasons": str(older)})
    assert_clean(at)
    first = _links(at, 0)[0]
    assert first.startswith("games?") and _query(first)["level"] == "MLB"
    reopened = open_page("games", _query(first))
    assert_clean(reopened)
    assert reopened.number_input(key="game").value == int(_query(first)["game"])
    # the game's own season in the sidebar (and its list), not the newest
    assert int(api.game("MLB", int(_query(first)["game"]))["Season"]) == older
    assert reopened.selectbox(key="season").value == older


def test_leaders_open_the_profile(dashboard_env: ApiServer) -> None:
    at = open_page("leaders", {"level": "MLB", "stat": "HR"})
    assert_clean(at)
    url = _links(at, 0)[0]
    season = api.season_ids("MLB")[0]
    leader = api.stats("MLB", "player", "HR", season=season, size=1).frame.iloc[0]
    assert _query(url) == {"level": "MLB", "player": str(int(leader["Player_ID"])), "player_season": str(season)}


def test_rankings_open_the_team_and_search_results_the_player(dashboard_env: ApiServer) -> None:
    ratings = open_page("ratings", {"level": "NBA"})
    assert_clean(ratings)
    team = _query(_links(ratings, 0)[0])
    assert team["tab"] == "Teams" and team["team"] == str(ratings.dataframe[0].value["Team"].iloc[0])
    found = open_page("players", {"level": "MLB", "q": "Cabrera"})
    assert_clean(found)
    assert all(u.startswith("players?level=MLB&player=") for u in _links(found, 0))
