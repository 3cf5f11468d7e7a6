"""A league's declared places marked on its table only when certain (``server.models.standings``,
``server.catalog.football.places``), on small leagues whose answer is known by hand: a club
that can still be caught on points, or whose tie could still be reopened by a third club, is
not marked; once it cannot, it is."""
from __future__ import annotations

import numpy as np

from server.catalog.football.places import (CHAMPIONS_LEAGUE, EUROPA_LEAGUE, PROMOTION,
                                            PROMOTION_PLAYOFF, RELEGATION, RELEGATION_PLAYOFF,
                                            LeaguePlaces, Place)
from server.catalog.playoffs import PlayoffFormat
from server.models.standings import SeasonGames, table

HEAD_TO_HEAD = ("head_to_head", "goal_difference", "goals_for")


def _marks(points: list[tuple[int, int, int]], left: list[int], places: tuple[Place, ...],
           rules: tuple[str, ...] = HEAD_TO_HEAD, tie_playoff: list[int] | None = None,
           ) -> list[str | None]:
    """Clinched per club, from each club's (wins, draws, losses) so far and its matches
    left, in a league declaring ``places`` and ranking level clubs by ``rules`` (the winner of
    a play-off for a tie, ``tie_playoff``, where known)."""
    t = len(points)
    none = np.zeros(0, dtype=np.int64)
    season = SeasonGames(none, none, none, none, np.zeros(0, dtype=bool),
                         np.array(left, dtype=np.int64),
                         carried=np.array([(w, lo, d) for w, d, lo in points], dtype=np.int64),
                         tie_playoff=None if tie_playoff is None
                         else np.array(tie_playoff, dtype=np.int64))
    fmt = PlayoffFormat("FC", 2000, 2000, "table", (), tiebreaks=rules, points=(3, 1, 0))
    rows = table(season, np.zeros(t, dtype=np.int64), np.full(t, -1), fmt, ot_losses=False,
                 ties=True, group_rules=[rules],
                 places=[LeaguePlaces("xx.1", 2000, None, places, "test")])
    return [r["Clinched"] for r in rows]


TOP_TWO = (Place(CHAMPIONS_LEAGUE, 1, 2), Place(EUROPA_LEAGUE, 3, 3), Place(RELEGATION, -1, -1))


def test_a_club_that_can_be_caught_on_points_is_not_marked() -> None:
    """Four clubs, the top two to the Champions League. Club 1 has finished on 9 points, club 2
    has 6 and one match left: a win brings it level, and a tie may go either way, so club 1
    is not sure of the top two. With club 2 finished on 6, it is."""
    clubs = [(4, 0, 0), (3, 0, 1), (2, 0, 2), (0, 1, 3)]  # 12, 9, 6, 1 points
    assert _marks(clubs, [0, 0, 1, 0], TOP_TWO)[:3] == ["Title", None, None]
    assert _marks(clubs, [0, 0, 0, 0], TOP_TWO) == ["Title", "Champions League", None, "Relegated"]


def test_europa_league_places_are_never_marked() -> None:
    """Club 2 sure of third, the Europa League's place: a cup winner could take it, unmarked."""
    clubs = [(4, 0, 0), (3, 0, 1), (2, 0, 2), (0, 1, 3)]
    assert _marks(clubs, [0, 0, 0, 0], TOP_TWO)[2] is None


def test_a_level_club_behind_while_a_third_can_still_join_the_tie() -> None:
    """Four clubs, the last two relegated, ranked by head-to-head first. Clubs 1 and 2 have
    finished level on 4 points, club 1 ahead; club 3 has 2 points and two matches left, so two
    draws would make a tie of three whose mini-league could lift club 2 to second: club 2 is
    not yet sure of relegation. Once club 3 finishes on 2 it is, and club 3 with it."""
    clubs = [(3, 1, 0), (1, 1, 2), (1, 1, 2), (0, 2, 2)]  # 10, 4, 4, 2 points
    down = (Place(RELEGATION, -2, -1),)
    assert _marks(clubs, [0, 0, 0, 2], down)[2] is None
    assert _marks(clubs, [0, 0, 0, 0], down) == ["Title", None, "Relegated", "Relegated"]


def test_promotion_and_the_play_offs_at_least_and_at_best() -> None:
    """Six clubs: first promoted, second and third in the promotion play-off, fourth in the
    relegation play-off, the last two relegated; one match left each. Club 0 (15 points) can be
    caught by club 1 (12) alone: at least second, the play-off, as club 1. Club 2 (6) can still
    be passed by club 3 (4) and finish fourth, and is unmarked, as club 3 is. Club 4 (1) can
    reach 4, level with club 3: at best fourth, the relegation play-off. Club 5 (0) can reach
    3, below club 3's 4: at best fifth, relegated."""
    clubs = [(5, 0, 0), (4, 0, 1), (2, 0, 3), (1, 1, 3), (0, 1, 4), (0, 0, 5)]
    places = (Place(PROMOTION, 1, 1), Place(PROMOTION_PLAYOFF, 2, 3),
              Place(RELEGATION_PLAYOFF, -3, -3), Place(RELEGATION, -2, -1))
    assert _marks(clubs, [1] * 6, places) == [
        "Promotion Play-off", "Promotion Play-off", None, None, "Relegation Play-off",
        "Relegated"]


def test_no_title_while_a_play_off_for_a_tie_for_first_is_to_come() -> None:
    """Serie A's order: a play-off between clubs level on points first. Clubs 0 and 1 have
    finished level on 10 points, club 0 ahead on the next steps: with the play-off not yet
    known, neither is champion (the marks before called club 0 champion); once club 1 has won
    it, club 1 is."""
    clubs = [(3, 1, 1), (3, 1, 1), (2, 0, 3), (0, 0, 5)]  # 10, 10, 6, 0 points
    rules = ("tie_playoff", *HEAD_TO_HEAD)
    assert _marks(clubs, [0] * 4, (), rules)[:2] == [None, None]
    assert _marks(clubs, [0] * 4, (), rules, tie_playoff=[0, 1, 0, 0])[:2] == [None, "Title"]
