"""Standings over the real seasons, as a client reads them: every record is checked against the
source files under ../shared/data read here on their own (Retrosheet's game logs, the NHL results
file), against figures published by Baseball-Reference and the NHL, and against who really
played in each postseason. The last-day projections of 2023 apply MLB's tiebreakers."""
from __future__ import annotations

import csv
import datetime as dt
from collections import Counter, defaultdict
from typing import Any

import pytest

from server.catalog.names import CLUB_NAMES
from tests.demo_api import ApiServer
from tests.server.models import realdata

pytestmark = [
    pytest.mark.realdata, pytest.mark.slow, pytest.mark.timeout(1800),  # the real store's build
]


def _standings(api: ApiServer, level: str, **params: Any) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = api.get_json(f"/v2/standings/{level}/", **params)["standings"]
    return records


def _abbrevs(api: ApiServer, level: str, season: int) -> dict[int, str]:
    """Each team's code in Retrosheet's game logs: its abbreviation that season, save where the
    catalog corrects a club's name the sources lag behind (LAA is Retrosheet's ANA)."""
    teams = api.get_json(f"/v1/teams/{level}/", season=season, max=1000)["teams"]
    retrosheet = {c.abbrev: c.code for c in CLUB_NAMES if c.level == level}
    return {t["ID"]: retrosheet.get(t["Abbrev"], t["Abbrev"]) for t in teams}


def _game_log(season: int, through: dt.date | None = None) -> list[tuple[str, str, int, int]]:
    """(visitor, home, visitor's runs, home's runs) of every regular-season game in Retrosheet's
    game log, in play order (date, then game number), up to ``through``."""
    with (realdata.RETRO / f"gl{season}.txt").open(newline="", encoding="latin-1") as f:
        rows = sorted(csv.reader(f), key=lambda r: (r[0], r[1]))
    out = []
    for r in rows:
        if through is not None and dt.date(int(r[0][:4]), int(r[0][4:6]), int(r[0][6:])) > through:
            continue
        out.append((r[3], r[6], int(r[9]), int(r[10])))
    return out


def _log_table(games: list[tuple[str, str, int, int]]) -> dict[str, dict[str, Any]]:
    """Per team: W, L, home and away records, run differential, last 10, streak."""
    table: dict[str, dict[str, Any]] = defaultdict(lambda: {
        "W": 0, "L": 0, "home": [0, 0], "away": [0, 0], "diff": 0, "results": []})
    for vis, home, rv, rh in games:
        for team, side, mine, theirs in ((vis, "away", rv, rh), (home, "home", rh, rv)):
            row = table[team]
            won = mine > theirs
            row["W" if won else "L"] += 1
            row[side][0 if won else 1] += 1
            row["diff"] += mine - theirs
            row["results"].append("W" if won else "L")
    for row in table.values():
        last = row["results"][-10:]
        row["last10"] = f"{last.count('W')}-{last.count('L')}"
        streak = 0
        for r in reversed(row["results"]):
            if r != row["results"][-1]:
                break
            streak += 1
        row["streak"] = f"{row['results'][-1]}{streak}"
    return table


def _postseason_teams(api: ApiServer, level: str, season: int) -> set[int]:
    games = api.get_json(f"/v1/games/{level}/", season=season, seasontype="postseason",
                         max=1000)["games"]
    return {g["Home_ID"] for g in games} | {g["Visitor_ID"] for g in games}


