"""Every endpoint and every alias answers over real HTTP with the documented record shape."""
from __future__ import annotations

import re
from typing import Any

import pytest

from server.endpoints.registry import ENDPOINTS
from tests.conftest import MiniStore
from tests.demo_api import ApiServer

DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")

# One representative query per endpoint: (path, params, fields every record must carry).
SAMPLES: dict[str, tuple[str, dict[str, Any], tuple[str, ...]]] = {
    "seasons": ("/v1/seasons/MLB/", {}, ("ID", "Level", "Start", "End", "Games", "Granularity")),
    "teams": ("/v1/teams/MLB/", {}, ("ID", "Name", "Abbrev", "Sublevel_ID", "Sublevel")),
    "players": ("/v1/players/MLB/", {}, ("ID", "Name", "CareerStart", "CareerEnd", "Height",
                                         "Weight", "DateOfBirth", "Hometown", "Nation", "Flag",
                                         "URL", "Team", "TeamAbbrev", "TeamGames",
                                         "LastUpdated")),
    "games": ("/v1/games/MLB/", {}, ("ID", "Visitor", "Visitor_ID", "Home", "Home_ID",
                                     "GameDay", "GameNo", "ScoreVis", "ScoreHome", "GameStatus",
                                     "Overtime", "Winner_ID", "Loser_ID")),
    "stats": ("/v1/stats/MLB/player/", {"stat": "HR"}, ("Rank", "Player_ID", "Name", "Team",
                                                        "Stat", "Value", "GP", "Qualified")),
    "playerperfs": ("/v1/playerperfs/MLB/", {}, ("ID", "Game_ID", "GameDay", "Player_ID", "Name",
                                                 "Team_ID", "Team", "Opponent_ID", "Opponent",
                                                 "Home", "HR", "AB")),
    "teamperfs": ("/v1/teamperfs/MLB/", {}, ("ID", "Game_ID", "GameDay", "Team_ID", "Team",
                                             "Opponent_ID", "Opponent", "Home", "R")),
    "playbyplay": ("/v1/playbyplay/MLB/", {"season": 2024},
                   ("ID", "Explanation", "primary", "pitcher", "ScoringPlay", "Tags", "TheCount",
                    "PitcherHanded", "BatterHanded", "TheDiff", "team", "opponent", "game",
                    "venue")),
    "pitch": ("/v1/pitch/MLB/", {}, ("ID", "Game_ID", "GameDay", "Inning", "Half", "Pitcher_ID",
                                     "Pitcher", "Batter_ID", "Batter", "Number", "Balls",
                                     "Strikes", "Code", "Result", "Pitch", "PitchType", "Speed",
                                     "Play_ID", "Outcome")),
    "officials": ("/v1/officials/MLB/", {}, ("ID", "Name", "Role", "Games")),
    "venues": ("/v1/venues/MLB/", {}, ("ID", "Name", "CityState", "Latitude", "Longitude",
                                       "Capacity")),
    "elo": ("/v1/elo/MLB/", {}, ("Rank", "Team_ID", "Team", "ELO", "Date", "Season", "Wins",
                                 "Losses")),
    "rpi": ("/v1/rpi/MBB/", {}, ("Rank", "Team_ID", "Team", "RPI", "WP", "OWP", "OOWP", "Wins",
                                 "Losses", "Date")),
    "news": ("/v1/news/MLB/", {}, ("ID", "Published", "Title", "Summary", "URL", "Source",
                                   "Team_ID", "Game_ID")),
    "transactions": ("/v1/transactions/MLB/", {}, ("ID", "Date", "Team_ID", "Team", "Player_ID",
                                                   "Player", "Type", "Description")),
    "social": ("/v1/social/MLB/", {}, ("ID", "Name", "Platform", "Type", "Team_ID", "Player_ID",
                                       "LastPost")),
    "glossary": ("/v1/glossary/MLB/levels/", {}, ("ID", "Name", "Sport", "Gender", "Endpoints")),
    "forecasts": ("/v2/forecasts/MLB/", {}, ("ID", "Visitor", "Loser_ID", "elo", "simulation",
                                             "overunder", "moneyline", "spread")),
    "moneyline": ("/v2/moneyline/MLB/", {}, ("ID", "Visitor", "Loser_ID", "VenueName", "URL",
                                             "VisMoneyLine", "HomeMoneyLine", "MoneyLineDrift",
                                             "MoneyLineCorrect", "season")),
    "boxscores": ("/v2/boxscores/MLB/", {"status": "final"},
                  ("ID", "Visitor", "Loser_ID", "URL", "BoxscoreHeader", "linescore", "totals",
                   "players")),
    "projections": ("/v2/projections/MLB/", {"season": 2024},
                    ("Team_ID", "Team", "Sublevel", "Date", "W", "L", "T", "ELO", "ProjW", "ProjL",
                     "ProjT", "ProjW10", "ProjW90", "PlayoffProb", "ByeProb", "TitleProb")),
    "standings": ("/v2/standings/MLB/", {"season": 2024},
                  ("Team_ID", "Team", "League_ID", "League", "Division", "Date", "G", "W", "L",
                   "Pct", "GB", "Home", "Away", "Last10", "Streak", "RunDiff", "DivRank",
                   "LeagueRank", "Clinched")),
    "winprob": ("/v2/winprob/MLB/", {"game": 5},  # the fixture's detail game, with plays
                ("Game_ID", "Sequence", "Play_ID", "Period", "Half", "Outs", "ScoreVis",
                 "ScoreHome", "WP_Home", "WP_Draw", "WPA", "Explanation")),
    "calibration": ("/v2/calibration/MLB/", {"season": 2024},
                    ("Season", "Forecast", "Bin", "Low", "High", "Count", "Predicted",
                     "Observed", "scores")),
    "runexpectancy": ("/v2/runexpectancy/MLB/", {"season": 2024},
                      ("Season", "Bases", "Outs", "RunExpectancy", "Count", "constants")),
    "outcomes": ("/v2/outcomes/FC/", {"season": 2024},
                 ("Season", "League_ID", "League", "Forecaster", "ForecasterName", "Against",
                  "Count", "RPS", "LogLoss", "Brier", "calibration")),
}


