"""A split season on a league of four whose answer is known by hand: after each club's first
three matches the table splits in two groups of two, the upper group ranked above the lower
whatever the points, a halved group's points rounded as the league declares and the half point
the rounding left a tiebreak (``server.models.standings``, ``server.catalog.football.Split``)."""
from __future__ import annotations

import numpy as np

from server.catalog.football import League, Split
from server.catalog.playoffs import PlayoffFormat
from server.models.standings import SeasonGames, table

# the first phase, one round robin in play order: 0 beats everyone (9 points), 1 beats 2 and 3
# (6), 2 and 3 draw (1 each); then the groups: 0-1 draw (upper), 3 beats 2 twice (lower)
FIRST = [(0, 1, 2, 0), (2, 3, 1, 1), (0, 2, 1, 0), (1, 3, 2, 1), (3, 0, 0, 3), (1, 2, 1, 0)]
SECOND = [(0, 1, 0, 0), (3, 2, 1, 0), (2, 3, 0, 2)]


def _table(games: list[tuple[int, int, int, int]], rules: tuple[str, ...], split: Split
           ) -> list[tuple[int, int]]:
    """(rank, points) per club."""
    g = np.array(games, dtype=np.int64).reshape(-1, 4)
    season = SeasonGames(home=g[:, 0], visitor=g[:, 1], score_home=g[:, 2], score_vis=g[:, 3],
                         overtime=np.zeros(len(g), dtype=bool),
                         remaining=np.zeros(4, dtype=np.int64))
    fmt = PlayoffFormat("FC", 2000, 2000, "table", (), tiebreaks=rules)
    rows = table(season, np.zeros(4, dtype=np.int64), np.full(4, -1), fmt, ot_losses=False,
                 ties=True, marks=False, group_rules=[rules], splits=[split])
    return [(r["LeagueRank"], r["Points"]) for r in rows]


def test_the_lower_group_stays_below_with_more_points() -> None:
    """Points whole (Scotland): club 3 ends on 7 in the lower group, 4th place is club 2's
    1, and 1's 7 is second: club 3 is third though level with club 1."""
    split = Split(after=3, sizes=(2, 2))
    assert _table(FIRST + SECOND, ("goal_difference", "goals_for"), split) == [
        (1, 10), (2, 7), (4, 1), (3, 7)]


def test_halved_rounded_down() -> None:
    """Austria: 9 -> 4 (+1 draw = 5), 6 -> 3 (+1 = 4); lower 1 -> 0, 1 -> 0 (+6 and +0)."""
    split = Split(after=3, sizes=(2, 2), halved=(True, True), rounding="down")
    rules = ("split_half_point", "goal_difference", "goals_for")
    assert _table(FIRST + SECOND, rules, split) == [(1, 5), (2, 4), (4, 0), (3, 6)]


# a first phase with ties to come: 0 on 7 (beat 1 and 2 by one goal, drew with 3), 1 on 6
# (beat 2 5-0 and 3 9-0), 2 on 1 and 3 on 2 (their draw); then each group draws twice
LEVEL = [(0, 1, 1, 0), (2, 3, 0, 0), (0, 2, 1, 0), (1, 3, 9, 0), (3, 0, 0, 0), (1, 2, 5, 0),
         (0, 1, 0, 0), (2, 3, 0, 0), (1, 0, 0, 0), (3, 2, 0, 0)]
GOALS = ("goal_difference", "goals_for")


def test_a_club_rounded_down_ranks_ahead_of_a_club_level_with_it() -> None:
    """Austria: 0's 7 -> 3 (half a point rounded off) and 1's 6 -> 3, two draws: both on 5;
    0 ranks ahead though 1 has the better goal difference (+9 against +2)."""
    split = Split(after=3, sizes=(2, 2), halved=(True, True), rounding="down")
    assert _table(LEVEL, ("split_half_point", *GOALS), split)[:2] == [(1, 5), (2, 5)]
    assert _table(LEVEL, GOALS, split)[:2] == [(2, 5), (1, 5)]  # without the rule


