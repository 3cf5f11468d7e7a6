"""Football's table projections on tiny leagues whose answers are known: the Elo's draw chance,
deductions, the declared tiebreakers and places counted from either end of the table."""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from server.catalog.football import Split
from server.catalog.football.places import PLACES, KINDS, places_for
from server.models.football import DRAW, HOME, three_way
from server.models.football_goals import ClubGoals, blended
from server.models.projections import (SHORT_OF_CERTAIN, GameRules, TableLeague, TableState,
                                       project_table)

N = 20_000
TOL = 4 * math.sqrt(0.25 / N)
RULES = GameRules(home_adv=0.0, k=20.0)
GD = ("goal_difference", "goals_for")


def _state(points: list[float], games: list[tuple[int, int]], *, ratings: list[float] | None = None,
           goal_diff: list[float] | None = None, h2h: list[list[float]] | None = None) -> TableState:
    t = len(points)
    zero = np.zeros(t)
    return TableState(
        team_ids=np.arange(t), ratings=np.array(ratings or [1500.0] * t), wins=zero, losses=zero,
        draws=zero, points=np.array(points, float), goal_diff=np.array(goal_diff or [0.0] * t),
        goals_for=zero, group=np.zeros(t, dtype=np.int64),
        home=np.array([h for h, _ in games], dtype=np.int64),
        visitor=np.array([v for _, v in games], dtype=np.int64),
        neutral=np.zeros(len(games), dtype=bool),
        h2h_points=None if h2h is None else np.array(h2h, float),
        h2h_games=None if h2h is None else (np.array(h2h) >= 0).astype(float) - np.eye(t))


def test_a_match_between_equal_clubs_is_drawn_as_often_as_the_elo_says() -> None:
    p = project_table(_state([0, 0], [(0, 1)]), RULES, [TableLeague(GD, {})], n_sims=N)
    draw = float(three_way(np.array([0.0]))[0, DRAW])
    assert p.proj_draws[0] == pytest.approx(draw, abs=TOL)
    # level on points after a draw, the lot decides: each club's title odds are the win plus half
    assert p.title[0] == pytest.approx((1 - draw) / 2 + draw / 2, abs=TOL)


def test_goal_difference_decides_a_level_table_only_where_declared() -> None:
    state = _state([10, 10], [], goal_diff=[5, -5])
    assert project_table(state, RULES, [TableLeague(GD, {})], n_sims=N).title.tolist() == [1, 0]
    by_lot = project_table(state, RULES, [TableLeague((), {})], n_sims=N)
    assert by_lot.title[0] == pytest.approx(0.5, abs=TOL)


def test_head_to_head_first_beats_a_better_goal_difference() -> None:
    """La Liga's rule: the club that took more points from the matches between the two wins."""
    h2h = [[0.0, 1.0], [4.0, 0.0]]  # club 1 took 4 of the 6 points between them
    state = _state([10, 10], [], goal_diff=[5, -5], h2h=h2h)
    first = project_table(state, RULES, [TableLeague(("head_to_head", *GD), {})], n_sims=100)
    assert first.title.tolist() == [0, 1]


def test_a_deduction_is_counted_and_places_count_from_the_bottom() -> None:
    """Four equal clubs, one with 6 points off (``points`` carries deductions) and one match
    each left: the deducted club is last whatever happens, so it is relegated for certain."""
    places = {"relegation": range(4, 5), "champions_league": range(1, 3)}
    p = project_table(_state([3, 3, 3, -3], [(0, 1), (2, 3)]), RULES,
                      [TableLeague(GD, places)], n_sims=N)
    assert p.places["relegation"].tolist() == [0, 0, 0, 1]
    assert p.places["champions_league"].sum() == pytest.approx(2.0)
    assert p.positions.sum(axis=1) == pytest.approx(np.ones(4))
    assert p.title.sum() == pytest.approx(1.0)


