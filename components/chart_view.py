"""Every chart of the dashboard, drawn in the page by plotly.js's cartesian build.

``st.plotly_chart`` ships the whole of plotly.js (4.7 MB, every trace type from maps to 3-D) and a
fresh page's first chart waits for the browser to parse it: 2.3-3.8 s on the chart-led pages. The
charts here draw scatter, bar and heatmap traces only, which plotly.js's cartesian build draws
(1.5 MB, ``static/plotly-cartesian.min.js``, the plotly.js release plotly's Python package
pins; ``make plotly-js`` refreshes it). ``draw`` mounts one custom component (Streamlit's
components v2: in the page, no iframe) that loads that file once per page and draws the figure's
JSON with it, looking as ``st.plotly_chart`` drew it: the theme Streamlit's frontend gives the
figure (``chart_theme.json``), its bold title, its height, the column's width (followed as the
window changes), hover, and the mode bar without lasso, box select or plotly's logo, with a
Fullscreen button (Escape closes it). A figure
with a trace the cartesian build does not hold falls back to ``st.plotly_chart``.

bench/dashboard.py, a fresh page (a new browser on a warm server), the first chart, this code and
the one before (st.plotly_chart) one after the other, three rounds on a loaded machine (load
4-11): Compare 4.7 -> 1.8 s, 2.5 -> 2.1 and 2.5 -> 1.6, play-by-play 4.0 -> 2.0, 2.0 -> 1.9 and
2.4 -> 1.4, Forecasts 2.7 -> 1.8, 2.7 -> 1.7 and 2.4 -> 2.0, a player 2.6 -> 2.0, 1.7 -> 1.4 and
2.3 -> 1.9, a game with its charts open (its box score's grids first) 3.8 -> 3.0, 4.1 -> 2.4 and
3.7 -> 2.5; 0.63-1.04x a one-chart st.plotly_chart page of the same run (a game 1.28-1.66x),
0.96-1.89x before (docs/benchmarks.md).

A game opened with its charts draws them below its box score, whose grids' code and drawing came
first: plotly.js was fetched only once the chart was mounted behind them, and run then. So that
page has it fetched and run from its score line on (``load_early``), and a page's charts are drawn
one a frame, the first shown before the second is drawn (``TURN``). A fresh page, the first chart,
the code before and this one's visits alternated on one machine (load 9.7, ten visits each):
median 4.65 -> 4.33 s, each pair's ratio 0.71-1.27 (median 0.95); bench/dashboard.py --pages game,
the two one after the other, five rounds at load 2-9: 1.00-1.59x -> 1.16-1.45x the one-chart page
(medians 1.23x -> 1.20x). On a less loaded machine one page's timeline moved further (plotly.js run
before the grids were drawn, the first chart 3.1-3.9 -> 2.3-2.6 s over 3 visits each, not paired).
"""
from __future__ import annotations

import json
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any, Final

import plotly.graph_objects as go
import plotly.io
import streamlit as st
from plotly.offline import get_plotlyjs_version

# The app's own static files (Streamlit's static serving, .streamlit/config.toml), relative to the
# page's address: every page sits one level below the app's root.
SCRIPT: Final = "app/static/plotly-cartesian.min.js"
SCRIPT_FILE: Final = Path(__file__).resolve().parents[1] / "static" / "plotly-cartesian.min.js"
# The trace types the cartesian build holds (its package's README).
CARTESIAN_TRACES: Final = frozenset({
    "bar", "box", "contour", "heatmap", "histogram", "histogram2d", "histogram2dcontour", "image", "pie",
    "scatter", "scatterternary", "violin"})
# The mode bar st.plotly_chart gives a chart: no plotly logo, no lasso or box selection (no chart
# here selects), no "send to Chart Studio".
CONFIG: Final = {"displaylogo": False, "modeBarButtonsToRemove": ["lasso2d", "select2d", "sendChartToCloud"]}
# Streamlit 1.67's plotly template ("streamlit", plotly's default template once streamlit is
# imported) as its frontend resolves it for the app's light theme: its placeholder colours
# replaced by the theme's, its fonts, grid and hover label. Read from a chart st.plotly_chart drew
# (the drawn chart's ``layout.template``), less the keys plotly does not define (plotly.js ignores
# them; plotly's Python validation refuses them, as it refuses the colour "transparent", written
# rgba(0, 0, 0, 0) here). Every figure here is built on that default template.
THEME: Final = json.loads(Path(__file__).with_name("chart_theme.json").read_text())

