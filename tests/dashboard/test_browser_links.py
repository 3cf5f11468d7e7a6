"""In chromium: on every page, change the level and one of the page's own choices, copy the URL,
open it in a fresh context and see the same view; the copy-link of a fresh page names the season
and day it shows; a table's Open links stay in view after a level change; type ordinary and odd
text into every search box on every tab and see no exception; on a phone, wide tables scroll in
their own box, chart titles (wrapped when long) stay inside their chart and clear of its toolbar,
and the level and season are in reach; at 1440 px every column is in view; a CSV download holds a
list's items, not Python's text of it; a click on a row of Leaders, Games, Standings or Projections
opens its record in this tab; players or teams compared reopen from the link; a column of chances
reads as the grid draws it, 56.5%."""
from __future__ import annotations

import re
from urllib.parse import parse_qs, quote_plus, urlsplit
from collections.abc import Callable
from typing import Any

import pandas as pd
import pytest

from services import api
from tests.dashboard._streamlit import open_fresh, settle
from tests.dashboard.conftest import ApiServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]
playwright_api = pytest.importorskip("playwright.sync_api")
TIMEOUT_MS = 120_000
SCROLL_MS = 1500  # the grid redraws its columns after a scroll
EXCEPTION = '[data-testid="stException"]'
SEARCHES = ("GDP", "O'Neil", "Zoë")  # a code, an apostrophe, a diacritic


def _choose(page: Any, label: str, option: str) -> None:
    box = page.get_by_role("combobox", name=label, exact=True)
    box.click()
    box.fill(option)
    page.locator('[role="option"]').filter(has_text=re.compile(f"^{re.escape(option)}$")).first.click()
    settle(page)


def _tab(page: Any, label: str) -> None:
    page.get_by_role("tab", name=label, exact=True).click()
    settle(page)


def _unfold(page: Any, label: str) -> None:
    """Open the box below a chart or a table whose label holds ``label`` (page_sections.disclosure)."""
    page.locator('[data-testid="stExpander"] summary').filter(has_text=label).first.click()  # after its icon
    settle(page)


def _type(page: Any, label: str, text: str) -> None:
    box = page.get_by_role("textbox", name=label)
    box.fill(text)
    box.press("Enter")
    settle(page)


def _view(page: Any) -> dict[str, Any]:
    """What a colleague must see: title, tab, table headers, chart titles, every sidebar choice."""
    return {
        "title": page.locator("h1").all_inner_texts(),
        "tab": page.locator('[role="tab"][aria-selected="true"]').all_inner_texts(),
        "headers": page.evaluate("""() => [...document.querySelectorAll('[data-testid="stDataFrame"]')].map(
            d => [...d.querySelectorAll('[role="columnheader"], th')].map(e => e.textContent))"""),
        "charts": page.evaluate("""() => [...document.querySelectorAll('.js-plotly-plot')].map(
            g => ((g.layout && g.layout.title && g.layout.title.text) || '')
                 .replaceAll('<br>', ' ').replace(/<[^>]*>/g, ''))"""),  # the words, as one line
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
                                page.get_by_role("spinbutton", name="Game ID").press("Enter"), settle(page)),
    "players": lambda page: (_tab(page, "Teams"), _choose(page, "Team", _nba_team())),
    "leaders": lambda page: _choose(page, "Leaders of", "team"),
    "glossary": lambda page: _tab(page, "Stat codes"),
}


@pytest.mark.parametrize("path", list(STEPS))
def test_a_changed_view_reopens_the_same_from_its_link(browser: Any, dashboard: str, dashboard_env: ApiServer,
                                                       path: str) -> None:
    first = open_fresh(browser, f"{dashboard}/{path}")
    _choose(first, "Level", "NBA")
    STEPS[path](first)
    assert first.locator(EXCEPTION).count() == 0
    link = first.url
    assert "level=NBA" in link and dashboard_env.key not in link
    seen = _view(first)
    first.context.close()
    second = open_fresh(browser, link)  # a fresh context: no cookies, no session, only the link
    again = _view(second)
    second.context.close()
    assert again == seen
    assert seen["title"] and "Level=NBA" in seen["choices"], seen


def _copied_link(page: Any) -> str:
    """The link the page's "Copy link to this view" box offers."""
    page.get_by_role("button", name="Copy link to this view").click()
    code = page.get_by_test_id("stPopoverBody").get_by_test_id("stCode")
    code.wait_for(timeout=TIMEOUT_MS)
    return str(code.inner_text()).strip()