@pytest.mark.parametrize("season", [2022, 2023])
def test_mlb_has_six_divisions_of_five_with_the_game_logs_records(real_api: ApiServer,
                                                                  season: int) -> None:
    rows = _standings(real_api, "MLB", season=season)
    abbrev = _abbrevs(real_api, "MLB", season)
    log = _log_table(_game_log(season))
    assert sorted(Counter(r["Division"] for r in rows).values()) == [5] * 6
    assert Counter(r["League"] for r in rows) == {"American League": 15, "National League": 15}
    assert {r["Division"] for r in rows} == {f"{lg} {d}" for lg in ("AL", "NL")
                                             for d in ("East", "Central", "West")}
    assert len(rows) == len(log) == 30
    for r in rows:
        want = log[abbrev[r["Team_ID"]]]
        assert (r["W"], r["L"], r["G"]) == (want["W"], want["L"], 162), r["Team"]
        assert r["Home"] == "{}-{}".format(*want["home"]) and r["Away"] == "{}-{}".format(
            *want["away"]), r["Team"]
        assert r["RunDiff"] == want["diff"] and r["Last10"] == want["last10"], r["Team"]
        assert r["Streak"] == want["streak"] and r["Remaining"] == 0, r["Team"]
    for division in {r["Division"] for r in rows}:
        ranked = sorted((r for r in rows if r["Division"] == division), key=lambda r: r["DivRank"])
        assert [r["DivRank"] for r in ranked] == [1, 2, 3, 4, 5]
        assert [r["W"] for r in ranked] == sorted((r["W"] for r in ranked), reverse=True)
        leader = ranked[0]
        assert leader["GB"] == 0 and leader["Clinched"] in ("Division", "Bye")
        assert all(r["GB"] == ((leader["W"] - r["W"]) + (r["L"] - leader["L"])) / 2
                   for r in ranked)
    # with every game played the marks are the real field: the twelve teams of the postseason
    clinched = {r["Team_ID"] for r in rows if r["Clinched"] in ("Division", "Bye", "Wild Card")}
    assert clinched == _postseason_teams(real_api, "MLB", season)
    assert sum(r["Clinched"] in ("Division", "Bye") for r in rows) == 6
    assert sum(r["Clinched"] == "Wild Card" for r in rows) == len(clinched) - 6


def test_2023_al_west_tie_goes_to_houston_on_head_to_head(real_api: ApiServer) -> None:
    """Baseball-Reference: Houston and Texas 90-72, Houston the division winner on its 9-4
    season series; Houston 39-42 at home and 51-30 away."""
    series = Counter("HOU" if (rh > rv) == (home == "HOU") else "TEX"
                     for vis, home, rv, rh in _game_log(2023) if {vis, home} == {"HOU", "TEX"})
    assert series == {"HOU": 9, "TEX": 4}
    west = {r["Team"]: r for r in _standings(real_api, "MLB", season=2023)
            if r["Division"] == "AL West"}
    hou, tex = west["Houston Astros"], west["Texas Rangers"]
    assert (hou["W"], hou["L"], tex["W"], tex["L"]) == (90, 72, 90, 72)
    assert (hou["DivRank"], hou["Clinched"]) == (1, "Bye")  # the AL's second seed
    assert (tex["DivRank"], tex["Clinched"], tex["GB"]) == (2, "Wild Card", 0)
    # the league awards: byes to its two best division winners, three wild cards by record
    rows = _standings(real_api, "MLB", season=2023)
    marks = {r["Team"]: r["Clinched"] for r in rows if r["Clinched"]}
    assert {t for t, m in marks.items() if m == "Bye"} == {
        "Baltimore Orioles", "Houston Astros", "Atlanta Braves", "Los Angeles Dodgers"}
    assert {t for t, m in marks.items() if m == "Wild Card" and t in (
        "Tampa Bay Rays", "Toronto Blue Jays", "Texas Rangers")} == {
        "Tampa Bay Rays", "Toronto Blue Jays", "Texas Rangers"}
    assert (hou["Home"], hou["Away"]) == ("39-42", "51-30")
    # 2022 AL East as published: New York 99-63, Toronto 92-70 (7 games behind)
    east = {r["Team"]: r for r in _standings(real_api, "MLB", season=2022)
            if r["Division"] == "AL East"}
    assert (east["New York Yankees"]["W"], east["New York Yankees"]["L"]) == (99, 63)
    assert (east["Toronto Blue Jays"]["W"], east["Toronto Blue Jays"]["GB"]) == (92, 7.0)