# Loads plotly.js once per page (a <script>: the file is a UMD bundle that sets window.Plotly);
# ``window.chartViewPlotly`` is the promise of it, shared by every chart of the page. Loading it
# from the page's first message instead, on every page, moved no first chart (a game with its
# charts 2.9 -> 3.0 s, Compare 2.1 -> 2.1 s) and delayed a table-led page's first table (Overview
# 1.9 -> 2.5 s; 4 fresh visits each, load 8-12): the browser's main thread is what they share. A
# page whose charts come after grids loads it early, at its top (``load_early``).
LOAD: Final = """const LOAD = (src) => window.chartViewPlotly = window.chartViewPlotly || new Promise((resolve, reject) => {
  if (window.Plotly) return resolve(window.Plotly);
  const script = document.createElement('script');
  script.src = src;
  script.onload = () => resolve(window.Plotly);
  script.onerror = () => { window.chartViewPlotly = null; reject(new Error('plotly.js did not load')); };
  document.head.appendChild(script);
});
"""
# One chart drawn per frame: a page's charts all wait for plotly.js, and drawn in the one task that
# followed its load, the first stayed off the screen until the last was drawn too (a game with its
# charts: the win probability's 100-170 ms). Each waits until the one before has been painted (or
# 100 ms, for a tab the browser does not paint).
TURN: Final = """const AFTER_PAINT = () => new Promise((resolve) => {
  const late = setTimeout(resolve, 100);
  requestAnimationFrame(() => setTimeout(() => { clearTimeout(late); resolve(); }, 0));
});
const IN_TURN = (job) => {
  const run = (window.chartViewTurn || Promise.resolve()).then(job);
  window.chartViewTurn = run.then(AFTER_PAINT, AFTER_PAINT);
  return run;
};
"""
# Draws the figure once plotly.js is in; a later run's figure is drawn into the same plot
# (Plotly.react), and the plot follows its column's width.
JS: Final = LOAD + TURN + """
export default function ({ data, parentElement }) {
  const figure = data.figure;
  const height = figure.layout.height || 450;
  let plot = parentElement.querySelector(':scope > .chart-view');
  if (!plot) {
    plot = document.createElement('div');
    plot.className = 'chart-view';
    parentElement.appendChild(plot);
  }
  plot.style.minHeight = height + 'px';  // the chart's room, kept while plotly.js loads
  LOAD(data.script);
  const title = figure.layout.title;
  const text = typeof title === 'string' ? title : title && title.text;
  if (text) figure.layout.title = { ...(typeof title === 'string' ? {} : title), text: '<b>' + text + '</b>' };
  let gone = false;
  let observer = null;
  let escape = null;
  const width = () => Math.max(Math.floor(parentElement.getBoundingClientRect().width), 150);
  const full = () => plot.classList.contains('chart-view-full');
  window.chartViewPlotly.then((Plotly) => IN_TURN(() => {
    if (gone) return;
    // the whole window for the chart, and back (the button, or Escape)
    const toggle = (on) => {
      plot.classList.toggle('chart-view-full', on);
      Object.assign(plot.style, on ? { position: 'fixed', inset: '0', zIndex: '1000100', background: '#FFFFFF' }
                                   : { position: '', inset: '', zIndex: '', background: '' });
      Plotly.relayout(plot, on ? { width: window.innerWidth, height: window.innerHeight } : { width: width(), height });
    };
    escape = (event) => { if (event.key === 'Escape' && full()) toggle(false); };
    const config = { ...data.config, modeBarButtonsToAdd: [{ name: 'Fullscreen', title: 'Fullscreen',
      icon: { width: 10, height: 10, path: 'M0 0H4V1.5H1.5V4H0ZM6 0H10V4H8.5V1.5H6ZM0 6H1.5V8.5H4V10H0ZM8.5 6H10V10H6V8.5H8.5Z' },
      click: () => toggle(!full()) }] };
    figure.layout.width = full() ? window.innerWidth : width();
    if (full()) figure.layout.height = window.innerHeight;
    Plotly.react(plot, figure.data, figure.layout, config);
    observer = new ResizeObserver(() => {
      const now = width();
      if (!gone && !full() && plot.layout && now !== plot.layout.width) Plotly.relayout(plot, { width: now });
    });
    observer.observe(parentElement);
    document.addEventListener('keydown', escape);
  }));
  return () => {
    gone = true;
    if (observer) observer.disconnect();
    if (escape) document.removeEventListener('keydown', escape);
  };
}
"""

_mount = st.components.v2.component("chart_view", js=JS, isolate_styles=False)


def script_url() -> str:
    """Where the page fetches plotly.js (the version in the query: a new release is fetched anew)."""
    return f"{SCRIPT}?v={get_plotlyjs_version()}"


def draw(fig: go.Figure, *, key: str, where: Any = None) -> None:
    """Show ``fig`` in ``where`` (a container: an expander, a tab, a column; the page when None)
    as ``st.plotly_chart`` would, under ``key``; through plotly.js's cartesian build when every
    trace is one it draws and the app serves static/ (its .streamlit/config.toml read: the
    dashboard started from the project's folder)."""
    spec = spec_of(fig)
    if not drawable(spec) or not st.get_option("server.enableStaticServing"):
        (where if where is not None else st).plotly_chart(fig, key=key)
        return
    place: AbstractContextManager[Any] = where if where is not None else nullcontext()
    with place:
        _mount(key=key, data={"figure": spec, "config": CONFIG, "script": script_url()},
               width="stretch", height="content")


def load_early() -> None:
    """Have the page fetch and run plotly.js now, for charts it will draw further down, behind
    grids whose code and drawing would otherwise come first (a game opened with its charts).
    Nothing to see: the element's room is taken back (``.chart-view-early``, layout's style)."""
    if not st.get_option("server.enableStaticServing"):
        return
    st.html(f'<span class="chart-view-early"></span><script>(() => {{ {LOAD}LOAD({json.dumps(script_url())}); }})();</script>',
            unsafe_allow_javascript=True, width="content")


def spec_of(fig: go.Figure) -> dict[str, Any]:
    """The figure's JSON as the component is given it: Streamlit's resolved theme for its
    template (the component sets the title in bold, as st.plotly_chart's frontend does)."""
    spec: dict[str, Any] = json.loads(plotly.io.to_json(fig, validate=False))
    spec.setdefault("layout", {})["template"] = THEME
    return spec


def drawable(spec: dict[str, Any]) -> bool:
    """Whether the cartesian build draws every trace of ``spec``."""
    return all(trace.get("type", "scatter") in CARTESIAN_TRACES for trace in spec.get("data", []))