def test_the_copied_link_names_the_season_and_day_a_fresh_page_shows(browser: Any, dashboard: str,
                                                                      dashboard_env: ApiServer) -> None:
    season = api.season_ids("NHL", with_games=True)[0]
    day = str(api.projections("NHL", season=season).frame["Date"].max())
    first = open_fresh(browser, f"{dashboard}/projections?level=NHL")
    link = _copied_link(first)
    assert f"season={season}" in link and f"asof={day}" in link, "a month later, the same season and day"
    assert dashboard_env.key not in link
    seen, as_of = _view(first), [_as_of(first)]
    first.context.close()
    second = open_fresh(browser, link)  # a fresh context: no cookies, no session, only the link
    again, said = _view(second), second.locator("body").inner_text()
    as_of.append(_as_of(second))
    second.context.close()
    assert as_of == ["", day], "the As of box now holds the day the first page showed as the newest"
    assert _without_as_of(again) == _without_as_of(seen)
    assert f"Season={season}" in again["choices"] and f"As of the end of {day}" in said


def _as_of(page: Any) -> str:
    return str(page.get_by_test_id("stDateInput").locator("input").input_value())


def _without_as_of(view: dict[str, Any]) -> dict[str, Any]:
    """The view but the As of box (its input has no label: its entry reads "=<day>")."""
    return {**view, "choices": [c for c in view["choices"] if not c.startswith("=")]}


def _headers_in_view(page: Any) -> list[str]:
    """The first table's column headers the grid draws: those in view (it draws no other)."""
    return [str(h) for h in page.get_by_test_id("stDataFrame").first.locator("[role=columnheader]")
            .all_inner_texts()]


def test_the_open_column_stays_in_view_after_a_level_change(browser: Any, dashboard: str,
                                                            dashboard_env: ApiServer) -> None:
    page = open_fresh(browser, f"{dashboard}/projections")
    for level in ("NBA", "FC"):  # each keeps the grid of the level before, wider than its box
        _choose(page, "Level", level)
        assert _headers_in_view(page)[0] == "Open", (level, _headers_in_view(page))
        page.get_by_test_id("stDataFrame").first.hover()
        page.mouse.wheel(2000, 0)  # scroll the table to its right end
        page.wait_for_timeout(SCROLL_MS)
        assert "Open" in _headers_in_view(page), (level, _headers_in_view(page))
    page.context.close()


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
        glossary = open_fresh(browser, f"{dashboard}/glossary?level={level}")
        for tab in ("Levels", "Sublevels", "Stat codes", "Nations"):
            _tab(glossary, tab)
            failures += _search_everywhere(glossary, "Search")
        glossary.context.close()
    players = open_fresh(browser, f"{dashboard}/players?level=MLB")
    failures += _search_everywhere(players, "Search players")
    players.context.close()
    game = int(api.games("MLB", status="final", size=1).frame.iloc[0]["ID"])
    plays = open_fresh(browser, f"{dashboard}/playbyplay?level=MLB&game={game}")
    for tab in [t for t in plays.get_by_role("tab").all_inner_texts() if t]:
        _tab(plays, tab)
        failures += _search_everywhere(plays, "Player")
    plays.context.close()
    assert not failures, failures


NARROW = {"width": 820, "height": 1000}


def _found_in_grid(page: Any, text: str) -> int:
    """How many cells of the first grid read ``text``, as the grid draws them (its own search:
    it matches the printed cell, which the page's DOM does not hold: the grid is a canvas)."""
    status = page.locator(".gdg-search-status")
    if not status.count():  # open the grid's search box (its toolbar shows on hover)
        # a click event on the button itself: a pointer click lands on whatever overlaps the
        # fading toolbar at that moment (the grid's scroller, the chart below it)
        page.get_by_test_id("stDataFrame").first.hover()
        page.locator('[data-testid="stElementToolbar"] button[aria-label="Search"]').first.dispatch_event("click")
        status.first.wait_for(timeout=5_000)
    page.keyboard.press("Control+a")  # the box has the focus: the text replaces the last search
    page.keyboard.type(text)
    page.wait_for_timeout(400)
    said = " ".join(status.all_inner_texts())
    found = re.search(r"(\d+) results?", said)
    assert found, said
    return int(found.group(1))


