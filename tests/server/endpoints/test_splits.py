"""Splits over the real 2023 season (``real_api``), asked as a client would: a player's and a
team's parts add up to the season line the API gives elsewhere (the player's seasons, the stat
tables), in every format and the NatStat dialect; a bad split is the API's 400 (docs/api/index.md)."""
from __future__ import annotations

import json
import subprocess
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from server.catalog.linestats import line_codes
from server.catalog.splits import WHOLE_GAME
from tests.demo_api import ApiServer

pytestmark = [pytest.mark.realdata, pytest.mark.slow, pytest.mark.timeout(1800)]

SEASON = 2023
CODES = line_codes("baseball")


def _split(server: ApiServer, split: str, **who: Any) -> list[dict[str, Any]]:
    endpoint = "playerperfs" if "player" in who else "teamperfs"
    doc = server.get(f"/v1/{endpoint}/MLB/", split=split, season=SEASON, **who).json()
    records: list[dict[str, Any]] = doc[endpoint]
    assert records and {r["Split"] for r in records} == {split}
    return records


def _leader(server: ApiServer, stat: str) -> int:
    doc = server.get("/v1/stats/MLB/", stat=stat, season=SEASON, max=1).json()
    return int(doc["stats"][0]["Player_ID"])


def _season_line(server: ApiServer, player: int) -> tuple[dict[str, float], int, int]:
    """The player's 2023 regular-season totals (every team's), games and postseason games, as
    the players endpoint gives them."""
    detail = server.get("/v1/players/MLB/", id=player).json()["players"][0]
    totals: dict[str, float] = dict.fromkeys(CODES, 0.0)
    games = postseason = 0
    for season in detail["seasons"]:
        if season["Season"] == SEASON:
            for code, value in (season["Stats"] or {}).items():
                totals[code] = totals.get(code, 0.0) + value
            games += season["Games"] or 0
            postseason += season["PostseasonGames"] or 0
    return totals, games, postseason


def _summed(records: list[dict[str, Any]]) -> dict[str, float]:
    return {code: sum(r[code] for r in records) for code in (*CODES, "G")}


@pytest.mark.parametrize("stat", ["HR", "OUTS"])  # a hitter, a pitcher
def test_a_players_splits_add_up_to_his_season(real_api: ApiServer, stat: str) -> None:
    player = _leader(real_api, stat)
    totals, games, postseason = _season_line(real_api, player)
    assert games >= 30 and totals[stat] > 0  # a regular, over a whole season
    season = {**{c: totals[c] for c in CODES}, "G": games}
    home_away = _split(real_api, "homeaway", player=player)
    assert [r["Value"] for r in home_away] == ["home", "away"]
    assert _summed(home_away) == season, "home + away = the season"
    months = _split(real_api, "month", player=player)
    assert [r["Value"] for r in months] == sorted(r["Value"] for r in months)
    assert {r["Value"][:4] for r in months} == {str(SEASON)} and len(months) >= 6
    assert _summed(months) == season, "the months add up to the season"
    phases = {r["Value"]: r for r in _split(real_api, "phase", player=player)}
    regular = phases.pop("regular")
    assert {c: regular[c] for c in season} == season, "the regular season is the season line"
    assert sum(r["G"] for r in phases.values()) == postseason
    home = home_away[0]  # rates from the part's own totals (null without a denominator)
    assert home["AVG"] == (round(home["H"] / home["AB"], 4) if home["AB"] else None)
    assert home["ERA"] == (round(27 * home["ER"] / home["OUTS"], 4) if home["OUTS"] else None)


def test_a_teams_home_and_away_add_up_to_its_stat_table(real_api: ApiServer) -> None:
    top = real_api.get("/v1/stats/MLB/team/", stat="HR", season=SEASON, max=1).json()["stats"][0]
    parts = _split(real_api, "homeaway", team=top["Team_ID"])
    assert sum(r["HR"] for r in parts) == top["Value"]
    assert sum(r["G"] for r in parts) == top["GP"] == 162
    assert sum(r["HR"] for r in _split(real_api, "month", team=top["Team_ID"])) == top["Value"]


