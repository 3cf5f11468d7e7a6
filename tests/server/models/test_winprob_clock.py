"""The clock sports' in-game win probability (server.models.winprob_clock) on known states: the
line starts at the pre-game forecast, a big lead late is all but won, the end of regulation
settles a game or sends it on, soccer's draw is an outcome of its own."""
from __future__ import annotations

from statistics import NormalDist

import numpy as np
import pytest

from server.models import winprob_clock as wc

NBA_SIGMA = 13.0  # an NBA game's margin spread, points
NHL_RATE, SOCCER_RATE = 6.0, 2.7  # goals per regulation game, both sides


def test_time_left_counts_down_through_regulation_and_overtime() -> None:
    left = wc.time_left(np.array([1, 2, 4, 4, 5]), np.array([720, 360, 0, 720, 150]), 4, 720,
                        300)
    assert left.tolist() == pytest.approx([1.0, 2.5 / 4, 0.0, 0.25, 150 / 2880])
    minute = wc.time_left(np.array([1, 2, 2]), np.array([0, 45 * 60, 92 * 60]), 2, 2700, 0,
                          counts_up=True)
    # added time: the match is not over until the referee ends it
    assert minute.tolist() == pytest.approx([1.0, 0.5, wc.ADDED_TIME_LEFT / 5400])
    assert wc.clock_seconds(["12:00", "00:07", "38'", "45+2'", None])[:4].tolist() == \
        [720, 7, 38 * 60, 47 * 60]


@pytest.mark.parametrize("prior", [0.25, 0.5, 0.64, 0.8])
def test_the_line_starts_at_the_pregame_forecast(prior: float) -> None:
    p = np.array([prior])
    assert wc.normal_home_win(np.array([0]), np.array([1.0]), p, NBA_SIGMA)[0] == \
        pytest.approx(prior, abs=1e-9)
    share = wc.rate_share("hockey", p, NHL_RATE)
    win, draw, _ = wc.goal_outcomes("hockey", np.array([0]), np.array([1.0]), share, NHL_RATE)
    assert win[0] == pytest.approx(prior, abs=1e-6) and draw[0] == 0.0
    share = wc.rate_share("soccer", p, SOCCER_RATE)
    win, draw, loss = wc.goal_outcomes("soccer", np.array([0]), np.array([1.0]), share,
                                       SOCCER_RATE)
    assert win[0] + 0.5 * draw[0] == pytest.approx(prior, abs=1e-6)  # ELO counts a draw half
    assert 0.15 < draw[0] < 0.35 and win[0] + draw[0] + loss[0] == pytest.approx(1.0)


def test_a_big_lead_late_is_all_but_won() -> None:
    even = np.array([0.5])
    assert wc.normal_home_win(np.array([15]), np.array([2 / 48]), even, NBA_SIGMA)[0] > 0.999
    assert wc.normal_home_win(np.array([-15]), np.array([2 / 48]), np.array([0.8]),
                              NBA_SIGMA)[0] < 0.001
    share = wc.rate_share("hockey", even, NHL_RATE)
    assert wc.goal_outcomes("hockey", np.array([3]), np.array([5 / 60]), share,
                            NHL_RATE)[0][0] > 0.995
    share = wc.rate_share("soccer", even, SOCCER_RATE)
    win, _, loss = wc.goal_outcomes("soccer", np.array([2]), np.array([5 / 90]), share,
                                    SOCCER_RATE)
    assert win[0] > 0.99 and loss[0] < 1e-3


def test_the_end_of_regulation_settles_the_game_or_sends_it_on() -> None:
    p = np.array([0.7, 0.7, 0.7])
    done = wc.normal_home_win(np.array([1, -1, 0]), np.zeros(3), p, NBA_SIGMA)
    assert done[0] == 1.0 and done[1] == 0.0 and 0.5 < done[2] < 0.7  # an overtime to play
    share = wc.rate_share("hockey", p, NHL_RATE)
    win, _, _ = wc.goal_outcomes("hockey", np.array([1, -1, 0]), np.zeros(3), share, NHL_RATE)
    assert win[0] == 1.0 and win[1] == 0.0 and win[2] == pytest.approx(share[2])
    ot, _, _ = wc.goal_outcomes("hockey", np.array([1, 0, 0]), np.array([0.05, 0.05, 0.0]),
                                share, NHL_RATE, overtime=np.array([True, True, True]))
    assert ot[0] == 1.0 and ot[1] == pytest.approx(share[1])  # sudden death: a goal has won
    share = wc.rate_share("soccer", p, SOCCER_RATE)
    win, draw, loss = wc.goal_outcomes("soccer", np.array([0, 1]), np.zeros(2), share[:2],
                                       SOCCER_RATE)
    assert (win.tolist(), draw.tolist(), loss.tolist()) == ([0.0, 1.0], [1.0, 0.0], [0.0, 0.0])


