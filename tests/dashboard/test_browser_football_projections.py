"""End to end in Debian's chromium over the real data: the Projections page of a football league
shows each club's title, Champions League, European and relegation odds as bars, on a desktop
(1440 px, every odds column in view) and on a phone (390 px, the grid inside the screen)."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.dashboard._streamlit import SHOTS, settle
from tests.dashboard.conftest import ApiServer, chromium_browser, dashboard_over

pytestmark = [pytest.mark.browser, pytest.mark.realdata, pytest.mark.slow, pytest.mark.timeout(1800)]
pytest.importorskip("playwright.sync_api")
TIMEOUT_MS = 120_000
TABLE = '[data-testid="stDataFrame"]'
ODDS = ["Title %", "Champions L. %", "Europe %", "Relegation %"]


@pytest.fixture(scope="module")
def real_dashboard_url(real_api: ApiServer) -> Iterator[str]:
    with dashboard_over(real_api) as url:
        yield url


@pytest.fixture(scope="module")
def real_browser(real_dashboard_url: str) -> Iterator[Any]:
    with chromium_browser() as chromium:
        yield chromium


def _open(browser: Any, url: str, width: int) -> Any:
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    page.goto(url)
    page.wait_for_selector(TABLE, timeout=TIMEOUT_MS)
    settle(page)
    return page


def _headers(page: Any) -> list[str]:
    return [str(h).strip() for h in page.get_by_test_id("stDataFrame").first
            .locator("[role=columnheader]").all_inner_texts()]


@pytest.mark.parametrize("width", [1440, 390])
def test_a_league_shows_its_title_europe_and_relegation_odds(real_browser: Any, real_dashboard_url: str,
                                                            width: int) -> None:
    page = _open(real_browser, f"{real_dashboard_url}/projections?level=FC&group=Premier+League", width)
    try:
        assert page.locator('[data-testid="stException"]').count() == 0
        assert "FC season projections" in " ".join(page.locator("h1").all_inner_texts())
        caption = " ".join(page.locator('[data-testid="stCaptionContainer"]').all_inner_texts())
        assert "draw" in caption and "places" in caption, caption
        headers = _headers(page)
        assert headers and "Team" in headers, headers
        if width == 1440:  # every odds column in view beside the record and projected points
            assert all(h in headers for h in ["Record", "Proj. points", *ODDS]), " | ".join(headers)
        else:  # the grid scrolls inside the phone's width, the page does not
            right = page.evaluate(f"""() => Math.ceil(document.querySelector('{TABLE}')
                                            .getBoundingClientRect().right)""")
            assert right <= 390, right
            wide = page.evaluate("() => document.documentElement.scrollWidth")
            assert wide <= 390, wide
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"fc-projections-{width}.png"), full_page=True)
    finally:
        page.context.close()
