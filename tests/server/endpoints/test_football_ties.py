"""Two-legged knock-out ties through the API, from the real store: the European cups' and the
domestic play-offs' second leg carries the aggregate and the club that went through, checked
against the published results (no away goals from 2021-22: a level aggregate goes to extra time
and penalties, or, in Serie B's and Liga MX's play-offs, to the better-placed club)."""
from __future__ import annotations

from typing import Any

import pytest

from tests.demo_api import ApiServer

pytestmark = [
    pytest.mark.realdata, pytest.mark.slow, pytest.mark.timeout(1800),  # the real store's build
]



def _game(api: ApiServer, day: str, home: str) -> dict[str, Any]:
    (game,) = [g for g in api.get_json("/v1/games/FC/", date=day)["games"] if g["Home"] == home]
    return game  # type: ignore[no-any-return]


# (first leg's day, its home club, second leg's day, its home club, aggregate home-visitor of
# the second leg, the club through): the 2022-23 Champions League round of 16 and others
TIES = [
    ("2023-02-22", "RB Leipzig", "2023-03-14", "Manchester City FC", (8, 1),
     "Manchester City FC"),  # 1-1, 7-0: City 8-1 on aggregate
    ("2023-02-22", "FC Internazionale Milano", "2023-03-14", "FC Porto", (0, 1),
     "FC Internazionale Milano"),  # 1-0, 0-0
    ("2023-02-16", "Sevilla FC", "2023-02-23", "PSV Eindhoven", (2, 3),
     "Sevilla FC"),  # 3-0, 0-2: the home side of the second leg won it and went out
    # Austria's Europa League play-off final 2023: Lustenau 1-1 Austria Wien, 5-0 in Vienna
    ("2023-06-08", "Austria Lustenau", "2023-06-11", "Austria Wien", (6, 1), "Austria Wien"),
    # Serie B's play-off semi-final 2025: Juve Stabia 2-1 Cremonese, Cremonese 3-0
    ("2025-05-21", "Juve Stabia", "2025-05-25", "US Cremonese", (4, 2), "US Cremonese"),
    # Liga MX, Apertura 2024 quarter-final: Tijuana 3-0 Cruz Azul, Cruz Azul 3-0 Tijuana; level,
    # no extra time: Cruz Azul, first in the Apertura's table, through (Tijuana came through
    # the play-in)
    ("2024-11-27", "Club Tijuana", "2024-11-30", "Cruz Azul", (3, 3), "Cruz Azul"),
    # Clausura 2025 quarter-final: Necaxa 0-0 Tigres, Tigres 2-2 Necaxa: Tigres, placed higher
    ("2025-05-08", "Club Necaxa", "2025-05-11", "UANL Tigres", (2, 2), "UANL Tigres"),
]


@pytest.mark.parametrize(("day1", "home1", "day2", "home2", "aggregate", "through"), TIES)
def test_a_ties_aggregate_is_on_its_second_leg(real_api: ApiServer, day1: str, home1: str,
                                               day2: str, home2: str,
                                               aggregate: tuple[int, int], through: str) -> None:
    first, second = _game(real_api, day1, home1), _game(real_api, day2, home2)
    assert (first["AggregateHome"], first["AggregateVis"], first["TieWinner_ID"]) == (
        None, None, None)
    assert {first["Home_ID"], first["Visitor_ID"]} == {second["Home_ID"], second["Visitor_ID"]}
    assert (second["AggregateHome"], second["AggregateVis"]) == aggregate
    assert second["AggregateHome"] == second["ScoreHome"] + first["ScoreVis"]
    winner = second["Home_ID"] if second["Home"] == through else second["Visitor_ID"]
    assert second["TieWinner_ID"] == winner


