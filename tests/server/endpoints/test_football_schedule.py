"""A league plays its whole schedule: the clinch marks and the matches left, read through the
API from the real store.

The files hold 2025-26 as far as it had been played when they were taken (March 2026): its
matches without a score, their days now past, are `No result`, and Austria's, Belgium's and
Scotland's files list no group rounds after the split. None of that ends a season: each club
still has the matches its league's declared schedule holds (a double round robin; the split's
group rounds where the league splits), so no leader is champion while a rival can still
catch it. A match the files leave without a score counts as still to play, never as void.
"""
from __future__ import annotations

from typing import Any

import pytest

from tests.demo_api import ApiServer

pytestmark = [
    pytest.mark.realdata, pytest.mark.slow, pytest.mark.timeout(1800),  # the real store's build
]


def _table(api: ApiServer, season: int, league: str, **params: Any) -> list[dict[str, Any]]:
    rows = [r for r in api.get_json("/v2/standings/FC/", season=season, **params)["standings"]
            if r["League"] == league]
    assert rows, league
    return sorted(rows, key=lambda r: r["LeagueRank"])


def test_no_champion_while_matches_remain(real_api: ApiServer) -> None:
    """2025-26 as the files hold it: Arsenal lead the Premier League by 7 points with 8 to
    play, PSV the Eredivisie by 19 with 8 to play; neither has won anything yet, nor has any
    other leader: each league's runner-up can still pass its leader."""
    everything = real_api.get_json("/v2/standings/FC/", season=2026)["standings"]
    assert everything
    assert [r["Team"] for r in everything if r["Clinched"] == "Title"] == []
    arsenal, city = _table(real_api, 2026, "Premier League")[:2]
    assert (arsenal["Team"], arsenal["G"], arsenal["Remaining"], arsenal["Clinched"]) \
        == ("Arsenal FC", 30, 8, None)
    assert arsenal["Points"] - city["Points"] < 3 * city["Remaining"]
    psv = _table(real_api, 2026, "Eredivisie")[0]
    assert (psv["Team"], psv["G"], psv["Remaining"], psv["Clinched"]) \
        == ("PSV Eindhoven", 26, 8, None)


@pytest.mark.parametrize(("league", "season_matches"), [
    ("Premier League", 38), ("Bundesliga", 34), ("La Liga", 38), ("Serie A", 38),
    ("EFL Championship", 46),
    # the round robin, then the group's rounds after the split: Austria 22 + 10, Belgium 30 +
    # 10 (the relegation group of four plays 6: the most a group plays while the groups are
    # still to be drawn from the table), Scotland 33 + 5, Greece 26 + 10 (its play-outs of six;
    # the play-offs of four play 6)
    ("Super League Greece", 36),
    ("Austrian Bundesliga", 32), ("Belgian First Division A", 40),
    ("Scottish Premiership", 38),
])
def test_remaining_is_the_schedule_less_the_played(real_api: ApiServer, league: str,
                                                    season_matches: int) -> None:
    rows = _table(real_api, 2026, league)
    assert [r["Team"] for r in rows if r["G"] + r["Remaining"] != season_matches] == []
    assert all(r["Remaining"] > 0 for r in rows)


def test_a_finished_season_without_its_last_round(real_api: ApiServer) -> None:
    """2024-25's La Liga and Serie A files have no score for their last round (38th): in the
    files' account one match is left for every club. Barcelona's 4 points over Real Madrid
    are out of reach: champions. Napoli lead Inter by one point: not champions by the files
    (they won that last match; the files do not say so), only sure of the top four, as Inter
    are: both marked for the Champions League."""
    barca, madrid = _table(real_api, 2025, "La Liga")[:2]
    assert (barca["Team"], barca["Points"], barca["Remaining"], barca["Clinched"]) \
        == ("FC Barcelona", 85, 1, "Title")
    assert (madrid["Team"], madrid["Points"], madrid["Remaining"]) == ("Real Madrid CF", 81, 1)
    napoli, inter = _table(real_api, 2025, "Serie A")[:2]
    assert [(r["Team"], r["Points"], r["Remaining"], r["Clinched"]) for r in (napoli, inter)] \
        == [("SSC Napoli", 79, 1, "Champions League"),
            ("FC Internazionale Milano", 78, 1, "Champions League")]


def test_the_title_on_the_day_it_was_won(real_api: ApiServer) -> None:
    """Manchester City won the 2022-23 Premier League on 20 May 2023, when Arsenal lost at
    Nottingham Forest: 85 points with three to play against Arsenal's 81 with one. The day
    before, City were sure of the top four only."""
    before = _table(real_api, 2023, "Premier League", date="2023-05-19")[0]
    assert (before["Team"], before["Clinched"]) == ("Manchester City FC", "Champions League")
    city, arsenal = _table(real_api, 2023, "Premier League", date="2023-05-20")[:2]
    assert (city["Team"], city["Points"], city["Remaining"], city["Clinched"]) \
        == ("Manchester City FC", 85, 3, "Title")
    assert (arsenal["Points"], arsenal["Remaining"]) == (81, 1)