def test_forecasts_fit_a_narrow_window_and_read_chances_as_percents(browser: Any, dashboard: str,
                                                                    dashboard_env: ApiServer) -> None:
    """At 820 px the headline figures are whole, and a column of chances reads as the grid draws
    it (a canvas: found by the grid's own search), one decimal percent in every row."""
    page = browser.new_context(viewport=NARROW).new_page()
    page.goto(f"{dashboard}/forecasts?level=MLB&tab=Lines+by+season")
    page.wait_for_selector('[data-testid="stMetricValue"]', timeout=TIMEOUT_MS)
    settle(page)
    clipped = page.evaluate("""() => [...document.querySelectorAll('[data-testid="stMetricValue"]')].map(e => {
        const range = document.createRange(); range.selectNodeContents(e);
        return [e.innerText, Math.ceil(range.getBoundingClientRect().width), e.clientWidth]; })
        .filter(([, text, box]) => text > box)""")
    headers = _headers_in_view(page)
    cells = page.get_by_test_id("stDataFrame").first.locator('[role="row"]').evaluate_all(  # raw values
        "rows => rows.map(r => [...r.querySelectorAll('[role=gridcell]')].map(c => c.textContent)).filter(r => r.length)")
    printed = [f"{float(row[headers.index('Correct')]):.1%}" for row in cells]  # 0.565 -> 56.5%
    found = {text: _found_in_grid(page, text) for text in ("%", *sorted(set(printed)))}
    page.context.close()
    assert not clipped, f"figures cut short at {NARROW['width']} px: {clipped}"
    assert headers == ["Season", "Line", "Correct", "Games"] and cells, (headers, cells)
    assert found["%"] == len(cells), (found, len(cells))  # a percent in every row, in no other column
    # each reads with one decimal, never 56.52% nor 57%
    assert [t for t in set(printed) if found[t] < printed.count(t)] == [], (found, printed)


PHONE = {"width": 390, "height": 844}  # a phone held upright (the page's whole height)
PHONE_SAFARI = {"width": 390, "height": 700}  # the same phone, less the browser's own bars


def _phone(browser: Any, url: str, viewport: dict[str, int] = PHONE) -> Any:
    page = browser.new_context(viewport=viewport, has_touch=True).new_page()
    page.goto(url)
    page.wait_for_selector("h1", timeout=TIMEOUT_MS)
    settle(page)
    return page


def _scroll_cues(page: Any) -> list[tuple[int, str]]:
    """Per grid: how far its columns run past its box (pixels), and the opacity of the cue at
    its right edge (``layout.NARROW_STYLE``: a fade and an arrow while more lies to the right)."""
    return [(int(o), str(c)) for o, c in page.evaluate("""() => [...document.querySelectorAll(
        '[data-testid="stDataFrame"]')].map(d => { const s = d.querySelector('.dvn-scroller');
        return [s.scrollWidth - s.clientWidth, getComputedStyle(d, '::after').opacity]; })""")]


def test_a_table_wider_than_a_phone_shows_that_it_scrolls(browser: Any, dashboard: str,
                                                          dashboard_env: ApiServer) -> None:
    """At 390 px the Glossary's terms run past the screen: a cue at the grid's right edge says
    so until the grid is scrolled to its end; Forecasts' four columns fit and show none."""
    wide = _phone(browser, f"{dashboard}/glossary?level=MLB&tab=Terms")
    first = _scroll_cues(wide)
    wide.evaluate("() => document.querySelectorAll('.dvn-scroller').forEach(s => s.scrollLeft = s.scrollWidth)")
    wide.wait_for_timeout(SCROLL_MS)
    scrolled = _scroll_cues(wide)
    wide.context.close()
    narrow = _phone(browser, f"{dashboard}/forecasts?level=MLB&tab=Lines+by+season")
    fits = _scroll_cues(narrow)
    narrow.context.close()
    assert first and first[0][0] > 0 and first[0][1] == "1", first
    assert [c for _, c in scrolled] == ["0"] * len(scrolled), scrolled
    assert fits and fits[0] == (0, "0"), fits


