"""End to end in Debian's chromium: every page draws its first view and its chart; a shared link
reproduces the view."""
from __future__ import annotations

import itertools
import os
import re
from pathlib import Path
from typing import Any

import pytest

from services import api
from tests.dashboard._streamlit import SHOTS, settle
from tests.dashboard.conftest import ApiServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]
playwright_api = pytest.importorskip("playwright.sync_api")
# `make screenshots` sets this: the pages' first screens, as the docs show them (docs/dashboard.md)
DOCS_SHOTS = os.environ.get("SPORTS_DOCS_SHOTS")
CHART_TIMEOUT_MS = 120_000  # generous: CI machines may be busy
CHART = ".js-plotly-plot"
TABLE = '[data-testid="stDataFrame"]'
FIRST_VIEW = f"{CHART}, {TABLE}"  # a page opens on its charts or on its grids (page_sections.disclosure)
WIDGETS = ",".join(f'[data-testid="{w}"]' for w in (
    "stSelectbox", "stMultiSelect", "stNumberInput", "stTextInput", "stDateInput", "stCheckbox"))


def _open(browser: Any, url: str) -> Any:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector(FIRST_VIEW, timeout=CHART_TIMEOUT_MS)
    settle(page)
    return page


def _open_chart(page: Any) -> None:
    """Click the box below a table that holds its chart, as an analyst does; wait for the chart."""
    page.locator('[data-testid="stExpander"] summary').filter(has_text="Chart").first.click()
    page.wait_for_selector(CHART, timeout=CHART_TIMEOUT_MS)
    settle(page)


def _view(page: Any) -> dict[str, Any]:
    """What a colleague must see: sidebar widget values and every chart's title and size."""
    settle(page)
    charts = page.evaluate(
        """() => [...document.querySelectorAll('.js-plotly-plot')].map(g => ({
             title: ((g.layout && g.layout.title && g.layout.title.text) || '').replaceAll('<br>', ' '),
             traces: (g._fullData || []).map(t => t._length)}))""")
    widgets = page.locator(f"{WIDGETS.replace(',', ' input,')} input").evaluate_all(
        "els => els.map(e => (e.getAttribute('aria-label') || '') + '=' + (e.type === 'checkbox' ? e.checked : e.value))")
    widgets += page.locator('[data-testid="stMultiSelect"]').all_inner_texts()
    return {"charts": charts, "widgets": widgets}


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    if DOCS_SHOTS:
        page.screenshot(path=str(Path(DOCS_SHOTS) / f"{name}.png"))


def _game() -> int:
    """A finished MLB game of the test store (``dashboard_env`` points services at the test API)."""
    return int(api.games("MLB", status="final", size=1).frame.iloc[0]["ID"])


def test_every_page_draws_its_first_view_and_a_chart(browser: Any, dashboard: str, dashboard_env: ApiServer) -> None:
    """A page led by its records opens on the table alone, its chart one click below; a page led by
    a picture opens on its charts alone, its records a click or a tab away."""
    game = _game()
    player = int(api.players("MLB", size=1).frame.iloc[0]["ID"])
    by_table = {"overview": "", "games": "games", "ratings": "ratings", "projections": "projections",
                "leaders": "leaders", "game": f"games?game={game}", "glossary": "glossary",
                "run-environment": "glossary?level=MLB&tab=Run+environment"}
    by_chart = {"forecasts": "forecasts", "playbyplay": f"playbyplay?game={game}",
                "players": f"players?player={player}"}
    for name, path in {**by_table, **by_chart}.items():
        page = _open(browser, f"{dashboard}/{path}")
        assert page.locator('[data-testid="stException"]').count() == 0, name
        if name in by_table:
            assert page.locator(TABLE).count() >= 1 and page.locator(CHART).count() == 0, name
            _open_chart(page)
            assert re.search(r"[?&](chart_\w+|charts)=true", page.url), "the open chart is in the link, under the page's own name"
        else:
            assert page.locator(CHART).count() >= 1, name
        if name in ("forecasts", "playbyplay", "players"):
            assert page.locator(TABLE).count() == 0, name
        _shot(page, name)
        page.context.close()


def test_shared_link_reproduces_the_view(browser: Any, dashboard: str, dashboard_env: ApiServer) -> None:
    game = _game()
    first = _open(browser, f"{dashboard}/games?level=MLB&game={game}")
    assert first.get_by_text("Box score").count(), "a game link opens its detail"
    _open_chart(first)
    assert any("score over the game" in c["title"] for c in _view(first)["charts"]), "its charts a click below"
    status = first.get_by_role("combobox", name="Status")
    status.click()
    status.fill("Fina")  # the select filters its options as one types; pick the one left
    first.locator('[role="option"]').filter(has_text="Final").wait_for()
    status.press("ArrowDown")
    status.press("Enter")
    first.wait_for_url("**status=Final**", timeout=CHART_TIMEOUT_MS)
    # the run the status began ends before the tab is clicked: a tab clicked while a run is
    # still drawing the page can be drawn back to the one the link names (the address's tab)
    settle(first)
    first.get_by_role("tab", name="Games").click()  # the list, filtered by the API, on its own tab
    first.wait_for_url("**tab=Games**", timeout=CHART_TIMEOUT_MS)
    _open_chart(first)  # below the list
    view = _view(first)
    link = first.url
    assert "key=" not in link and dashboard_env.key not in link
    assert f"game={game}" in link
    assert any("home margin of the listed games" in c["title"] for c in view["charts"]), view
    _shot(first, "shared-original")
    first.context.close()

    second = _open(browser, link)  # a fresh context: no cookies, no session, only the link
    again = _view(second)
    _shot(second, "shared-reopened")
    assert again["widgets"] == view["widgets"]
    assert again["charts"] == view["charts"]
    assert second.get_by_role("tab", name="Games").get_attribute("aria-selected") == "true"
    assert all(all(n for n in c["traces"]) for c in again["charts"]), again
    second.context.close()


