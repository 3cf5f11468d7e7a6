"""Dashboard speed: navigation → first chart per page, cold and warm, against a one-chart baseline.

Prints each page's time and its ratio to a bare one-chart Streamlit page measured in the same run
(targets: warm ≤ 1.3×, cold ≤ 1.5×), then the time of a services call answered from the cache
(target < 1 ms). The API is the one named by SPORTS_API_URL/SPORTS_API_KEY when both are set,
otherwise a small simulated store is built and served on loopback.

    .venv/bin/python bench/dashboard.py
"""
from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright

from tests.demo_api import build_store, serve
from tests.dashboard._streamlit import CHROMIUM, CHROMIUM_ARGS, streamlit_server
from tests.dashboard.conftest import free_port

WARM_TARGET, COLD_TARGET, CACHE_TARGET_MS = 1.3, 1.5, 1.0
WARM_RUNS = 5  # alternated with the baseline's; the median of 5 damps a burst of load on a shared machine
CACHE_CALLS = 1000
CHART_TIMEOUT_MS = 60_000
BASELINE_APP = '''
import pandas as pd
import plotly.express as px
import streamlit as st

frame = pd.DataFrame({"x": range(50), "y": [i * i for i in range(50)]})
st.title("Baseline")
st.plotly_chart(px.line(frame, x="x", y="y"))
'''


@contextmanager
def api() -> Iterator[tuple[str, str]]:
    if os.environ.get("SPORTS_API_URL") and os.environ.get("SPORTS_API_KEY"):
        yield os.environ["SPORTS_API_URL"], os.environ["SPORTS_API_KEY"]
        return
    with tempfile.TemporaryDirectory() as tmp:
        store = Path(tmp) / "bench.db"
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{store}"}
        print("building a small simulated store ...", flush=True)
        key = build_store(store, env)
        with serve(store, env, free_port()) as url:
            yield url, key


def first_chart_ms(context: Any, url: str) -> float:
    """A new tab (a new Streamlit session): navigation until the first plotly chart is drawn."""
    page = context.new_page()
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_selector(".js-plotly-plot", timeout=CHART_TIMEOUT_MS)
    elapsed = (time.perf_counter() - start) * 1000
    page.close()
    return elapsed


def measure_pair(browser: Any, baseline: str, path: str, env: dict[str, str]) -> dict[str, float]:
    """The page and the baseline side by side, so load on the machine hits both alike.

    Cold: the first visit to a newly started server from an empty browser (nothing cached);
    warm: the median of later visits, each a new session, with server and browser caches warm.
    """
    out: dict[str, float] = {}
    with streamlit_server(baseline, free_port(), env) as base, streamlit_server("app.py", free_port(), env) as app:
        contexts = {name: browser.new_context(viewport={"width": 1400, "height": 1000}) for name in ("b", "a")}
        out["base_cold"] = first_chart_ms(contexts["b"], f"{base}/")
        out["cold"] = first_chart_ms(contexts["a"], f"{app}/{path}")
        base_warm, warm = [], []
        for _ in range(WARM_RUNS):  # alternate, so a burst of load lands on both
            base_warm.append(first_chart_ms(contexts["b"], f"{base}/"))
            warm.append(first_chart_ms(contexts["a"], f"{app}/{path}"))
        out["base_warm"], out["warm"] = statistics.median(base_warm), statistics.median(warm)
        for context in contexts.values():
            context.close()
    return out


def game_and_player(url: str, key: str) -> tuple[int, int]:
    os.environ["SPORTS_API_URL"], os.environ["SPORTS_API_KEY"] = url, key
    from services import api

    games = api.games("MLB", size=20).frame
    final = games[games["GameStatus"].astype(str).str.startswith("Final")]
    return int(final.iloc[0]["ID"]), int(api.players("MLB", size=1).frame.iloc[0]["ID"])


def cache_hit_ms(url: str, key: str) -> float:
    os.environ["SPORTS_API_URL"], os.environ["SPORTS_API_KEY"] = url, key
    from services import api, clear_cache

    clear_cache()
    api.games("MLB", size=50)  # fills the cache
    start = time.perf_counter()
    for _ in range(CACHE_CALLS):
        api.games("MLB", size=50)
    return (time.perf_counter() - start) * 1000 / CACHE_CALLS


def main() -> int:
    with api() as (url, key), tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        env = {"SPORTS_API_URL": url, "SPORTS_API_KEY": key}
        game, player = game_and_player(url, key)
        pages = {"overview": "", "games": f"games?game={game}", "ratings": "ratings", "projections": "projections",
                 "forecasts": "forecasts",
                 "playbyplay": f"playbyplay?game={game}", "players": f"players?player={player}",
                 "leaders": "leaders", "glossary": "glossary"}
        baseline_script = Path(tmp) / "baseline.py"
        baseline_script.write_text(BASELINE_APP)
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        print(f"{'page':<12}{'cold ms':>9}{'base ms':>9}{'ratio':>7}{'warm ms':>9}{'base ms':>9}{'ratio':>7}  verdict")
        failures = 0
        for name, path in pages.items():
            t = measure_pair(browser, str(baseline_script), path, env)
            cold, warm = t["cold"] / t["base_cold"], t["warm"] / t["base_warm"]
            ok = cold <= COLD_TARGET and warm <= WARM_TARGET
            failures += not ok
            print(f"{name:<12}{t['cold']:>9.0f}{t['base_cold']:>9.0f}{cold:>7.2f}{t['warm']:>9.0f}"
                  f"{t['base_warm']:>9.0f}{warm:>7.2f}  {'ok' if ok else 'over target'}", flush=True)
        browser.close()
        hit = cache_hit_ms(url, key)
        print(f"services call from cache: {hit * 1000:.1f} µs (target < {CACHE_TARGET_MS:.0f} ms): "
              f"{'ok' if hit < CACHE_TARGET_MS else 'over target'}")
        print(f"targets: warm ≤ {WARM_TARGET}× baseline, cold ≤ {COLD_TARGET}× baseline; "
              f"{failures} page(s) over target")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
