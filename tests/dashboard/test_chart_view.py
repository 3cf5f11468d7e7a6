"""The chart component (components/chart_view.py): every chart a page opens on is drawn by the
plotly.js cartesian build the app serves itself, never by st.plotly_chart's full plotly.js; a
figure that build cannot draw falls back to st.plotly_chart; in the browser a chart looks as
st.plotly_chart drew it, fits its column at 1440 and 390 px, answers a hover and goes full
screen."""
from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from plotly.offline import get_plotlyjs_version
import streamlit as st
from streamlit.testing.v1 import AppTest

from components.chart_view import SCRIPT_FILE
from services import api
from tests.dashboard._apptest import assert_clean, figures, open_page
from tests.dashboard._streamlit import ROOT, settle, streamlit_server
from tests.dashboard.conftest import ApiServer, free_port

TIMEOUT_MS = 120_000
HOVER = ".hoverlayer .hovertext, .hoverlayer .legend"  # a point's label, or the unified label of an x


def test_the_served_bundle_is_the_plotly_js_release_plotly_names() -> None:
    """``make plotly-js`` was run for the pinned plotly: the figures plotly builds are drawn by the
    plotly.js release it was made for, and the bundle's licence is beside it."""
    head = SCRIPT_FILE.read_text()[:200]
    assert f"plotly.js (cartesian - minified) v{get_plotlyjs_version()}" in head, head
    assert "MIT License" in SCRIPT_FILE.with_name("plotly-cartesian.LICENSE").read_text()


def _draw(kind: str) -> None:
    import plotly.graph_objects as go

    from components import chart_view

    trace = go.Scatter3d(x=[1], y=[2], z=[3]) if kind == "3d" else go.Bar(x=[1], y=[2])
    chart_view.draw(go.Figure(trace), key="chart")


@pytest.mark.parametrize("kind, served, component, full", [("bar", True, 1, 0), ("3d", True, 0, 1),
                                                           ("bar", False, 0, 1)])
