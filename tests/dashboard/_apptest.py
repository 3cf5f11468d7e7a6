"""Helpers of the dashboard's AppTests: open a page as a shared link would, read its charts."""
from __future__ import annotations

import ast
import base64
import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy
import plotly.io
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "app.py")
TIMEOUT_SECONDS = 60


def declared_pages() -> list[str]:
    """Every page app.py declares (``st.Page("app_pages/<name>.py", ...)``), by name, in order:
    a page added there is walked by every test that walks them all."""
    tree = ast.parse(Path(APP).read_text())
    return [Path(call.args[0].value).stem for call in ast.walk(tree)
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "Page"
            and call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str)]


def open_page(page: str, params: Mapping[str, str | list[str]] | None = None) -> AppTest:
    """Run ``app_pages/<page>.py`` as a fresh browser opening ``/<page>?<params>`` would (a list
    is a repeated parameter, as a multiselect writes it)."""
    at = AppTest.from_file(APP, default_timeout=TIMEOUT_SECONDS)
    at.switch_page(f"app_pages/{page}.py")
    for name, value in (params or {}).items():
        at.query_params[name] = value
    return at.run()


def open_clean(page: str, params: Mapping[str, str | list[str]]) -> AppTest:
    """Open a page as a link would and check what every page owes an analyst: no error, a title
    naming what it shows, and no "None" in any table."""
    at = open_page(page, params)
    assert_clean(at)
    assert at.title, "every page names what it shows"
    for table in at.dataframe:
        assert "None" not in table.value.astype(str).to_numpy(), (page, params, list(table.value.columns))
    return at


def shown(markdown: str) -> str:
    """The text a Markdown source shows once rendered, as far as data written into it goes: its
    backslash escapes resolved, the invisible word joiners that break addresses dropped
    (``components.plain.md``)."""
    return re.sub(r"\\(.)", r"\1", markdown).replace("\u2060", "")


def figures(at: AppTest) -> list[dict[str, Any]]:
    """The plotly figures of the page, as their JSON specs: those ``components.chart_view.draw``
    gave its component (AppTest runs no component code: the figure given is what the page
    draws), then any drawn by ``st.plotly_chart`` (its fallback)."""
    return ([json.loads(element.proto.json)["figure"] for element in at.get("bidi_component")
             if element.proto.component_name == "chart_view"]
            + [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")])


def titles(at: AppTest) -> list[str]:
    """Each chart's title as one line (a long title is wrapped on screen at ``<br>``)."""
    out = []
    for fig in figures(at):
        title = fig.get("layout", {}).get("title", {})
        out.append((title.get("text", "") if isinstance(title, dict) else str(title)).replace("<br>", " "))
    return out


def trace_points(fig: dict[str, Any]) -> int:
    """Data points over all traces (plotly may encode arrays as typed binary: decode through plotly)."""
    figure = plotly.io.from_json(json.dumps(fig))
    return sum(len(trace.x if trace.x is not None else (trace.y if trace.y is not None else ()))
               for trace in figure.data)


def printed(grid: Any) -> Any:
    """A grid (``at.dataframe[i]``) as the reader sees it: each cell's printed text where the
    table prints its numbers (a pandas Styler's display values: .458, 207, 200.1), else the
    data (``grid.value``), which is what a click on a heading sorts."""
    from streamlit import dataframe_util

    text = grid.proto.arrow_data.styler.display_values
    return dataframe_util.convert_arrow_bytes_to_pandas_df(text) if text else grid.value


def assert_clean(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    # names and texts come from any feed: no element may render them as raw HTML
    assert not [m.value for m in at.markdown if m.proto.allow_html]



def _decoded(values: Any) -> list[Any]:
    """A plotly data array: a list, or a typed binary ``{"dtype", "bdata"}`` block."""
    if isinstance(values, dict) and "bdata" in values:
        return numpy.frombuffer(base64.b64decode(values["bdata"]), dtype=values["dtype"]).tolist()
    return list(values) if values is not None else []


def trace_values(fig: dict[str, Any], axis: str = "y") -> list[Any]:
    """Every trace's ``axis`` values, in order."""
    return [v for trace in fig.get("data", []) for v in _decoded(trace.get(axis))]
