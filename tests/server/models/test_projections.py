"""Season projections against odds that are exact: tiny seasons with a fixed schedule."""
from __future__ import annotations

import math

import numpy as np
import pytest

from server.catalog.playoffs import PlayoffFormat, format_for
from server.catalog.tables import SPORT_TABLES
from server.models.elo import win_expectation
from server.models.projections import (
    GameRules,
    SeasonState,
    project,
    rounds_of,
    series_win_probability,
)

N = 20_000
TOL = 4 * math.sqrt(0.25 / N)  # four standard errors of a simulated probability
BEST_RECORD = PlayoffFormat("X", 0, None, "top", (), teams=1)  # the title: the best record


def _state(ratings: list[float], wins: list[int], losses: list[int],
           games: list[tuple[int, int]], group: list[int] | None = None,
           division: list[int] | None = None, ties: list[int] | None = None) -> SeasonState:
    t = len(ratings)
    return SeasonState(
        team_ids=np.arange(100, 100 + t), ratings=np.array(ratings, float),
        wins=np.array(wins, float), losses=np.array(losses, float),
        ties=np.array(ties or [0] * t, float),
        group=np.array(group or [0] * t), division=np.array(division or [0] * t),
        home=np.array([h for h, _ in games], dtype=np.int64),
        visitor=np.array([v for _, v in games], dtype=np.int64),
        neutral=np.zeros(len(games), dtype=bool))


def test_one_game_left_between_equal_teams_is_a_coin_flip() -> None:
    state = _state([1500, 1500], [3, 3], [3, 3], [(0, 1)])
    p = project(state, GameRules(home_adv=0, k=20), BEST_RECORD, n_sims=N)
    assert p.title[0] == pytest.approx(0.5, abs=TOL)
    assert p.title.sum() == pytest.approx(1.0)
    assert p.proj_wins[0] == pytest.approx(3.5, abs=TOL)
    assert p.proj_wins.sum() == pytest.approx(7.0)  # one game: exactly one more win in all
    assert p.wins_p10[0] == 3 and p.wins_p90[0] == 4


def test_a_one_game_lead_with_one_game_left() -> None:
    """A leads 4-3 and plays B once more: B wins -> 4-4, tie broken by lot. With A 200 points
    better and no home edge, A's title odds are p + (1 - p) / 2, p = 1 / (1 + 10^-0.5)."""
    state = _state([1600, 1400], [4, 3], [3, 4], [(1, 0)])
    p_game = float(win_expectation(200.0))
    p = project(state, GameRules(home_adv=0, k=20), BEST_RECORD, n_sims=N)
    assert p.title[0] == pytest.approx(p_game + (1 - p_game) / 2, abs=TOL)
    assert p.proj_wins[0] == pytest.approx(4 + p_game, abs=TOL)


def test_home_advantage_moves_the_odds_by_the_elo_curve() -> None:
    state = _state([1500, 1500], [0, 0], [0, 0], [(0, 1)])
    p = project(state, GameRules(home_adv=100, k=0), BEST_RECORD, n_sims=N)
    assert p.proj_wins[0] == pytest.approx(float(win_expectation(100.0)), abs=TOL)


def test_ratings_move_inside_a_simulated_season() -> None:
    """A and B meet twice; C is 1-1 with no game left; the best record (win fraction) takes the title (a
    tie by lot). A wins it with a 2-0 sweep, or a third of the time at 1-1 (a three-way tie).
    With K = 0 the games are independent: 1/4 + 1/2 / 3. With K = 200 the first game's winner
    gains 100 points and its loser drops 100, so the second game is a 200-point mismatch:
    P(2-0) = 1/2 x E(200), P(1-1) = 1 - 2 P(2-0)."""
    state = _state([1500, 1500, 1500], [0, 0, 1], [0, 0, 1], [(0, 1), (1, 0)])
    still = project(state, GameRules(home_adv=0, k=0), BEST_RECORD, n_sims=N)
    assert still.title[0] == pytest.approx(0.25 + 0.5 / 3, abs=TOL)
    moving = project(state, GameRules(home_adv=0, k=200), BEST_RECORD, n_sims=N)
    sweep = 0.5 * float(win_expectation(200.0))
    assert moving.title[0] == pytest.approx(sweep + (1 - 2 * sweep) / 3, abs=TOL)


