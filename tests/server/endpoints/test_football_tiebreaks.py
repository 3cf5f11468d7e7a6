"""Tiebreaks of the leagues that rank clubs level on points by the matches between them, read
through the API from the real store: the Süper Lig (TFF's "ikili averaj": the points between the
clubs, then the goal difference between them, then overall goal difference), Greece's Super
League (EPO's Football Match Regulations, art. 20: the same order, once the clubs have met home
and away) and La Liga (the same wait). Each table below is one on which the head-to-head and
goal difference disagree, so the order served is the rule's: the points and results were read
from the files."""
from __future__ import annotations

from typing import Any

import pytest

from tests.demo_api import ApiServer

pytestmark = [
    pytest.mark.realdata, pytest.mark.slow, pytest.mark.timeout(1800),  # the real store's build
]


def _ranks(api: ApiServer, season: int, league: str, date: str) -> dict[str, tuple[int, Any]]:
    rows = [r for r in api.get_json("/v2/standings/FC/", season=season, date=date)["standings"]
            if r["League"] == league]
    return {r["Team"]: (r["LeagueRank"], r["Points"]) for r in rows}


def test_the_super_lig_ranks_level_clubs_by_the_matches_between_them(
        real_api: ApiServer) -> None:
    """Süper Lig 2024-25 as of 18 May 2025: Göztepe and Trabzonspor on 47 (Göztepe won 2-1 at
    home and drew away: 4 points to 1), Trabzonspor with the better goal difference (+11 to
    +10); Konyaspor and Kasımpaşa on 46 (Konyaspor 4 points to 1 between them), Kasımpaşa with
    the better goal difference (0 to -3). The matches between them rank first."""
    table = _ranks(real_api, 2025, "Süper Lig", "2025-05-18")
    assert table["Göztepe"][1] == table["Trabzonspor"][1] == 47
    assert table["Göztepe"][0] + 1 == table["Trabzonspor"][0]
    assert table["Konyaspor"][1] == table["Kasımpaşa SK"][1] == 46
    assert table["Konyaspor"][0] + 1 == table["Kasımpaşa SK"][0]


def test_greece_ranks_level_clubs_by_the_matches_between_them(real_api: ApiServer) -> None:
    """Super League Greece 2024-25, in its play-off groups: as of 6 April 2025 Panathinaikos and
    AEK are level on 53 in the championship play-offs, AEK with the far better goal difference
    (+25 to +9), Panathinaikos 6 points to 3 in their matches: Panathinaikos 2nd. As of 10 May
    2025 Volos and Panserraikos are level on 36 in the play-outs, Volos with the better goal
    difference (-16 to -19), Panserraikos 7 points to 4 between them: Panserraikos above."""
    table = _ranks(real_api, 2025, "Super League Greece", "2025-04-06")
    assert (table["Panathinaikos"], table["AEK Athen"]) == ((2, 53), (3, 53))
    table = _ranks(real_api, 2025, "Super League Greece", "2025-05-10")
    assert table["Panserraikos"][1] == table["Volos NFC"][1] == 36
    assert table["Panserraikos"][0] + 1 == table["Volos NFC"][0]


def test_la_liga_and_greece_wait_until_the_clubs_have_met_home_and_away(
        real_api: ApiServer) -> None:
    """La Liga 2023-24 as of 10 December 2023: Atlético and Barcelona on 34, Barcelona having
    won the one match between them so far (1-0), Atlético with the better goal difference (+18
    to +12): the head-to-head waits for the second match, so Atlético are above. Greece
    2024-25 as of 30 November 2024: Olympiacos and AEK on 24, Olympiacos won their one meeting
    (3-0), AEK's goal difference better (+13 to +11): AEK above."""
    table = _ranks(real_api, 2024, "La Liga", "2023-12-10")
    atletico, barca = table["Club Atlético de Madrid"], table["FC Barcelona"]
    assert atletico[1] == barca[1] == 34 and atletico[0] + 1 == barca[0]
    table = _ranks(real_api, 2025, "Super League Greece", "2024-11-30")
    aek, olympiacos = table["AEK Athen"], table["Olympiakos Piraeus"]
    assert aek[1] == olympiacos[1] == 24 and aek[0] + 1 == olympiacos[0]
