"""What a league position earns, marked on the table once certain, read through the API from
the real store: the declared places (``server.catalog.football.places``) as the leagues'
published final tables colour them, and on the day a club's fate was sealed."""
from __future__ import annotations

import datetime as dt
from collections import Counter
from typing import Any

import pytest

from server.catalog.football import LEAGUES
from server.catalog.football.places import AT_BEST, MARKS, places_for
from tests.demo_api import ApiServer

pytestmark = [
    pytest.mark.realdata, pytest.mark.slow, pytest.mark.timeout(1800),  # the real store's build
]


def _marks(api: ApiServer, season: int, league: str, **params: Any) -> dict[str, str | None]:
    rows = [r for r in api.get_json("/v2/standings/FC/", season=season, **params)["standings"]
            if r["League"] == league]
    assert rows, league
    return {r["Team"]: r["Clinched"] for r in sorted(rows, key=lambda r: r["LeagueRank"])}


def _marked(marks: dict[str, str | None], *kinds: str) -> list[str]:
    return [team for team, mark in marks.items() if mark in kinds]


def test_premier_league_2022_23(real_api: ApiServer) -> None:
    """The final table: champions Manchester City (``Title``; first place holds its Champions
    League place), Arsenal, Manchester United and Newcastle to the Champions League,
    Leicester, Leeds and Southampton relegated, and no mark on Liverpool's, Brighton's and
    Aston Villa's Europa and Conference League places (a cup winner could have moved them)."""
    marks = _marks(real_api, 2023, "Premier League")
    assert marks["Manchester City FC"] == "Title"
    assert _marked(marks, "Title", "Champions League") == [
        "Manchester City FC", "Arsenal FC", "Manchester United FC", "Newcastle United FC"]
    assert _marked(marks, "Relegated") == ["Leicester City FC", "Leeds United FC",
                                           "Southampton FC"]
    assert [t for t, m in marks.items() if m is not None] == [
        *_marked(marks, "Title", "Champions League"), *_marked(marks, "Relegated")]


def test_southampton_relegated_on_13_may_2023(real_api: ApiServer) -> None:
    """Southampton lost 0-2 at home to Fulham on 13 May 2023: 24 points with two to play, so
    30 at most, below Everton's 32 and Leeds's 31 and out of 17th's reach. Relegated that day;
    Leeds (31, two to play) and Leicester (30, three) could still stay up and are unmarked,
    as the day before Southampton were."""
    before = _marks(real_api, 2023, "Premier League", date="2023-05-12")
    assert before["Southampton FC"] is None
    marks = _marks(real_api, 2023, "Premier League", date="2023-05-13")
    assert _marked(marks, "Relegated") == ["Southampton FC"]
    assert (marks["Leeds United FC"], marks["Leicester City FC"]) == (None, None)


def test_bundesliga_2022_23_with_its_relegation_play_off(real_api: ApiServer) -> None:
    """Bayern champions on goal difference over Dortmund; Dortmund, Leipzig and Union to the
    Champions League; Stuttgart 16th into the relegation play-off; Schalke and Hertha
    relegated."""
    marks = _marks(real_api, 2023, "Bundesliga")
    assert _marked(marks, "Title", "Champions League") == [
        "FC Bayern München", "Borussia Dortmund", "RB Leipzig", "1. FC Union Berlin"]
    assert marks["FC Bayern München"] == "Title"
    assert _marked(marks, "Relegation Play-off") == ["VfB Stuttgart"]
    assert _marked(marks, "Relegated") == ["FC Schalke 04", "Hertha BSC"]


def test_second_divisions_2022_23_promotion_and_play_offs(real_api: ApiServer) -> None:
    """2. Bundesliga: Heidenheim champions and Darmstadt promoted (67 points each), Hamburg
    3rd into the promotion play-off, Bielefeld 16th into the relegation play-off, Regensburg
    and Sandhausen relegated. Championship: Burnley champions, Sheffield United promoted,
    Luton (who won the play-offs), Middlesbrough, Coventry and Sunderland in the play-offs,
    Reading, Blackpool and Wigan relegated."""
    german = _marks(real_api, 2023, "2. Bundesliga")
    assert [(t, german[t]) for t in _marked(german, "Title", "Promotion", "Promotion Play-off")] \
        == [("1. FC Heidenheim 1846", "Title"), ("SV Darmstadt 98", "Promotion"),
            ("Hamburger SV", "Promotion Play-off")]
    assert _marked(german, "Relegation Play-off") == ["Arminia Bielefeld"]
    assert _marked(german, "Relegated") == ["Jahn Regensburg", "SV Sandhausen"]
    english = _marks(real_api, 2023, "EFL Championship")
    assert _marked(english, "Title") == ["Burnley FC"]
    assert _marked(english, "Promotion") == ["Sheffield United FC"]
    assert _marked(english, "Promotion Play-off") == [
        "Luton Town FC", "Middlesbrough FC", "Coventry City FC", "Sunderland AFC"]
    assert sorted(_marked(english, "Relegated")) == ["Blackpool FC", "Reading FC",
                                                     "Wigan Athletic"]


def test_no_mark_of_2022_23_is_overturned_by_the_final_table(real_api: ApiServer) -> None:
    """Every day from 1 March 2023 to the last round, in every league of 2022-23 that declares
    its places: a club marked for a place finishes in it or above (Title, Champions League,
    Promotion, Promotion Play-off) or in it or below (Relegation Play-off, Relegated). Serie
    A's last day (4 June) leaves Verona and Spezia level on 31 points with the play-off for
    17th still to come: neither is marked. (Every day of 2021-22 to 2024-25, 7,521 marks, was
    checked the same way once.)"""
    final = real_api.get_json("/v2/standings/FC/", season=2023)["standings"]
    by_name = {lg.name: lg for lg in LEAGUES.values()}
    size = Counter(r["League"] for r in final)
    earned = {name: places_for(by_name[name].code, 2023) for name in size if name in by_name}
    ranges = {name: p.ranges(size[name]) for name, p in earned.items() if p is not None}
    kind_of = {label: kind for kind, label in MARKS.items()}
    end = {(r["League"], r["Team"]): r["LeagueRank"] for r in final}
    day, seen, wrong = dt.date(2023, 3, 1), Counter[str](), []
    while day <= dt.date(2023, 6, 4):
        for r in real_api.get_json("/v2/standings/FC/", season=2023,
                                   date=day.isoformat())["standings"]:
            mark, place = r["Clinched"], end[(r["League"], r["Team"])]
            if mark is None or r["League"] not in ranges:
                continue
            seen[mark] += 1
            covered = ranges[r["League"]].get(kind_of.get(mark, ""), range(1, 2))  # Title: 1st
            holds = (place >= covered[0] if kind_of.get(mark) in AT_BEST
                     else place <= covered[-1])
            if not holds:
                wrong.append((day, r["Team"], mark, place))
        day += dt.timedelta(days=1)
    assert wrong == []
    assert set(seen) == {"Title", *MARKS.values()}, seen
    last_day = _marks(real_api, 2023, "Serie A", date="2023-06-04")
    assert (last_day["Hellas Verona FC"], last_day["Spezia Calcio"]) == (None, None)
