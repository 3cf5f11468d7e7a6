"""Dashboard speed as an analyst waits for it: every page's first chart, and a filter's redraw.

For every page of app_pages/ (each on newly started servers: the dashboard's and a bare one-chart
Streamlit page's, measured side by side so that load on the machine hits both alike):

- cold: the first visit to the newly started server, from an empty browser (nothing cached);
- warm: a new tab (a new session) of a browser that has shown the page, server caches warm;
- fresh: a new browser context (no browser cache, no session) on the warm server: what a
  colleague opening a shared link waits for; and, in the same visit, "useful": until the page
  first shows the record the link names (a game's score line, a player's name, the players
  compared, a page's headline figures), or its first chart or table if that comes sooner. Text
  draws about 1 s in; a chart waits for plotly.js to be parsed too (the pages' charts: its
  cartesian build, 1.5 MB, components/chart_view.py; the baseline's: st.plotly_chart's 4.7 MB);
- filter change: in an open page, a choice made through the real widget (a season, a team, a
  stat, a period, a search), timed in the browser from the press that commits it until the
  chart or table shows the new content (its title or a cell naming the new choice, or its data
  changed), not just until the app stops running; and until the app's last message before
  then (``rerun``: the rest of the wait is the browser drawing).

Prints each figure's median and its ratio to the baseline, then one line per target: a fresh
page shows something useful (its first chart or table, the records a link names) within 3 s,
its first chart within 2 s, and a filter change's redraw within 1 s (medians, absolute),
warm <= 1.3x and cold <= 1.5x the baseline, and a services call answered from the cache in
< 1 ms. The machine is shared: the ratios to the baseline measured in the same run are the fair
figure, the absolute times hold only on a quiet machine. The "first chart" of a page that opens
on a table (Overview, Games, Ratings, Standings, Projections, Leaders, Glossary: their charts are
a click below) is its first table, cells drawn. The walk fails if a page of app_pages/ is not
in it. The API is the one named by SPORTS_API_URL/SPORTS_API_KEY when both are set, otherwise a
small simulated store is built and served on loopback.

With ``--against DIR`` (another checkout of the dashboard, e.g. ``git worktree add /tmp/before
<commit>``), each page's fresh visits alternate with the same page of DIR's dashboard, served over
the same API: the medians of both and each pair's ratio (this code / DIR's), the paired figure of
a change.

    .venv/bin/python bench/dashboard.py [--runs N] [--changes N] [--pages standings,compare] [--against DIR]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright

from tests.demo_api import build_store, serve
from tests.dashboard._streamlit import CHROMIUM, CHROMIUM_ARGS, streamlit_server
from tests.dashboard.conftest import free_port

WARM_TARGET, COLD_TARGET, CACHE_TARGET_MS = 1.3, 1.5, 1.0
FRESH_TARGET_MS, CHANGE_TARGET_MS = 2000.0, 1000.0  # what an analyst waits for in an open session
USEFUL_TARGET_MS = 3000.0  # a colleague's shared link, in a new browser: something useful by then
RUNS = 5  # warm and fresh visits each, alternated with the baseline's: 20 visits a page
CHANGES = 5  # filter changes per page, back and forth between two choices
CACHE_CALLS = 1000
TIMEOUT_MS = 60_000
QUIET_MS = 200  # a page counts as settled once the app has stopped running twice this long
VIEWPORT = {"width": 1400, "height": 1000}
LEVEL = "MLB"
CHART = ".js-plotly-plot"
TABLE = '[data-testid="stDataFrame"] [role="gridcell"]'  # the grid's cells, in its screen-reader DOM
# Useful before a chart: the record a link names (a game's score, a player's name: st.subheader),
# a page's headline figures (st.metric), a summary table in Markdown
HEADLINE = '[data-testid="stMain"] h3'
METRIC = '[data-testid="stMain"] [data-testid="stMetricValue"]'
SUMMARY = '[data-testid="stMain"] [data-testid="stMarkdownContainer"] table'
BASELINE_APP = '''
import pandas as pd
import plotly.express as px
import streamlit as st

frame = pd.DataFrame({"x": range(50), "y": [i * i for i in range(50)]})
st.title("Baseline")
st.plotly_chart(px.line(frame, x="x", y="y"))
'''
# What a chart or table shows: ``[content, words]``, where content is a chart's title and the first
# points of its traces, or a table's first cells (a redraw with new content changes it), and words
# what names the view: the chart's title, or the table's cells.
CONTENT_JS = """([watch, index]) => {
  const main = document.querySelector('[data-testid="stMain"]') || document;
  if (watch === 'chart') {
    const g = main.querySelectorAll('.js-plotly-plot')[index];
    if (!g || !g.data) return ['', ''];
    const title = ((g.layout && g.layout.title && (g.layout.title.text || g.layout.title)) || '')
      .toString().replace(/<[^>]+>/g, '');
    const part = (t, k) => t[k] && t[k].length !== undefined ? Array.from(t[k]).slice(0, 40).join(',') : '';
    return [title + '|' + g.data.map(t => [t.name, part(t, 'x'), part(t, 'y'), part(t, 'text')].join(';')).join('|'),
            title];
  }
  const d = main.querySelectorAll('[data-testid="stDataFrame"]')[index];
  const cells = d ? [...d.querySelectorAll('[role="gridcell"]')].slice(0, 60).map(e => e.textContent).join('|') : '';
  return [cells, cells];
}"""
# Redrawn: the content changed and, when the view names the choice (a season, a stat), its words
# match ``named`` (the choice as a whole word: "H", not the "H" of "HR").
REDRAWN_JS = """([watch, index, before, named]) => {
  const [now, words] = (""" + CONTENT_JS + """)([watch, index]);
  const redrawn = now !== '' && now !== before && (!named || new RegExp(named).test(words));
  if (redrawn) window.redrawnAt = performance.now();
  return redrawn;
}"""
# Looks at every animation frame from the document's start for the first chart with data shown (its
# box laid out, not hidden) or, with ``attached``, the first table cell in the DOM, and keeps the time of
# the first frame that showed it.
WATCH_JS = """([selector, attached, name]) => {
  const look = () => {
    // a chart with data (an empty chart is not yet the page's)
    const found = [...document.querySelectorAll(selector)].find(e => attached || (e.data && e.data.length));
    const box = found && !attached ? found.getBoundingClientRect() : null;
    const shown = found && (attached || (box.width > 0 && box.height > 0
                                         && getComputedStyle(found).visibility === 'visible'));
    if (shown) window[name] = performance.now();
    else requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}"""
# When each message of the app's server reached the page (its websocket), the last ones kept.
MESSAGES_JS = """(() => {
  const Socket = window.WebSocket;
  window.messagesAt = [];
  window.WebSocket = function (...args) {
    const socket = new Socket(...args);
    socket.addEventListener('message', () => { window.messagesAt.push(performance.now());
                                               if (window.messagesAt.length > 5000) window.messagesAt.shift(); });
    return socket;
  };
  window.WebSocket.prototype = Socket.prototype;
  for (const name of ['CONNECTING', 'OPEN', 'CLOSING', 'CLOSED']) window.WebSocket[name] = Socket[name];
})()"""
# When the analyst's press that commits a choice reached the page (the option's pointerdown, the
# Enter's keydown): the change is timed from there, not from when Playwright began its click.
PRESSED_JS = """(kind) => {
  window.pressedAt = null;
  if (kind) document.addEventListener(kind, () => { window.pressedAt = window.pressedAt || performance.now(); },
                                      {capture: true, once: true});
}"""


@dataclass(frozen=True)
class Change:
    """A filter an analyst changes on a page: the widget (``select``: a select box by its label;
    ``text``: a text box, applied with Enter), the choices made in turn, what shows the new
    content (``watch``: the page's first chart or first table) and, for each choice, a text that
    chart's title or the table's cells then name (``named``; otherwise any change of content)."""

    label: str
    choices: tuple[str, ...]
    named: bool = False
    kind: str = "select"
    watch: str = "chart"


@dataclass(frozen=True)
class Walk:
    """One page: its path (a share link), what its first chart is, and its filter change (made
    in the view the link's ``change_in`` parameters open, when it is not the first)."""

    name: str
    path: str
    first: str = CHART
    change: Change | None = None
    change_in: str = ""
    useful: str = ""  # what shows the record before the first chart is drawn (HEADLINE, METRIC, SUMMARY)


@contextmanager
def api() -> Iterator[tuple[str, str]]:
    if os.environ.get("SPORTS_API_URL") and os.environ.get("SPORTS_API_KEY"):
        yield os.environ["SPORTS_API_URL"], os.environ["SPORTS_API_KEY"]
        return
    with tempfile.TemporaryDirectory() as tmp:
        store = Path(tmp) / "bench.db"
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{store}"}
        print("building a small simulated store ...", flush=True)
        key = build_store(env)
        with serve(store, env, free_port()) as url:
            yield url, key


def watch(page: Any, selector: str, useful: str = "") -> None:
    """Have the page note when it first draws the chart (visible) or the table's cells (in the
    DOM: the grid draws them on a canvas, and keeps them for screen readers in a hidden table);
    and, given ``useful``, when that first is in the DOM; before its navigation."""
    page.add_init_script(f"({WATCH_JS})({json.dumps([selector, selector == TABLE, 'drawnAt'])})")
    if useful:
        page.add_init_script(f"({WATCH_JS})({json.dumps([useful, True, 'usefulAt'])})")


def drawn(page: Any) -> float:
    """Wait for what ``watch`` looks for; when it was drawn, in ms from the navigation's start,
    as the page's own clock read it at the animation frame that showed it. (Playwright's own wait
    for a selector polls at 0, 20, 50, 100, 100, then every 500 ms: timed through it, every
    figure came in steps of 500 ms, and the ratio of two moved by up to 0.3.)"""
    page.wait_for_function("() => window.drawnAt !== undefined", polling="raf", timeout=TIMEOUT_MS)
    return float(page.evaluate("window.drawnAt"))


def first_content_ms(context: Any, url: str, selector: str = CHART) -> float:
    """A new tab (a new Streamlit session): from the navigation's start until the first chart is
    drawn."""
    return first_and_useful_ms(context, url, selector)[0]


def first_and_useful_ms(context: Any, url: str, selector: str = CHART, useful: str = "") -> tuple[float, float]:
    """A new tab: from the navigation's start until the first chart (or table) is drawn, and
    until something useful is (``useful`` in the DOM, or that first chart if sooner)."""
    page = context.new_page()
    watch(page, selector, useful)
    page.goto(url)
    elapsed = drawn(page)
    seen = page.evaluate("window.usefulAt") if useful else None
    page.close()
    return elapsed, min(elapsed, float(seen)) if seen is not None else elapsed


def fresh_ms(browser: Any, url: str, selector: str = CHART, useful: str = "") -> tuple[float, float]:
    """A new browser context (no cache, no cookies, no session), as a shared link opens: its first
    chart's time and its first useful sight's."""
    context = browser.new_context(viewport=VIEWPORT)
    try:
        return first_and_useful_ms(context, url, selector, useful)
    finally:
        context.close()


def quiet(page: Any) -> None:
    """Wait until the app has stopped running for 2 QUIET_MS (the next change starts from rest)."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while time.monotonic() < deadline:
        page.wait_for_timeout(QUIET_MS)
        if not page.locator('[data-testid="stStatusWidget"]').count():
            page.wait_for_timeout(QUIET_MS)
            if not page.locator('[data-testid="stStatusWidget"]').count():
                return


def change_ms(page: Any, change: Change, choice: str) -> tuple[float, float]:
    """Make ``choice`` through the widget as an analyst does (the clicks of
    tests/dashboard/test_browser_links.py's ``_choose``, or typing then Enter), timed in the
    browser from the press that commits it until the watched chart or table shows the new
    content; and until the app's last message before then, the part of the wait spent on the
    rerun rather than drawing in the browser."""
    watch = [change.watch, 0]
    before = page.evaluate(CONTENT_JS, watch)[0]
    page.evaluate(PRESSED_JS)
    if change.kind == "text":
        box = page.get_by_role("textbox", name=change.label)
        box.fill(choice)
        page.evaluate(PRESSED_JS, "keydown")
        box.press("Enter")
    else:
        box = page.get_by_role("combobox", name=change.label, exact=True)
        box.click()
        box.fill(choice)
        option = page.locator('[role="option"]').filter(has_text=re.compile(f"^{re.escape(choice)}$")).first
        option.wait_for(timeout=TIMEOUT_MS)
        page.evaluate(PRESSED_JS, "pointerdown")
        option.click()
    named = _whole_word(choice) if change.named else ""
    page.wait_for_function(REDRAWN_JS, arg=[*watch, before, named], timeout=TIMEOUT_MS)
    waited, answered = page.evaluate("""() => [window.redrawnAt - window.pressedAt, Math.max(0, ...window.messagesAt
        .filter(t => t >= window.pressedAt && t <= window.redrawnAt).map(t => t - window.pressedAt))]""")
    quiet(page)
    return float(waited), float(answered)


def _whole_word(text: str) -> str:
    return rf"(^|\W){re.escape(text)}(\W|$)"


def changes_ms(context: Any, url: str, walk: Walk, count: int) -> list[tuple[float, float]]:
    """``count`` changes of the page's filter in one open page, back and forth among its choices."""
    assert walk.change is not None
    page = context.new_page()
    page.add_init_script(MESSAGES_JS)
    watch(page, TABLE if walk.change.watch == "table" else CHART)  # the view the change redraws
    page.goto(f"{url}&{walk.change_in}" if walk.change_in else url)
    drawn(page)
    quiet(page)
    choices = walk.change.choices
    out = [change_ms(page, walk.change, choices[i % len(choices)]) for i in range(count)]
    page.close()
    return out


@contextmanager
def servers(baseline: str, env: dict[str, str]) -> Iterator[tuple[str, str]]:
    """The baseline's server and the dashboard's, newly started side by side (each start waits
    on its own imports: together they take the time of one)."""
    first = free_port()
    ports = (first, next(port for port in iter(free_port, None) if port != first))
    with ExitStack() as stack, ThreadPoolExecutor(2) as pool:
        started = [pool.submit(stack.enter_context, streamlit_server(script, port, env))
                   for script, port in zip((baseline, "app.py"), ports, strict=True)]
        base, app = (future.result() for future in started)
        yield base, app


def measure(browser: Any, baseline: str, walk: Walk, env: dict[str, str], runs: int, changes: int,
            against: Path | None = None) -> dict[str, Any]:
    """The page and the baseline on newly started servers, their visits interleaved; with
    ``against``, that checkout's page too, its fresh visits alternated with this code's."""
    out: dict[str, Any] = {}
    with servers(baseline, env) as (base, app), ExitStack() as other:
        b, a = f"{base}/", f"{app}/{walk.path}"
        o = (f"{other.enter_context(streamlit_server(str(against / 'app.py'), free_port(), env, against))}/{walk.path}"
             if against else "")
        contexts = {name: browser.new_context(viewport=VIEWPORT) for name in ("b", "a")}
        out["base_cold"] = first_content_ms(contexts["b"], b)
        out["cold"] = first_content_ms(contexts["a"], a, walk.first)
        if o:  # its first visit, off the record: its server's caches warm, as this code's are
            fresh_ms(browser, o, walk.first)
        series: dict[str, list[float]] = {k: [] for k in ("base_warm", "warm", "base_fresh", "fresh", "useful",
                                                          "other_fresh", "other_useful")}
        for run in range(runs):  # alternate, so a burst of load lands on both
            series["base_warm"].append(first_content_ms(contexts["b"], b))
            series["warm"].append(first_content_ms(contexts["a"], a, walk.first))
            series["base_fresh"].append(fresh_ms(browser, b)[0])
            for url in ((a, o) if run % 2 == 0 else (o, a)) if o else (a,):
                fresh, useful = fresh_ms(browser, url, walk.first, walk.useful)
                series["fresh" if url == a else "other_fresh"].append(fresh)
                series["useful" if url == a else "other_useful"].append(useful)
        out.update({k: statistics.median(v) for k, v in series.items() if v})
        out["pairs"] = [x / y for x, y in zip(series["fresh"], series["other_fresh"], strict=False)]
        out["changes"] = changes_ms(contexts["a"], a, walk, changes) if walk.change and changes else []
        for context in contexts.values():
            context.close()
    return out


def walks(url: str, key: str) -> list[Walk]:
    """Every page of app_pages/, each with a record to show where it needs one (a game, a player,
    two players to compare) and the filter an analyst changes there, its choices from the API."""
    os.environ["SPORTS_API_URL"], os.environ["SPORTS_API_KEY"] = url, key
    from services import api

    seasons = [str(s) for s in api.season_ids(LEVEL, with_games=True)[:2]]
    newest, other = seasons[0], seasons[-1]
    games = api.games(LEVEL, status="final", size=1).frame
    game = int(games.iloc[0]["ID"])
    leaders = api.stats(LEVEL, "player", "HR", season=int(newest), size=10).frame
    pair = [int(i) for i in leaders["Player_ID"].head(2)]
    player, years = _player_of_two_seasons(api, [int(i) for i in leaders["Player_ID"]])
    teams = sorted(api.teams(LEVEL, int(newest))["Name"].astype(str))[:2]  # two that played in it
    periods = _periods(api, game)
    who = "&".join(f"who={i}" for i in pair)  # a shared Compare link names players by ID
    season = Change("Season", (other, newest), named=True)
    return [
        Walk("overview", "", first=TABLE, change=Change("Level", ("NBA", LEVEL), watch="table")),
        Walk("games", "games", first=TABLE, change=replace(season, watch="table")),
        Walk("ratings", "ratings", first=TABLE, change=replace(season, watch="table", named=False)),
        Walk("standings", "standings", first=TABLE, change=replace(season, watch="table")),
        Walk("projections", "projections", first=TABLE, change=replace(season, watch="table")),
        Walk("forecasts", "forecasts", change=Change("Team", tuple(teams)), useful=METRIC),
        # a shared game, its charts open
        Walk("game", f"games?tab=Game+detail&game={game}&charts=true", useful=HEADLINE),
        Walk("playbyplay", f"playbyplay?game={game}", change=Change("Period", tuple(periods), watch="table"),
             change_in="tab=Events", useful=HEADLINE),
        Walk("players", f"players?player={player}", change=Change("Player season", (years[1], years[0]), named=True),
             useful=HEADLINE),
        Walk("compare", f"compare?{who}", change=Change("Stat over the careers", ("H", "HR"), named=True),
             useful=SUMMARY),
        Walk("leaders", "leaders", first=TABLE, change=Change("Stat", ("H", "HR"), watch="table")),
        Walk("glossary", "glossary", first=TABLE, change=Change("Search", ("basket", "hockey"), kind="text",
                                                                watch="table")),
    ]


def _player_of_two_seasons(api: Any, ids: list[int]) -> tuple[int, list[str]]:
    """A player with games in two seasons (his page's season box then has two to choose from),
    and those seasons, newest first."""
    for player_id in ids:
        seasons = api.player(LEVEL, player_id).get("seasons") or []
        played = sorted({str(r["Season"]) for r in seasons if (r.get("Games") or 0) > 0}, reverse=True)
        if len(played) >= 2:
            return player_id, played[:2]
    raise SystemExit("no player with games in two seasons: the walk needs one")


def _periods(api: Any, game: int) -> list[str]:
    """Two periods of the game, as the play-by-play page's Period box offers them."""
    from components import plays
    from components.tables import records_frame

    basic = records_frame(api.game(LEVEL, game).get("playbyplay"))
    found = plays.periods(plays.events(api.playbyplay(LEVEL, game).frame, basic))
    if len(found) < 2:
        raise SystemExit(f"game {game} has fewer than two periods of plays")
    return found[:2]


def cache_hit_ms(url: str, key: str) -> float:
    os.environ["SPORTS_API_URL"], os.environ["SPORTS_API_KEY"] = url, key
    from services import api, clear_cache

    clear_cache()
    api.games("MLB", size=50)  # fills the cache
    start = time.perf_counter()
    for _ in range(CACHE_CALLS):
        api.games("MLB", size=50)
    return (time.perf_counter() - start) * 1000 / CACHE_CALLS


def verdict(name: str, over: list[str], pages: int) -> str:
    if not over:
        return f"{name}: met on all {pages} pages"
    return f"{name}: NOT met on {len(over)} of {pages} pages ({', '.join(over)})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS, help="warm and fresh visits per page")
    parser.add_argument("--changes", type=int, default=CHANGES, help="filter changes per page")
    parser.add_argument("--pages", default="", help="only these pages (comma-separated names)")
    parser.add_argument("--against", type=Path, default=None,
                        help="another checkout of the dashboard: its fresh visits alternated with this code's")
    args = parser.parse_args()
    if args.against is not None and not (args.against / "app.py").exists():
        raise SystemExit(f"--against {args.against}: no app.py there")
    with api() as (url, key), tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        env = {"SPORTS_API_URL": url, "SPORTS_API_KEY": key}
        chosen = {p for p in args.pages.split(",") if p}
        every = walks(url, key)
        unwalked = {p.stem for p in (ROOT / "app_pages").glob("*.py")} - {w.name for w in every}
        if unwalked:
            raise SystemExit(f"pages the walk misses: {', '.join(sorted(unwalked))} (add them to walks())")
        walked = [w for w in every if not chosen or w.name in chosen]
        baseline_script = Path(tmp) / "baseline.py"
        baseline_script.write_text(BASELINE_APP)
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        print(f"load average at start: {_load()}")
        print(f"{'page':<12}{'cold':>7}{'base':>6}{'ratio':>6}{'warm':>7}{'base':>6}{'ratio':>6}"
              f"{'fresh':>7}{'base':>6}{'ratio':>6}{'useful':>7}{'change':>8}{'max':>7}{'rerun':>7}")
        over: dict[str, list[str]] = {k: [] for k in ("useful", "fresh", "change", "warm", "cold")}
        started = time.monotonic()
        for walk in walked:
            t = measure(browser, str(baseline_script), walk, env, args.runs, args.changes, args.against)
            ratios = {k: t[k] / t[f"base_{k}"] for k in ("cold", "warm", "fresh")}
            redraws, reruns = [c[0] for c in t["changes"]], [c[1] for c in t["changes"]]
            change = statistics.median(redraws) if redraws else None
            over["useful"] += [walk.name] * (t["useful"] > USEFUL_TARGET_MS)
            over["fresh"] += [walk.name] * (t["fresh"] > FRESH_TARGET_MS)
            over["change"] += [walk.name] * (change is not None and change > CHANGE_TARGET_MS)
            over["warm"] += [walk.name] * (ratios["warm"] > WARM_TARGET)
            over["cold"] += [walk.name] * (ratios["cold"] > COLD_TARGET)
            shown = (f"{change:>8.0f}{max(redraws):>7.0f}{statistics.median(reruns):>7.0f}" if change is not None
                     else f"{'-':>8}{'-':>7}{'-':>7}")
            print(f"{walk.name:<12}{t['cold']:>7.0f}{t['base_cold']:>6.0f}{ratios['cold']:>6.2f}"
                  f"{t['warm']:>7.0f}{t['base_warm']:>6.0f}{ratios['warm']:>6.2f}"
                  f"{t['fresh']:>7.0f}{t['base_fresh']:>6.0f}{ratios['fresh']:>6.2f}{t['useful']:>7.0f}{shown}",
                  flush=True)
            if t["pairs"]:
                print(f"{'':<12}against {args.against}: fresh {t['other_fresh']:.0f}, useful {t['other_useful']:.0f}; "
                      f"this code / that, pair by pair: {' '.join(f'{r:.2f}' for r in t['pairs'])} "
                      f"(median {statistics.median(t['pairs']):.2f})", flush=True)
        browser.close()
        print("ms, medians; cold, warm, fresh: navigation to the first chart; useful: on a fresh page, to the "
              "first thing that shows the record (a headline, a metric, a summary, or that chart); "
              "change: a filter changed until "
              "its chart or table shows the new content (max: the slowest), rerun: until the app's last "
              "message before that (the rest is drawing in the browser)")
        hit = cache_hit_ms(url, key)
        n = len(walked)
        print(f"walked {n} pages in {time.monotonic() - started:.0f} s; load average at the end: {_load()}")
        print(verdict(f"fresh page (a shared link, new browser) shows something useful <= "
                      f"{USEFUL_TARGET_MS / 1000:g} s", over["useful"], n))
        print(verdict(f"fresh page's first chart <= {FRESH_TARGET_MS / 1000:g} s", over["fresh"], n))
        if args.changes:  # none made (--changes 0): no verdict
            print(verdict(f"filter change redrawn <= {CHANGE_TARGET_MS / 1000:g} s",
                          over["change"], sum(w.change is not None for w in walked)))
        print(verdict(f"warm <= {WARM_TARGET}x the one-chart page", over["warm"], n))
        print(verdict(f"cold <= {COLD_TARGET}x the one-chart page", over["cold"], n))
        print(f"services call from cache: {hit * 1000:.1f} µs: "
              f"{'met' if hit < CACHE_TARGET_MS else 'NOT met'} (target < {CACHE_TARGET_MS:g} ms)")
    return 0


def _load() -> str:
    return " ".join(f"{v:.1f}" for v in os.getloadavg())


if __name__ == "__main__":
    raise SystemExit(main())
