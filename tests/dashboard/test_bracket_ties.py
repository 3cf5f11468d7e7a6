"""A cup's knock-out games as ties (made-up games): a two-legged tie is one box, its second leg
with the aggregate and the club through; a qualifying tie months earlier stays out."""
from __future__ import annotations

from typing import Any

import pandas as pd

from components import bracket


def _game(gid: int, day: str, home: int, vis: int, sh: int, sv: int,
          agg: tuple[int, int] | None = None, through: int | None = None,
          overtime: str | None = None) -> dict[str, Any]:
    winner = home if sh > sv else vis if sv > sh else None
    return {"ID": gid, "GameDay": day, "Home": f"T{home}", "Home_ID": home,
            "Visitor": f"T{vis}", "Visitor_ID": vis, "ScoreHome": sh, "ScoreVis": sv,
            "Winner_ID": winner, "Overtime": overtime,
            "AggregateHome": agg[0] if agg else None, "AggregateVis": agg[1] if agg else None,
            "TieWinner_ID": through}


def test_two_legged_semi_finals_and_a_final_make_a_bracket() -> None:
    games = pd.DataFrame([
        _game(1, "2022-08-02", 1, 9, 2, 0), _game(2, "2022-08-09", 9, 1, 0, 1, (0, 3), 1),
        _game(3, "2023-05-09", 2, 1, 1, 1), _game(4, "2023-05-10", 3, 4, 0, 2),
        _game(5, "2023-05-16", 1, 2, 4, 0, (5, 1), 1),
        _game(6, "2023-05-17", 4, 3, 1, 2, (3, 2), 4),  # lost the leg, won the tie 3-2
        _game(7, "2023-06-10", 1, 4, 1, 0)])
    found = bracket.ties(games)
    assert list(found["ID"]) == [5, 6, 7]  # the August qualifier and the first legs are gone
    semi = found[found["ID"] == 5].iloc[0]
    assert (semi["ScoreHome"], semi["ScoreVis"], semi["Winner_ID"], semi["Legs"]) == (
        5, 1, 1, "1-1, 4-0")
    assert found[found["ID"] == 6].iloc[0]["Winner_ID"] == 4  # the tie's, not the leg's
    final = bracket.tree(found)
    assert final is not None and int(final.row["ID"]) == 7
    assert [int(f.row["ID"]) for f in final.feeders] == [5, 6]
    assert bracket._label(semi) == "> T1 5<br>  T2 1 agg."