def test_line_and_box_scores_scroll_in_their_own_box_on_a_phone(browser: Any, dashboard: str,
                                                                dashboard_env: ApiServer) -> None:
    game = int(api.games("MLB", status="final", size=1).frame.iloc[0]["ID"])
    page = _phone(browser, f"{dashboard}/games?level=MLB&tab=Game+detail&game={game}")
    page.get_by_text("Box score", exact=True).wait_for(timeout=TIMEOUT_MS)
    # the line score (its first heading is Team), scrolled to its end
    line = page.evaluate("""() => [...document.querySelectorAll('[data-testid="stMarkdownContainer"] table')]
        .filter(t => t.querySelector('th').innerText.trim() === 'Team')
        .map(t => { const wider = t.scrollWidth > t.clientWidth; t.scrollLeft = t.scrollWidth;
                    const last = [...t.querySelectorAll('th')].pop().getBoundingClientRect();
                    return {wider: wider, right: t.getBoundingClientRect().right, lastRight: last.right,
                            lastLeft: last.left, scrolled: t.scrollLeft}; })""")
    # the box score's grids (they scroll inside themselves)
    grids = page.evaluate("""() => [...document.querySelectorAll('[data-testid="stDataFrame"]')]
        .map(g => g.getBoundingClientRect().right)""")
    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    page.context.close()
    assert width[0] <= width[1], f"the page pans sideways: {width}"
    assert len(line) == 1 and line[0]["wider"], f"a line score wider than a phone: {line}"
    assert line[0]["right"] <= PHONE["width"] and line[0]["scrolled"] > 0, line  # its box stays on screen
    assert 0 <= line[0]["lastLeft"] and line[0]["lastRight"] <= PHONE["width"] + 1, line  # the R/H/E in reach
    assert len(grids) >= 4 and max(grids) <= PHONE["width"], grids  # both sides' batting and pitching


def _who(names: Any, ids: Any) -> str:
    """The Compare page's ``who`` parameters for players (their "Name (ID)" labels)."""
    return "".join(f"&who={quote_plus(f'{n} ({int(i)})')}" for n, i in zip(names, ids, strict=True))


def test_chart_titles_fit_a_phone_clear_of_the_toolbars(browser: Any, dashboard: str,
                                                       dashboard_env: ApiServer) -> None:
    """Every chart's title (long ones wrapped) inside its chart, below the toolbar that shows on
    a tap, on a game's detail, Forecasts' Calibration, Scores over time and In-game tabs and a
    comparison of two careers."""
    game = int(api.games("MLB", status="final", size=1).frame.iloc[0]["ID"])
    leaders = api.stats("MLB", "player", "HR", size=2).frame
    paths = (f"games?level=MLB&tab=Game+detail&game={game}&charts=true", "forecasts?level=MLB",
             "forecasts?level=MLB&tab=Scores+over+time", "forecasts?level=MLB&tab=In-game",
             f"compare?level=MLB{_who(leaders['Name'], leaders['Player_ID'])}")
    page = _phone(browser, f"{dashboard}/{paths[0]}")
    seen: dict[str, list[dict[str, Any]]] = {}
    for path in paths:
        if path != paths[0]:  # one phone, page after page
            page.goto(f"{dashboard}/{path}")
            page.wait_for_selector(".js-plotly-plot", timeout=TIMEOUT_MS)
            settle(page)
        charts = page.locator(".js-plotly-plot")
        seen[path] = []
        for k in range(charts.count()):
            chart = charts.nth(k)
            chart.scroll_into_view_if_needed()
            chart.hover()
            page.wait_for_timeout(300)
            seen[path].append(chart.evaluate("""e => { const box = x => { const b = x.getBoundingClientRect();
                    return [b.left, b.top, b.right, b.bottom]; };
                const title = e.querySelector('.gtitle');
                return {title: title.textContent, lines: Math.max(1, title.querySelectorAll('tspan.line').length),
                        box: box(title), bar: box(e.querySelector('.modebar')), chart: box(e)}; }"""))
    page.context.close()
    covered = [(c["title"], c["box"], c["bar"]) for shown in seen.values() for c in shown
               if c["box"][0] < c["bar"][2] and c["bar"][0] < c["box"][2]
               and c["box"][1] < c["bar"][3] and c["bar"][1] < c["box"][3]]
    outside = [(c["title"], c["box"], c["chart"]) for shown in seen.values() for c in shown
               if c["box"][0] < c["chart"][0] or c["box"][2] > c["chart"][2]]
    assert [len(shown) >= n for shown, n in zip(seen.values(), (2, 1, 1, 1, 1), strict=True)] == [True] * 5, \
        {p: [c["title"] for c in shown] for p, shown in seen.items()}
    assert not covered, f"the toolbar covers these titles at {PHONE['width']} px: {covered}"
    assert not outside, f"titles past their chart's edge at {PHONE['width']} px: {outside}"
    for path in list(seen)[1:]:  # a long title wraps rather than runs off the screen
        assert any(c["lines"] > 1 for c in seen[path]), (path, [c["title"] for c in seen[path]])


