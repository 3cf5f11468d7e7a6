"""In chromium at 390 px (a phone held upright): a page title wraps between words, never inside a
season's name ("2026-27"); a grid's toolbar, shown on a tap, covers nothing above the grid; a
link that chose a tab far along a strip wider than the screen opens with that tab in view."""
from __future__ import annotations

from typing import Any

import pytest

from tests.dashboard._streamlit import settle
from tests.dashboard.conftest import ApiServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]
playwright_api = pytest.importorskip("playwright.sync_api")
TIMEOUT_MS = 120_000
PHONE = {"width": 390, "height": 844}


def _phone(browser: Any, url: str) -> Any:
    page = browser.new_context(viewport=PHONE, has_touch=True).new_page()
    page.goto(url)
    page.wait_for_selector("h1", timeout=TIMEOUT_MS)
    settle(page)
    return page


# The season's name in the page's title ("2026-27", its hyphen whichever) and the number of lines
# it is drawn on
SEASON_LINES = r"""() => { const h = document.querySelector('h1');
    const walker = document.createTreeWalker(h, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
        const m = /\d{4}[-\u2010\u2011]\d{2}/.exec(t.data);
        if (!m) continue;
        const r = document.createRange(); r.setStart(t, m.index); r.setEnd(t, m.index + m[0].length);
        return [m[0], new Set([...r.getClientRects()].map(b => Math.round(b.top))).size];
    }
    return [h.innerText, 0]; }"""


def test_a_titles_season_stays_on_one_line_on_a_phone(browser: Any, dashboard: str,
                                                      dashboard_env: ApiServer) -> None:
    """"NBA season projections, 2026-27" runs to three lines at 390 px: the break falls between
    words, never after the season's hyphen (Chromium breaks a line there)."""
    seen = {}
    page = _phone(browser, f"{dashboard}/projections?level=NBA")
    for path in ("projections?level=NBA", "projections?level=NHL", "standings?level=NHL", "leaders?level=NHL"):
        if path != "projections?level=NBA":
            page.goto(f"{dashboard}/{path}")
            page.wait_for_selector("h1", timeout=TIMEOUT_MS)
            settle(page)
        seen[path] = (page.locator("h1").first.inner_text(), *page.evaluate(SEASON_LINES))
    page.context.close()
    assert [lines for _, _, lines in seen.values()] == [1] * len(seen), seen
    for title, season, _ in seen.values():  # the season reads as its name, a hyphen between the years
        assert season.replace("\u2011", "-")[4] == "-" and season in title, (title, season)


# Per grid on the page, once hovered: its toolbar's box and the box of the element just above it
TOOLBAR_AND_ABOVE = """g => { const box = e => { const b = e.getBoundingClientRect();
        return [b.left, b.top, b.right, b.bottom]; };
    const bar = g.querySelector('[data-testid="stElementToolbar"]');
    const above = g.closest('[data-testid="stElementContainer"]').previousElementSibling;
    return {bar: bar && box(bar), above: above && box(above), text: above && above.innerText.slice(0, 60)}; }"""


def _overlaps(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_a_grids_toolbar_covers_nothing_above_it_on_a_phone(browser: Any, dashboard: str,
                                                            dashboard_env: ApiServer) -> None:
    """Projections' grid under its caption, Forecasts' upsets under theirs: the toolbar a tap
    shows (eye, download, search, full screen) sits in room of its own above the grid."""
    covered, seen = [], 0
    page = _phone(browser, f"{dashboard}/projections?level=NBA")
    for path in ("projections?level=NBA", "forecasts?level=MLB&tab=Biggest+upsets"):
        if path != "projections?level=NBA":
            page.goto(f"{dashboard}/{path}")
            page.wait_for_selector('[data-testid="stDataFrame"]', timeout=TIMEOUT_MS)
            settle(page)
        grid = page.get_by_test_id("stDataFrame").first
        grid.scroll_into_view_if_needed()
        grid.hover()
        page.wait_for_timeout(500)
        found = grid.evaluate(TOOLBAR_AND_ABOVE)
        assert found["bar"] and found["above"], (path, found)
        seen += 1
        if _overlaps(found["bar"], found["above"]):
            covered.append((path, found))
    page.context.close()
    assert seen == 2 and not covered, f"the grid's toolbar covers what is above it at 390 px: {covered}"


CHOSEN_TAB = """() => { const list = document.querySelector('[role="tablist"]');
    const tab = list.querySelector('[role="tab"][aria-selected="true"]');
    const box = e => { const b = e.getBoundingClientRect(); return [b.left, b.right]; };
    return {tab: tab.innerText, box: box(tab), strip: box(list)}; }"""


@pytest.mark.parametrize("tab", ["Lines by season", "Biggest upsets"])
def test_a_link_to_a_tab_opens_with_that_tab_in_view_on_a_phone(browser: Any, dashboard: str,
                                                                dashboard_env: ApiServer, tab: str) -> None:
    """Forecasts' seven tabs run past a phone's screen: a link that chose one of the last opens
    with the strip scrolled to show it whole."""
    page = _phone(browser, f"{dashboard}/forecasts?level=MLB&tab={tab.replace(' ', '+')}")
    page.wait_for_timeout(300)  # a frame for the strip to scroll
    chosen = page.evaluate(CHOSEN_TAB)
    page.context.close()
    assert chosen["tab"] == tab, chosen
    assert chosen["strip"][0] <= chosen["box"][0] and chosen["box"][1] <= chosen["strip"][1] + 0.5, chosen
