"""In chromium: on every page, change the level and one of the page's own choices, copy the URL,
open it in a fresh context and see the same view; type ordinary and odd text into every search
box on every tab and see no exception."""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from services import api
from tests.dashboard.conftest import ApiServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]
playwright_api = pytest.importorskip("playwright.sync_api")
TIMEOUT_MS = 120_000
QUIET_MS = 1500
EXCEPTION = '[data-testid="stException"]'
SEARCHES = ("GDP", "O'Neil", "Zoë", "strikeout")


def _settle(page: Any) -> None:
    """Wait until the app has stopped running and the page stays the same for a moment."""
    previous = None
    for _ in range(TIMEOUT_MS // QUIET_MS):
        page.wait_for_timeout(QUIET_MS)
        running = page.locator('[data-testid="stStatusWidget"]').count()
        now = (page.url, page.locator("h1").all_inner_texts(), page.locator(".js-plotly-plot").count())
        if not running and now == previous:
            return
        previous = now


def _open(browser: Any, url: str) -> Any:
    page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    page.goto(url)
    page.wait_for_selector("h1", timeout=TIMEOUT_MS)
    _settle(page)
    return page


def _choose(page: Any, label: str, option: str) -> None:
    box = page.get_by_role("combobox", name=label, exact=True)
    box.click()
    box.fill(option)
    page.locator('[role="option"]').filter(has_text=re.compile(f"^{re.escape(option)}$")).first.click()
    _settle(page)


def _tab(page: Any, label: str) -> None:
    page.get_by_role("tab", name=label, exact=True).click()
    _settle(page)


def _type(page: Any, label: str, text: str) -> None:
    box = page.get_by_role("textbox", name=label)
    box.fill(text)
    box.press("Enter")
    _settle(page)


def _view(page: Any) -> dict[str, Any]:
    """What a colleague must see: title, tab, table headers, chart titles, every sidebar choice."""
    return {
        "title": page.locator("h1").all_inner_texts(),
        "tab": page.locator('[role="tab"][aria-selected="true"]').all_inner_texts(),
        "headers": page.evaluate("""() => [...document.querySelectorAll('[data-testid="stDataFrame"]')].map(
            d => [...d.querySelectorAll('[role="columnheader"], th')].map(e => e.textContent))"""),
        "charts": page.evaluate("""() => [...document.querySelectorAll('.js-plotly-plot')].map(
            g => (g.layout && g.layout.title && g.layout.title.text) || '')"""),
        "choices": page.locator('[data-testid="stSidebar"] input').evaluate_all(
            "els => els.map(e => (e.getAttribute('aria-label') || '') + '=' + (e.type === 'checkbox' ? e.checked : e.value))")
        + page.locator('[data-testid="stSidebar"] [data-testid="stMultiSelect"]').all_inner_texts(),
    }


def _nba_game() -> str:
    return str(int(api.games("NBA", status="final", size=1).frame.iloc[0]["ID"]))


def _nba_team() -> str:
    return str(sorted(api.teams("NBA")["Name"].astype(str))[1])


# page -> what the analyst does there after switching the level to NBA
STEPS: dict[str, Callable[[Any], None]] = {
    "": lambda page: None,  # the overview has no choice of its own beyond the level
    "games": lambda page: _choose(page, "Status", "Final"),
    "ratings": lambda page: (_tab(page, "Over the season"),
                             _choose(page, "Season", str(api.season_ids("NBA", with_games=True)[-1]))),
    "forecasts": lambda page: _tab(page, "Biggest upsets"),
    "playbyplay": lambda page: (page.get_by_role("spinbutton", name="Game ID").fill(_nba_game()),
                                page.get_by_role("spinbutton", name="Game ID").press("Enter"), _settle(page)),
    "players": lambda page: (_tab(page, "Teams"), _choose(page, "Team", _nba_team())),
    "leaders": lambda page: _choose(page, "Leaders of", "team"),
    "glossary": lambda page: _tab(page, "Stat codes"),
}


@pytest.mark.parametrize("path", list(STEPS))
def test_a_changed_view_reopens_the_same_from_its_link(browser: Any, dashboard: str, dashboard_env: ApiServer,
                                                       path: str) -> None:
    first = _open(browser, f"{dashboard}/{path}")
    _choose(first, "Level", "NBA")
    STEPS[path](first)
    assert first.locator(EXCEPTION).count() == 0
    link = first.url
    assert "level=NBA" in link and dashboard_env.key not in link
    seen = _view(first)
    first.context.close()
    second = _open(browser, link)  # a fresh context: no cookies, no session, only the link
    again = _view(second)
    second.context.close()
    assert again == seen
    assert seen["title"] and "Level=NBA" in seen["choices"], seen


def _search_everywhere(page: Any, label: str) -> list[str]:
    failures = []
    for text in SEARCHES:
        _type(page, label, text)
        if page.locator(EXCEPTION).count():
            failures.append(f"{page.url}: {text}")
    return failures


def test_every_search_box_takes_ordinary_and_odd_text(browser: Any, dashboard: str, dashboard_env: ApiServer) -> None:
    failures: list[str] = []
    for level in ("MLB",):
        glossary = _open(browser, f"{dashboard}/glossary?level={level}")
        for tab in ("Levels", "Sublevels", "Stat codes", "Nations"):
            _tab(glossary, tab)
            failures += _search_everywhere(glossary, "Search")
        glossary.context.close()
    players = _open(browser, f"{dashboard}/players?level=MLB")
    failures += _search_everywhere(players, "Search players")
    players.context.close()
    game = int(api.games("MLB", status="final", size=1).frame.iloc[0]["ID"])
    plays = _open(browser, f"{dashboard}/playbyplay?level=MLB&game={game}")
    for tab in [t for t in plays.get_by_role("tab").all_inner_texts() if t]:
        _tab(plays, tab)
        failures += _search_everywhere(plays, "Player")
    plays.context.close()
    assert not failures, failures


NARROW = {"width": 820, "height": 1000}


def test_headline_figures_fit_a_narrow_window(browser: Any, dashboard: str, dashboard_env: ApiServer) -> None:
    page = browser.new_context(viewport=NARROW).new_page()
    page.goto(f"{dashboard}/forecasts?level=MLB")
    page.wait_for_selector('[data-testid="stMetricValue"]', timeout=TIMEOUT_MS)
    _settle(page)
    clipped = page.evaluate("""() => [...document.querySelectorAll('[data-testid="stMetricValue"]')].map(e => {
        const range = document.createRange(); range.selectNodeContents(e);
        return [e.innerText, Math.ceil(range.getBoundingClientRect().width), e.clientWidth]; })
        .filter(([, text, box]) => text > box)""")
    page.context.close()
    assert not clipped, f"figures cut short at {NARROW['width']} px: {clipped}"