def test_samples_cover_the_registry() -> None:
    assert set(SAMPLES) == {ep.name for ep in ENDPOINTS}
    # the spec's 19, boxscores, projections, standings, winprob, calibration, runexpectancy,
    # outcomes
    assert len(ENDPOINTS) == 26


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_endpoint_answers_records_with_documented_fields(api: ApiServer, name: str) -> None:
    path, params, fields = SAMPLES[name]
    response = api.send(path, params)
    assert response.status_code == 200, response.text
    doc = response.json()
    assert doc["meta"]["Endpoint"] == name
    records = doc[name]
    assert records, f"{name} returned no records from the fixture store"
    for record in records:
        missing = [f for f in fields if f not in record]
        assert not missing, f"{name} record lacks {missing}"


ALIASES = [(alias, ep.name, ep.version) for ep in ENDPOINTS for alias in ep.aliases]


@pytest.mark.parametrize("alias,name,version", ALIASES)
def test_alias_resolves_to_canonical_name(api: ApiServer, alias: str, name: str, version: str) -> None:
    path, params, _ = SAMPLES[name]
    level = path.split("/")[3]
    tail = "/".join(path.split("/")[4:])
    response = api.send(f"/{version}/{alias.upper()}/{level.lower()}/{tail}", params)
    assert response.status_code == 200, response.text
    doc = response.json()
    assert doc["meta"]["Endpoint"] == name and name in doc
    assert doc["meta"]["Level"] == level


def test_game_record_conventions(api: ApiServer, mini_store: MiniStore) -> None:
    games = api.send("/v1/games/MLB/", {"max": 1000}).json()["games"]
    for g in games:
        assert DATE.match(g["GameDay"])
        assert isinstance(g["ID"], int) and isinstance(g["Home_ID"], int)
        assert g["Loser_ID"] is None or isinstance(g["Loser_ID"], int)
        assert "League" not in g
    statuses = {g["ID"]: g["GameStatus"] for g in games}
    scheduled = [g for g in games if g["ScoreVis"] is None]
    assert scheduled and all(g["GameStatus"] == "" for g in scheduled)
    assert statuses[mini_store.facts["detail_game"]] == "Final"
    second = next(g for g in games if g["ID"] == mini_store.facts["doubleheader"])
    assert second["GameNo"] == 2
    order = [(g["GameDay"], g["ID"]) for g in games]
    assert order == sorted(order, reverse=True)


def test_fc_games_carry_league_fields(api: ApiServer) -> None:
    games = api.send("/v1/games/FC/").json()["games"]
    assert {g["LeagueType"] for g in games} == {"Domestic", "Cup"}
    league = next(g for g in games if g["League"] == "EPL")
    assert league["LeagueName"] == "Premier League" and league["LeagueNation"] == "England"
    assert league["LeagueGender"] == "M" and league["LeagueFactor"] == 1.0