def test_level_and_season_are_in_reach_in_a_phones_sidebar(browser: Any, dashboard: str,
                                                           dashboard_env: ApiServer) -> None:
    page = _phone(browser, f"{dashboard}/games?level=MLB", PHONE_SAFARI)
    page.locator('[data-testid="stExpandSidebarButton"]').click()
    page.wait_for_timeout(500)
    boxes = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        '[data-testid="stSidebar"] [data-testid="stSelectbox"]')].map(e => [e.querySelector('label').innerText.trim(),
        e.getBoundingClientRect().bottom]))""")
    page.context.close()
    assert boxes["Level"] <= PHONE_SAFARI["height"], boxes
    assert boxes["Season"] <= PHONE_SAFARI["height"], boxes


DESKTOP = {"width": 1440, "height": 900}


def test_no_column_is_cut_off_at_1440_px(browser: Any, dashboard: str, dashboard_env: ApiServer) -> None:
    page = browser.new_context(viewport=DESKTOP).new_page()
    cut = {}
    for path, last in (("projections?level=MLB", "Title %"), ("projections?level=FC", "Title %"),
                       ("glossary?level=MLB&tab=Stat+codes", "Qualifier")):
        page.goto(f"{dashboard}/{path}")
        page.wait_for_selector('[data-testid="stDataFrame"]', timeout=TIMEOUT_MS)
        settle(page)
        grid = page.get_by_test_id("stDataFrame").first
        assert _headers_in_view(page)[-1] == last, (path, _headers_in_view(page))
        # the grid scrolls sideways only when its columns are wider than its box
        over = grid.evaluate("g => { const s = g.querySelector('.dvn-scroller'); return s.scrollWidth - s.clientWidth; }")
        if over > 0:
            cut[path] = over
    page.context.close()
    assert not cut, f"columns past the table's right edge at {DESKTOP['width']} px (pixels): {cut}"


def test_a_csv_download_holds_no_python_list_text(browser: Any, dashboard: str, dashboard_env: ApiServer) -> None:
    levels = api.glossary("MLB", "levels")
    page = open_fresh(browser, f"{dashboard}/glossary?level=MLB&tab=Levels")
    with page.expect_download(timeout=TIMEOUT_MS) as download:
        page.get_by_test_id("stDownloadButton").first.locator("button").click()
    saved = pd.read_csv(download.value.path(), keep_default_na=False)
    page.context.close()
    assert list(saved["ID"]) == list(levels["ID"])
    for served, written in zip(levels["Endpoints"], saved["Endpoints"], strict=True):
        assert written == ", ".join(served), written  # "seasons, teams, ...", not "['seasons', 'teams']"


def _click_first_row(page: Any) -> None:
    """One click in the middle of the first table's first row (a cell, not its checkbox)."""
    grid = page.get_by_test_id("stDataFrame").first
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + 52)  # a header row of 35 px, then the row
    settle(page)


def _sidebar_value(page: Any, label: str) -> str:
    return str(page.locator(f'[data-testid="stSidebar"] input[aria-label="{label}"]').input_value())


def test_a_click_on_a_leaders_row_opens_the_player_on_that_season_in_this_tab(
        browser: Any, dashboard: str, dashboard_env: ApiServer) -> None:
    season = api.season_ids("MLB", with_games=True)[1]  # not the newest: the season must travel
    leader = api.stats("MLB", "player", "HR", season=season, size=1).frame.iloc[0]
    page = open_fresh(browser, f"{dashboard}/leaders?level=MLB&stat=HR&season={season}")
    _click_first_row(page)
    tabs, url = len(page.context.pages), page.url
    opened = (page.locator("h3").first.inner_text(), _sidebar_value(page, "Player ID"),
              _sidebar_value(page, "Player season"))
    # the profile's "Find a player" box is closed, its table not even asked for; a search opens it
    find = page.get_by_test_id("stExpander").filter(has_text="Find a player")
    closed = (find.locator("details[open]").count(), find.get_by_test_id("stDataFrame").count())
    surname = str(leader["Name"]).split()[-1]
    _type(page, "Search players", surname)
    found = (find.locator("details[open]").count(), _found_in_grid(page, surname))
    page.context.close()
    assert tabs == 1 and "/players?" in url, url
    assert opened == (str(leader["Name"]), str(int(leader["Player_ID"])), str(season))
    assert closed == (0, 0), closed
    assert found[0] == 1 and found[1] >= 1, found


