"""In chromium: hostile share links and hostile names are text (docs/security.md).

* A shared link whose level is a Markdown link shows the warning that names it with no link in it;
  one whose level is a Markdown image makes the browser fetch nothing.
* Over a store whose names are Markdown links and images, Streamlit directives, chart markup and
  spreadsheet formulas (``tests.fixtures.hostile``, loaded through the generic feed), the pages
  that show them (a game's heading, venue and charts, a team's margins, a team's and a player's
  profile, the ratings chart) hold no link to evil.example and ask nothing of the beacon, a local
  HTTP server that counts requests; a name reads on screen exactly as written. (Every page and
  view is walked for markup in test_untrusted_text.py.)
* The CSV downloads of Games and Standings start the formula team's cell with ``'``, and leave
  the numbers numbers.
"""
from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pandas as pd
import pytest

from tests.dashboard._streamlit import settle
from tests.dashboard.conftest import ApiServer, chromium_browser, dashboard_over
from tests.fixtures import hostile

pytestmark = [pytest.mark.browser, pytest.mark.slow]
playwright_api = pytest.importorskip("playwright.sync_api")
TIMEOUT_MS = 120_000
LINK_PARAM = "[Click here to sign in again](https://evil.example/login)"
EXCEPTION = '[data-testid="stException"]'
# every link on the page, HTML or SVG (a plotly title's <a> is SVG), resolved against the page
LINKS_TO_EVIL = """() => [...document.querySelectorAll('a')]
    .map(a => a.getAttribute('href') || a.getAttribute('xlink:href') || '')
    .filter(h => { try { return new URL(h, location.href).hostname.endsWith('evil.example'); }
                   catch (e) { return false; } })"""


@pytest.fixture(scope="module")
def hostile_dashboard(hostile_api: ApiServer) -> Iterator[str]:
    with dashboard_over(hostile_api) as url:
        yield url


@pytest.fixture(scope="module")
def chromium(hostile_dashboard: str) -> Iterator[Any]:
    with chromium_browser() as browser:
        yield browser


def _visit(browser: Any, url: str, asked: list[str]) -> Any:
    """Open ``url`` in a fresh context; every request the page makes is added to ``asked``."""
    page = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True).new_page()
    page.on("request", lambda request: asked.append(request.url))
    page.goto(url)
    page.wait_for_selector("h1", timeout=TIMEOUT_MS)
    settle(page)
    return page


def _plain(text: str) -> str:
    """Text as read: without the invisible word joiners that keep an address from being a link."""
    return text.replace("\u2060", "")


def test_a_shared_links_markdown_is_text(chromium: Any, hostile_dashboard: str, beacon: Any) -> None:
    asked: list[str] = []
    page = _visit(chromium, f"{hostile_dashboard}/?level={quote(LINK_PARAM)}", asked)
    warning = page.locator('[data-testid="stAlertContentWarning"]').filter(has_text="is not available")
    assert LINK_PARAM in _plain(warning.first.inner_text()), "the warning names the link's value, as written"
    assert page.evaluate(LINKS_TO_EVIL) == []
    page.context.close()

    image = f"![x]({beacon.url}/level.png)"
    page = _visit(chromium, f"{hostile_dashboard}/?level={quote(image)}", asked)
    assert image in _plain(page.locator('[data-testid="stAlertContentWarning"]').first.inner_text())
    page.context.close()
    assert beacon.paths == [] and not [u for u in asked if u.startswith(beacon.url)], beacon.paths


def test_hostile_names_are_text_on_every_page_that_shows_them(chromium: Any, hostile_dashboard: str,
                                                               hostile_api: ApiServer, beacon: Any) -> None:
    names = hostile.names(beacon.url)
    final, players = hostile.record_ids(hostile_api)
    player = players[names.players[0]]
    base = f"{hostile_dashboard}/%s?level={hostile.LEVEL}&%s"
    views = {  # page -> the text it must show as written
        base % ("games", f"game={final}&charts=true"): f"{hostile.LINK} 99 @ {hostile.FORMULA} 101",
        base % ("games", f"team={quote(names.teams[2])}&chart=true"): f"Chart: the margins of {names.teams[2]}",
        base % ("ratings", "chart=true"): None,
        base % ("players", f"player={player}"): names.players[0],
        base % ("players", f"tab=Teams&team={quote(hostile.DIRECTIVES)}"): hostile.DIRECTIVES,
    }
    asked: list[str] = []
    for url, text in views.items():
        page = _visit(chromium, url, asked)
        assert page.locator(EXCEPTION).count() == 0, url
        if text is not None:  # as written (a word joiner, invisible, breaks an address: plain.md)
            assert text in page.evaluate("() => document.body.innerText.replaceAll('\\u2060', '')"), (url, text)
        assert page.evaluate(LINKS_TO_EVIL) == [], url
        page.context.close()
    assert beacon.paths == [], beacon.paths
    assert not [u for u in asked if "evil.example" in u.split("?")[0]], "no request to evil.example"


def _download(page: Any) -> pd.DataFrame:
    with page.expect_download(timeout=TIMEOUT_MS) as download:
        page.get_by_test_id("stDownloadButton").first.locator("button").click()
    with open(download.value.path(), encoding="utf-8") as fh:
        text = fh.read()
    return pd.read_csv(io.StringIO(text), keep_default_na=False, dtype=str)


def test_csv_downloads_carry_no_formula(chromium: Any, hostile_dashboard: str, beacon: Any) -> None:
    """A spreadsheet opening the Games or Standings download reads the team named as a formula
    as text (``'`` first); scores and records stay numbers."""
    asked: list[str] = []
    page = _visit(chromium, f"{hostile_dashboard}/games?level={hostile.LEVEL}&tab=Games", asked)
    games = _download(page)
    page.context.close()
    teams = set(games["Home"]) | set(games["Visitor"])
    assert "'" + hostile.FORMULA in teams and hostile.FORMULA not in teams, teams
    assert "'" + hostile.NEGATIVE in teams
    assert hostile.LINK in teams  # text that starts no formula is left as written
    assert games["ScoreHome"].str.fullmatch(r"\d+").all(), "scores stay numbers"

    page = _visit(chromium, f"{hostile_dashboard}/standings?level={hostile.LEVEL}", asked)
    table = _download(page)
    page.context.close()
    column = next(c for c in ("Team", "Name") if c in table.columns)
    assert "'" + hostile.FORMULA in set(table[column]), table[column].tolist()
    numbers = [c for c in ("W", "L", "PointDiff") if c in table.columns]
    assert numbers and all(table[c].str.fullmatch(r"-?\d+(\.\d+)?").all() for c in numbers), table[numbers]