def test_a_stronger_club_is_favoured_and_its_rating_is_what_moves_the_odds() -> None:
    games = [(i, j) for i in range(4) for j in range(4) if i != j]
    p = project_table(_state([0, 0, 0, 0], games, ratings=[1700, 1500, 1500, 1300]), RULES,
                      [TableLeague(GD, {})], n_sims=5_000)
    assert p.title[0] > 0.5 > p.title[3]
    assert p.proj_rank[0] < p.proj_rank[1] < p.proj_rank[3]


def test_declared_places_fit_their_leagues() -> None:
    """Every declared place is a known kind, places do not overlap, and a league of 18 holds
    them (the smallest league declared)."""
    for row in PLACES:
        taken: set[int] = set()
        for place in row.places:
            assert place.kind in KINDS, row
            covered = set(place.positions(18))
            assert covered and covered <= set(range(1, 19)) and not covered & taken, row
            taken |= covered
        assert row.source, row
    rel = places_for("en.1", 2024)
    assert rel is not None
    assert [list(p.positions(20)) for p in rel.places if p.kind == "relegation"] == [[18, 19, 20]]
    assert places_for("en.1", 2025) is not None and places_for("sco.1", 2024) is None


def test_a_match_is_played_with_the_forecasts_blended_chances() -> None:
    """With the goal model as of the day, a projected match has the forecast's chances:
    0.3 of the goal model's and 0.7 of the Elo's (``football_goals.blended``, one formula
    for both). Two clubs the Elo rates alike, one the goals rate far better."""
    goals = ClubGoals(attack=np.array([0.5, -0.3]), defence=np.array([0.3, -0.2]),
                      home=np.array([0.25, 0.25]), base=math.log(1.35))
    state = replace(_state([0, 0], [(0, 1)]), goals=goals)
    p = project_table(state, RULES, [TableLeague(GD, {})], n_sims=N)
    home = np.array([0])
    chances = blended(three_way(np.array([0.0])), goals.chances(home, home + 1, np.array([False])))
    assert p.proj_wins[0] == pytest.approx(chances[0, HOME], abs=TOL)
    assert p.proj_draws[0] == pytest.approx(chances[0, DRAW], abs=TOL)
    elo_alone = project_table(_state([0, 0], [(0, 1)]), RULES, [TableLeague(GD, {})], n_sims=N)
    assert p.proj_wins[0] > elo_alone.proj_wins[0] + 0.05


def test_a_split_still_to_come_is_played() -> None:
    """Four clubs, each to meet every other twice (12 matches), then two groups of two, the
    points halved (rounded down), each group playing twice more: every club plays 8 matches,
    and its points are halved at the split."""
    split = Split(after=6, sizes=(2, 2), halved=(True, True))
    games = [(i, j) for i in range(4) for j in range(4) if i != j]
    state = replace(_state([0, 0, 0, 0], games, ratings=[1900, 1500, 1500, 1100]),
                    pending=(split,))
    p = project_table(state, RULES, [TableLeague(GD, {})], n_sims=2_000)
    assert p.proj_wins + p.proj_losses + p.proj_draws == pytest.approx([8, 8, 8, 8])
    assert (p.proj_points < 3 * p.proj_wins + p.proj_draws).all()  # halved


def test_a_club_of_the_lower_group_stays_below() -> None:
    """The first phase played (18, 12, 6 and 0 points from six matches each), the split to
    come: halved to 9, 6, 3 and 0. The third can reach 9 points in its group, more than the
    second's worst, and still finishes third at best: the groups rank one below the other."""
    wins, losses = np.array([6.0, 4, 2, 0]), np.array([0.0, 2, 4, 6])
    state = replace(_state([18, 12, 6, 0], []), wins=wins, losses=losses, pending=(
        Split(after=6, sizes=(2, 2), halved=(True, True)),))
    p = project_table(state, RULES, [TableLeague(GD, {})], n_sims=N)
    assert p.proj_wins + p.proj_losses + p.proj_draws == pytest.approx([8, 8, 8, 8])
    assert p.positions[2:, :2].sum() == 0 and p.positions[:2, 2:].sum() == 0
    assert p.proj_points[0] <= 15 and p.proj_points[2] > 3


