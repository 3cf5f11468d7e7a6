"""A player traded within a season reads as Baseball-Reference prints him: a line per team, each
with its own metrics, and the season's total over both (its "2TM" line), through the players
endpoint's ``seasons`` and ``totals``; in Lahman's seasons (from each team's totals) and in the
seasons of plays (from his game lines with each team).

Published figures (read 2026):
- ERA+ per team: Baseball-Reference's WAR data file ``war_daily_pitch.txt``
  (https://www.baseball-reference.com/data/war_daily_pitch.txt, the copy of December 2020),
  column ``ERA_plus`` of each stint; the season's is that file's league-and-park earned runs
  (``ER_lg``) over the pitcher's, summed over his stints, as its player pages print it:
  Doyle Alexander 1987 Atlanta 105.2, Detroit 279.1, season 143.0 (traded across leagues in
  August, for John Smoltz); Bert Blyleven 1976 Minnesota 115.8, Texas 130.6, season 125.4 (within
  the American League, in June); Jim Abbott 1995 Chicago 133.7, California 113.2, season 123.8.
- Counting lines: Baseball-Reference's pages of Mark McGwire (1997: Oakland 105 games, 34 home
  runs; St. Louis 51 games, 24; 58 in all) and Doyle Alexander (1987: 5-10 with Atlanta, 9-0
  with Detroit).

Tolerances, and why: ERA+ reads Baseball-Reference's own park factors (Lahman's PPF) and the
league's earned run average from Lahman's totals; ours come out a third of a percent under the
file's, stint after stint (its park factors carry decimals that Lahman's whole numbers round
off, and its league totals are its own), so each is held to half a percent of the published
figure (1.4 points at 279). Counts are Lahman's and Baseball-Reference's alike: exact.
OPS+ per team has no published figure at hand (the batting file's copies are not stored), so a
batter's is held to what it must be: each team's present and apart, the season's between them.
"""
from __future__ import annotations

from typing import Any

import pytest

from tests.demo_api import ApiServer

pytestmark = [pytest.mark.realdata, pytest.mark.timeout(900)]

ERA_PLUS = 0.005  # relative: half a percent (see above)
# (pitcher, season, {team abbreviation: ERA+}, season's ERA+)
TRADED_PITCHERS = (
    ("Doyle Alexander", 1987, {"ATL": 105.2, "DET": 279.1}, 143.0),
    ("Bert Blyleven", 1976, {"MIN": 115.8, "TEX": 130.6}, 125.4),
    ("Jim Abbott", 1995, {"CHA": 133.7, "CAL": 113.2}, 123.8),
)


def _detail(api: ApiServer, name: str, season: int) -> dict[str, Any]:
    found = [p for p in api.get_json("/v1/players/MLB/", search=name)["players"]
             if p["Name"] == name and p["CareerStart"] <= season <= p["CareerEnd"]]
    assert len(found) == 1, (name, found)
    record: dict[str, Any] = api.get_json("/v1/players/MLB/", id=found[0]["ID"])["players"][0]
    return record


def _teams(api: ApiServer, record: dict[str, Any], season: int) -> dict[str, dict[str, Any]]:
    """The season's lines by the team's abbreviation that season."""
    teams = api.get_json("/v1/teams/MLB/", season=season)["teams"]
    abbrev = {t["ID"]: t["Abbrev"] for t in teams}
    return {abbrev[r["Team_ID"]]: r for r in record["seasons"] if r["Season"] == season}


def _total(record: dict[str, Any], season: int) -> dict[str, Any]:
    found = [r for r in record["totals"] if r["Season"] == season]
    assert len(found) == 1, record["totals"]
    return found[0]


@pytest.mark.parametrize("name,season,published,whole", TRADED_PITCHERS)
def test_a_traded_pitchers_era_plus_per_team_and_season(
        real_api: ApiServer, name: str, season: int, published: dict[str, float],
        whole: float) -> None:
    record = _detail(real_api, name, season)
    lines = _teams(real_api, record, season)
    assert set(lines) == set(published)
    for team, value in published.items():
        ours = lines[team]["Metrics"]["ERA+"]
        print(name, season, team, round(ours, 1), "against Baseball-Reference", value)
        assert abs(ours - value) <= ERA_PLUS * value, (team, ours, value)
        assert "FIP" in lines[team]["Metrics"]
    total = _total(record, season)
    print(name, season, "season", round(total["Metrics"]["ERA+"], 1), "against", whole)
    assert total["Teams"] == 2
    assert abs(total["Metrics"]["ERA+"] - whole) <= ERA_PLUS * whole
    for code in ("W", "L", "OUTS", "ER", "K"):  # the season's line is its teams' summed
        assert total["Stats"][code] == sum(r["Stats"].get(code, 0) for r in lines.values())


def test_a_traded_batters_lines_and_the_seasons_total(real_api: ApiServer) -> None:
    record = _detail(real_api, "Mark McGwire", 1997)
    lines = _teams(real_api, record, 1997)
    assert {t: (r["Games"], r["Stats"]["HR"]) for t, r in lines.items()} == {
        "OAK": (105, 34), "SLN": (51, 24)}
    total = _total(record, 1997)
    assert (total["Teams"], total["Games"], total["Stats"]["HR"]) == (2, 156, 58)
    oakland, st_louis = (lines[t]["Metrics"]["OPS+"] for t in ("OAK", "SLN"))
    assert abs(oakland - st_louis) > 5  # each team's line its own
    assert min(oakland, st_louis) < total["Metrics"]["OPS+"] < max(oakland, st_louis)
    # a season with one team carries the season's metrics on its one line, and no total
    one = next(r for r in record["seasons"] if r["Season"] == 1998)
    assert one["Metrics"]["OPS+"] > 200 and all(r["Season"] != 1998 for r in record["totals"])


def test_a_traded_pitchers_counting_lines(real_api: ApiServer) -> None:
    record = _detail(real_api, "Doyle Alexander", 1987)
    lines = _teams(real_api, record, 1987)
    assert {t: (r["Stats"]["W"], r["Stats"]["L"]) for t, r in lines.items()} == {
        "ATL": (5, 10), "DET": (9, 0)}
    assert (_total(record, 1987)["Stats"]["W"], _total(record, 1987)["Stats"]["L"]) == (14, 10)


def test_a_pitcher_traded_in_a_season_of_plays(real_api: ApiServer) -> None:
    """Max Scherzer 2021, Washington then Los Angeles (Baseball-Reference: 8-4 and 7-0, 15-4):
    each team's line has its own FIP and ERA+ from its games, the season's are the stats
    endpoint's, on the total over both."""
    record = _detail(real_api, "Max Scherzer", 2021)
    lines = {r["Team"]: r for r in record["seasons"] if r["Season"] == 2021}
    assert {t: (r["Stats"].get("W", 0), r["Stats"].get("L", 0)) for t, r in lines.items()} == {
        "Washington Nationals": (8, 4), "Los Angeles Dodgers": (7, 0)}  # a 0 is left out
    fip = [r["Metrics"]["FIP"] for r in lines.values()]
    assert len(set(fip)) == 2 and all(1.5 < f < 5 for f in fip)
    total = _total(record, 2021)
    season = real_api.get_json("/v1/stats/MLB/", stat="FIP", season=2021, player="Max Scherzer")["stats"]
    assert abs(total["Metrics"]["FIP"] - season[0]["Value"]) < 1e-3  # the endpoint prints 4 places
    assert min(fip) < total["Metrics"]["FIP"] < max(fip)
    assert (total["Stats"]["W"], total["Stats"]["L"]) == (15, 4)