def test_game_detail(api: ApiServer, mini_store: MiniStore) -> None:
    doc = api.send("/v1/games/MLB/", {"id": mini_store.facts["detail_game"]}).json()
    assert doc["meta"]["Total_Results"] == 1 and "Next_Page" not in doc["meta"]
    game = doc["games"][0]
    assert game["venue"]["Name"] == "Yankee Stadium"
    assert {o["Role"] for o in game["officials"]} == {"HP", "1B"}
    assert game["scoring"] and all({"Period", "Explanation", "ScoreVis", "ScoreHome"} <= set(s)
                                   for s in game["scoring"])
    assert game["scores"] and game["playbyplay"]
    forecast = game["forecast"]
    assert set(forecast) == {"elo", "simulation", "overunder", "moneyline", "spread"}
    assert forecast["moneyline"]["VisMoneyLine"] == "+135"
    assert forecast["moneyline"]["HomeMoneyLine"] == "-150"
    assert forecast["simulation"]["PredictionCorrect"] in ("Y", "N")


def test_games_filters(api: ApiServer, mini_store: MiniStore) -> None:
    team = mini_store.facts["mlb_teams"][0]
    games = api.send("/v1/games/MLB/", {"team": team, "season": 2024, "max": 1000}).json()["games"]
    assert games and all(team in (g["Home_ID"], g["Visitor_ID"]) for g in games)
    day = api.send("/v1/games/MLB/", {"date": "04/01/2024"}).json()
    assert {g["GameDay"] for g in day["games"]} == {"2024-04-01"}
    ranged = api.send("/v1/games/MLB/", {"start": "20240402", "end": "2024-04-03"}).json()
    assert {g["GameDay"] for g in ranged["games"]} == {"2024-04-02", "2024-04-03"}
    live = api.send("/v1/games/MLB/", {"limit": "=inprogress"}).json()["games"]
    assert [g["ID"] for g in live] == [mini_store.facts["live_game"]]
    today = api.send("/v1/games/MLB/", {"limit": "today"}).json()["games"]
    assert [g["ID"] for g in today] == [mini_store.facts["live_game"]]
    recent = api.send("/v1/games/MLB/", {"last": 1}).json()["games"]
    assert [g["ID"] for g in recent] == [mini_store.facts["live_game"]]


def test_teams_search_season_and_detail(api: ApiServer, mini_store: MiniStore) -> None:
    found = api.send("/v1/teams/MLB/", {"search": "yankees"}).json()["teams"]
    assert [t["Name"] for t in found] == ["New York Yankees"]
    assert len(api.send("/v1/teams/MLB/", {"season": 2023}).json()["teams"]) == 4
    detail = api.send("/v1/teams/MLB/", {"id": mini_store.facts["mlb_teams"][0]}).json()["teams"][0]
    assert {s["Season"] for s in detail["seasons"]} == {2023, 2024}
    assert isinstance(detail["ELO"], float)
    assert detail["social"][0]["ID"] == "Yankees"


def test_player_detail_with_season(api: ApiServer, mini_store: MiniStore) -> None:
    judge = mini_store.facts["players"][0]
    plain = api.send("/v1/players/MLB/", {"id": judge}).json()["players"][0]
    assert plain["seasons"] and "games" not in plain
    full = api.send("/v1/players/MLB/", {"id": judge, "season": 2024}).json()["players"][0]
    assert full["games"] and {s["Stat"] for s in full["stats"]} == {"HR", "H"}
    assert any("Ranks" in sentence for sentence in full["insights"])
    ignored = api.send("/v1/players/MLB/", {"season": 2024}).json()
    assert any("season" in w for w in ignored["meta"]["Warnings"])


def test_stats_rules(api: ApiServer) -> None:
    table = api.send("/v1/stats/MLB/", {"stat": "hr"}).json()
    assert table["meta"]["Type"] == "player"
    ranks = [r["Rank"] for r in table["stats"]]
    assert ranks == sorted(ranks)
    qualified = api.send("/v1/stats/MLB/", {"stat": "HR", "limit": "=qualifiers"}).json()["stats"]
    assert qualified and all(r["Qualified"] == "Y" for r in qualified)
    teams = api.send("/v1/stats/MLB/team/", {"stat": "HR"}).json()["stats"]
    assert teams and all(r["Player_ID"] is None for r in teams)
    assert api.send("/v1/stats/MLB/team/", {"stat": "HR", "limit": "qualifiers"}).status_code == 400
    missing = api.send("/v1/stats/MLB/").json()["error"]
    assert missing["Code"] == "bad_parameter" and missing["Parameter"] == "stat"
    assert api.send("/v1/stats/MLB/", {"stat": "NOPE"}).status_code == 400