def test_a_figure_the_cartesian_build_cannot_draw_falls_back(kind: str, served: bool, component: int, full: int,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A trace outside the cartesian build, or an app not serving static/ (started without the
    project's .streamlit/config.toml), draws through st.plotly_chart."""
    monkeypatch.setattr(st, "get_option", lambda name, got=st.get_option: (
        served if name == "server.enableStaticServing" else got(name)))
    at = AppTest.from_function(_draw, args=(kind,)).run()
    assert_clean(at)
    assert (len(at.get("bidi_component")), len(at.get("plotly_chart"))) == (component, full)
    assert len(figures(at)) == 1


def _links() -> list[tuple[str, dict[str, str | list[str]]]]:
    """A link to every view that opens on a chart, or with its chart box open."""
    game = str(api.games("MLB", status="final", size=1).frame.iloc[0]["ID"])
    leaders = api.stats("MLB", "player", "HR", size=2).frame
    player = str(leaders.iloc[0]["Player_ID"])
    mlb: dict[str, str | list[str]] = {"level": "MLB"}
    return [
        ("overview", {**mlb, "chart": "true"}), ("games", {**mlb, "chart": "true"}),
        ("games", {**mlb, "tab": "Game detail", "game": game, "charts": "true"}),
        ("playbyplay", {**mlb, "game": game}), ("ratings", {**mlb, "chart": "true"}),
        ("projections", {**mlb, "chart": "true"}), ("leaders", {**mlb, "chart": "true"}),
        ("glossary", {**mlb, "chart": "true"}), ("glossary", {**mlb, "tab": "Run environment", "chart": "true"}),
        ("forecasts", mlb), ("forecasts", {**mlb, "tab": "Scores over time"}), ("forecasts", {**mlb, "tab": "In-game"}),
        ("players", {**mlb, "player": player}),
        ("compare", {**mlb, "who": [str(i) for i in leaders["Player_ID"]]}),
    ]


def test_every_chart_a_page_opens_on_is_drawn_by_the_cartesian_build(dashboard_env: ApiServer) -> None:
    """No view's chart needs the full plotly.js: a fresh page's first chart waits for the 1.5 MB
    cartesian build only (docs/benchmarks.md)."""
    drawn = {}
    for page, params in _links():
        at = open_page(page, params)
        assert_clean(at)
        drawn[(page, str(params))] = (len(figures(at)), len(at.get("plotly_chart")))
    assert [where for where, (charts, full) in drawn.items() if not charts or full] == [], drawn


@pytest.mark.browser
@pytest.mark.slow
def test_a_chart_fits_its_column_answers_a_hover_and_goes_full_screen(browser: Any, dashboard: str,
                                                                       dashboard_env: ApiServer) -> None:
    """At 1440 and 390 px, on a fresh page: plotly.js's cartesian build is fetched and
    Streamlit's full plotly.js never is, each chart is as wide as its column (and follows it when
    the window narrows), a hover over a point shows its label, and the mode bar's Fullscreen
    button gives the chart the window, Escape gives it back."""
    game = int(api.games("MLB", status="final", size=1).frame.iloc[0]["ID"])
    for width in (1440, 390):
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        fetched: list[str] = []
        page.on("request", lambda request, seen=fetched: seen.append(request.url))
        page.goto(f"{dashboard}/games?level=MLB&tab=Game+detail&game={game}&charts=true")
        page.wait_for_selector(".js-plotly-plot", timeout=TIMEOUT_MS)
        settle(page)
        assert any("plotly-cartesian.min.js" in url for url in fetched), fetched
        assert not [url for url in fetched if "PlotlyChart" in url]
        sizes = page.evaluate("""() => [...document.querySelectorAll('.js-plotly-plot')].map(g => [
            Math.round(g.getBoundingClientRect().width), Math.round(g.parentElement.getBoundingClientRect().width),
            document.documentElement.scrollWidth <= window.innerWidth])""")
        assert len(sizes) >= 2 and all(abs(plot - column) <= 1 and fits for plot, column, fits in sizes), (width, sizes)
        chart = page.locator(".js-plotly-plot").first
        chart.scroll_into_view_if_needed()
        box = chart.locator(".nsewdrag").first.bounding_box()
        assert box is not None
        for x in range(5, 100, 5):  # across the plot until a point is under the pointer
            page.mouse.move(box["x"] + box["width"] * x / 100, box["y"] + box["height"] / 2)
            if page.locator(HOVER).count():
                break
        assert page.locator(HOVER).count(), f"no hover label at {width} px"
        chart.hover()
        chart.locator('.modebar-btn[data-title="Fullscreen"]').click()
        page.wait_for_function("() => document.querySelector('.js-plotly-plot').layout.height === window.innerHeight")
        full = chart.evaluate("g => [g.getBoundingClientRect().width, g.getBoundingClientRect().height]")
        assert full == [width, 900], full
        page.keyboard.press("Escape")
        page.wait_for_function("() => document.querySelector('.js-plotly-plot').layout.height < window.innerHeight")
        if width == 1440:  # the window narrows: the chart follows its column
            page.set_viewport_size({"width": 900, "height": 900})
            page.wait_for_function("""() => [...document.querySelectorAll('.js-plotly-plot')].every(g =>
                Math.abs(g.getBoundingClientRect().width - g.parentElement.getBoundingClientRect().width) <= 1
                && g.getBoundingClientRect().width < 900)""", timeout=TIMEOUT_MS)
        context.close()


SIDE_BY_SIDE = f"""
import sys
sys.path.insert(0, {str(ROOT)!r})
import plotly.graph_objects as go
import streamlit as st
from components import chart_view

st.set_page_config(layout="wide")
lines = go.Figure()
lines.add_scatter(x=[1, 2, 3], y=[3, 1, 2], name="a line")
lines.add_bar(x=[1, 2, 3], y=[1, 2, 3], name="bars")
lines.update_layout(title={{"text": "A line and bars"}}, height=300, xaxis_title="Day", yaxis_title="Runs",
                    legend={{"orientation": "h", "y": -0.2}})
heat = go.Figure(go.Heatmap(z=[[1, 2], [3, 4]], x=["a", "b"], y=["c", "d"]))
heat.update_layout(title="A heatmap", height=300)
for n, fig in enumerate((lines, heat)):
    if st.query_params.get("by") == "streamlit":
        st.plotly_chart(fig, key=f"chart_{{n}}")
    else:
        chart_view.draw(fig, key=f"chart_{{n}}")
"""


@pytest.mark.browser
@pytest.mark.slow
def test_a_chart_looks_as_st_plotly_chart_drew_it(browser: Any, tmp_path: Path) -> None:
    """The same figures drawn by st.plotly_chart and by the component, at 1440 and 390 px: the
    same pixels (the theme's colours, fonts, grid, title, legend, colour bar and size), mode bar
    aside (it shows on a hover only)."""
    from PIL import Image, ImageChops

    (tmp_path / "static").symlink_to(ROOT / "static")  # the app's static files beside its script
    (tmp_path / "app.py").write_text(SIDE_BY_SIDE)
    with streamlit_server(str(tmp_path / "app.py"), free_port(), {}) as url:
        for width in (1440, 390):
            shots = {}
            for by in ("streamlit", "component"):
                context = browser.new_context(viewport={"width": width, "height": 900})
                page = context.new_page()
                page.goto(f"{url}/?by={by}")
                page.wait_for_function("() => document.querySelectorAll('.js-plotly-plot').length === 2",
                                       timeout=TIMEOUT_MS)
                settle(page)
                page.evaluate("document.fonts.ready")
                shots[by] = [Image.open(io.BytesIO(chart.screenshot())).convert("RGB")
                             for chart in page.locator(".js-plotly-plot").all()]
                context.close()
            for theirs, ours in zip(shots["streamlit"], shots["component"], strict=True):
                assert theirs.size == ours.size, (width, theirs.size, ours.size)
                assert ImageChops.difference(theirs, ours).getbbox() is None, f"the charts differ at {width} px"