def test_a_title_is_certain_only_when_no_rival_can_reach_it() -> None:
    """A club that wins every simulated season while a rival can still pass it (8 points
    behind with four matches left) is at 0.999, never 1, the rest the rival's (the third, 10
    behind with three left, cannot reach it), so the chances still add up to 1; one no rival
    can reach is at 1."""
    games = [(0, 1), (1, 2), (2, 1), (1, 0)]
    open_ = project_table(_state([10, 2, 0], games, ratings=[3000, 0, 0]), RULES,
                          [TableLeague(GD, {})], n_sims=2_000)
    assert open_.title[0] == SHORT_OF_CERTAIN
    assert open_.title[1:] == pytest.approx([1 - SHORT_OF_CERTAIN, 0])
    decided = project_table(_state([20, 2, 0], games, ratings=[3000, 0, 0]), RULES,
                            [TableLeague(GD, {})], n_sims=2_000)
    assert decided.title[0] == 1.0


def test_a_place_is_certain_only_when_no_result_can_change_it() -> None:
    """Two matches each left. The last club (1 point, rated far below everyone) loses every
    simulated match and is relegated in every simulated season, yet it can still reach 7
    points, more than the third's 6 should the third (rated far above) lose both: 0.999 and
    0.001, never 1 and 0, and the league's relegation chances still add up to one club. The
    Champions League places (first two): the leaders are in in every simulated season but the
    third can still pass either (0.999 each), the third is never in but can be (the league's
    two places are still two in all), the last cannot reach them (0). Ten points adrift, the
    last club is relegated for certain: 1."""
    places = {"relegation": range(4, 5), "champions_league": range(1, 3)}
    games = [(0, 3), (1, 3), (2, 0), (2, 1)]
    ratings = [1500.0, 1500.0, 3000.0, 0.0]
    p = project_table(_state([12, 10, 6, 1], games, ratings=ratings), RULES,
                      [TableLeague(GD, places)], n_sims=2_000)
    assert p.places["relegation"] == pytest.approx([0, 0, 1 - SHORT_OF_CERTAIN, SHORT_OF_CERTAIN])
    europe = p.places["champions_league"]
    assert europe[:2].tolist() == [SHORT_OF_CERTAIN, SHORT_OF_CERTAIN]
    assert europe[2] >= 1 - SHORT_OF_CERTAIN and europe[3] == 0
    assert europe.sum() == pytest.approx(2.0)
    decided = project_table(_state([12, 10, 6, -10], games, ratings=ratings), RULES,
                            [TableLeague(GD, places)], n_sims=2_000)
    assert decided.places["relegation"].tolist() == [0, 0, 0, 1]


def test_a_split_that_balances_home_matches_gives_the_meeting_to_the_fewer() -> None:
    """Scotland's split: each group's single meeting is at home for the club that hosted fewer
    of the pair's earlier meetings (the SPFL evens out home matches), not by places alone. Four
    clubs, the first phase played (9, 6, 3 and 0 points: the groups are the first two and the
    last two), a home side worth a sure win: the second hosted the leader in the first phase,
    so the leader hosts now and wins, where by places the second would host; the fourth hosts
    the third either way."""
    split = Split(after=3, sizes=(2, 2), legs=1, home_balance=True)
    hosted = np.zeros((4, 4))
    for a, b in [(1, 0), (2, 3), (0, 2), (3, 0), (1, 2), (1, 3)]:
        hosted[a, b] = 1
    state = replace(_state([9, 6, 3, 0], []), pending=(split,),
                    wins=np.array([3.0, 2, 1, 0]), losses=np.array([0.0, 1, 2, 3]),
                    home_pairs=hosted)
    rules = GameRules(home_adv=2_000.0, k=0.0)
    p = project_table(state, rules, [TableLeague(GD, {})], n_sims=200)
    assert p.proj_wins.tolist() == [4, 2, 1, 1]  # the leader won at home
    by_places = project_table(replace(state, pending=(replace(split, home_balance=False),)),
                              rules, [TableLeague(GD, {})], n_sims=200)
    assert by_places.proj_wins.tolist() == [3, 3, 1, 1]