def test_draws_and_table_points() -> None:
    """Soccer: one game between equal sides, no home edge, draw share d: P(draw) = d."""
    table = format_for("FC", 2024, simulated=False)
    assert table is not None and table.kind == "table"
    state = _state([1500, 1500], [0, 0], [0, 0], [(0, 1)])
    p = project(state, GameRules(home_adv=0, k=20, draw_share=0.3), table, n_sims=N,
                points=SPORT_TABLES["soccer"].points)
    assert p.proj_ties[0] == pytest.approx(0.3, abs=TOL)
    assert p.proj_points[0] == pytest.approx(3 * 0.35 + 0.3, abs=3 * TOL)
    assert p.playoff is None and p.bye is None


def test_overtime_losses_are_counted_apart() -> None:
    state = _state([1500, 1500], [0, 0], [0, 0], [(0, 1)])
    p = project(state, GameRules(home_adv=0, k=6, ot_share=0.25), BEST_RECORD, n_sims=N,
                points=SPORT_TABLES["hockey"].points)
    assert p.proj_ties.sum() == pytest.approx(0.25, abs=TOL)
    assert p.proj_losses.sum() == pytest.approx(0.75, abs=TOL)
    assert p.proj_wins.sum() == pytest.approx(1.0)
    assert p.proj_points is not None  # NHL's 2 a win, 1 an overtime loss, between the two
    assert p.proj_points.sum() == pytest.approx(2.0 + 0.25, abs=TOL)
    assert project(state, GameRules(home_adv=0, k=6), BEST_RECORD, n_sims=N).proj_points is None


@pytest.mark.parametrize("p,best_of,expected", [
    (0.5, 7, 0.5), (0.6, 7, 0.710208), (0.6, 5, 0.68256), (0.6, 3, 0.648), (0.7, 1, 0.7),
])
def test_series_win_probability_is_the_binomial_tail(p: float, best_of: int,
                                                     expected: float) -> None:
    assert float(series_win_probability(np.full((1, best_of), p))[0]) == pytest.approx(
        expected, abs=1e-6)


def test_a_series_between_equal_teams_decides_the_title_evenly() -> None:
    """Two teams, season over, a best-of-7 final with no home edge: 50%."""
    final = PlayoffFormat("X", 0, None, "top", (("Final", 7),), teams=2)
    state = _state([1500, 1500], [5, 4], [4, 5], [])
    p = project(state, GameRules(home_adv=0, k=20), final, n_sims=N)
    assert p.title[0] == pytest.approx(0.5, abs=TOL)
    assert p.playoff is not None and list(p.playoff) == [1.0, 1.0]


def test_rounds_keep_each_teams_order_and_split_doubleheaders() -> None:
    home = np.array([0, 2, 0, 1])
    vis = np.array([1, 3, 1, 2])
    assert list(rounds_of(home, vis)) == [0, 0, 1, 2]


