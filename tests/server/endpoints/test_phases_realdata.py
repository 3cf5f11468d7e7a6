"""Every game knows its phase, and a game the source never scored is not one to come: the real
store (``real_api``) asked as a stranger would, every figure counted from ../shared/data.

NBA 2022-23's results file holds 6 play-in and 79 scored playoff games, then lists all seven
Finals games unscored (a snapshot taken before them; games 6 and 7 were never played); NBA
2021-22's stops in the conference finals with 9 "if necessary" rows; NHL 2021-22's last 66
regular-season rows are unscored; NHL 2022-23 holds its 88 playoff games.
"""
from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.demo_api import ApiServer
from tests.server.models import realdata

pytestmark = [pytest.mark.realdata, pytest.mark.slow, pytest.mark.timeout(1800)]


def _get(server: ApiServer, path: str, expect: int = 200, **params: Any) -> dict[str, Any]:
    response = requests.get(f"{server.url}{path}", params={"key": server.key, **params}, timeout=60)
    assert response.status_code == expect, response.text
    doc: dict[str, Any] = response.json()
    return doc


def _total(server: ApiServer, path: str, **params: Any) -> int:
    return int(_get(server, path, max=1, **params)["meta"]["Total_Results"])


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8-sig", newline="") as fh:
        return list(csv.DictReader(fh))


def _nba_counts(path: Path) -> tuple[Counter[str], Counter[str]]:
    """Scored and unscored rows of an NBA results file by playoff code ('' regular, p play-in)."""
    scored: Counter[str] = Counter()
    unscored: Counter[str] = Counter()
    for r in _rows(path):
        (scored if r["score1"].strip() else unscored)[r["playoff"].strip()] += 1
    return scored, unscored


def test_each_game_carries_the_phase_its_source_gives(real_api: ApiServer) -> None:
    scored, _ = _nba_counts(realdata.NBA)
    playin = scored["p"]
    postseason = sum(n for code, n in scored.items() if code not in ("", "p"))
    assert (playin, postseason) == (6, 79)  # as PROVENANCE.md counts the file
    games = "/v1/games/NBA/"
    assert _total(real_api, games, season=2023, phase="playin") == playin
    assert _total(real_api, games, season=2023, phase="postseason", status="final") == postseason
    assert _total(real_api, games, season=2023, phase="PlayIn,Postseason", status="final") == 85
    assert _total(real_api, games, season=2023, seasontype="postseason", status="final") == 85, \
        "seasontype, kept for older clients, is the play-in and the postseason"
    assert _total(real_api, games, season=2023, phase="regular") == scored[""] == 1230
    nhl_playoffs = sum(1 for r in _rows(realdata.NHL) if r["playoff"].strip() == "1")
    assert _total(real_api, "/v1/games/NHL/", season=2023, phase="postseason") == nhl_playoffs == 88
    assert _total(real_api, "/v1/games/NHL/", season=2023, phase="regular") == 1312
    record = _get(real_api, games, season=2023, phase="playin", max=10)["games"]
    assert {g["Phase"] for g in record} == {"playin"}
    october = _get(real_api, games, season=2023, start="2022-10-18", end="2022-12-31", max=1000)
    assert october["games"] and {g["Phase"] for g in october["games"]} == {"regular"}, \
        "a season spanning two years plays its regular season in October to December"


def test_the_nuggets_postseason_record_is_the_three_rounds_the_data_holds(real_api: ApiServer) -> None:
    denver = next(t for t in _get(real_api, "/v1/teams/NBA/", season=2023, max=100)["teams"]
                  if t["Name"] == "Denver Nuggets")["ID"]
    games = _get(real_api, "/v1/games/NBA/", season=2023, team=denver, phase="playin,postseason",
                 max=100)["games"]
    won = sum(1 for g in games if g["Winner_ID"] == denver)
    lost = sum(1 for g in games if g["Loser_ID"] == denver)
    expected = Counter()
    for r in _rows(realdata.NBA):
        if r["playoff"].strip() and r["score1"].strip() and "DEN" in (r["team1"], r["team2"]):
            home_won = float(r["score1"]) > float(r["score2"])
            expected["W" if home_won == (r["team1"] == "DEN") else "L"] += 1
    assert (won, lost) == (expected["W"], expected["L"]) == (12, 3)
    assert sum(1 for g in games if g["GameStatus"] == "No result") == 7, "the Finals, unscored"


