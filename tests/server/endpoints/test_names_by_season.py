"""Teams under the names of their time, and players found as an analyst types them, over the
real store (Lahman 1871-2020, Retrosheet 2021-2023) through the API.

Babe Ruth's last club was the 1935 Boston Braves, not the Atlanta Braves; the Angels of 2022 and
2023 are the Los Angeles Angels, whatever name Retrosheet's team files still print; a team asked
for without a season keeps its newest name. ``Acuna`` and ``acuña`` find the same player, and Ken
Griffey and Ken Griffey Jr. are two names.
"""
from __future__ import annotations

from typing import Any

import pytest

from tests.demo_api import ApiServer

pytestmark = [pytest.mark.realdata, pytest.mark.timeout(900)]

# The clubs of 1935 whose names have changed since, as they were called that season.
NAMES_OF_1935 = {
    "Boston Braves": "Atlanta Braves", "Cleveland Indians": "Cleveland Guardians",
    "Philadelphia Athletics": "Oakland Athletics", "Washington Senators": "Minnesota Twins",
    "St. Louis Browns": "Baltimore Orioles", "Brooklyn Dodgers": "Los Angeles Dodgers",
}
ANGELS = "Los Angeles Angels"


def _teams(api: ApiServer, **params: Any) -> list[dict[str, Any]]:
    teams: list[dict[str, Any]] = api.get_json("/v1/teams/MLB/", max=1000, **params)["teams"]
    return teams


def _team_id(api: ApiServer, name: str) -> int:
    """The ID of the club now called ``name`` (the teams list without a season)."""
    ids = [t["ID"] for t in _teams(api) if t["Name"] == name]
    assert len(ids) == 1, (name, ids)
    return int(ids[0])


def _player(api: ApiServer, name: str) -> dict[str, Any]:
    found = api.get_json("/v1/players/MLB/", name=name)["players"]
    assert len(found) == 1, [p["Name"] for p in found]
    detail: dict[str, Any] = api.get_json("/v1/players/MLB/", id=found[0]["ID"])["players"][0]
    return detail


def test_ruths_last_season_is_with_the_boston_braves(real_api: ApiServer) -> None:
    ruth = _player(real_api, "Babe Ruth")
    by_season = {s["Season"]: s["Team"] for s in ruth["seasons"]}
    assert by_season[1935] == "Boston Braves"
    assert by_season[1927] == "New York Yankees" and by_season[1915] == "Boston Red Sox"
    assert (ruth["Team"], ruth["TeamAbbrev"]) == ("Boston Braves", "BSN"), \
        "the team of his latest season, as it was called then"


def test_the_teams_of_1935_carry_their_1935_names(real_api: ApiServer) -> None:
    of_1935 = {t["Name"]: t for t in _teams(real_api, season=1935)}
    assert len(of_1935) == 16
    assert set(NAMES_OF_1935) <= set(of_1935)
    assert not set(NAMES_OF_1935.values()) & set(of_1935), "no club of 1935 under a later name"
    braves = real_api.get_json("/v1/teams/MLB/", season=1935, id=of_1935["Boston Braves"]["ID"])["teams"][0]
    assert (braves["City"], braves["Abbrev"], braves["Nickname"]) == ("Boston", "BSN", "Braves")
    senators = of_1935["Washington Senators"]
    assert (senators["Abbrev"], senators["Nickname"]) == ("WS1", "Senators")
    searched = _teams(real_api, season=1935, search="Senators")
    assert [t["ID"] for t in searched] == [senators["ID"]], "found by the name it shows"


def test_the_teams_of_1884_stand_in_the_leagues_they_played_in(real_api: ApiServer) -> None:
    """Baltimore, Brooklyn, Cincinnati, Louisville, Pittsburgh and St. Louis played in the
    American Association in 1884 (Lahman's lgID AA), in the National League later: a season's
    teams are placed in that season's league, as they are named in it."""
    of_1884 = {t["Name"]: t["Sublevel"] for t in _teams(real_api, season=1884)}
    association = {"Baltimore Orioles", "Brooklyn Atlantics", "Cincinnati Red Stockings",
                   "Louisville Eclipse", "St. Louis Browns", "Pittsburg Alleghenys"}
    assert {of_1884[n] for n in association} == {"American Association"}, of_1884
    assert of_1884["Boston Beaneaters"] == "National League"
    now = {t["Name"]: t["Sublevel"] for t in _teams(real_api)}
    assert now["Pittsburgh Pirates"] == now["Cincinnati Reds"] == "National League"
    assert {t["Sublevel"] for t in _teams(real_api, season=1935)} == {"American League",
                                                                      "National League"}