def test_mlb_2022_format_seeds_six_per_league_with_two_byes() -> None:
    """Two leagues of three divisions of five: every simulation sends 12 teams, 4 with byes;
    probabilities sum to 12, 4 and 1."""
    fmt = format_for("MLB", 2022, simulated=False)
    assert fmt is not None and fmt.wild_cards == 3 and fmt.byes == 2
    t = 30
    rng = np.random.default_rng(1)
    games = [(int(a), int(b)) for a, b in rng.integers(0, t, (400, 2)) if a != b]
    state = _state(list(1500 + rng.normal(0, 50, t)), [0] * t, [0] * t, games,
                   group=[i // 15 for i in range(t)], division=[i // 5 for i in range(t)])
    p = project(state, GameRules(home_adv=20, k=4), fmt, n_sims=2000)
    assert p.playoff is not None and p.bye is not None
    assert p.playoff.sum() == pytest.approx(12.0)
    assert p.bye.sum() == pytest.approx(4.0)
    assert p.title.sum() == pytest.approx(1.0)


def test_nba_and_nhl_formats_fill_their_brackets() -> None:
    t = 30
    rng = np.random.default_rng(2)
    games = [(int(a), int(b)) for a, b in rng.integers(0, t, (300, 2)) if a != b]
    state = _state(list(1500 + rng.normal(0, 80, t)), [0] * t, [0] * t, games,
                   group=[i // 15 for i in range(t)], division=[i // 5 for i in range(t)])
    nba = format_for("NBA", 2023, simulated=False)
    p = project(state, GameRules(home_adv=80, k=20), nba, n_sims=2000)
    assert p.playoff is not None and p.playoff.sum() == pytest.approx(16.0)
    assert p.bye is not None and p.bye.sum() == pytest.approx(12.0)  # 6 direct per conference
    t = 32
    games = [(int(a), int(b)) for a, b in rng.integers(0, t, (300, 2)) if a != b]
    state = _state(list(1500 + rng.normal(0, 50, t)), [0] * t, [0] * t, games,
                   group=[i // 16 for i in range(t)], division=[i // 8 for i in range(t)])
    nhl = format_for("NHL", 2023, simulated=False)
    p = project(state, GameRules(home_adv=50, k=6, ot_share=0.23), nhl, n_sims=2000)
    assert p.playoff is not None and p.playoff.sum() == pytest.approx(16.0)
    assert p.bye is None
    assert p.title.sum() == pytest.approx(1.0)


def test_simulated_levels_read_their_simulators_plan() -> None:
    from server.catalog.simulated import PLANS

    fmt = format_for("KHL", 2025, simulated=True)
    assert fmt is not None and fmt.kind == "top"
    assert fmt.teams == PLANS["KHL"].playoff_teams and fmt.rounds == PLANS["KHL"].playoff_rounds


HEAD_TO_HEAD = PlayoffFormat("X", 0, None, "top", (), teams=1, tiebreaks=("head_to_head",))


def _with_series(state: SeasonState, a_over_b: int, b_over_a: int) -> SeasonState:
    """``state`` with the played season series of teams 0 and 1."""
    import dataclasses

    wins = np.zeros((len(state.team_ids),) * 2)
    wins[0, 1], wins[1, 0] = a_over_b, b_over_a
    return dataclasses.replace(state, h2h_wins=wins, h2h_games=wins + wins.T)


def test_a_decided_tie_is_no_coin_flip() -> None:
    """Both 5-5, every game played, A took the season series 3-1: by lot it was 50/50; with
    the head-to-head declared A takes it every time."""
    state = _with_series(_state([1500, 1500], [5, 5], [5, 5], []), 3, 1)
    by_lot = project(state, GameRules(home_adv=0, k=20), BEST_RECORD, n_sims=N)
    assert by_lot.title[0] == pytest.approx(0.5, abs=TOL)
    decided = project(state, GameRules(home_adv=0, k=20), HEAD_TO_HEAD, n_sims=N)
    assert decided.title.tolist() == [1.0, 0.0]


def test_the_last_game_counts_in_the_head_to_head() -> None:
    """A leads 4-3, the series is 1-1 and B hosts A once more: a B win ties the records and
    gives B the series 2-1, so A takes it only by winning: p, not p + (1 - p) / 2."""
    state = _with_series(_state([1600, 1400], [4, 3], [3, 4], [(1, 0)]), 1, 1)
    p_game = float(win_expectation(200.0))
    p = project(state, GameRules(home_adv=0, k=20), HEAD_TO_HEAD, n_sims=N)
    assert p.title[0] == pytest.approx(p_game, abs=TOL)
