"""Games page: filters seeded from the URL, the server-side status filter and paging, the game detail."""
from __future__ import annotations

from components.game_detail import venue_place
from services import api
from tests.dashboard._apptest import assert_clean, figures, open_page, titles, trace_points
from tests.dashboard.conftest import ApiServer


def test_filters_and_game_come_from_the_url(dashboard_env: ApiServer) -> None:
    seasons = api.season_ids("MLB", with_games=True)
    season = seasons[-1]
    game = api.games("MLB", season=season, status="final", size=5).frame.iloc[0]
    at = open_page("games", {"level": "MLB", "season": str(season), "team": str(game["Home"]),
                             "game": str(int(game["ID"])), "status": "Final"})
    assert_clean(at)
    assert at.selectbox(key="season").value == season
    assert at.selectbox(key="team").value == game["Home"]
    assert at.selectbox(key="status").value == "Final"
    assert at.number_input(key="game").value == int(game["ID"])
    assert titles(at) == ["Score over the game"], "a link with a game opens on the game's detail"
    assert trace_points(figures(at)[0]) > 0
    assert any(str(game["Home"]) in h.value for h in at.subheader), "the game's detail header"
    assert any("Line score" in m.value for m in at.markdown)
    line_score = next(m.value for m in at.markdown if m.value.startswith("| Team |"))
    assert str(game["Home"]) in line_score and "| Total |" in line_score


def test_status_is_filtered_by_the_api_so_totals_are_exact(dashboard_env: ApiServer) -> None:
    season = api.season_ids("MLB", with_games=True)[0]
    expected = api.games("MLB", season=season, status="final", size=1).total
    at = open_page("games", {"level": "MLB", "season": str(season), "status": "Final", "tab": "Games"})
    assert_clean(at)
    table = at.dataframe[0].value
    assert len(table) == min(50, expected) and set(table["GameStatus"]) == {"Final"}
    assert "" in set(table["Overtime"]) and not table["Overtime"].isna().any(), \
        "a game without overtime shows an empty cell, not None"
    assert any(c.value.startswith(f"{expected:,} games") for c in at.caption)
    assert "Home margin of the listed games" in titles(at)
    scheduled = open_page("games", {"level": "MLB", "status": "Scheduled", "tab": "Games"})
    assert_clean(scheduled)
    if scheduled.dataframe:
        assert set(scheduled.dataframe[0].value["GameStatus"].fillna("")) == {""}


def test_page_number_is_server_side(dashboard_env: ApiServer) -> None:
    first = open_page("games", {"level": "MLB"})
    second = open_page("games", {"level": "MLB", "games_page": "2"})
    assert_clean(second)
    pager = second.get("pagination")[0]
    assert pager.num_pages == api.games("MLB", season=api.season_ids("MLB", with_games=True)[0], size=50).pages
    assert set(first.dataframe[0].value["ID"]).isdisjoint(second.dataframe[0].value["ID"])
    assert any("page 2 of" in c.value for c in second.caption)


def test_venue_reads_as_a_place() -> None:
    assert venue_place({"Name": "Fenway Park", "CityState": "Boston, MA"}) == "Fenway Park, Boston, MA"
    assert venue_place({"Name": "Globe Life Field in Arlington", "CityState": "Arlington, TX"}) \
        == "Globe Life Field in Arlington, TX"
    assert venue_place({"Name": "Wrigley Field"}) == "Wrigley Field"
    assert venue_place({}) == ""