def test_win_probability_hover_and_a_shared_play(browser: Any, dashboard: str, dashboard_env: ApiServer) -> None:
    """Open a game's play-by-play, hover its win probability chart to read a play, name a play in
    the sidebar, and reopen the link in a fresh context: the same game, the same play ringed."""
    game = _game()
    line = api.winprob("MLB", game)
    play = line.iloc[len(line) // 2]
    first = _open(browser, f"{dashboard}/playbyplay?level=MLB&game={game}")
    chart = first.locator(CHART).filter(has_text="win probability")
    chart.scroll_into_view_if_needed()
    area = chart.locator(".nsewdrag").first.bounding_box()
    assert area is not None
    first.mouse.move(area["x"] + area["width"] * 0.5, area["y"] + area["height"] * 0.5)
    hover = first.locator(".hoverlayer .hovertext")
    hover.first.wait_for(timeout=CHART_TIMEOUT_MS)
    texts = hover.evaluate_all("els => els.map(e => e.textContent || '')")  # SVG: no innerText
    assert any("WPA" in text for text in texts), ("hover names the play and its WPA", texts)
    box = first.get_by_role("spinbutton", name="Play ID")
    box.fill(str(int(play["Play_ID"])))
    box.press("Enter")
    first.wait_for_url(f"**play={int(play['Play_ID'])}**", timeout=CHART_TIMEOUT_MS)
    view = _view(first)
    link = first.url
    assert "key=" not in link and f"game={game}" in link
    _shot(first, "winprob-original")
    first.context.close()

    second = _open(browser, link)  # a fresh context: only the link
    again = _view(second)
    _shot(second, "winprob-reopened")
    assert again == view
    ringed = second.evaluate(
        """() => [...document.querySelectorAll('.js-plotly-plot')].flatMap(g => (g._fullData || [])
             .filter(t => t.name === 'Selected play').map(t => Array.from(t.y)))""")
    assert ringed == [[float(play["WP_Home"])]]
    assert second.get_by_text(f"Play {int(play['Sequence'])}: ").count() >= 1
    second.context.close()

    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()  # the link on a phone
    phone.goto(link)
    phone.wait_for_selector(CHART, timeout=CHART_TIMEOUT_MS)
    settle(phone)
    sizes = phone.evaluate(
        """() => [...document.querySelectorAll('.js-plotly-plot')].map(g => [
             ((g.layout && g.layout.title && g.layout.title.text) || '').replaceAll('<br>', ' '),
             Math.ceil(g.getBoundingClientRect().right)])""")
    _shot(phone, "winprob-phone")
    assert any("win probability" in title for title, _ in sizes), sizes
    assert all(right <= 390 for _, right in sizes), f"charts wider than the phone: {sizes}"
    phone.context.close()


HEADER_PX = 35  # a grid's header row
HELP_MS = 700  # the pointer rests 600 ms on a heading before its help shows


def _either_side_of_100() -> tuple[int, list[float]]:
    """A demo hitter whose two seasons' OPS+ read differently as text and as numbers (one under
    100, one over: "95" sorts above "130" as text), and those figures."""
    seasons = api.season_ids("MLB", with_games=True)[:2]
    by_player: dict[int, list[float]] = {}
    for season in seasons:
        frame = api.stats("MLB", "player", "OPS+", season=season, qualifiers=True, size=400).frame
        for pid, value in zip(frame["Player_ID"], frame["Value"], strict=True):
            by_player.setdefault(int(pid), []).append(float(value))
    for pid, values in by_player.items():
        if len(values) == len(seasons) and 10 < min(values) < 100 < max(values):
            return pid, values
    raise AssertionError("no demo hitter with an OPS+ on either side of 100")


def _grid_column(grid: Any, heading: str) -> list[str]:
    """The raw values of the column ``heading`` in the grid's drawn rows, top to bottom as
    shown (its cells found by the column's index, whatever columns are in view; a sorted
    column's heading reads with its arrow)."""
    return [str(v) for v in grid.evaluate(
        r"""(g, heading) => {
             const th = [...g.querySelectorAll('[role=columnheader]')].find(  // "↑ OPS+" once sorted
                 h => h.textContent.replace(/^[↑↓]\s*/, '') === heading);
             if (!th) return null;
             const at = th.getAttribute('aria-colindex');
             return [...g.querySelectorAll('[role=row]')].map(r => r.querySelector(
                 `[role=gridcell][aria-colindex="${at}"]`)).filter(c => c).map(c => c.textContent);
           }""", heading) or []]


def _arrow(grid: Any, heading: str) -> str:
    """The sort arrow a heading reads with ("↑ OPS+": ascending), or nothing."""
    for text in grid.locator("[role=columnheader]").all_inner_texts():
        if str(text).endswith(heading) and str(text)[:1] in "↑↓" and str(text) != heading:
            return str(text)[:1]
    return ""


def _column_lines(page: Any, grid: Any) -> list[float]:
    """The x of each line the grid draws between its headings (a canvas: read from its pixels, a
    column of them of one colour other than the heading's own, the whole row high)."""
    from io import BytesIO

    from PIL import Image

    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    assert box is not None
    shot = Image.open(BytesIO(grid.screenshot())).convert("RGB")  # one pixel a CSS pixel
    pixels = shot.load()
    width = shot.size[0]
    band = range(6, HEADER_PX - 6)  # the heading row, clear of its top and bottom borders
    background = pixels[width // 2, 6]
    found: list[float] = []
    for x in range(width):
        column = {pixels[x, y] for y in band}
        if len(column) == 1 and column != {background} and not (found and x - found[-1] <= 2):
            found.append(float(x))
    return [box["x"] + x for x in found]


def _click_header(page: Any, grid: Any, heading: str, help_text: str) -> float:
    """Click the heading ``heading``: the grid is a canvas, so its column is found from the
    lines drawn between headings and the order of the headings, and made sure of by its help,
    which shows once the pointer rests on it. Returns the x clicked."""
    headers = [str(h) for h in grid.locator("[role=columnheader]").all_inner_texts()]
    found = _column_lines(page, grid)  # scrolls the grid into view first
    box = grid.bounding_box()
    assert box is not None
    lines = [box["x"], *[x for x in found if x > box["x"] + 2]]
    centres = [(a + b) / 2 for a, b in itertools.pairwise(lines)]
    at = headers.index(heading)
    y = box["y"] + HEADER_PX / 2
    near = [centres[i] for i in sorted(range(len(centres)), key=lambda i: abs(i - at))[:5]]
    # should the lines not tell the columns, the pointer walks the header row from its right
    walk = [box["x"] + box["width"] - 6 - 24 * k for k in range(int(box["width"] // 24))]
    for x in near + walk:
        page.mouse.move(x, y)
        page.wait_for_timeout(HELP_MS)
        if help_text in " ".join(page.get_by_test_id("stDataFrameTooltipContent").all_inner_texts()):
            page.mouse.click(x, y)
            settle(page)
            return float(x)
        if x in near:
            page.mouse.move(box["x"] - 20, y)  # off the grid: the next heading's help afresh
    raise AssertionError(f"no heading {heading!r} found: {headers} over lines {lines}")


def test_a_click_on_a_stat_heading_sorts_the_seasons_as_numbers(
        browser: Any, dashboard: str, dashboard_env: ApiServer) -> None:
    """A player's batting line, clicked on OPS+: the rows come in the order of the numbers (95
    before 130, and 130 before 95 the other way), not of their text ("130" before "95"); the
    career row, which has none, stays out of the way."""
    player, values = _either_side_of_100()
    help_text = str(api.glossary("MLB", "stats").drop_duplicates("Code").set_index("Code")["Name"]["OPS+"])
    context = browser.new_context(viewport={"width": 2400, "height": 1000})  # every column in view
    page = context.new_page()
    page.goto(f"{dashboard}/players?level=MLB&player={player}&section=Seasons")
    page.wait_for_selector(TABLE, timeout=CHART_TIMEOUT_MS)
    settle(page)
    grid = page.get_by_test_id("stDataFrame").first  # his batting line: a hitter's comes first

    def texts() -> list[str]:
        return [t for t in _grid_column(grid, "OPS+") if t not in ("", "None", "NaN", "nan")]

    before = texts()
    shown = [float(t) for t in before]
    assert len(shown) == len(values) and all(  # his seasons' figures, as served
        abs(a - b) < 0.01 for a, b in zip(sorted(shown), sorted(values), strict=True)), (values, shown)
    assert [float(t) for t in sorted(before)] != sorted(shown), "text would sort alike"
    x = _click_header(page, grid, "OPS+", help_text)
    orders = [(_arrow(grid, "OPS+"), [float(t) for t in texts()])]
    box = grid.bounding_box()
    assert box is not None
    page.mouse.click(x, box["y"] + HEADER_PX / 2)  # the same heading again: the other way
    settle(page)
    orders.append((_arrow(grid, "OPS+"), [float(t) for t in texts()]))
    context.close()
    # the heading's arrow says which way; the figures follow it as numbers ("179" above "51" as
    # text would put them the other way round)
    assert sorted(a for a, _ in orders) == ["↑", "↓"], orders
    for arrow, figures in orders:
        assert figures == sorted(shown, reverse=arrow == "↓"), orders
