"""Football tables as football prints them, read through the API from the real store and checked
against the published record: W-D-L in that order, points, goal difference, and the form of the
last five results (oldest first, the newest at the right end); no winning percentage."""
from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.demo_api import ApiServer

pytestmark = [
    pytest.mark.realdata, pytest.mark.slow, pytest.mark.timeout(1800),  # the real store's build
]


def _get(api: ApiServer, path: str, **params: Any) -> Any:
    response = httpx.get(f"{api.url}{path}", params={"key": api.key, **params}, timeout=60)
    assert response.status_code == 200, response.text
    return response.json()


def _league(api: ApiServer, season: int, league: str, **params: Any) -> list[dict[str, Any]]:
    rows = [r for r in _get(api, "/v2/standings/FC/", season=season, **params)["standings"]
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
    row = _get(real_api, "/v2/standings/NHL/", season=2023)["standings"][0]
    assert "Pct" in row and "Last10" in row and "Form" not in row
