"""The two-legged tie rules of the football ingest on rows built here: the aggregate and the club
through on the second leg; a level aggregate to the shoot-out, or to the club placed higher in
the regular season (Serie B, Liga MX before its final); one the rule cannot settle refused,
never guessed."""
from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from server.catalog.football import BETTER_PLACED, EXTRA_TIME, league_of
from server.errors import UserError
from server.ingest.football.openfootball import with_ties

UEFA = {1: ((("", EXTRA_TIME),))}


def _leg(gid: int, day: int, home: int, vis: int, score: tuple[int, int],
         pens: tuple[int, int] | None = None, round_name: str = "Round of 16",
         phase: str = "postseason") -> dict[str, Any]:
    info: dict[str, Any] = ({"ft": list(score), "round": round_name}
                            | ({"pens": list(pens)} if pens else {}))
    return {"id": gid, "sublevel_id": 1, "season": 2023,
            "playoff": None if phase == "regular" else round_name,
            "phase": phase, "state": "final", "game_day": dt.date(2023, 2, day),
            "home_id": home, "visitor_id": vis, "score_home": score[0], "score_vis": score[1],
            "info": info}


def test_the_second_leg_carries_the_aggregate() -> None:
    first, second = with_ties([_leg(1, 1, 10, 20, (1, 1)), _leg(2, 8, 20, 10, (7, 0))], UEFA)
    assert "agg" not in first["info"]
    assert (second["info"]["agg"], second["info"]["tie_winner_id"]) == ([8, 1], 20)


def test_a_level_tie_goes_to_the_shoot_out_winner() -> None:
    _, second = with_ties([_leg(1, 1, 10, 20, (2, 1)), _leg(2, 8, 20, 10, (2, 1), (4, 5))], UEFA)
    assert (second["info"]["agg"], second["info"]["tie_winner_id"]) == ([3, 3], 10)


def test_a_level_tie_without_a_shoot_out_is_refused() -> None:
    with pytest.raises(UserError, match="level on aggregate"):
        with_ties([_leg(1, 1, 10, 20, (2, 1)), _leg(2, 8, 20, 10, (2, 1))], UEFA)


def test_a_competition_without_declared_ties_is_left_alone() -> None:
    rows = with_ties([_leg(1, 1, 10, 20, (2, 1)), _leg(2, 8, 20, 10, (2, 1))], {2: (("", EXTRA_TIME),)})
    assert all("agg" not in r["info"] for r in rows)


def _liga_mx(final_pens: tuple[int, int] | None = None) -> list[dict[str, Any]]:
    """Club 20 ends the Apertura's regular season above club 10 (a win and a draw against one
    loss), club 10 above club 30 in the Clausura; both play-off rounds end 3-3 on aggregate."""
    return [
        _leg(1, 1, 10, 20, (0, 1), round_name="Apertura, Matchday 1", phase="regular"),
        _leg(2, 2, 20, 30, (1, 1), round_name="Apertura, Matchday 2", phase="regular"),
        _leg(3, 3, 10, 30, (2, 0), round_name="Clausura, Matchday 1", phase="regular"),
        _leg(4, 10, 10, 20, (3, 0), round_name="Apertura Playoffs, Quarterfinals"),
        _leg(5, 13, 20, 10, (3, 0), round_name="Apertura Playoffs, Quarterfinals"),
        _leg(6, 20, 30, 10, (1, 2), round_name="Clausura Playoffs, Final"),
        _leg(7, 24, 10, 30, (1, 2), final_pens, round_name="Clausura Playoffs, Final"),
    ]


def test_a_level_tie_goes_to_the_better_placed_club_where_the_league_says_so() -> None:
    """Liga MX: a level quarter-final sends the club placed higher in its own tournament's
    regular season through (the Apertura's, not the Clausura's), without extra time; a level
    final goes to extra time and penalties."""
    rules = {1: league_of("mx.1").level_ties}
    rows = with_ties(_liga_mx(final_pens=(3, 4)), rules)
    quarter, final = rows[4], rows[6]
    assert (quarter["info"]["agg"], quarter["info"]["tie_winner_id"]) == ([3, 3], 20)
    assert (final["info"]["agg"], final["info"]["tie_winner_id"]) == ([3, 3], 30)
    with pytest.raises(UserError, match="level on aggregate with no shoot-out"):
        with_ties(_liga_mx(), rules)
    assert league_of("it.2").level_ties == (("", BETTER_PLACED),)


def test_a_level_tie_between_clubs_level_on_points_is_refused() -> None:
    rows = [_leg(1, 1, 10, 20, (1, 1), round_name="Matchday 1", phase="regular"),
            _leg(2, 10, 10, 20, (1, 0), round_name="Playoff, Semifinals"),
            _leg(3, 13, 20, 10, (1, 0), round_name="Playoff, Semifinals")]
    with pytest.raises(UserError, match="level on points"):
        with_ties(rows, {1: league_of("it.2").level_ties})