def test_phase_filters_totals_exactly_on_every_endpoint(real_api: ApiServer) -> None:
    """Each phase's total, summed, is the season's; the lines of MLB 2023's postseason are
    those of its 41 games (``postseason/2023``), two teams a game; its stat tables sum them."""
    for level, season, path in (("NBA", 2023, "/v1/games/NBA/"), ("NBA", 2023, "/v2/forecasts/NBA/"),
                                ("MLB", 2023, "/v1/games/MLB/"), ("MLB", 2023, "/v2/forecasts/MLB/"),
                                ("MLB", 2023, "/v1/teamperfs/MLB/"),
                                ("MLB", 2023, "/v1/playerperfs/MLB/")):
        whole = _total(real_api, path, season=season)
        parts = [_total(real_api, path, season=season, phase=p) for p in ("regular", "playin", "postseason")]
        assert sum(parts) == whole > 0, (path, parts, whole)
        assert _total(real_api, path, season=season, phase="preseason") == 0
    assert _total(real_api, "/v1/teamperfs/MLB/", season=2023, phase="postseason") == 2 * 41
    post_lines = _get(real_api, "/v1/playerperfs/MLB/", season=2023, phase="postseason", max=1000)
    post_games = {g["ID"] for g in _get(real_api, "/v1/games/MLB/", season=2023, phase="postseason",
                                        max=100)["games"]}
    assert len(post_games) == 41 and {p["Game_ID"] for p in post_lines["playerperfs"]} <= post_games
    # a stat table is one phase's: the regular season by default, the postseason its own
    hr = _total(real_api, "/v1/stats/MLB/", stat="HR", season=2023)
    assert _total(real_api, "/v1/stats/MLB/", stat="HR", season=2023, phase="regular") == hr > 0
    leader = _get(real_api, "/v1/stats/MLB/", stat="HR", season=2023, phase="postseason",
                  max=1)["stats"][0]
    lines = _get(real_api, "/v1/playerperfs/MLB/", season=2023, phase="postseason",
                 player=leader["Player_ID"], max=100)["playerperfs"]
    assert leader["Phase"] == "postseason" and leader["GP"] == len(lines)
    assert leader["Value"] == sum(line["HR"] for line in lines) > 0
    regular_line = _get(real_api, "/v1/stats/MLB/", stat="HR", season=2023,
                        player=leader["Player_ID"])["stats"][0]
    assert regular_line["Phase"] == "regular" and regular_line["GP"] > leader["GP"]
    error = _get(real_api, "/v1/stats/MLB/", expect=400, stat="HR", season=2023,
                 phase="playin,postseason")
    assert error["error"]["Parameter"] == "phase" and "one phase" in error["error"]["Message"]
    bad = _get(real_api, "/v1/games/NBA/", expect=400, phase="playoffs")
    assert bad["error"]["Parameter"] == "phase" and "postseason" in bad["error"]["Message"]


def test_a_game_never_played_reads_no_result_and_counts_nowhere(real_api: ApiServer) -> None:
    scored, unscored = _nba_counts(realdata.NBA)
    finals = _get(real_api, "/v1/games/NBA/", season=2023, status="noresult", max=100)["games"]
    assert len(finals) == unscored["f"] == 7
    assert {g["GameStatus"] for g in finals} == {"No result"}
    assert all(g["Notice"] and "no result" in g["Notice"].lower() for g in finals)
    assert all(g["ScoreHome"] is None and g["Winner_ID"] is None for g in finals)
    assert _total(real_api, "/v1/games/NBA/", season=2023, status="scheduled") == 0, \
        "a past game is never one to come"
    newest = _get(real_api, "/v1/games/NBA/", season=2023, status="final", max=1)["games"][0]["GameDay"]
    health = requests.get(f"{real_api.url}/health", timeout=30).json()
    level = {lv["Level"]: lv for lv in health["Levels"]}
    assert level["NBA"]["NewestGame"] == newest == "2023-05-29", "the newest game is a played one"
    # no rating, forecast or record holds them: the season's forecasts are its scored games
    assert _total(real_api, "/v2/forecasts/NBA/", season=2023) == sum(scored.values())
    finals_ids = {g["ID"] for g in finals}
    detail = _get(real_api, "/v1/games/NBA/", id=min(finals_ids))["games"][0]
    assert detail["forecast"] is None and detail["Phase"] == "postseason" \
        and detail["Playoff"] == "Finals"


def test_a_season_whose_data_stops_early_says_where(real_api: ApiServer) -> None:
    nba = {s["ID"]: s for s in _get(real_api, "/v1/seasons/NBA/", max=100)["seasons"]}
    nhl = {s["ID"]: s for s in _get(real_api, "/v1/seasons/NHL/", max=100)["seasons"]}
    _, unscored_2022 = _nba_counts(realdata.NBA_PRIOR)
    nhl_missing = sum(1 for r in _rows(realdata.NHL_PRIOR) if not r["home_team_score"].strip())
    assert (nba[2023]["DataEnd"], nba[2023]["NoResultGames"]) == ("2023-05-29", 7)
    assert (nba[2022]["DataEnd"], nba[2022]["NoResultGames"]) == ("2022-05-21", sum(unscored_2022.values()))
    assert (nhl[2022]["DataEnd"], nhl[2022]["NoResultGames"]) == ("2022-04-22", nhl_missing) \
        and nhl_missing == 66
    assert (nhl[2023]["DataEnd"], nhl[2023]["NoResultGames"]) == ("2023-06-13", 0)
    dialect = requests.get(f"{real_api.url}/natstat/v1/seasons/NBA/",
                           params={"key": real_api.key}, timeout=30).json()
    held = {r["ID"]: r for r in dialect["seasons"].values()}
    assert held["2023"]["DataEnd"] == "2023-05-29" and held["2023"]["NoResultGames"] == "7"


def test_the_natstat_dialect_serves_and_filters_the_phase(real_api: ApiServer) -> None:
    response = requests.get(f"{real_api.url}/natstat/v1/games/NBA/",
                            params={"key": real_api.key, "season": 2023, "phase": "playin"}, timeout=30)
    doc = response.json()
    assert doc["success"] == "1" and doc["meta"]["Total_Results"] == "6"
    assert {g["Phase"] for g in doc["games"].values()} == {"playin"}
    unplayed = requests.get(f"{real_api.url}/natstat/v1/games/NBA/",
                            params={"key": real_api.key, "season": 2023, "status": "noresult"},
                            timeout=30).json()
    assert {g["GameStatus"] for g in unplayed["games"].values()} == {"No result"}
