from __future__ import annotations

import math

import pandas as pd
import pytest

from server.models import lines


@pytest.mark.parametrize(("ml", "p"), [(-150, 0.6), (135, 100 / 235), (100, 0.5), (-100, 0.5)])
def test_implied_probability(ml: int, p: float) -> None:
    assert lines.implied_probability(ml) == pytest.approx(p)


def test_movement() -> None:
    assert lines.movement(-110, -130) == lines.TOWARD_HOME
    assert lines.movement(-110, 105) == lines.TOWARD_VISITOR
    assert lines.movement(-110, -110) == lines.NO_MOVE
    assert math.isnan(lines.implied_probability(None))


def test_line_fields_one_game() -> None:
    odds = pd.DataFrame([
        {"game_id": 9, "taken": "open", "vis_ml": 120, "home_ml": -140, "spread": -1.5, "total": 8.5},
        {"game_id": 9, "taken": "close", "vis_ml": 130, "home_ml": -150, "spread": -1.5, "total": 9.0},
        {"game_id": 10, "taken": "close", "vis_ml": -120, "home_ml": 110, "spread": 2.5, "total": 7.0},
    ])
    games = pd.DataFrame({"game_id": [9, 10], "home": [1, 3], "visitor": [2, 4],
                          "score_home": [5.0, float("nan")], "score_vis": [4.0, float("nan")]})
    r = lines.line_fields(odds, games).set_index("game_id")
    g9 = r.loc[9]
    assert g9.over_under == 9.0 and g9.over_under_result == "Push"
    assert (g9.vis_ml, g9.home_ml, g9.ml_drift) == (130, -150, -10)
    assert g9.ml_movement == lines.TOWARD_HOME
    assert g9.ml_correct is True or g9.ml_correct == True  # a numpy bool is == True, not True
    assert g9.favourite == 1 and not g9.spread_correct  # won by 1, did not cover -1.5
    g10 = r.loc[10]
    assert pd.isna(g10.over_under_result) and pd.isna(g10.ml_correct) and pd.isna(g10.spread_correct)
    assert g10.favourite == 4 and g10.ml_movement == lines.NO_MOVE
