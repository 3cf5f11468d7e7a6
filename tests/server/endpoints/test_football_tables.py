"""Football tables as football prints them, read through the API from the real store and checked
against the published record: W-D-L in that order, points, goal difference, and the form of the
last five results (oldest first, the newest at the right end); no winning percentage."""
from __future__ import annotations

from typing import Any

import pytest

from tests.demo_api import ApiServer

pytestmark = [
    pytest.mark.realdata, pytest.mark.slow, pytest.mark.timeout(1800),  # the real store's build
]



def _league(api: ApiServer, season: int, league: str, **params: Any) -> list[dict[str, Any]]:
    rows = [r for r in api.get_json("/v2/standings/FC/", season=season, **params)["standings"]
            if r["League"] == league]
    return sorted(rows, key=lambda r: r["LeagueRank"])


def test_the_premier_league_2022_23_reads_as_football_prints_it(real_api: ApiServer) -> None:
    """Manchester City 28-5-5, 89 points, +61; Arsenal 84. Their last five league matches:
    City beat Leeds, Everton and Chelsea, drew at Brighton, lost at Brentford (WWWDL); Arsenal
    beat Chelsea and Newcastle, lost to Brighton and at Forest, beat Wolves (WWLLW)."""
    city, arsenal = _league(real_api, 2023, "Premier League")[:2]
    assert (city["Team"], city["W"], city["T"], city["L"], city["Points"], city["GoalDiff"]) == (
        "Manchester City FC", 28, 5, 5, 89, 61)
    assert (arsenal["Team"], arsenal["Points"], arsenal["GoalDiff"]) == ("Arsenal FC", 84, 45)
    assert (city["Form"], arsenal["Form"]) == ("WWWDL", "WWLLW")
    assert city["Streak"] == "L1" and city["Home"] == "17-1-1"  # home: 17 won, 1 drawn, 1 lost
    keys = list(city)
    assert keys.index("W") < keys.index("T") < keys.index("L") < keys.index("Points")
    assert "Pct" not in city and "Last10" not in city


def test_the_form_as_of_a_day(real_api: ApiServer) -> None:
    """As of 2023-05-21 (City 1-0 Chelsea that day) City's last five were Fulham (2-1), West
    Ham (3-0), Leeds (2-1), Everton (3-0) and Chelsea: WWWWW, twelve straight wins since the
    draw at Forest, with two matches left."""
    city = _league(real_api, 2023, "Premier League", date="2023-05-21")[0]
    assert (city["Team"], city["Form"], city["Remaining"]) == ("Manchester City FC", "WWWWW", 2)
    assert city["Streak"] == "W12"


def test_a_draw_is_a_d_in_the_streak_and_the_form(real_api: ApiServer) -> None:
    """Newcastle drew their last two of 2022-23 (Leicester 0-0, Chelsea 1-1)."""
    newcastle = next(r for r in _league(real_api, 2023, "Premier League")
                     if r["Team"] == "Newcastle United FC")
    assert newcastle["Form"].endswith("DD") and newcastle["Streak"] == "D2"
    assert set(newcastle["Form"]) <= set("WDL") and len(newcastle["Form"]) == 5


def test_other_sports_keep_their_percentage_and_last_ten(real_api: ApiServer) -> None:
    row = real_api.get_json("/v2/standings/NHL/", season=2023)["standings"][0]
    assert "Pct" in row and "Last10" in row and "Form" not in row


def _cup(api: ApiServer, name: str) -> int:
    (found,) = [r["ID"] for r in api.get_json("/v1/glossary/FC/sublevels/")["glossary"]
                if r["Name"] == name and r.get("LeagueType") == "Cup"]
    return int(found)


def _groups(api: ApiServer, season: int, cup: str) -> dict[str, list[tuple[Any, ...]]]:
    rows = api.get_json("/v2/standings/FC/", season=season, sublevel=_cup(api, cup))["standings"]
    out: dict[str, list[tuple[Any, ...]]] = {}
    for r in sorted(rows, key=lambda r: (r["Division"], r["DivRank"])):
        assert r["League"] == cup and r["Division_ID"] is None
        out.setdefault(r["Division"], []).append(
            (r["Team"], r["W"], r["T"], r["L"], r["GF"], r["GA"], r["Points"]))
    return out


def test_the_champions_league_2022_23_groups(real_api: ApiServer) -> None:
    """Eight tables of four from the group games only (the knock-out ties count in none):
    Group A Napoli 15 above Liverpool 15 (the matches between them, 4-1 and 0-2, then goal
    difference), Ajax 6, Rangers 0; Group B Leverkusen third above Atlético on the matches
    between them (2-0, 2-2)."""
    groups = _groups(real_api, 2023, "UEFA Champions League")
    assert sorted(groups) == [f"Group {g}" for g in "ABCDEFGH"]
    assert all(len(t) == 4 and sum(r[1] + r[2] + r[3] for r in t) == 24 for t in groups.values())
    assert groups["Group A"] == [
        ("SSC Napoli", 5, 0, 1, 20, 6, 15), ("Liverpool FC", 5, 0, 1, 17, 6, 15),
        ("AFC Ajax", 2, 0, 4, 11, 16, 6), ("Rangers FC", 0, 0, 6, 2, 22, 0)]
    assert [r[0] for r in groups["Group B"]] == [
        "FC Porto", "Club Brugge KV", "Bayer 04 Leverkusen", "Club Atlético de Madrid"]


def test_groups_the_file_heads_by_matchday_are_named_by_the_draw(real_api: ApiServer) -> None:
    """2023-24's file lists the group games by matchday: the groups are who played whom, named
    by the draw. Group A: Bayern 16, Copenhagen 8, Galatasaray 5, Manchester United 4."""
    groups = _groups(real_api, 2024, "UEFA Champions League")
    assert sorted(groups) == [f"Group {g}" for g in "ABCDEFGH"]
    assert [(r[0], r[6]) for r in groups["Group A"]] == [
        ("FC Bayern München", 16), ("FC København", 8), ("Galatasaray", 5),
        ("Manchester United FC", 4)]
    assert groups["Group G"][0][0] == "Manchester City FC"


def test_the_2024_25_league_phase_is_one_table_of_36(real_api: ApiServer) -> None:
    """Liverpool 21; Barcelona, Arsenal and Inter 19 in goal-difference order; Lille above
    Aston Villa on goals scored (16 points, +7 each); Atalanta ninth; Real Madrid eleventh above
    Bayern on goals scored away (15 points, +8 and 20 goals each)."""
    (table,) = _groups(real_api, 2025, "UEFA Champions League").items()
    name, rows = table
    assert name == "League phase" and len(rows) == 36
    assert [(r[0], r[6]) for r in rows[:9]] == [
        ("Liverpool FC", 21), ("FC Barcelona", 19), ("Arsenal FC", 19),
        ("FC Internazionale Milano", 19), ("Club Atlético de Madrid", 18),
        ("Bayer 04 Leverkusen", 16), ("Lille OSC", 16), ("Aston Villa FC", 16),
        ("Atalanta BC", 15)]
    assert [r[0] for r in rows[10:12]] == ["Real Madrid CF", "FC Bayern München"]


def test_a_league_sublevel_still_answers_its_own_table(real_api: ApiServer) -> None:
    pl = next(r["ID"] for r in real_api.get_json("/v1/glossary/FC/sublevels/")["glossary"]
              if r["Name"] == "Premier League")
    rows = real_api.get_json("/v2/standings/FC/", season=2023, sublevel=pl)["standings"]
    assert len(rows) == 20 and {r["League"] for r in rows} == {"Premier League"}