def test_date_gives_the_table_as_of_the_end_of_that_day(real_api: ApiServer) -> None:
    day = dt.date(2023, 9, 20)
    rows = _standings(real_api, "MLB", date=day.isoformat())
    abbrev = _abbrevs(real_api, "MLB", 2023)
    log = _log_table(_game_log(2023, through=day))
    assert {r["Date"] for r in rows} == {"2023-09-20"} and {r["Season"] for r in rows} == {2023}
    for r in rows:
        want = log[abbrev[r["Team_ID"]]]
        assert (r["W"], r["L"], r["Last10"], r["Streak"]) == (
            want["W"], want["L"], want["last10"], want["streak"]), r["Team"]
        assert r["Remaining"] == 162 - r["G"] > 0
    # with ten days left nothing but a division decided by then is marked
    assert {r["Clinched"] for r in rows} <= {None, "Division", "Playoff"}
    assert _standings(real_api, "MLB", season=2023, date="2023-09-20") == rows


def test_the_last_day_bye_odds_follow_the_tiebreaker(real_api: ApiServer) -> None:
    """2023's last day: Houston and Texas both 90-72; Houston's division title (head-to-head)
    makes it the second seed with a bye; Texas is a wild card. No coin decides it."""
    rows = real_api.get_json("/v2/projections/MLB/", date="2023-10-01")["projections"]
    odds = {r["Team"]: r for r in rows}
    assert odds["Houston Astros"]["ByeProb"] == 1.0
    assert odds["Texas Rangers"]["ByeProb"] == 0.0
    assert odds["Texas Rangers"]["PlayoffProb"] == 1.0
    assert sum(r["ByeProb"] for r in rows) == 4.0


def test_nba_by_conference_and_division(real_api: ApiServer) -> None:
    rows = _standings(real_api, "NBA", season=2023)
    shape = Counter((r["League"], r["Division"]) for r in rows)
    assert len(shape) == 6 and set(shape.values()) == {5}
    assert Counter(r["League"] for r in rows) == {"Eastern Conference": 15,
                                                  "Western Conference": 15}
    by_team = {r["Team"]: r for r in rows}
    # 2022-23 as published: Milwaukee 58-24, Boston 57-25, Denver 53-29 (the West's best)
    assert (by_team["Milwaukee Bucks"]["W"], by_team["Milwaukee Bucks"]["L"]) == (58, 24)
    assert (by_team["Boston Celtics"]["W"], by_team["Boston Celtics"]["L"]) == (57, 25)
    assert (by_team["Denver Nuggets"]["LeagueRank"], by_team["Denver Nuggets"]["W"]) == (1, 53)
    direct = {r["Team_ID"] for r in rows if r["Clinched"] == "Playoff"}
    play_in = {r["Team_ID"] for r in rows if r["Clinched"] == "Play-In"}
    assert len(direct) == 12 and len(play_in) == 8
    assert direct < _postseason_teams(real_api, "NBA", 2023) <= direct | play_in


def test_nhl_by_conference_and_division_with_overtime_losses(real_api: ApiServer) -> None:
    rows = _standings(real_api, "NHL", season=2023)
    shape = Counter((r["League"], r["Division"]) for r in rows)
    assert len(shape) == 4 and set(shape.values()) == {8}
    # the results file read on its own: a loss with its "ot" column set is an overtime loss
    record: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    with realdata.NHL.open(newline="") as f:
        for g in csv.DictReader(f):
            if g["playoff"] not in ("0", "") or g["home_team_score"] == "":
                continue
            sh, sa_ = int(g["home_team_score"]), int(g["away_team_score"])
            for team, mine, theirs in ((g["home_team"], sh, sa_), (g["away_team"], sa_, sh)):
                record[team][0 if mine > theirs else 2 if g["ot"] else 1] += 1
    for r in rows:
        assert [r["W"], r["L"], r["OTL"]] == record[r["Team"]], r["Team"]
        assert r["Points"] == 2 * r["W"] + r["OTL"]
        assert "GB" not in r and "PointDiff" not in r and isinstance(r["GoalDiff"], int)
    boston = next(r for r in rows if r["Team"] == "Boston Bruins")
    assert (boston["W"], boston["L"], boston["OTL"], boston["Points"]) == (65, 12, 5, 135)
    # ranked by points, so the distance to the leader is in points: Toronto 111, 24 behind
    toronto = next(r for r in rows if r["Team"] == "Toronto Maple Leafs")
    assert (toronto["Points"], toronto["PointsBack"], boston["PointsBack"]) == (111, 24, 0)
    clinched = {r["Team_ID"] for r in rows
                if r["Clinched"] in ("Division", "Bye", "Playoff", "Wild Card")}
    assert clinched == _postseason_teams(real_api, "NHL", 2023)