def test_a_level_tie_goes_to_the_shoot_out_not_away_goals(real_api: ApiServer) -> None:
    """2022-23 Europa League knock-out play-off: Shakhtar 2-1 Rennes, then Rennes 2-1 after
    extra time: 3-3 on aggregate (Rennes' away goal counts for nothing), Shakhtar 5-4 on
    penalties. The leg is Rennes' win; the tie is Shakhtar's. 2023-24 Champions League quarter
    final: Real Madrid 3-3 Manchester City, City 1-1 Real Madrid, Real Madrid on penalties."""
    leg = _game(real_api, "2023-02-23", "Stade Rennais")
    assert (leg["ScoreHome"], leg["ScoreVis"], leg["Overtime"]) == (2, 1, "PSO")
    assert leg["Winner_ID"] == leg["Home_ID"]
    assert (leg["AggregateHome"], leg["AggregateVis"]) == (3, 3)
    assert leg["TieWinner_ID"] == leg["Visitor_ID"] and leg["Visitor"] == "FK Shakhtar Donetsk"
    city = _game(real_api, "2024-04-17", "Manchester City FC")
    assert (city["AggregateHome"], city["AggregateVis"]) == (4, 4)
    assert city["TieWinner_ID"] == city["Visitor_ID"] and city["Visitor"] == "Real Madrid CF"


def test_a_final_and_a_cancelled_tie_have_no_aggregate(real_api: ApiServer) -> None:
    (final,) = [g for g in real_api.get_json("/v1/games/FC/", date="2023-06-10")["games"]
                if g["LeagueName"] == "UEFA Champions League"]
    assert (final["AggregateHome"], final["TieWinner_ID"]) == (None, None)
    (cancelled,) = [g for g in real_api.get_json("/v1/games/FC/", date="2022-03-17")["games"]
                    if "RB Leipzig" in (g["Home"], g["Visitor"])]
    assert (cancelled["AggregateHome"], cancelled["TieWinner_ID"]) == (None, None)


def test_every_tie_of_a_season_sends_one_club_through(real_api: ApiServer) -> None:
    """The 2022-23 Champions League knock-out rounds: 8 + 4 + 2 ties, each won by one of its two
    clubs, and each round's winners are the next round's clubs."""
    games = real_api.get_json("/v1/games/FC/", season=2023, phase="postseason",
                 max=1000)["games"]
    cl = [g for g in games if g["LeagueName"] == "UEFA Champions League"
          and g["TieWinner_ID"] is not None]
    assert len(cl) == 14
    for g in cl:
        assert g["TieWinner_ID"] in (g["Home_ID"], g["Visitor_ID"])
    cl.sort(key=lambda g: g["GameDay"])
    r16, qf, sf = cl[:8], cl[8:12], cl[12:]
    assert {g["TieWinner_ID"] for g in r16} == {t for g in qf for t in (g["Home_ID"],
                                                                         g["Visitor_ID"])}
    assert {g["TieWinner_ID"] for g in qf} == {t for g in sf for t in (g["Home_ID"],
                                                                        g["Visitor_ID"])}


def test_the_championship_play_off_semi_finals_are_ties_too(real_api: ApiServer) -> None:
    """2021-22: Sheffield United 1-2 Nottingham Forest, Forest 1-2 Sheffield United after extra
    time, 3-3, Forest through on penalties. 2022-23: Sunderland 2-1 Luton, Luton 2-0
    Sunderland, Luton 3-2. The one-match final is no tie."""
    forest = _game(real_api, "2022-05-17", "Nottingham Forest FC")
    assert (forest["AggregateHome"], forest["AggregateVis"]) == (3, 3)
    assert forest["TieWinner_ID"] == forest["Home_ID"]
    luton = _game(real_api, "2023-05-16", "Luton Town FC")
    assert (luton["AggregateHome"], luton["AggregateVis"], luton["TieWinner_ID"]) == (
        3, 2, luton["Home_ID"])
    final = _game(real_api, "2023-05-27", "Coventry City FC")
    assert (final["AggregateHome"], final["TieWinner_ID"]) == (None, None)
