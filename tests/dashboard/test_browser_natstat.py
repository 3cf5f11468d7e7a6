"""In chromium, the dashboard on a NatStat backend and under a busy key.

* NatStat backend (issue #31): a second dashboard over the session's demo API at ``/natstat``
  (the dialect found from the URL, as an operator would set it). Every page, walked in one
  browser context, draws its chart (Standings: its table) with no error, and shows the numbers
  the same page shows over the root: each chart's title and each trace's points and their sum,
  and every headline figure. A link made on one dashboard opens the same view, choices and
  numbers, on the other, both ways.
* Busy key (issue #28): the dashboard's users share one API key, and the server lets a key have
  only ``SPORTS_KEY_IN_FLIGHT`` requests in flight (429 ``too_many_in_flight`` with
  ``Retry-After`` above that). Pages opened at once while another user of the key has
  expensive requests in flight all render their data: ``services.client`` asks a 429 again
  after its Retry-After. The API here is the session's demo store served a second time with a
  cap of one request in flight, behind a dashboard of its own.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any, Self

import httpx
import pytest

from services import api

from tests.conftest import LiveServer, free_port, start_server, stop_server
from tests.dashboard._streamlit import settle
from tests.dashboard.conftest import ApiServer
from tests.dashboard.test_browser_links import _choose, _tab

pytestmark = [pytest.mark.browser, pytest.mark.slow]
playwright_api = pytest.importorskip("playwright.sync_api")
TIMEOUT_MS = 120_000  # generous: CI machines may be busy
CHART = ".js-plotly-plot"
TABLE = '[data-testid="stDataFrame"]'
EXCEPTION = '[data-testid="stException"]'
BUSY_PAGES = ("", "games", "ratings", "forecasts")  # the heaviest pages at MLB, and the overview
NEIGHBOUR_STREAMS = 3  # with one slot: one expensive request runs, the others wait for it
BUSY_SECONDS = 1.5  # how long the neighbour asks on once the dashboard has asked


def _traces(page: Any) -> list[list[int]]:
    """Each chart's traces, as their numbers of points."""
    return list(page.evaluate("""() => [...document.querySelectorAll('.js-plotly-plot')].map(
        g => (g._fullData || []).map(t => t._length || 0))"""))


# ------------------------------------------------------------------------- a NatStat backend

ERRORS = ("could not answer", "API unreachable", "API key", "Not offered")  # what no page may say
WIDGETS = ",".join(f'[data-testid="{w}"]' for w in (
    "stSelectbox", "stMultiSelect", "stNumberInput", "stTextInput", "stDateInput", "stCheckbox"))


@pytest.fixture(scope="module")
def natstat_dashboard(api_server: ApiServer) -> Iterator[str]:
    """The dashboard over the session's demo API at ``/natstat`` (the dialect from the URL)."""
    from tests.dashboard._streamlit import streamlit_server

    env = {"SPORTS_API_URL": f"{api_server.url}/natstat", "SPORTS_API_KEY": api_server.key,
           "SPORTS_API_DIALECT": ""}
    with streamlit_server("app.py", free_port(), env) as url:
        yield url


def _goto(page: Any, url: str, shown: str = CHART) -> None:
    page.goto(url)
    page.wait_for_selector(shown, timeout=TIMEOUT_MS)
    settle(page)


def _numbers(page: Any) -> dict[str, Any]:
    """What an analyst reads off the page: the title, each chart's title and each trace's number
    of points and their sum (to 6 significant digits), every headline figure, and the tables'
    column headers; and what went wrong, if anything."""
    return {
        "title": page.locator("h1").all_inner_texts(),
        "charts": page.evaluate("""() => [...document.querySelectorAll('.js-plotly-plot')].map(g => [
            (g.layout && g.layout.title && g.layout.title.text) || '',
            (g._fullData || []).map(t => {
              const ys = Array.from(t.y || []).filter(v => typeof v === 'number' && isFinite(v));
              return [t._length || 0, Number(ys.reduce((a, b) => a + b, 0).toPrecision(6))]; })])"""),
        "figures": page.locator('[data-testid="stMetricValue"]').all_inner_texts(),
        "headers": page.evaluate("""() => [...document.querySelectorAll('[data-testid="stDataFrame"]')].map(
            d => [...d.querySelectorAll('[role="columnheader"]')].map(e => e.textContent))"""),
        "errors": [a for a in page.locator('[data-testid="stAlert"]').all_inner_texts()
                   if any(e in a for e in ERRORS)] + page.locator(EXCEPTION).all_inner_texts(),
    }


def test_every_page_over_natstat_shows_the_roots_numbers(
        browser: Any, dashboard: str, natstat_dashboard: str, dashboard_env: ApiServer) -> None:
    game = int(api.games("MLB", status="final", size=1).frame.iloc[0]["ID"])
    player = int(api.players("MLB", size=1).frame.iloc[0]["ID"])
    # the pages led by a table with their chart opened below it (chart=true), so both are compared
    paths = {"?chart=true": CHART, f"games?game={game}&charts=true": CHART, "ratings?chart=true": CHART,
             "standings": TABLE, "projections?chart=true": CHART,
             "forecasts": CHART, f"playbyplay?game={game}": CHART,
             f"players?player={player}": CHART, "leaders?chart=true": CHART,
             "glossary?chart=true": CHART}
    page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    for path, shown in paths.items():
        link = f"{path}{'&' if '?' in path else '?'}level=MLB"
        _goto(page, f"{natstat_dashboard}/{link}", shown)
        theirs = _numbers(page)
        _goto(page, f"{dashboard}/{link}", shown)
        ours = _numbers(page)
        assert not theirs["errors"] and not ours["errors"], (link, theirs, ours)
        assert theirs["charts"] or shown != CHART, link
        assert all(all(n for n, _ in c[1]) for c in theirs["charts"]), (link, theirs["charts"])
        assert theirs == ours, link
    page.context.close()


