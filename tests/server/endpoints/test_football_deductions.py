"""A points deduction counts from the day it was announced, through the API's table of a day,
from the real store: Everton 2023-24 lost 10 points on 17 November 2023, had 4 of them given
back on appeal on 26 February 2024 and lost 2 more on 8 April 2024, 8 in the final table
(``server.catalog.football.deductions``, one row per decision)."""
from __future__ import annotations

import pytest

from tests.demo_api import ApiServer

pytestmark = [
    pytest.mark.realdata, pytest.mark.slow, pytest.mark.timeout(1800),  # the real store's build
]


def _everton(api: ApiServer, date: str | None = None) -> tuple[int, int]:
    """Everton's table points and the points its results won, on ``date`` (None: final)."""
    params = {"season": 2024, **({"date": date} if date else {})}
    (row,) = [r for r in api.get_json("/v2/standings/FC/", **params)["standings"]
              if r["Team"] == "Everton FC"]
    return row["Points"], 3 * row["W"] + row["T"]


@pytest.mark.parametrize("date,taken", [
    ("2023-11-16", 0), ("2023-11-17", 10), ("2024-02-25", 10), ("2024-02-26", 6),
    ("2024-04-07", 6), ("2024-04-08", 8), (None, 8)])
def test_everton_2023_24_from_the_day_each_decision_was_announced(
        real_api: ApiServer, date: str | None, taken: int) -> None:
    points, won = _everton(real_api, date)
    assert won - points == taken


def test_a_table_before_the_deduction_ranks_without_it(real_api: ApiServer) -> None:
    """On 16 November 2023 Everton's points are those its results won; the next day's table
    puts them 10 lower with the same matches played (an international break)."""
    before = real_api.get_json("/v2/standings/FC/", season=2024, date="2023-11-16")["standings"]
    after = real_api.get_json("/v2/standings/FC/", season=2024, date="2023-11-17")["standings"]
    b = next(r for r in before if r["Team"] == "Everton FC")
    a = next(r for r in after if r["Team"] == "Everton FC")
    assert a["G"] == b["G"] and a["Points"] == b["Points"] - 10
    assert a["LeagueRank"] > b["LeagueRank"]
