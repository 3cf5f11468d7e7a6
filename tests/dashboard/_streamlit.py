"""Start the dashboard under ``streamlit run`` on a free port (browser tests and the benchmark)."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import requests

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"  # what the browser tests saw, kept for a look after a run
STARTUP_SECONDS = 60
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
SETTLE_TIMEOUT_MS = 120_000  # generous: CI machines may be busy
QUIET_MS = 500  # a rerun starts within milliseconds of a change
# Drawn after the app has run: a grid's column headers (it is a canvas that draws them later) and
# a chart's plot (plotly draws into its element once its script has loaded: the chart component's,
# components/chart_view.py, or st.plotly_chart's); before either's code has loaded, a skeleton
# stands in its place.
UNDRAWN = """() => !!document.querySelector('[data-testid="stSkeleton"]') || [
    ...document.querySelectorAll('[data-testid="stDataFrame"]')].some(
    g => !g.querySelector('[role="columnheader"]')) || [...document.querySelectorAll(
    '[data-testid="stBidiComponentRegular"], [data-testid="stPlotlyChart"]')].some(
    c => !c.querySelector('.js-plotly-plot'))"""


def settle(page: Any, quiet_ms: int = QUIET_MS) -> None:
    """Wait until the app has stopped running, every grid and chart on the page is drawn, and
    the page (its address, title, number of charts and of grid column headers) stays the same
    for ``quiet_ms``.

    One wait for every browser test: waiting 1.5 s a look made a settle take 3 s at the least,
    minutes of each browser module."""
    previous = None
    for _ in range(SETTLE_TIMEOUT_MS // quiet_ms):
        page.wait_for_timeout(quiet_ms)
        busy = page.locator('[data-testid="stStatusWidget"]').count() or page.evaluate(UNDRAWN)
        now = (page.url, page.locator("h1").all_inner_texts(), page.locator(".js-plotly-plot").count(),
               page.locator('[data-testid="stDataFrame"] [role="columnheader"]').count())
        if not busy and now == previous:
            return
        previous = now


def open_fresh(browser: Any, url: str, width: int = 1440) -> Any:
    """``url`` in a fresh browser context (no cookies, no session: a link as a colleague opens
    it), once its first heading is there and the page has settled."""
    page = browser.new_context(viewport={"width": width, "height": 1000}).new_page()
    page.goto(url)
    page.wait_for_selector("h1", timeout=SETTLE_TIMEOUT_MS)
    settle(page)
    return page


CHARTS_RIGHT_EDGE = """() => Math.max(...[...document.querySelectorAll('.js-plotly-plot')]
    .map(g => Math.ceil(g.getBoundingClientRect().right)))"""


def open_chart(chromium: Any, address: str, width: int, showing: str,
               timeout_ms: int = SETTLE_TIMEOUT_MS) -> tuple[Any, Any, int]:
    """``address`` in a fresh page ``width`` px wide, once the chart showing the text ``showing``
    is drawn and the page has settled: the page, that chart, and where the page's rightmost
    chart ends (px from the left: within ``width`` when every chart fits the screen)."""
    page = chromium.new_context(viewport={"width": width, "height": 900}).new_page()
    page.goto(address)
    chart = page.locator(".js-plotly-plot").filter(has_text=showing).first
    chart.wait_for(timeout=timeout_ms)
    settle(page)
    return page, chart, int(page.evaluate(CHARTS_RIGHT_EDGE))


@contextmanager
def streamlit_server(script: str, port: int, env: dict[str, str], cwd: Path = ROOT) -> Iterator[str]:
    """``streamlit run script`` on loopback, from ``cwd`` (this checkout by default); yields its
    base URL, stops it afterwards."""
    streamlit = str(Path(sys.executable).with_name("streamlit"))
    proc = subprocess.Popen(
        [streamlit, "run", script, "--server.port", str(port), "--server.address", "127.0.0.1",
         "--server.headless", "true", "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
        cwd=cwd, env={**os.environ, **env}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            try:
                if requests.get(f"{url}/_stcore/health", timeout=1).text == "ok":
                    break
            except requests.RequestException:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError(f"streamlit did not start on port {port}")
            time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # a loaded machine: shutting its sessions down took longer
            proc.kill()
            proc.wait()
