"""games?status=: filtering by game state on the server, so that paging and totals stay exact."""
from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa

from server.store import schema as s
from tests.conftest import MiniStore
from tests.demo_api import ApiServer

STATES = ("final", "scheduled", "inprogress", "postponed")


def _ids_in_store(store: MiniStore, level: str, state: str, **where: Any) -> set[int]:
    g = s.games.c
    query = sa.select(g.id).where(g.level == level, g.state == state)
    for name, value in where.items():
        query = query.where(getattr(g, name) == value)
    with store.engine.connect() as conn:
        return set(conn.execute(query).scalars())


def _walk(api: ApiServer, params: dict[str, Any]) -> tuple[list[dict[str, Any]], int, int]:
    """Every page of a games query: the records, Total_Results and the number of pages read."""
    found: list[dict[str, Any]] = []
    page, total, pages = 1, -1, 0
    while True:
        response = api.send("/v1/games/MLB/", {**params, "page": page})
        assert response.status_code == 200, response.text
        doc = response.json()
        total = doc["meta"]["Total_Results"]
        found += doc["games"]
        pages += 1
        if "Next_Page" not in doc["meta"]:
            return found, total, pages
        assert f"status={params['status']}" in doc["meta"]["Next_Page"], "the next page keeps the filter"
        page += 1


def test_final_games_page_exactly(api: ApiServer, mini_store: MiniStore) -> None:
    expected = _ids_in_store(mini_store, "MLB", "final")
    found, total, pages = _walk(api, {"status": "final", "max": 7})
    ids = [r["ID"] for r in found]
    assert total == len(expected) and len(ids) == len(set(ids)) == total
    assert set(ids) == expected
    assert pages == -(-total // 7), "every page but the last is full"
    assert {r["GameStatus"] for r in found} == {"Final"}


def test_in_progress_and_scheduled(api: ApiServer, mini_store: MiniStore) -> None:
    live = api.send("/v1/games/MLB/", {"status": "inprogress"}).json()
    assert [r["ID"] for r in live["games"]] == [mini_store.facts["live_game"]]
    assert live["meta"]["Total_Results"] == 1
    scheduled = api.send("/v1/games/MLB/", {"status": "scheduled"}).json()["games"]
    assert {r["ID"] for r in scheduled} == _ids_in_store(mini_store, "MLB", "scheduled")
    assert all(r["GameStatus"] == "" and r["ScoreHome"] is None for r in scheduled)


def test_status_is_case_insensitive(api: ApiServer) -> None:
    lower = api.send("/v1/games/MLB/", {"status": "inprogress"}).json()["games"]
    mixed = api.send("/v1/games/MLB/", {"status": "InProgress"})
    assert mixed.status_code == 200
    assert mixed.json()["games"] == lower


def test_a_state_with_no_games_is_an_empty_list(api: ApiServer) -> None:
    response = api.send("/v1/games/MLB/", {"status": "postponed"})
    assert response.status_code == 200
    doc = response.json()
    assert doc["games"] == [] and doc["meta"]["Total_Results"] == 0


def test_status_combines_with_other_filters(api: ApiServer, mini_store: MiniStore) -> None:
    team = mini_store.facts["mlb_teams"][0]
    g = s.games.c
    with mini_store.engine.connect() as conn:
        expected = set(conn.execute(sa.select(g.id).where(
            g.level == "MLB", g.state == "final", g.season == 2024,
            sa.or_(g.home_id == team, g.visitor_id == team))).scalars())
    found, total, _ = _walk(api, {"status": "final", "season": 2024, "team": team, "max": 5})
    assert total == len(expected) and {r["ID"] for r in found} == expected


@pytest.mark.parametrize("value", ["done", "Final!", "in progress", "0"])
def test_bad_status_is_400_naming_the_allowed_values(api: ApiServer, value: str) -> None:
    response = api.send("/v1/games/MLB/", {"status": value})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["Code"] == "bad_parameter" and error["Parameter"] == "status"
    assert all(state in error["Message"] for state in STATES), error["Message"]


def test_bad_status_in_xml_is_an_xml_error(api: ApiServer) -> None:
    response = api.send("/v1/games/MLB/", {"status": "done", "format": "xml"})
    assert response.status_code == 400
    assert "<Code>bad_parameter</Code>" in response.text


def test_openapi_documents_status(api: ApiServer) -> None:
    spec = api.send("/openapi.json", key="").json()
    params = spec["paths"]["/v1/games/{level}/"]["get"]["parameters"]
    status = next(p for p in params if p["name"] == "status")
    assert status["in"] == "query" and status["schema"]["type"] == "string"
    assert all(state in status["description"] for state in STATES)
    assert status["example"] in STATES


@pytest.mark.parametrize("path", ["/v1/games/MLB/", "/v2/forecasts/MLB/", "/v1/playerperfs/MLB/",
                                  "/v1/teamperfs/MLB/"])
def test_season_type_on_a_store_without_playoffs(api: ApiServer, path: str) -> None:
    """Every store dialect: the regular season is every game when none was a playoff game."""
    def total(**params: Any) -> int:
        response = api.send(path, {"max": 1, **params})
        assert response.status_code == 200, response.text
        return int(response.json()["meta"]["Total_Results"])

    assert total(seasontype="regular") == total() > 0
    assert total(seasontype="postseason") == 0
