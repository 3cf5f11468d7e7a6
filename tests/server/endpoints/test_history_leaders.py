"""Season leaderboards of the years known from Lahman's totals (1871-2020), through the
``stats`` endpoint, against Baseball-Reference's league leaders for 1927
(https://www.baseball-reference.com/leagues/majors/1927-leaders.shtml): Ruth 60 home runs,
Gehrig 47, Hack Wilson and Cy Williams 30; Heilmann .398 and Paul Waner .380; Wilcy Moore's
2.28 ERA, Charlie Root's 26 wins, Dazzy Vance's 184 strikeouts."""
from __future__ import annotations

from typing import Any

import pytest

from server.catalog.statcodes import SEASON_TOTALS_TOP
from tests.demo_api import ApiServer

pytestmark = pytest.mark.realdata


def _leaders(api: ApiServer, code: str, **params: Any) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = api.get_json("/v1/stats/MLB/", stat=code, season=1927,
                                                 **params)["stats"]
    return records


def _top(api: ApiServer, code: str, n: int) -> list[tuple[str, float]]:
    return [(r["Name"], r["Value"]) for r in _leaders(api, code, max=n)]


def test_1927_leaders_read_as_baseball_reference_prints_them(real_api: ApiServer) -> None:
    assert _top(real_api, "HR", 4)[:2] == [("Babe Ruth", 60), ("Lou Gehrig", 47)]
    assert {name for name, value in _top(real_api, "HR", 4)[2:]} == {"Hack Wilson", "Cy Williams"}
    avg = _top(real_api, "AVG", 2)
    assert [name for name, _ in avg] == ["Harry Heilmann", "Paul Waner"]
    assert [round(value, 3) for _, value in avg] == [.398, .380]
    era = _leaders(real_api, "ERA", max=1)[0]
    assert (era["Name"], round(era["Value"], 2), era["Sublevel"]) == \
        ("Wilcy Moore", 2.28, "American League")
    assert _top(real_api, "W", 1) == [("Charlie Root", 26)]
    assert _top(real_api, "K", 1) == [("Dazzy Vance", 184)]


def test_a_total_lists_its_leaders_and_a_rate_its_qualified(real_api: ApiServer) -> None:
    homers = _leaders(real_api, "HR", max=500)
    assert SEASON_TOTALS_TOP <= len(homers) < 100  # the first 50, ties at the 50th kept
    assert all(r["Value"] > 0 for r in homers)
    ranks = [r["Rank"] for r in homers]
    assert ranks == sorted(ranks) and ranks[0] == 1
    averages = _leaders(real_api, "AVG", max=500)
    assert averages and all(r["Qualified"] == "Y" for r in averages)
    values = [r["Value"] for r in averages]
    assert values == sorted(values, reverse=True)