def test_a_game_opens_its_play_by_play_and_back_to_its_box_score(browser: Any, dashboard: str,
                                                                   dashboard_env: ApiServer) -> None:
    game = _nba_game()
    page = open_fresh(browser, f"{dashboard}/games?level=NBA&game={game}")
    page.get_by_role("button", name="Play-by-play of this game").click()
    settle(page)
    plays = (page.url, page.locator("h1").first.inner_text())
    page.get_by_role("button", name="Box score and game detail").click()
    settle(page)
    back = (page.url, page.locator('[role="tab"][aria-selected="true"]').all_inner_texts())
    pages = len(page.context.pages)
    page.context.close()
    assert pages == 1
    assert "/playbyplay?" in plays[0] and f"game={game}" in plays[0], plays
    assert "/games?" in back[0] and f"game={game}" in back[0] and back[1] == ["Game detail"], back


def test_a_shared_play_by_play_opens_its_box_score_under_the_games_season(browser: Any, dashboard: str,
                                                                          dashboard_env: ApiServer) -> None:
    older = api.season_ids("NBA", with_games=True)[1]  # not the newest: the game's season must travel
    game = str(int(api.games("NBA", season=older, status="final", size=1).frame.iloc[0]["ID"]))
    page = open_fresh(browser, f"{dashboard}/playbyplay?level=NBA&game={game}")
    page.get_by_role("button", name="Box score and game detail").click()
    settle(page)
    back = (page.url, _sidebar_value(page, "Season"))
    page.context.close()
    assert f"game={game}" in back[0] and back[1] == str(older), back  # its season's box and list


def _pick(page: Any, label: str, option: str) -> None:
    """Choose ``option`` in a multiselect and close its menu (it stays open for more picks)."""
    page.get_by_role("combobox", name=label, exact=True).click()
    page.locator('[role="option"]').filter(has_text=option).first.click()
    page.keyboard.press("Escape")
    settle(page)