def test_chances_move_the_right_way() -> None:
    leads = np.arange(-6, 7)
    half = np.full(len(leads), 0.5)
    nba = wc.normal_home_win(leads, half, np.full(len(leads), 0.5), NBA_SIGMA)
    assert (np.diff(nba) > 0).all()
    share = wc.rate_share("soccer", np.full(5, 0.5), SOCCER_RATE)
    _, draw, _ = wc.goal_outcomes("soccer", np.zeros(5, dtype=int),
                                    np.array([1.0, 0.75, 0.5, 0.25, 0.05]), share, SOCCER_RATE)
    assert (np.diff(draw) > 0).all()  # a level game grows likelier to stay level
    # a lead is worth more the less time is left
    late = wc.normal_home_win(np.array([5, 5]), np.array([0.5, 0.1]), np.array([0.5, 0.5]),
                              NBA_SIGMA)
    assert late[1] > late[0]


def test_the_spread_is_learnt_from_final_margins() -> None:
    rng = np.random.default_rng(3)
    prior = rng.uniform(0.3, 0.8, 20_000)
    sigma = 12.0
    z = np.array([NormalDist().inv_cdf(p) for p in prior])  # the drift each prior implies
    margin = sigma * z + rng.normal(0, sigma, len(prior))
    assert wc.fit_margin_spread(margin, prior) == pytest.approx(sigma, rel=0.03)
    assert wc.fit_goal_rate(np.array([5, 6, 7])) == 6.0


def test_the_ball_is_read_from_the_plays_that_follow() -> None:
    """After a basket the other side has the ball; after a miss that a rebound follows nobody
    does until the rebounder's side takes it; a period's last play leaves it with nobody."""
    event = np.array(["shot", "shot", "rebound", "turnover", "foul", "free_throw", "free_throw",
                      "shot", "shot"], dtype=object)
    side = np.array([1, -1, -1, -1, -1, 1, 1, -1, 1], dtype=float)  # +1 the home side's play
    points = np.array([2, 0, 0, 0, 0, 1, 1, 3, 0])
    period = np.array([1, 1, 1, 1, 1, 1, 1, 1, 2])
    ball = wc.possession(np.zeros(9), period, event, side, points)
    assert ball.tolist() == [-1, 0, -1, 1, 1, 1, -1, 0, 0]


def test_the_ball_moves_a_close_game_late() -> None:
    """A point down with seconds left: with the ball a real chance, without it nearly none; the
    value learnt is the lead the ball adds beyond the drift."""
    p = np.array([0.5, 0.5])
    late = np.full(2, 10 / 2880)
    chance = wc.normal_home_win(np.array([-1, -1]), late, p, NBA_SIGMA,
                                ball=np.array([1.0, -1.0]), ball_value=1.0)
    assert chance[0] == pytest.approx(0.5, abs=0.01) and chance[1] < 0.1
    rest = np.array([3.0, -1.0, 2.0, 0.0])  # what the rest of each game added to its lead
    value = wc.fit_possession_value(rest, np.zeros(4), np.full(4, 0.5), np.full(4, 0.5),
                                    np.array([1, -1, 1, 0]), NBA_SIGMA)
    assert value == pytest.approx((3 + 1 + 2) / 3)


def test_a_power_play_is_read_from_the_penalties_and_moves_the_chance() -> None:
    """A visitor's minor puts the home side on the power play for two minutes (a second minor
    of the other side evens it); the power-play side's chance rises when it scores more."""
    event = np.array(["penalty", "shot", "penalty", "goal", "shot"], dtype=object)
    elapsed = np.array([100.0, 130.0, 160.0, 170.0, 400.0])
    side = np.array([-1.0, 1.0, 1.0, 1.0, -1.0])
    pp, state = wc.power_play(np.zeros(5), elapsed, event, side)
    assert pp.tolist() == pytest.approx([120, 90, 60 - 120, 50 - 110, 0])
    assert state.tolist() == [0, 1, 1, -1, 0]  # the goal came short-handed
    share = wc.rate_share("hockey", np.array([0.5]), NHL_RATE)
    even = wc.goal_outcomes("hockey", np.array([0]), np.array([0.5]), share, NHL_RATE)[0][0]
    power = (np.array([120 / 3600]), 2.5, 0.5)
    ahead = wc.goal_outcomes("hockey", np.array([0]), np.array([0.5]), share, NHL_RATE,
                             power=power)[0][0]
    assert ahead > even + 0.01
    assert wc.fit_power_play(np.array([1, 1, -1, 0, 0, 0, 0]), 2, 3600.0, 1) == pytest.approx(
        (2 / 240 / (4 / (2 * 3360)), 1 / 240 / (4 / (2 * 3360))))
