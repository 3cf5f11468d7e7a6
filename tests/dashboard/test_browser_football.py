"""Football's pages in Debian's chromium over the real store, on a desktop (1440 px) and a phone
(390 px): the home, draw and away calibration with ours beside SPI, a league's club ratings and
a final decided on penalties, each drawn within the screen's width."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.dashboard._streamlit import settle
from tests.dashboard.conftest import ApiServer, chromium_browser, dashboard_over

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.realdata, pytest.mark.timeout(1800)]
pytest.importorskip("playwright.sync_api")
TIMEOUT_MS = 120_000  # generous: CI machines may be busy
WIDTHS = (1440, 390)


@pytest.fixture(scope="module")
def football(real_api: ApiServer) -> Iterator[tuple[str, Any]]:
    """The dashboard over the real store and a chromium to look at it."""
    with dashboard_over(real_api) as url, chromium_browser() as chromium:
        yield url, chromium


def _open(chromium: Any, url: str, width: int, selector: str) -> Any:
    page = chromium.new_context(viewport={"width": width, "height": 1000 if width > 400 else 844}).new_page()
    page.goto(url)
    page.wait_for_selector(selector, timeout=TIMEOUT_MS)
    settle(page)
    return page


def _charts(page: Any) -> list[dict[str, Any]]:
    return list(page.evaluate(
        """() => [...document.querySelectorAll('.js-plotly-plot')].map(g => ({
             title: ((g.layout && g.layout.title && g.layout.title.text) || '').replaceAll('<br>', ' '),
             names: (g._fullData || []).map(t => t.name),
             right: Math.ceil(g.getBoundingClientRect().right)}))"""))


@pytest.mark.parametrize("width", WIDTHS)
def test_home_draw_away_calibration_beside_spi(football: tuple[str, Any], width: int) -> None:
    url, chromium = football
    page = _open(chromium, f"{url}/forecasts?level=FC&fc_seasons=2023", width, ".js-plotly-plot")
    (chart,) = [c for c in _charts(page) if "home, draw and away chances" in c["title"]]
    assert {n for n in chart["names"] if n != "Perfect"} == {
        f"{who}: {o}" for who in ("ELO", "FiveThirtyEight SPI") for o in ("home", "draw", "away")}
    assert chart["right"] <= width, f"chart wider than the screen: {chart}"
    assert page.get_by_text("2022-23: RPS ELO").count() == 1
    assert page.locator('[data-testid="stDataFrame"]').count() >= 1
    page.context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_one_leagues_club_ratings(football: tuple[str, Any], width: int) -> None:
    url, chromium = football
    page = _open(chromium, f"{url}/ratings?level=FC&season=2023&league=Premier+League", width,
                 '[data-testid="stDataFrame"]')
    grid = page.locator('[data-testid="stDataFrame"]').first
    headers = grid.locator('[role="columnheader"]').all_inner_texts()
    assert "League" in [h.strip() for h in headers], headers  # the API's LeagueName, named so
    box = grid.bounding_box()
    assert box is not None and box["x"] + box["width"] <= width + 1
    page.context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_a_final_on_penalties(football: tuple[str, Any], real_api: ApiServer, width: int) -> None:
    url, chromium = football
    games = real_api.get_json("/v1/games/FC/", season=2023, phase="postseason", max=100)["games"]
    (final,) = [g for g in games if {g["Home"], g["Visitor"]} == {"Coventry City FC", "Luton Town FC"}]
    page = _open(chromium, f"{url}/games?level=FC&game={final['ID']}", width, "text=Line score")
    assert page.get_by_text("Extra time").count() >= 1 and page.get_by_text("1st half").count() >= 1
    assert page.get_by_text("Luton Town FC 6, Coventry City FC 5").count() == 1
    page.context.close()
