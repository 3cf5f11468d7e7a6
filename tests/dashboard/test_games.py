"""Games page: filters seeded from the URL, the paged table, the selected game's detail and charts."""
from __future__ import annotations

from services import api
from tests.dashboard._apptest import assert_clean, open_page, titles
from tests.dashboard.conftest import ApiServer


def test_filters_and_game_come_from_the_url(dashboard_env: ApiServer) -> None:
    seasons = sorted(api.seasons("MLB")["ID"].astype(int), reverse=True)
    season = seasons[-1]
    games = api.games("MLB", season=season, size=5).frame
    game = games.iloc[0]
    at = open_page("games", {"level": "MLB", "season": str(season), "team": str(game["Home"]),
                             "game": str(int(game["ID"])), "status": "Final"})
    assert_clean(at)
    assert at.selectbox(key="season").value == season
    assert at.selectbox(key="team").value == game["Home"]
    assert at.selectbox(key="status").value == "Final"
    assert at.number_input(key="game").value == int(game["ID"])
    table = at.dataframe[0].value
    assert len(table) and set(table["GameStatus"]) == {"Final"}
    assert (table["Home"].eq(game["Home"]) | table["Visitor"].eq(game["Home"])).all()
    assert "Scores of the listed games" in titles(at)
    assert "Score over the game" in titles(at)
    assert any(str(game["Home"]) in h.value for h in at.subheader), "the game's detail header"


def test_page_number_is_server_side(dashboard_env: ApiServer) -> None:
    first = open_page("games", {"level": "MLB"})
    second = open_page("games", {"level": "MLB", "games_page": "2"})
    assert_clean(second)
    assert second.number_input(key="games_page").value == 2
    assert set(first.dataframe[0].value["ID"]).isdisjoint(second.dataframe[0].value["ID"])