def test_a_team_without_a_season_keeps_its_newest_name(real_api: ApiServer) -> None:
    of_1935 = {t["Name"]: t["ID"] for t in _teams(real_api, season=1935)}
    now = {t["ID"]: t["Name"] for t in _teams(real_api)}
    for old, new in NAMES_OF_1935.items():
        assert now[of_1935[old]] == new
    assert ANGELS in now.values() and "Anaheim Angels" not in now.values()


@pytest.mark.parametrize("season", [2022, 2023])
def test_the_angels_games_and_box_scores_name_the_los_angeles_angels(
        real_api: ApiServer, season: int) -> None:
    angels = _team_id(real_api, ANGELS)
    games = real_api.get_json("/v1/games/MLB/", season=season, team=angels, seasontype="regular", max=1000)
    assert games["meta"]["Total_Results"] == 162
    sides = [g["Home"] if g["Home_ID"] == angels else g["Visitor"] for g in games["games"]]
    assert set(sides) == {ANGELS}
    boxes = real_api.get_json("/v2/boxscores/MLB/", season=season, team=angels, max=5)["boxscores"]
    assert len(boxes) == 5
    for box in boxes:
        assert ANGELS in box["BoxscoreHeader"]
        lines = [p["Team"] for p in box["players"] if p["Team_ID"] == angels]
        assert lines and set(lines) == {ANGELS}
    searched = real_api.get_json("/v1/games/MLB/", season=season, search="Los Angeles Angels",
                                 seasontype="regular", max=1)
    assert searched["meta"]["Total_Results"] == 162, "the name a game shows is the one it is found by"


@pytest.mark.parametrize("season", [2022, 2023])
def test_the_angels_ratings_and_projections_name_the_los_angeles_angels(
        real_api: ApiServer, season: int) -> None:
    angels = _team_id(real_api, ANGELS)
    ranking = {r["Team_ID"]: r["Team"] for r in real_api.get_json("/v1/elo/MLB/", season=season)["elo"]}
    assert ranking[angels] == ANGELS
    series = real_api.get_json("/v1/elo/MLB/", season=season, team=angels, max=1000)["elo"]
    assert series and {r["Team"] for r in series} == {ANGELS}
    projected = real_api.get_json("/v2/projections/MLB/", season=season, date=f"{season}-07-01")
    teams = {r["Team_ID"]: r["Team"] for r in projected["projections"]}
    assert len(teams) == 30 and teams[angels] == ANGELS


@pytest.mark.parametrize("typed", ["Acuna", "acuña", "ACUÑA"])
def test_acuna_is_found_with_or_without_the_tilde(real_api: ApiServer, typed: str) -> None:
    for params in ({"search": typed}, {"name": typed}):
        found = real_api.get_json("/v1/players/MLB/", **params)["players"]
        ronald = [p for p in found if p["DateOfBirth"] == "1997-12-18"]
        assert len(ronald) == 1, (params, [p["Name"] for p in found])
        assert ronald[0]["Name"].startswith("Ronald Acu")


def test_ken_griffey_and_ken_griffey_jr_are_two_names(real_api: ApiServer) -> None:
    griffeys = {p["DateOfBirth"]: p["Name"] for p in real_api.get_json("/v1/players/MLB/", name="Griffey")
                ["players"]}
    assert griffeys == {"1950-04-10": "Ken Griffey Sr.", "1969-11-21": "Ken Griffey Jr."}
    junior = real_api.get_json("/v1/players/MLB/", name="ken griffey jr.")["players"]
    assert [p["DateOfBirth"] for p in junior] == ["1969-11-21"]
    searched = [p["Name"] for p in real_api.get_json("/v1/players/MLB/", search="Griffey Jr")["players"]]
    assert searched == ["Ken Griffey Jr."]
