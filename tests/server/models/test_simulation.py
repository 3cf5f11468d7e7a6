from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from server.models import simulation

NAN = float("nan")


def test_priors_before_any_game_and_no_look_ahead() -> None:
    p = simulation.SPORT_SIM["baseball"]
    g = pd.DataFrame({"game_id": [1, 2, 3], "date": ["d1", "d1", "d2"], "home": [1, 3, 1],
                      "visitor": [2, 4, 2], "score_home": [10.0, 0.0, NAN],
                      "score_vis": [0.0, 0.0, NAN]})
    e = simulation.expected_scores(g, p)
    # same-date games see no result of that date: both start from the prior mean
    assert list(e["exp_home"][:2]) == pytest.approx([4.5, 4.5])
    assert e["exp_home"][2] > 4.5 > e["exp_vis"][2]


def test_simulated_probability_is_symmetric_and_bounded() -> None:
    for name, p in simulation.SPORT_SIM.items():
        prob = simulation.simulate(np.array([3.0, 5.0]), np.array([3.0, 1.0]), p)
        assert 0.0 <= prob.min() <= prob.max() <= 1.0
        if not p.draws:
            assert prob[0] == pytest.approx(0.5, abs=0.05), name
        assert prob[1] < 0.5


def test_predictions_block() -> None:
    p = simulation.SPORT_SIM["hockey"]
    g = pd.DataFrame({"game_id": [1, 2], "date": ["d1", "d2"], "home": [1, 1], "visitor": [2, 2],
                      "score_home": [6.0, 2.0], "score_vis": [1.0, 3.0]})
    r = simulation.predictions(g, p).set_index("game_id")
    assert r.loc[2, "prediction_favourite"] == 1  # home scored 6-1 before
    v, h = map(int, r.loc[2, "prediction"].split("-"))
    assert h > v and not r.loc[2, "prediction_correct"]
    assert 0.5 < r.loc[2, "home_win_prob"] < 1.0
