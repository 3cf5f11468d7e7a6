"""The European cups through the API, as an analyst checks them first: the finals (extra time
and shoot-outs included), the matches cancelled or not played, the clubs one ID with their
league's, and the league tables untouched by the cups' group games."""
from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from tests.demo_api import ApiServer

pytestmark = [
    pytest.mark.realdata, pytest.mark.slow, pytest.mark.timeout(1800),  # the real store's build
]


def _final(api: ApiServer, day: str, competition: str) -> dict[str, Any]:
    found = [g for g in api.get_json("/v1/games/FC/", date=day)["games"]
             if g["LeagueName"] == competition and g["Phase"] == "postseason"]
    assert len(found) == 1, found
    return found[0]  # type: ignore[no-any-return]


# (day, home, visitor, score home, score visitor, winner) as the files give them
CL_FINALS = [
    ("2022-05-28", "Liverpool FC", "Real Madrid CF", 0, 1, "Real Madrid CF"),
    ("2023-06-10", "Manchester City FC", "FC Internazionale Milano", 1, 0, "Manchester City FC"),
    ("2024-06-01", "Borussia Dortmund", "Real Madrid CF", 0, 2, "Real Madrid CF"),
    ("2025-05-31", "Paris Saint-Germain FC", "FC Internazionale Milano", 5, 0,
     "Paris Saint-Germain FC"),
]


@pytest.mark.parametrize(("day", "home", "visitor", "score_home", "score_vis", "winner"),
                         CL_FINALS)
def test_the_champions_league_finals(real_api: ApiServer, day: str, home: str, visitor: str,
                                     score_home: int, score_vis: int, winner: str) -> None:
    game = _final(real_api, day, "UEFA Champions League")
    assert (game["Home"], game["Visitor"], game["ScoreHome"], game["ScoreVis"]) == (
        home, visitor, score_home, score_vis)
    assert game["Winner_ID"] == (game["Home_ID"] if winner == home else game["Visitor_ID"])
    assert (game["League"], game["LeagueType"], game["LeagueNation"], game["LeagueGender"]) == (
        "UEFACL", "Cup", "Europe", "M")
    assert game["Overtime"] is None and game["GameStatus"] == "Final"


def test_the_2023_europa_league_final_went_to_sevilla_on_penalties(real_api: ApiServer) -> None:
    """Sevilla 1-1 Roma after extra time, Sevilla 4-1 on penalties."""
    game = _final(real_api, "2023-05-31", "UEFA Europa League")
    assert (game["Home"], game["Visitor"], game["ScoreHome"], game["ScoreVis"]) == (
        "Sevilla FC", "AS Roma", 1, 1)
    assert (game["Overtime"], game["GameStatus"]) == ("PSO", "Final (pens)")
    assert game["Winner_ID"] == game["Home_ID"] and game["Loser_ID"] == game["Visitor_ID"]


def test_the_cancelled_matches_and_the_final_without_a_score(real_api: ApiServer) -> None:
    """RB Leipzig v Spartak Moskva, both legs of 2021-22's Europa League round of 16, were
    cancelled (Russian clubs excluded); the 2025-26 Champions League final has no score in
    the files: scheduled until its day, then ``No result``."""
    for day in ("2022-03-10", "2022-03-17"):
        (game,) = [g for g in real_api.get_json("/v1/games/FC/", date=day)["games"]
                   if "RB Leipzig" in (g["Home"], g["Visitor"])]
        assert {game["Home"], game["Visitor"]} == {"RB Leipzig", "Spartak Moskva"}
        assert (game["GameStatus"], game["ScoreHome"], game["Winner_ID"]) == (
            "Cancelled", None, None)
    game = _final(real_api, "2026-05-30", "UEFA Champions League")
    assert (game["Home"], game["Visitor"], game["ScoreHome"]) == (
        "Paris Saint-Germain FC", "Arsenal FC", None)
    passed = dt.date.today() > dt.date(2026, 5, 30)
    assert game["GameStatus"] == ("No result" if passed else "")


def test_a_club_is_one_id_in_its_league_and_the_cups_and_tables_hold_no_cup_game(
        real_api: ApiServer) -> None:
    """Real Madrid of the 2021-22 final is La Liga's Real Madrid; La Liga's table counts its 38
    league matches only (its 6 group and 7 knock-out matches in the Champions League apart),
    and no club that played only in the cups (Sheriff Tiraspol) is in any table."""
    game = _final(real_api, "2022-05-28", "UEFA Champions League")
    table = real_api.get_json("/v2/standings/FC/", season=2022)["standings"]
    madrid = [r for r in table if r["Team_ID"] == game["Visitor_ID"]]
    assert len(madrid) == 1 and madrid[0]["League"] == "La Liga"
    assert (madrid[0]["W"], madrid[0]["T"], madrid[0]["L"], madrid[0]["Points"]) == (26, 8, 4, 86)
    assert not {r["League"] for r in table} & {"UEFA Champions League", "UEFA Europa League",
                                                "UEFA Conference League"}
    assert "FC Sheriff" not in {r["Team"] for r in table}


def test_league_factors_rank_the_leagues_by_their_clubs_results_in_europe(
        real_api: ApiServer) -> None:
    """``LeagueFactor`` from the cup matches (docs/football.md): the Premier League, whose clubs
    did best against other leagues', is 1; the other big four leagues follow, well above
    Scotland's and Austria's; a league that hardly meets Europe (the Championship) has none.
    A match record carries its league's factor."""
    found = {r["Name"]: r["LeagueFactor"]
             for r in real_api.get_json("/v1/glossary/FC/sublevels/")["glossary"]
             if r.get("LeagueType") == "Domestic"}
    assert found["Premier League"] == 1.0 and found["EFL Championship"] is None
    big = [found[n] for n in ("La Liga", "Serie A", "Bundesliga", "Ligue 1")]
    assert all(0.6 < f < 1.0 for f in big), found
    assert max(found["Scottish Premiership"], found["Austrian Bundesliga"]) < min(big) - 0.2
    game = _final(real_api, "2023-06-10", "UEFA Champions League")
    assert game["LeagueFactor"] is None  # a cup is no league: no factor of its own
    (league_game,) = [g for g in real_api.get_json("/v1/games/FC/", date="2023-05-28")["games"]
                      if g["Home"] == "Brentford FC"]
    assert league_game["LeagueFactor"] == 1.0
