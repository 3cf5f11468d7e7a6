"""League strength from matches between leagues: the strongest league is 1, a weaker one less,
a league the matches barely show has none, and a league's own matches say nothing."""
from __future__ import annotations

import pytest

from server.models.league_strength import MIN_MATCHES, Result, factors, ratings


def _series(home: str, away: str, wins: int, draws: int, losses: int) -> list[Result]:
    """Home's results against away on neutral ground."""
    return ([Result(home, away, 1.0, True)] * wins + [Result(home, away, 0.5, True)] * draws
            + [Result(home, away, 0.0, True)] * losses)


def test_the_league_that_wins_between_leagues_is_the_strongest() -> None:
    results = (_series("A", "B", 15, 5, 5) + _series("B", "C", 15, 5, 5)
               + _series("A", "C", 20, 3, 2))
    found = factors(results, ["A", "B", "C"])
    assert found["A"] == 1.0
    assert found["A"] > found["B"] > found["C"] > 0  # type: ignore[operator]
    # B scores 17.5 of 25 against C and 7.5 of 25 against A: in between, nearer A than C
    assert 0.3 < found["B"] < 0.8  # type: ignore[operator]


def test_even_results_make_even_leagues() -> None:
    found = factors(_series("A", "B", 10, 5, 10) + _series("B", "A", 10, 5, 10), ["A", "B"])
    assert found == {"A": 1.0, "B": 1.0}


def test_home_advantage_is_not_strength() -> None:
    """Each side wins its home legs: level leagues, not the home side's."""
    legs = ([Result("A", "B", 0.75, False)] * 15 + [Result("B", "A", 0.75, False)] * 15)
    assert ratings(legs)["A"] == pytest.approx(ratings(legs)["B"], abs=1e-6)


def test_a_league_with_too_few_matches_has_no_factor_and_own_matches_count_for_nothing() -> None:
    results = (_series("A", "B", 12, 6, 12) + _series("C", "A", 1, 0, 0)
               + [Result("C", "C", 1.0)] * 100)
    found = factors(results, ["A", "B", "C", "D"])
    assert found["C"] is None and found["D"] is None and found["A"] is not None
    assert MIN_MATCHES > 1