def _view(page: Any) -> dict[str, Any]:
    """A view as a colleague must see it: the numbers, the tab, every sidebar choice."""
    return {**_numbers(page),
            "tab": page.locator('[role="tab"][aria-selected="true"]').all_inner_texts(),
            "choices": page.locator(f"{WIDGETS.replace(',', ' input,')} input").evaluate_all(
                "els => els.map(e => (e.getAttribute('aria-label') || '') + '=' + "
                "(e.type === 'checkbox' ? e.checked : e.value))")
            + page.locator('[data-testid="stMultiSelect"]').all_inner_texts()}


def test_a_link_opens_the_same_view_on_either_backend(
        browser: Any, dashboard: str, natstat_dashboard: str, dashboard_env: ApiServer) -> None:
    page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    # made over the root, opened over /natstat/: NBA games, only the finished ones
    _goto(page, f"{dashboard}/games?level=NBA&chart=true")
    _choose(page, "Status", "Final")
    made, link = _view(page), page.url.removeprefix(dashboard)
    _goto(page, f"{natstat_dashboard}{link}")
    opened = _view(page)
    # and back: NHL ratings over a season, made over /natstat/, opened over the root
    _goto(page, f"{natstat_dashboard}/ratings?level=NHL", TABLE)  # the rankings, then the season's chart
    _tab(page, "Over the season")
    made_back, link_back = _view(page), page.url.removeprefix(natstat_dashboard)
    _goto(page, f"{dashboard}{link_back}")
    opened_back = _view(page)
    page.context.close()
    assert "status=Final" in link, link
    assert "tab=Over" in link_back, link_back
    assert made["charts"] and made_back["charts"], (made, made_back)
    assert opened == made
    assert opened_back == made_back


# ------------------------------------------------------------------------------ a busy key

@pytest.fixture(scope="module")
def busy_api(demo_api: ApiServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The demo store served with a cap of one request in flight per key (its access log read
    by the neighbour below)."""
    log_path = tmp_path_factory.mktemp("busy-api") / "server.log"
    process, url = start_server(demo_api.database_url, log_path, SPORTS_KEY_IN_FLIGHT="1")
    yield LiveServer(url, log_path, process)
    stop_server(process)


@pytest.fixture(scope="module")
def busy_dashboard(busy_api: LiveServer, demo_api: ApiServer) -> Iterator[str]:
    from tests.dashboard._streamlit import streamlit_server

    env = {"SPORTS_API_URL": busy_api.base_url, "SPORTS_API_KEY": demo_api.key}
    with streamlit_server("app.py", free_port(), env) as url:
        yield url


class _Neighbour:
    """Another user of the key: each of NEIGHBOUR_STREAMS threads asks distinct pages of every
    pitch (none kept by the server, half a second or more each), one after another, until
    BUSY_SECONDS after the dashboard's first request reached the server (its access log says
    when), so the pages open on a busy key however slow the machine is."""

    def __init__(self, server: LiveServer, key: str) -> None:
        self.server, self.key = server, key
        self.statuses: list[int] = []
        self.until = time.monotonic() + TIMEOUT_MS / 1000  # until the dashboard has asked
        self.threads = [threading.Thread(target=self._ask, args=(n + 1,))
                        for n in range(NEIGHBOUR_STREAMS)]

    def __enter__(self) -> Self:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        for thread in self.threads:
            thread.join()

    def _ask(self, page: int) -> None:
        with httpx.Client(base_url=self.server.base_url, timeout=60) as client:
            while time.monotonic() < self.until:
                answer = client.get("/v1/pitch/MLB/", params={
                    "key": self.key, "max": 1000, "page": page, "start": "1900-01-01",
                    "end": "2030-12-31"})
                self.statuses.append(answer.status_code)
                page += NEIGHBOUR_STREAMS
                if "/glossary/" in self.server.log():  # the dashboard asked: a while more
                    self.until = min(self.until, time.monotonic() + BUSY_SECONDS)


def test_pages_opened_at_once_on_a_busy_key_render_their_data(
        browser: Any, busy_api: LiveServer, busy_dashboard: str, demo_api: ApiServer) -> None:
    with _Neighbour(busy_api, demo_api.key) as neighbour:
        pages = []
        for path in BUSY_PAGES:  # four browsers (a background tab would be throttled), at once
            page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
            page.goto(f"{busy_dashboard}/{path}?level=MLB&chart=true", wait_until="commit")  # tables and charts
            pages.append(page)
        for page in pages:  # a chart, a traceback or the error message, whichever comes
            page.locator(f"{CHART}, {EXCEPTION}").or_(page.get_by_text("could not answer")).first.wait_for(
                timeout=TIMEOUT_MS)
            settle(page)
    shown = [(page.url, page.locator('[data-testid="stAlert"]').all_inner_texts(),
              page.locator(EXCEPTION).count(), _traces(page)) for page in pages]
    for page in pages:
        page.context.close()
    assert 429 in neighbour.statuses, "the key was over its cap while the pages opened"
    for url, alerts, exceptions, traces in shown:
        assert not [a for a in alerts if "could not answer" in a], (url, alerts)
        assert exceptions == 0, url
        assert traces and all(all(trace) for trace in traces), (url, traces)
