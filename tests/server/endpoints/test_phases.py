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

from tests.demo_api import ApiServer
from tests.server.models import realdata

pytestmark = [pytest.mark.realdata, pytest.mark.slow, pytest.mark.timeout(1800)]


def _total(server: ApiServer, path: str, **params: Any) -> int:
    return int(server.get_json(path, max=1, **params)["meta"]["Total_Results"])


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
    record = real_api.get_json(games, season=2023, phase="playin", max=10)["games"]
    assert {g["Phase"] for g in record} == {"playin"}
    october = real_api.get_json(games, season=2023, start="2022-10-18", end="2022-12-31", max=1000)
    assert october["games"] and {g["Phase"] for g in october["games"]} == {"regular"}, \
        "a season spanning two years plays its regular season in October to December"


def test_the_nuggets_postseason_record_is_the_three_rounds_the_data_holds(real_api: ApiServer) -> None:
    denver = next(t for t in real_api.get_json("/v1/teams/NBA/", season=2023, max=100)["teams"]
                  if t["Name"] == "Denver Nuggets")["ID"]
    games = real_api.get_json("/v1/games/NBA/", season=2023, team=denver, phase="playin,postseason",
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
    post_lines = real_api.get_json("/v1/playerperfs/MLB/", season=2023, phase="postseason", max=1000)
    post_games = {g["ID"] for g in real_api.get_json("/v1/games/MLB/", season=2023, phase="postseason",
                                                     max=100)["games"]}
    assert len(post_games) == 41 and {p["Game_ID"] for p in post_lines["playerperfs"]} <= post_games
    # a stat table is one phase's: the regular season by default, the postseason its own
    hr = _total(real_api, "/v1/stats/MLB/", stat="HR", season=2023)
    assert _total(real_api, "/v1/stats/MLB/", stat="HR", season=2023, phase="regular") == hr > 0
    leader = real_api.get_json("/v1/stats/MLB/", stat="HR", season=2023, phase="postseason",
                               max=1)["stats"][0]
    lines = real_api.get_json("/v1/playerperfs/MLB/", season=2023, phase="postseason",
                              player=leader["Player_ID"], max=100)["playerperfs"]
    assert leader["Phase"] == "postseason" and leader["GP"] == len(lines)
    assert leader["Value"] == sum(line["HR"] for line in lines) > 0
    regular_line = real_api.get_json("/v1/stats/MLB/", stat="HR", season=2023,
                                     player=leader["Player_ID"])["stats"][0]
    assert regular_line["Phase"] == "regular" and regular_line["GP"] > leader["GP"]
    error = real_api.get_json("/v1/stats/MLB/", expect=400, stat="HR", season=2023,
                              phase="playin,postseason")
    assert error["error"]["Parameter"] == "phase" and "one phase" in error["error"]["Message"]
    bad = real_api.get_json("/v1/games/NBA/", expect=400, phase="playoffs")
    assert bad["error"]["Parameter"] == "phase" and "postseason" in bad["error"]["Message"]


def test_a_game_never_played_reads_no_result_and_counts_nowhere(real_api: ApiServer) -> None:
    scored, unscored = _nba_counts(realdata.NBA)
    finals = real_api.get_json("/v1/games/NBA/", season=2023, status="noresult", max=100)["games"]
    assert len(finals) == unscored["f"] == 7
    assert {g["GameStatus"] for g in finals} == {"No result"}
    assert all(g["Notice"] and "no result" in g["Notice"].lower() for g in finals)
    assert all(g["ScoreHome"] is None and g["Winner_ID"] is None for g in finals)
    assert _total(real_api, "/v1/games/NBA/", season=2023, status="scheduled") == 0, \
        "a past game is never one to come"
    newest = real_api.get_json("/v1/games/NBA/", season=2023, status="final", max=1)["games"][0]["GameDay"]
    health = real_api.get_json("/health", keyed=False)
    level = {lv["Level"]: lv for lv in health["Levels"]}
    assert level["NBA"]["NewestGame"] == newest == "2023-05-29", "the newest game is a played one"
    # no rating, forecast or record holds them: the season's forecasts are its scored games
    assert _total(real_api, "/v2/forecasts/NBA/", season=2023) == sum(scored.values())
    finals_ids = {g["ID"] for g in finals}
    detail = real_api.get_json("/v1/games/NBA/", id=min(finals_ids))["games"][0]
    assert detail["forecast"] is None and detail["Phase"] == "postseason" \
        and detail["Playoff"] == "Finals"


def test_a_season_whose_data_stops_early_says_where(real_api: ApiServer) -> None:
    nba = {s["ID"]: s for s in real_api.get_json("/v1/seasons/NBA/", max=100)["seasons"]}
    nhl = {s["ID"]: s for s in real_api.get_json("/v1/seasons/NHL/", max=100)["seasons"]}
    _, unscored_2022 = _nba_counts(realdata.NBA_PRIOR)
    nhl_missing = sum(1 for r in _rows(realdata.NHL_PRIOR) if not r["home_team_score"].strip())
    assert (nba[2023]["DataEnd"], nba[2023]["NoResultGames"]) == ("2023-05-29", 7)
    assert (nba[2022]["DataEnd"], nba[2022]["NoResultGames"]) == ("2022-05-21", sum(unscored_2022.values()))
    assert (nhl[2022]["DataEnd"], nhl[2022]["NoResultGames"]) == ("2022-04-22", nhl_missing) \
        and nhl_missing == 66
    assert (nhl[2023]["DataEnd"], nhl[2023]["NoResultGames"]) == ("2023-06-13", 0)
    dialect = real_api.get_json("/natstat/v1/seasons/NBA/")
    held = {r["ID"]: r for r in dialect["seasons"].values()}
    assert held["2023"]["DataEnd"] == "2023-05-29" and held["2023"]["NoResultGames"] == "7"


def test_the_natstat_dialect_serves_and_filters_the_phase(real_api: ApiServer) -> None:
    doc = real_api.get_json("/natstat/v1/games/NBA/", season=2023, phase="playin")
    assert doc["success"] == "1" and doc["meta"]["Total_Results"] == "6"
    assert {g["Phase"] for g in doc["games"].values()} == {"playin"}
    unplayed = real_api.get_json("/natstat/v1/games/NBA/", season=2023, status="noresult")
    assert {g["GameStatus"] for g in unplayed["games"].values()} == {"No result"}


# The WNBA Commissioner's Cup finals as WNBA.com reports them: (season, day, winner, loser),
# and each season's regular-season games per team (2021: 32, 2022: 36, 2023 and 2024: 40).
CUP_FINALS = ((2021, "2021-08-12", "Seattle Storm", "Connecticut Sun", 32),
              (2022, "2022-07-26", "Las Vegas Aces", "Chicago Sky", 36),
              (2023, "2023-08-15", "New York Liberty", "Las Vegas Aces", 40),
              (2024, "2024-06-25", "Minnesota Lynx", "New York Liberty", 40))


def test_the_commissioners_cup_final_counts_in_no_record(real_api: ApiServer) -> None:
    """The file lists each Cup final as a regular-season game; it is a cup final, outside the
    standings: the 2023 Aces went 34-6 (19-1 at home), the Liberty 32-8, 2.0 games back."""
    for season, day, winner, loser, games in CUP_FINALS:
        cup = real_api.get_json("/v1/games/WNBA/", season=season, phase="cupfinal", max=10)["games"]
        assert [(g["GameDay"], g["Phase"]) for g in cup] == [(day, "cupfinal")], season
        detail = real_api.get_json("/v1/games/WNBA/", id=cup[0]["ID"])["games"][0]
        assert detail["Playoff"] == "Commissioner's Cup Final", "shown as what it was"
        names = {t["ID"]: t["Name"] for t in real_api.get_json("/v1/teams/WNBA/", season=season,
                                                   max=100)["teams"]}
        assert (names[cup[0]["Winner_ID"]], names[cup[0]["Loser_ID"]]) == (winner, loser)
        regular = real_api.get_json("/v1/games/WNBA/", season=season, phase="regular", max=1000,
                                    start=day, end=day)["games"]
        assert cup[0]["ID"] not in {g["ID"] for g in regular}
        table = real_api.get_json("/v2/standings/WNBA/", season=season)["standings"]
        assert {r["G"] for r in table} == {games}, (season, sorted(r["G"] for r in table))
        projected = real_api.get_json("/v2/projections/WNBA/", season=season,
                                      date=f"{season}-12-31")["projections"]
        assert {r["W"] + r["L"] for r in projected} == {games}, season
    table = {r["Team"]: r for r in real_api.get_json("/v2/standings/WNBA/", season=2023)["standings"]}
    aces, liberty = table["Las Vegas Aces"], table["New York Liberty"]
    assert (aces["W"], aces["L"], aces["Home"]) == (34, 6, "19-1")
    assert (liberty["W"], liberty["L"], liberty["GB"]) == (32, 8, 2.0)
    aces_seasons = real_api.get_json("/v1/teams/WNBA/", id=aces["Team_ID"])["teams"][0]["seasons"]
    assert [(s["Wins"], s["Losses"]) for s in aces_seasons if s["Season"] == 2023] == [(34, 6)]


def test_a_teams_seasons_give_the_postseason_beside_the_regular_season(real_api: ApiServer) -> None:
    """Denver 2022-23: 53-29, then 12-3 in the three rounds the file holds; it lists the Finals
    without a result (a snapshot taken before them)."""
    denver = next(t for t in real_api.get_json("/v1/teams/NBA/", season=2023, max=100)["teams"]
                  if t["Name"] == "Denver Nuggets")["ID"]
    seasons = real_api.get_json("/v1/teams/NBA/", id=denver)["teams"][0]["seasons"]
    season = next(s for s in seasons if s["Season"] == 2023)
    assert (season["Wins"], season["Losses"]) == (53, 29)
    assert (season["PostWins"], season["PostLosses"], season["PostUnplayed"]) == (12, 3, ["Finals"])


def test_a_hockey_teams_seasons_count_overtime_losses_apart(real_api: ApiServer) -> None:
    """Boston 2022-23 went 65-12-5 (the standings' W, L and OTL): a team's seasons count the
    five losses in overtime or a shoot-out apart, not as 17 losses; other sports have no OTL."""
    boston = next(t for t in real_api.get_json("/v1/teams/NHL/", season=2023, max=100)["teams"]
                  if t["Name"] == "Boston Bruins")["ID"]
    season = next(s for s in real_api.get_json("/v1/teams/NHL/", id=boston)["teams"][0]["seasons"]
                  if s["Season"] == 2023)
    assert (season["Wins"], season["Losses"], season["OTL"]) == (65, 12, 5)
    columns = list(season)
    assert columns[columns.index("Losses") + 1] == "OTL", "OTL sits beside Losses, as printed"
    standing = next(r for r in real_api.get_json("/v2/standings/NHL/", season=2023)["standings"]
                    if r["Team_ID"] == boston)
    assert (standing["W"], standing["L"], standing["OTL"]) == (65, 12, 5)
    denver = real_api.get_json("/v1/teams/NBA/", season=2023, max=1)["teams"][0]["ID"]
    assert all("OTL" not in s for s in
               real_api.get_json("/v1/teams/NBA/", id=denver)["teams"][0]["seasons"])