def test_playbyplay_needs_a_filter(api: ApiServer, mini_store: MiniStore) -> None:
    error = api.send("/v1/pbp/MLB/").json()["error"]
    assert error["Code"] == "filter_required" and error["Status"] == 400
    plays = api.send("/v1/pbp/MLB/", {"game": mini_store.facts["detail_game"]}).json()["playbyplay"]
    assert len(plays) == 8 and plays[0]["game"]["Inning"].startswith(("Top", "Bottom"))
    assert {p["ScoringPlay"] for p in plays} == {"Y", "N"}
    hits = api.send("/v1/pbp/MLB/", {"season": 2024, "search": "HOMERED"}).json()["playbyplay"]
    assert hits and all("homered" in p["Explanation"] for p in hits)


def test_derived_endpoints(api: ApiServer, mini_store: MiniStore) -> None:
    team = mini_store.facts["mlb_teams"][0]
    series = api.send("/v1/elo/MLB/", {"team": team, "season": 2024, "max": 1000}).json()["elo"]
    assert series and all(r["Result"] in ("W", "L", "T") for r in series)
    assert [r["Date"] for r in series] == sorted(r["Date"] for r in series)
    snapshot = api.send("/v1/elo/MLB/", {"date": "2024-04-02"}).json()["elo"]
    assert snapshot and all(r["Date"] <= "2024-04-02" for r in snapshot)
    rpi = api.send("/v1/rpi/MBB/", {"team": mini_store.facts["mbb_teams"][0]}).json()["rpi"]
    assert len(rpi) == 3
    lines = api.send("/v2/moneyline/MLB/").json()["moneyline"]
    assert lines[0]["season"]["Correct"] + lines[0]["season"]["Wrong"] > 0
    assert lines[0]["URL"].endswith(f"/v1/games/MLB/?id={lines[0]['ID']}")


def test_empty_level_gives_empty_lists(api: ApiServer) -> None:
    for path in ("/v1/games/NHL/", "/v1/elo/NHL/", "/v2/forecasts/NHL/", "/v2/moneyline/NHL/",
                 "/v1/stats/NHL/?stat=G", "/v1/officials/NBA/", "/v1/rpi/WBB/"):
        response = api.send(path.split("?")[0], dict(p.split("=") for p in path.split("?")[1:]))
        assert response.status_code == 200, (path, response.text)
        doc = response.json()
        assert doc["meta"]["Total_Results"] == 0 and doc[doc["meta"]["Endpoint"]] == []


def test_news_social_transactions(api: ApiServer) -> None:
    news = api.send("/v1/news/MLB/", {"id": 1}).json()["news"][0]
    assert "Body" in news
    posts = api.send("/v1/social/MLB/", {"id": "YANKEES"}).json()["social"][0]["posts"]
    assert posts and [p["Posted"] for p in posts] == sorted((p["Posted"] for p in posts),
                                                           reverse=True)
    dated = api.send("/v1/social/MLB/", {"id": "yankees", "date": "2024-06-02"}).json()
    assert all(p["Posted"].startswith("2024-06-02") for p in dated["social"][0]["posts"])
    players = api.send("/v1/social/MLB/", {"limit": "=player"}).json()["social"]
    assert [a["Type"] for a in players] == ["player"]
    assert api.send("/v1/transactions/FC/").json()["error"]["Code"] == "level_not_supported"


def test_glossary_types(api: ApiServer) -> None:
    levels = api.send("/v1/glossary/MLB/").json()["glossary"]
    assert len(levels) == 23
    euro = next(r for r in levels if r["ID"] == "EuroBB")
    assert "playbyplay" not in euro["Endpoints"] and "games" in euro["Endpoints"]
    stats = api.send("/v1/glossary/MLB/stats/").json()["glossary"]
    assert {"Code", "Name", "Description", "Type", "Order", "Qualifier"} <= set(stats[0])
    nations = api.send("/v1/glossary/MLB/nations", {"max": 1}).json()
    assert len(nations["glossary"]) > 1 and nations["meta"]["Warnings"]
    assert api.send("/v1/glossary/MLB/bogus/").json()["error"]["Parameter"] == "type"