def test_a_club_rounded_up_ranks_behind_a_club_level_with_it() -> None:
    """Belgium: 2's 1 -> 1 (half a point added) and 3's 2 -> 1, two draws: both on 3; 3 ranks
    ahead though 2 has the better goal difference (-6 against -9)."""
    split = Split(after=3, sizes=(2, 2), halved=(True, True), rounding="up")
    assert _table(LEVEL, ("split_half_point", *GOALS), split)[2:] == [(4, 3), (3, 3)]
    assert _table(LEVEL, GOALS, split)[2:] == [(3, 3), (4, 3)]  # without the rule


def test_before_the_split_one_table() -> None:
    """Until every club has played its first phase the points are whole and the table one."""
    split = Split(after=3, sizes=(2, 2), halved=(True, True), rounding="down")
    assert _table(FIRST[:5], GOALS, split) == [(1, 9), (2, 3), (3, 1), (4, 1)]


def _marks(games: list[tuple[int, int, int, int]], league: League) -> list[tuple[int, str | None]]:
    """(Remaining, Clinched) per club, the files listing no match still to play."""
    g = np.array(games, dtype=np.int64).reshape(-1, 4)
    season = SeasonGames(home=g[:, 0], visitor=g[:, 1], score_home=g[:, 2], score_vis=g[:, 3],
                         overtime=np.zeros(len(g), dtype=bool),
                         remaining=np.zeros(4, dtype=np.int64))
    fmt = PlayoffFormat("FC", 2000, 2000, "table", (), tiebreaks=GOALS, points=(3, 1, 0))
    rows = table(season, np.zeros(4, dtype=np.int64), np.full(4, -1), fmt, ot_losses=False,
                 ties=True, group_rules=[league.tiebreaks], splits=[league.split],
                 schedules=[league])
    return [(r["Remaining"], r["Clinched"]) for r in rows]


def test_the_schedule_not_the_files_says_what_is_left() -> None:
    """A double round robin of four (six matches each) whose files list only the first three
    rounds: club 0, on 9 points against 6, has three matches left and no title yet."""
    league = League("xx.1", "Test league", "Nowhere")
    assert _marks(FIRST, league) == [(3, None)] * 4


def test_a_halving_to_come_keeps_the_title_open() -> None:
    """Split after three matches into two groups of two, halved, two group matches each. After
    two rounds every club has three matches left (one of the first phase, two in its group);
    after three, the groups drawn, two: 0's 9 points halved to 4 and 1's 6 to 3, which two
    wins would take to 9. No title either way."""
    league = League("xx.1", "Test league", "Nowhere",
                    split=Split(after=3, sizes=(2, 2), halved=(True, True)))
    assert [r for r, _ in _marks(FIRST[:4], league)] == [3, 3, 3, 3]
    assert _marks(FIRST, league) == [(2, None)] * 4


# three meetings of each pair before the split (nine matches a club), the last of 2 v 3 still
# to play: 0 won all nine (27 points), 1 won its six against 2 and 3 (18), 2 and 3 drew twice
TRIPLE = [(0, 1, 1, 0), (1, 0, 0, 1), (0, 1, 1, 0), (0, 2, 1, 0), (2, 0, 0, 1), (0, 2, 1, 0),
          (0, 3, 1, 0), (3, 0, 0, 1), (0, 3, 1, 0), (1, 2, 1, 0), (2, 1, 0, 1), (1, 2, 1, 0),
          (1, 3, 1, 0), (3, 1, 0, 1), (1, 3, 1, 0), (2, 3, 0, 0), (3, 2, 0, 0)]


def test_a_lead_the_halving_will_cut_is_no_title() -> None:
    """27 points against 18 with two group matches each to come: whole, 1 could reach 24 and
    never 27; halved, 0 starts the groups on 13 and 1 on 9, and two wins take 1 to 15. Club 0
    has won nothing yet."""
    league = League("xx.1", "Test league", "Nowhere",
                    split=Split(after=9, sizes=(2, 2), halved=(True, True)))
    assert _marks(TRIPLE, league) == [(2, None), (2, None), (3, None), (3, None)]
