"""Football's three outcomes from the Elo difference, the scores that grade them, the draw
model's fit, and a club's first rating by division (server.models.football)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from server.models import football as fb
from server.models.elo import SPORT_ELO, run_elo


def test_three_chances_sum_to_one_and_follow_the_difference() -> None:
    diff = np.array([-400.0, -100.0, 0.0, 100.0, 400.0])
    p = fb.three_way(diff)
    assert p.sum(axis=1) == pytest.approx(np.ones(5))
    assert np.all(np.diff(p[:, fb.HOME]) > 0) and np.all(np.diff(p[:, fb.AWAY]) < 0)
    # two equal sides: a draw as often as 1 - 2 s(-c), the rest split evenly
    even = p[2]
    assert even[fb.HOME] == pytest.approx(even[fb.AWAY])
    assert even[fb.DRAW] == pytest.approx(1 - 2 / (1 + np.exp(fb.SOCCER_DRAW.threshold)))
    assert 0.24 < even[fb.DRAW] < 0.32, "football's draw rate between equal sides"
    assert p[2, fb.DRAW] > p[4, fb.DRAW], "a mismatch is drawn less often"


def test_ranked_probability_score_log_loss_and_brier_by_hand() -> None:
    y = np.array([fb.HOME, fb.DRAW, fb.AWAY])
    sure = np.eye(3)
    assert fb.ranked_probability_score(sure, y) == 0.0 and fb.brier3(sure, y) == 0.0
    third = np.full((1, 3), 1 / 3)
    # home win against (1/3, 1/3, 1/3): cumulative gaps 2/3 and 1/3 -> (4/9 + 1/9) / 2
    assert fb.ranked_probability_score(third, np.array([fb.HOME])) == pytest.approx(5 / 18)
    # a draw: gaps 1/3 and 1/3 -> 1/9; the score ranks the draw nearer either win
    assert fb.ranked_probability_score(third, np.array([fb.DRAW])) == pytest.approx(1 / 9)
    assert fb.log_loss3(np.repeat(third, 3, axis=0), y) == pytest.approx(np.log(3))
    assert fb.brier3(third, np.array([fb.AWAY])) == pytest.approx(4 / 9 + 1 / 9 + 1 / 9)
    wrong_way = np.array([[0.6, 0.3, 0.1]])
    assert fb.ranked_probability_score(wrong_way, np.array([fb.AWAY])) > \
        fb.ranked_probability_score(wrong_way, np.array([fb.DRAW])), "farther miss, worse score"


def test_the_fit_recovers_the_constants_outcomes_were_drawn_from() -> None:
    rng = np.random.default_rng(7)
    diff = rng.normal(60.0, 180.0, 40000)
    truth = fb.DrawModel(slope=1.1, threshold=0.55)
    p = fb.three_way(diff, truth)
    y = (rng.random(len(diff))[:, None] > np.cumsum(p, axis=1)).sum(axis=1)
    fitted = fb.fit_draw_model(diff, y)
    assert fitted.slope == pytest.approx(1.1, abs=0.04)
    assert fitted.threshold == pytest.approx(0.55, abs=0.02)


def test_a_second_division_club_starts_below_a_top_flight_club() -> None:
    params = SPORT_ELO["soccer"]
    games = pd.DataFrame({
        "game_id": [1, 2, 3], "season": [2022, 2022, 2023],
        "date": pd.to_datetime(["2021-08-01", "2021-08-01", "2022-08-01"]),
        "home": [10, 30, 10], "visitor": [20, 40, 30], "score_home": [1.0, 2.0, np.nan],
        "score_vis": [0.0, 2.0, np.nan], "neutral": False, "playoff": False,
        "sublevel_id": [100, 200, 100]})
    first = fb.first_ratings(games, {100: 1, 200: 2}, params)
    assert first == {10: params.mean, 20: params.mean, 30: params.mean - params.tier_gap,
                     40: params.mean - params.tier_gap}
    elo = run_elo(games, params, initial=first).set_index("game_id")
    # promoted club 30 meets club 10 with a gap of a division less its first season's draw
    assert elo.loc[3, "helo_before"] - elo.loc[3, "velo_before"] > params.tier_gap * 0.9
    chances = fb.forecast_columns(elo.reset_index()).set_index("game_id")
    assert chances.loc[3, "elo_home_prob"] > 0.7


def test_national_teams_are_rated_by_the_world_football_elo_rules_apart_from_clubs() -> None:
    """eloratings.net by hand: a World Cup match at a neutral venue won 1-0 by one of two
    equal sides moves K 60 x 1 x (1 - 0.5) = 30 points; a friendly won 3-0 at home moves
    20 x 1.75 x (1 - We) with We the home side's 100-point advantage, 1/(1 + 10^(-0.25)); a
    shoot-out is a draw. The club match beside them keeps the clubs' own rules."""
    games = pd.DataFrame({
        "game_id": [1, 2, 3, 4], "season": [2022, 2022, 2023, 2023],
        "date": pd.to_datetime(["2022-12-18", "2022-12-19", "2023-03-01", "2023-03-02"]),
        "home": [10, 20, 12, 14], "visitor": [11, 21, 13, 15],
        "score_home": [1.0, 2.0, 3.0, 1.0], "score_vis": [0.0, 1.0, 0.0, 1.0],
        "neutral": [True, False, False, True], "playoff": [True, False, False, True],
        "sublevel_id": [7, 1, 8, 7]})
    elo = fb.rate_soccer(games, SPORT_ELO["soccer"], {1: 1}, {7: 60.0, 8: 20.0}).set_index(
        "game_id")
    assert elo.loc[1, "helo_change"] == pytest.approx(30.0)
    we = 1 / (1 + 10 ** (-100 / 400))
    assert elo.loc[3, "helo_win_exp"] == pytest.approx(we)
    assert elo.loc[3, "helo_change"] == pytest.approx(20 * 1.75 * (1 - we))
    assert elo.loc[4, "helo_change"] == pytest.approx(0.0)  # equal sides, drawn
    clubs = run_elo(games[games["sublevel_id"] == 1], SPORT_ELO["soccer"])
    assert elo.loc[2, "helo_change"] == pytest.approx(clubs["helo_change"].iloc[0])


def test_a_club_new_to_the_data_moves_faster_than_one_with_a_record() -> None:
    """The first-season boost: the same result moves two clubs meeting for the first time more
    than two clubs a season in, and the boost does not come back the next season."""
    params = SPORT_ELO["soccer"]
    assert params.first_boost > 0
    n = 40  # clubs 1 and 2 play each other n times in 2022, then again in 2023
    games = pd.DataFrame({
        "game_id": range(1, 2 * n + 1), "season": [2022] * n + [2023] * n,
        "date": pd.date_range("2021-08-01", periods=2 * n, freq="7D"),
        "home": [1, 2] * n, "visitor": [2, 1] * n, "score_home": 1.0, "score_vis": 1.0,
        "neutral": False, "playoff": False})
    elo = run_elo(games, params).set_index("game_id")
    first, settled, next_season = elo.loc[1, "elo_k"], elo.loc[n, "elo_k"], elo.loc[n + 1, "elo_k"]
    assert first == pytest.approx(params.k * (1 + params.early_boost) * (1 + params.first_boost))
    assert first > next_season > settled, "the season's early boost returns, the first one not"
    fading = 1 + params.first_boost * np.exp(-n / params.first_games)  # n games here before
    assert next_season == pytest.approx(params.k * (1 + params.early_boost) * fading)
