"""The two-legged tie rule of the cup ingest on rows built here: the aggregate and the club
through on the second leg, and a level aggregate without a shoot-out refused, never guessed."""
from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from server.errors import UserError
from server.ingest.football.openfootball import with_ties


def _leg(gid: int, day: int, home: int, vis: int, score: tuple[int, int],
         pens: tuple[int, int] | None = None) -> dict[str, Any]:
    info: dict[str, Any] = {"ft": list(score)} | ({"pens": list(pens)} if pens else {})
    return {"id": gid, "sublevel_id": 1, "season": 2023, "playoff": "Round of 16",
            "phase": "postseason", "state": "final", "game_day": dt.date(2023, 2, day),
            "home_id": home, "visitor_id": vis, "score_home": score[0], "score_vis": score[1],
            "info": info}


def test_the_second_leg_carries_the_aggregate() -> None:
    first, second = with_ties([_leg(1, 1, 10, 20, (1, 1)), _leg(2, 8, 20, 10, (7, 0))], {1})
    assert "agg" not in first["info"]
    assert (second["info"]["agg"], second["info"]["tie_winner_id"]) == ([8, 1], 20)


def test_a_level_tie_goes_to_the_shoot_out_winner() -> None:
    _, second = with_ties([_leg(1, 1, 10, 20, (2, 1)), _leg(2, 8, 20, 10, (2, 1), (4, 5))], {1})
    assert (second["info"]["agg"], second["info"]["tie_winner_id"]) == ([3, 3], 10)


def test_a_level_tie_without_a_shoot_out_is_refused() -> None:
    with pytest.raises(UserError, match="level on aggregate"):
        with_ties([_leg(1, 1, 10, 20, (2, 1)), _leg(2, 8, 20, 10, (2, 1))], {1})


def test_a_competition_without_declared_ties_is_left_alone() -> None:
    """Serie B's and Liga MX's play-offs send the better-placed club through on a level
    aggregate: not declared, so no aggregate rather than a wrong one."""
    rows = with_ties([_leg(1, 1, 10, 20, (2, 1)), _leg(2, 8, 20, 10, (2, 1))], {2})
    assert all("agg" not in r["info"] for r in rows)