def _picks(page: Any, label: str) -> list[str]:
    """The chips a multiselect shows, in the order picked."""
    box = page.locator('[data-testid="stMultiSelect"]').filter(has=page.get_by_text(label, exact=True)).first
    tags = box.locator('.react-aria-ComboBox [data-tag]')  # the chips drawn (a template holds a copy)
    return [str(t) for t in tags.evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")]


def _chart_lines(page: Any) -> list[list[str]]:
    return [list(names) for names in page.evaluate(
        "() => [...document.querySelectorAll('.js-plotly-plot')].map(g => (g.data || []).map(t => t.name))")]


def _shown_and_reopened(browser: Any, page: Any) -> tuple[tuple[dict[str, Any], list[Any]], str,
                                                            tuple[dict[str, Any], list[Any]]]:
    """The view and chart lines ``page`` shows, its copied link, and the view and lines of that
    link opened in a fresh context (no cookies, no session, only the link); ``page`` is closed."""
    shown = (_view(page), _chart_lines(page))
    link = _copied_link(page)
    page.context.close()
    fresh = open_fresh(browser, link)
    reopened = (_view(fresh), _chart_lines(fresh))
    fresh.context.close()
    return shown, link, reopened


def test_compare_two_players_and_reopen_the_comparison_from_its_link(browser: Any, dashboard: str,
                                                                      dashboard_env: ApiServer) -> None:
    leaders = api.stats("MLB", "player", "HR", size=2).frame
    names = [str(n) for n in leaders["Name"]]
    page = open_fresh(browser, f"{dashboard}/compare?level=MLB")
    for name in names:  # each found by a search of its own: the first pick stays while the second is found
        _type(page, "Find players", name)
        _pick(page, "Players", name)
    _unfold(page, "Season lines")
    address, chosen = page.url, _picks(page, "Players")
    before = (_view(page), _chart_lines(page))
    page.reload()  # the address bar as it stands after the picks: a colleague's reload
    page.wait_for_selector("h1", timeout=TIMEOUT_MS)
    settle(page)
    after, again = (_view(page), _chart_lines(page)), page.url
    (seen, lines), link, reopened = _shown_and_reopened(browser, page)
    assert parse_qs(urlsplit(address).query)["who"] == [str(int(i)) for i in leaders["Player_ID"]], address
    assert after == before and again == address, "a reload shows the same comparison"
    # each pick reads its name and seasons, never its ID (the ID is in the address alone)
    assert [c.split(" (")[0] for c in chosen] == names and re.fullmatch(r".+ \(\d{4}.*\)", chosen[0]), chosen
    assert not any(str(int(i)) in " ".join(chosen) for i in leaders["Player_ID"]), chosen
    assert "lines=true" in link, "the open season lines are in the link"
    assert lines == [names], "one chart, a line per player"
    assert names[0] in seen["charts"][0] and names[1] in seen["charts"][0]
    assert seen["headers"] and seen["headers"][0][:2] == ["Player", "Season"], seen["headers"]
    assert reopened == (seen, lines)


def test_a_new_season_keeps_the_chosen_teams_it_has(browser: Any, dashboard: str, dashboard_env: ApiServer) -> None:
    newest, older = api.season_ids("NBA", with_games=True)[:2]
    in_older = set(api.teams("NBA", older)["Name"].astype(str))
    # the two lowest rated of the newest season that also played the older one: never its default
    kept = [str(t) for t in api.elo("NBA", season=newest)["Team"] if str(t) in in_older][-2:]
    picked = "".join(f"&teams={quote_plus(t)}" for t in kept)
    page = open_fresh(browser, f"{dashboard}/ratings?level=NBA&season={newest}&tab=Over+the+season{picked}")
    _choose(page, "Season", str(older))
    chosen = page.locator('[data-testid="stSidebar"] [data-testid="stMultiSelect"]').first.inner_text()
    lines, url = _chart_lines(page), page.url
    page.context.close()
    assert f"season={older}" in url
    assert [t for t in kept if t in chosen] == kept, chosen
    assert sorted(lines[0]) == sorted(kept), "the chart draws the kept teams in the new season"


def test_enter_in_a_date_box_applies_the_day(browser: Any, dashboard: str, dashboard_env: ApiServer) -> None:
    season = api.season_ids("NBA", with_games=True)[1]
    days = sorted(str(d) for d in api.elo("NBA", season=season)["Date"].dropna().unique())
    day = days[len(days) // 2]  # a day inside the season, not its newest
    page = open_fresh(browser, f"{dashboard}/ratings?level=NBA&season={season}&chart=true")  # the chart names the day
    page.get_by_role("group", name="Snapshot date").get_by_role("spinbutton").first.click()
    page.keyboard.type(day.replace("-", ""))  # year, month, day
    page.keyboard.press("Enter")
    settle(page)
    url, charts = page.url, _view(page)["charts"]
    page.context.close()
    assert f"snapshot={day}" in url, url
    assert charts and charts[0] == f"NBA {api.season_name('NBA', season)}: ELO rankings on {day}", charts


def test_a_click_on_a_game_of_the_list_opens_it(browser: Any, dashboard: str, dashboard_env: ApiServer) -> None:
    season = api.season_ids("NBA", with_games=True)[1]
    first = api.all_games("NBA", season=season).frame.iloc[0]  # the list opens on every phase, newest first
    page = open_fresh(browser, f"{dashboard}/games?level=NBA&season={season}&tab=Games")
    _click_first_row(page)
    url, tab = page.url, page.locator('[role="tab"][aria-selected="true"]').all_inner_texts()
    page.context.close()
    assert f"game={int(first['ID'])}" in url and tab == ["Game detail"], (url, tab)


def test_a_click_on_a_standings_or_projections_row_opens_the_team_in_this_tab(
        browser: Any, dashboard: str, dashboard_env: ApiServer) -> None:
    season = api.season_ids("MLB", with_games=True)[1]  # not the newest: the season must travel
    table = api.standings("MLB", season=season).frame
    division = table.iloc[0]["Division"]  # the first table: the service's first division
    leader = table[table["Division"] == division].sort_values("DivRank").iloc[0]["Team"]
    projected = api.projections("MLB", season=season).frame.iloc[0]["Team"]  # the service's order
    opened = []
    page = open_fresh(browser, f"{dashboard}/standings?level=MLB&season={season}")
    for path in (f"standings?level=MLB&season={season}", f"projections?level=MLB&season={season}"):
        if "standings" not in path:
            page.goto(f"{dashboard}/{path}")
            page.wait_for_selector('[data-testid="stDataFrame"]', timeout=TIMEOUT_MS)
            settle(page)
        _click_first_row(page)
        opened.append((len(page.context.pages), page.url.split("?")[0].rsplit("/", 1)[-1],
                       page.locator('[role="tab"][aria-selected="true"]').all_inner_texts(),
                       page.locator("h3").first.inner_text(), _sidebar_value(page, "ELO season")))
    page.context.close()
    # the team on its seasons, the season travelled to the ELO's picker
    assert opened == [(1, "players", ["Teams", "Seasons"], str(leader), str(season)),
                      (1, "players", ["Teams", "Seasons"], str(projected), str(season))], opened


def test_compare_two_teams_and_reopen_the_comparison_from_its_link(browser: Any, dashboard: str,
                                                                   dashboard_env: ApiServer) -> None:
    season = api.season_ids("NBA", with_games=True)[1]  # not the newest: the link must name it
    names = sorted(api.teams("NBA", season)["Name"].astype(str))[:2]
    page = open_fresh(browser, f"{dashboard}/compare?level=NBA&compare=teams&season={season}")
    for name in names:
        _pick(page, "Teams", name)
    _unfold(page, f"{season} season lines")
    (seen, lines), link, reopened = _shown_and_reopened(browser, page)
    assert "compare=teams" in link and f"season={season}" in link, link
    assert lines == [names], "one chart, a line per team"
    assert seen["charts"] == [f"NBA {api.season_name('NBA', season)}: ELO over the season"], seen["charts"]
    assert seen["headers"] and seen["headers"][0][:4] == ["Open", "Team", "Wins", "Losses"], seen["headers"]
    assert reopened == (seen, lines)


def _chart_box(page: Any) -> tuple[int, int]:
    """The page's chart box below its table: (open, charts drawn in the page)."""
    box = page.get_by_test_id("stExpander").filter(has_text="Chart:")
    return box.locator("details[open]").count(), page.locator(".js-plotly-plot").count()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1440", "390"])
def test_a_chart_box_opened_on_one_page_stays_shut_on_the_next(browser: Any, dashboard: str,
                                                                dashboard_env: ApiServer,
                                                                viewport: dict[str, int]) -> None:
    page = browser.new_context(viewport=viewport, has_touch=viewport is PHONE).new_page()
    page.goto(f"{dashboard}/games?level=MLB")
    page.wait_for_selector("h1", timeout=TIMEOUT_MS)
    settle(page)
    _unfold(page, "Chart:")
    opened = _chart_box(page)
    if viewport is PHONE:  # the pages' list is in the sidebar, folded away on a phone
        page.locator('[data-testid="stExpandSidebarButton"]').click()
        page.wait_for_timeout(500)
    page.get_by_test_id("stSidebarNav").get_by_role("link", name="Leaders").click()
    page.wait_for_url(re.compile(r"/leaders"), timeout=TIMEOUT_MS)
    settle(page)
    next_page = (page.locator("h1").inner_text(), _chart_box(page))
    # a link to a chart box opened in this same tab (the session that showed Leaders) opens it,
    # the link written with today's name and with the name every page shared before
    linked = []
    for name in ("chart_glossary", "chart"):
        page.goto(f"{dashboard}/glossary?level=MLB&tab=Stat+codes&{name}=true")
        page.wait_for_selector("h1", timeout=TIMEOUT_MS)
        settle(page)
        linked.append(_chart_box(page))
    page.context.close()
    assert opened[0] == 1 and opened[1] >= 1, opened
    assert "leaders" in next_page[0].lower() and next_page[1] == (0, 0), next_page
    assert all(box[0] == 1 and box[1] >= 1 for box in linked), linked


def test_one_click_on_a_search_result_opens_the_player(browser: Any, dashboard: str,
                                                       dashboard_env: ApiServer) -> None:
    leader = api.stats("MLB", "player", "HR", size=1).frame.iloc[0]
    surname = str(leader["Name"]).split()[-1]
    page = open_fresh(browser, f"{dashboard}/players?level=MLB")
    _type(page, "Search players", surname)
    _click_first_row(page)  # the search's table, above the leaders'
    opened = (_sidebar_value(page, "Player ID"), page.locator("h3").first.inner_text(), page.url)
    page.context.close()
    assert opened[0] and f"player={opened[0]}" in opened[2], opened
    assert surname in opened[1], opened
