"""projections over real HTTP: a snapshot per team, a day's snapshot, a team's series, the
sublevel filter, soccer's points, every format, and bad input as the documented error."""
from __future__ import annotations

import xml.etree.ElementTree as ET

from tests.conftest import MiniStore
from tests.demo_api import ApiServer
from tests.server.http.test_documents import _normalise, php_to_json

PATH = "/v2/projections/MLB/"


def test_one_record_per_team_at_the_newest_snapshot(api: ApiServer, mini_store: MiniStore) -> None:
    doc = api.send(PATH, {"season": 2024}).json()
    records = doc["projections"]
    assert sorted(r["Team_ID"] for r in records) == sorted(mini_store.facts["mlb_teams"])
    assert len({r["Date"] for r in records}) == 1
    newest = records[0]["Date"]
    for r in records:
        assert 0.0 <= r["TitleProb"] <= 1.0
        assert r["ProjW10"] <= r["ProjW"] <= r["ProjW90"]
        assert r["W"] + r["L"] + r["T"] >= 1
        assert r["ProjT"] == 0.0, "baseball has no ties"
        assert "Points" not in r and "ProjPoints" not in r
    assert abs(sum(r["TitleProb"] for r in records) - 1.0) < 1e-9
    earlier = api.send(PATH, {"season": 2024, "date": "2024-04-05"}).json()["projections"]
    assert {r["Date"] for r in earlier} == {"2024-04-05"} != {newest}
    assert sum(r["W"] for r in earlier) < sum(r["W"] for r in records)


def test_a_date_alone_picks_its_season(api: ApiServer) -> None:
    records = api.send(PATH, {"date": "2024-04-10"}).json()["projections"]
    assert records and {(r["Season"], r["Date"]) for r in records} == {(2024, "2024-04-10")}


def test_team_and_season_give_the_series(api: ApiServer, mini_store: MiniStore) -> None:
    team = mini_store.facts["mlb_teams"][0]
    series = api.send(PATH, {"season": 2024, "team": team, "max": 100}).json()["projections"]
    days = [r["Date"] for r in series]
    assert len(days) > 5 and days == sorted(days) and len(set(days)) == len(days)
    assert {r["Team_ID"] for r in series} == {team}
    games = [r["W"] + r["L"] + r["T"] for r in series]
    assert games == sorted(games)


def test_alias_and_sublevel(api: ApiServer, mini_store: MiniStore) -> None:
    al = mini_store.facts["sublevels"]["AL"]
    both = api.send(PATH, {"season": 2024}).json()["projections"]
    only = api.send("/v2/projection/MLB/", {"season": 2024, "sublevel": al}).json()
    assert only["meta"]["Endpoint"] == "projections"
    assert 0 < len(only["projections"]) < len(both)
    assert {r["Sublevel_ID"] for r in only["projections"]} == {al}


def test_soccer_adds_points(api: ApiServer) -> None:
    records = api.send("/v2/projections/FC/", {"season": 2024}).json()["projections"]
    assert records
    for r in records:
        assert r["Points"] == 3 * r["W"] + r["T"]
        assert r["ProjPoints"] >= r["Points"]
        # the projected record adds up to the season: 3 a projected win, 1 a projected draw
        assert abs(3 * r["ProjW"] + r["ProjT"] - r["ProjPoints"]) < 1e-6
        assert r["PlayoffProb"] is None and r["ByeProb"] is None


def test_xml_and_php_carry_the_json_document(api: ApiServer, php_binary: str) -> None:
    params = {"season": 2024, "max": 3}
    as_json = api.send(PATH, params).json()
    root = ET.fromstring(api.send(PATH, {**params, "format": "xml"}).content)
    listing = root.find("projections")
    assert listing is not None and [c.tag for c in listing] == ["projection"] * 3
    assert [c.findtext("Team_ID") for c in listing] == [
        str(r["Team_ID"]) for r in as_json["projections"]]
    response = api.send(PATH, {**params, "format": "php"})
    assert response.headers["content-type"] == "application/vnd.php.serialized"
    from_php = php_to_json(php_binary, response.content)
    as_json["meta"].pop("Next_Page", None)
    from_php["meta"].pop("Next_Page", None)
    assert _normalise(from_php) == _normalise(as_json)


def test_bad_input_is_a_documented_error(api: ApiServer) -> None:
    response = api.send(PATH, {"date": "not a day"})
    assert response.status_code == 400
    assert response.json()["error"]["Parameter"] == "date"
    response = api.send(PATH, {"team": "x"})
    assert response.status_code == 400
    empty = api.send(PATH, {"season": 1990}).json()
    assert empty["projections"] == []