def test_a_split_in_xml_php_and_the_natstat_dialect_is_the_same_line(real_api: ApiServer,
                                                                      php_binary: str) -> None:
    player = _leader(real_api, "HR")
    parts = _split(real_api, "homeaway", player=player)
    query = {"split": "homeaway", "season": SEASON, "player": player}
    xml = ET.fromstring(real_api.get("/v1/playerperfs/MLB/", format="xml", **query).content)
    shown = [{e.tag: e.text for e in record} for record in xml.iter("playerperf")]
    assert [(r["Value"], int(r["HR"]), int(r["PA"])) for r in shown] == \
        [(r["Value"], r["HR"], r["PA"]) for r in parts]
    php = real_api.get("/v1/playerperfs/MLB/", format="php", **query).content
    read = subprocess.run([php_binary, "-r", 'echo json_encode(unserialize(stream_get_contents(STDIN)));'],
                          input=php, capture_output=True, check=True).stdout
    assert json.loads(read)["playerperfs"] == parts
    natstat = real_api.get("/natstat/v2/playerperfs/MLB/", **query).json()["playerperfs"]
    assert [(r["Value"], r["HR"], r["AVG"]) for r in natstat.values()] == \
        [(r["Value"], str(r["HR"]), str(r["AVG"])) for r in parts]


@pytest.mark.parametrize("path,params,named", [
    ("/v1/playerperfs/MLB/", {"split": "weekday", "season": SEASON, "player": 1}, "split"),
    ("/v1/teamperfs/MLB/", {"split": "hand", "season": SEASON}, "team"),
    ("/v1/playerperfs/MLB/", {"split": "homeaway", "season": SEASON}, "player"),
    ("/v1/teamperfs/MLB/", {"split": "month", "season": SEASON}, "team"),
    ("/v1/playerperfs/MLB/", {"split": "month", "player": 1}, "season"),
    ("/v1/playerperfs/NBA/", {"split": "homeaway", "season": SEASON, "player": 1}, "split"),
])
def test_a_bad_split_is_a_400_naming_the_parameter(real_api: ApiServer, path: str, params: dict[str, Any],
                                                  named: str) -> None:
    for fmt in ("json", "xml"):
        response = real_api.get(path, expect=400, format=fmt, **params)
        if fmt == "json":
            error = response.json()["error"]
            assert (error["Status"], error["Code"], error["Parameter"]) == (400, "bad_parameter", named)
        else:
            assert ET.fromstring(response.content).findtext(".//Parameter") == named


@pytest.mark.parametrize("stat", ["HR", "OUTS"])  # a hitter against pitchers, a pitcher against batters
def test_a_players_left_and_right_add_up_to_his_season(real_api: ApiServer, stat: str) -> None:
    """Read from the play-by-play's hands: every stat a play credits adds up over L and R to
    the season's line; what a game credits as a whole (W, L, SV, GS, ER, PIT, LOB) is null."""
    player = _leader(real_api, stat)
    totals, games, _post = _season_line(real_api, player)
    hands = _split(real_api, "hand", player=player)
    assert [r["Value"] for r in hands] == ["L", "R"]
    by_play = [c for c in CODES if c not in WHOLE_GAME]
    assert {c: sum(r[c] for r in hands) for c in by_play} == {c: totals[c] for c in by_play}
    assert all(r[c] is None for r in hands for c in WHOLE_GAME) and all(r["ERA"] is None for r in hands)
    assert all(0 < r["G"] <= games for r in hands)
    assert min(r[stat] for r in hands) >= 0 and max(r[stat] for r in hands) > 0


def test_a_teams_left_and_right_add_up_to_its_stat_table(real_api: ApiServer) -> None:
    for stat in ("HR", "K"):  # batting by the pitchers' hand, pitching by the batters'
        top = real_api.get("/v1/stats/MLB/team/", stat=stat, season=SEASON, max=1).json()["stats"][0]
        parts = _split(real_api, "hand", team=top["Team_ID"])
        assert [r["Value"] for r in parts] == ["L", "R"]
        assert sum(r[stat] for r in parts) == top["Value"], stat


def test_a_switch_hitter_bats_opposite_the_pitcher(real_api: ApiServer) -> None:
    """Retrosheet writes a switch hitter's bats as B (both): each of his plays says the side he
    hit from, left against a right-hander and right against a left-hander (unless the file
    adjusts it), which is the side the splits by hand read."""
    leaders = real_api.get("/v1/stats/MLB/", stat="PA", season=SEASON, max=60).json()["stats"]
    switch = next(p["Player_ID"] for p in leaders
                  if real_api.get("/v1/players/MLB/", id=p["Player_ID"]).json()["players"][0]["Bats"] == "B")
    plays = real_api.get("/v1/playbyplay/MLB/", player=switch, season=SEASON, max=1000).json()["playbyplay"]
    batting = [p for p in plays if p["primary"]["Player_ID"] == switch and p["PitcherHanded"] in ("L", "R")
               and p["Tags"] != "substitution"]
    assert len(batting) > 100
    assert {p["BatterHanded"] for p in batting} == {"L", "R"}, "a side, never B"
    opposite = sum(p["BatterHanded"] == {"L": "R", "R": "L"}[p["PitcherHanded"]] for p in batting)
    # the few others are the file's own adjustments (badj, padj: a side named for the game)
    assert opposite >= 0.95 * len(batting)
