"""MLB's 2023 standings in Debian's chromium over the real store (1440 px): a grid a league, its
three divisions of five one after the other, every team in view without scrolling the grid."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.dashboard._streamlit import open_fresh
from tests.dashboard.conftest import ApiServer, chromium_browser, dashboard_over

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.realdata, pytest.mark.timeout(1800)]
pytest.importorskip("playwright.sync_api")

# Per grid: how far its rows run below its box (pixels), and its rows as the grid lists them for
# screen readers (the rows drawn: the grid draws the rows in view), the header's first
GRIDS = """() => [...document.querySelectorAll('[data-testid="stDataFrame"]')].map(g => {
    const s = g.querySelector('.dvn-scroller');
    return {below: s.scrollHeight - s.clientHeight,
            rows: [...g.querySelectorAll('[role="row"]')].map(r => [...r.querySelectorAll(
                '[role="columnheader"], [role="gridcell"]')].map(c => c.textContent))}; })"""


@pytest.fixture(scope="module")
def real_dashboard(real_api: ApiServer) -> Iterator[tuple[str, Any]]:
    with dashboard_over(real_api) as url, chromium_browser() as chromium:
        yield url, chromium


def test_a_grid_a_league_every_team_in_view(real_dashboard: tuple[str, Any]) -> None:
    url, chromium = real_dashboard
    page = open_fresh(chromium, f"{url}/standings?level=MLB&season=2023")
    grids = page.evaluate(GRIDS)
    page.context.close()
    assert len(grids) == 2, [len(g["rows"]) for g in grids]  # the American and National Leagues
    for grid in grids:
        head, *rows = grid["rows"]
        assert grid["below"] <= 0 and len(rows) == 15, (grid["below"], len(rows))
        division = [r[head.index("Division")] for r in rows]
        assert [division[k] for k in (0, 5, 10)] == sorted(set(division), key=division.index)
        assert all(division[k] == division[k // 5 * 5] for k in range(15)), division  # five a division
    al_east = [r[grids[0]["rows"][0].index("Team")] for r in grids[0]["rows"][1:6]]
    assert al_east == ["Baltimore Orioles", "Tampa Bay Rays", "Toronto Blue Jays", "New York Yankees",
                       "Boston Red Sox"], al_east


def test_a_football_league_shows_every_club(real_dashboard: tuple[str, Any]) -> None:
    """The Premier League's 2022-23 table: 20 clubs in view, as a printed table, from Manchester
    City's 89 points to Southampton's 25, not ten rows scrolling inside the grid."""
    url, chromium = real_dashboard
    page = open_fresh(chromium, f"{url}/standings?level=FC&season=2023")
    grids = page.evaluate(GRIDS)
    page.context.close()
    league = next(g for g in grids if any("Manchester City FC" in r for r in g["rows"]))
    head, *rows = league["rows"]
    assert league["below"] <= 0 and len(rows) == 20, (league["below"], len(rows))
    teams = [r[head.index("Team")] for r in rows]
    assert (teams[0], teams[-1]) == ("Manchester City FC", "Southampton FC"), teams