def test_nhl_projections_count_points_as_the_table_does(real_api: ApiServer) -> None:
    """Hockey ranks by points, so its projections read in points too: the points so far as the
    standings count them, and the projected final points (2 a projected win, 1 a projected
    overtime loss) between what is held and what is still possible."""
    day = "2023-01-15"
    table = {r["Team"]: r for r in _standings(real_api, "NHL", season=2023, date=day)}
    projected = real_api.get_json("/v2/projections/NHL/", season=2023, date=day)["projections"]
    assert len(projected) == len(table) == 32
    listed = [r["ProjPoints"] for r in projected]
    assert listed == sorted(listed, reverse=True), "listed as the table ranks: by points"
    for r in projected:
        assert r["Points"] == table[r["Team"]]["Points"], r["Team"]
        assert r["ProjPoints"] == pytest.approx(2 * r["ProjW"] + r["ProjT"], abs=1e-6)
        left = 82 - r["W"] - r["L"] - r["T"]
        assert r["Points"] < r["ProjPoints"] < r["Points"] + 2 * left, r["Team"]
    final = real_api.get_json("/v2/projections/NHL/", season=2023, date="2023-04-14")["projections"]
    boston = next(r for r in final if r["Team"] == "Boston Bruins")
    assert (boston["Points"], boston["ProjPoints"]) == (135, 135.0)
    mlb = real_api.get_json("/v2/projections/MLB/", season=2023, max=1)["projections"][0]
    assert "Points" not in mlb and "ProjPoints" not in mlb  # ranked by record


def test_seasons_known_by_their_totals_stand_in_lahmans_divisions(real_api: ApiServer) -> None:
    """Lahman's seasons have no games: the final table comes from the teams' totals, by the
    divisions of each era (none before 1969, two per league to 1993, three from 1994)."""
    def shape(season: int) -> list[int]:
        rows = _standings(real_api, "MLB", season=season)
        return sorted(Counter((r["League"], r["Division"]) for r in rows).values())

    assert shape(1950) == [8, 8]
    assert shape(1969) == [6, 6, 6, 6]
    assert shape(2019) == [5] * 6
    west = sorted((r for r in _standings(real_api, "MLB", season=2019)
                   if r["Division"] == "AL West"), key=lambda r: r["DivRank"])
    # Baseball-Reference: Houston 107-55, Oakland 97-65 (10 games behind)
    assert [(r["Team"], r["W"], r["L"], r["GB"]) for r in west[:2]] == [
        ("Houston Astros", 107, 55, 0.0), ("Oakland Athletics", 97, 65, 10.0)]
    assert {r["Date"] for r in west} == {None} and {r["Streak"] for r in west} == {None}
    assert _standings(real_api, "MLB", season=2019, date="2019-07-01") == []


@pytest.mark.parametrize("fmt", ["xml", "php"])
def test_every_format_and_the_dialect_carry_the_table(real_api: ApiServer, fmt: str) -> None:
    response = real_api.get("/v2/standings/MLB/", season=2023, format=fmt)
    assert response.content.count(b"Houston Astros") == 1
    dialect = real_api.get_json("/natstat/v2/standings/MLB/", season=2023)
    assert dialect["success"] == "1" and len(dialect["standings"]) == 30
    houston = next(r for r in dialect["standings"].values() if r["Team"] == "Houston Astros")
    assert (houston["W"], houston["L"], houston["Clinched"]) == ("90", "72", "Bye")
