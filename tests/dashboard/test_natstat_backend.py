"""The dashboard on a NatStat backend (issue #31): every page over this service's ``/natstat/``
shows what it shows over the root, table for table and chart for chart.

The dialect sends keyed objects of strings; ``services.natstat`` reads them back into the
typed records the pages use. These tests open each page twice, as a shared link would, once
with the services pointed at the root and once at ``/natstat`` (the dialect found from the
URL, as an operator would configure it), and compare every table's cells and every chart's
points.
"""
from __future__ import annotations

import math
from typing import Any

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from tests.dashboard._apptest import assert_clean, figures, open_clean, trace_values
from tests.dashboard.conftest import ApiServer, point_services_at
from tests.dashboard.test_every_page import PAGES

# Every page at MLB; the pages that read a season's games and ratings at NHL as well.
CASES = [(page, "MLB") for page in PAGES] + [(page, "NHL") for page in ("games", "ratings",
                                                                      "forecasts", "leaders")]


def _cell(value: Any) -> str:
    """A cell as an analyst reads it: numbers by value (81 and 81.0 alike), blanks alike."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int | float):
        return f"{float(value):.6g}"
    return str(value)


def _cells(frame: pd.DataFrame) -> list[list[str]]:
    return [[_cell(v) for v in row] for row in frame.astype(object).itertuples(index=False)]


def _open(server: ApiServer, monkeypatch: pytest.MonkeyPatch, page: str,
          level: str) -> AppTest:
    point_services_at(server, monkeypatch)
    return open_clean(page, {"level": level})


@pytest.mark.parametrize("page,level", CASES)
def test_a_page_over_natstat_shows_the_roots_numbers(
        api_server: ApiServer, monkeypatch: pytest.MonkeyPatch, page: str, level: str) -> None:
    monkeypatch.delenv("SPORTS_API_DIALECT", raising=False)
    root = _open(api_server, monkeypatch, page, level)
    natstat = _open(ApiServer(api_server.url + "/natstat", api_server.key, ""), monkeypatch,
                    page, level)
    assert_clean(natstat)
    assert [t.value for t in natstat.title] == [t.value for t in root.title]
    assert len(natstat.dataframe) == len(root.dataframe)
    for ours, theirs in zip(root.dataframe, natstat.dataframe, strict=True):
        assert list(theirs.value.columns) == list(ours.value.columns)
        assert _cells(theirs.value) == _cells(ours.value), (page, level,
                                                           list(ours.value.columns))
    charts = figures(root)
    assert len(figures(natstat)) == len(charts)
    for ours_fig, theirs_fig in zip(charts, figures(natstat), strict=True):
        for axis in ("x", "y"):
            assert [_cell(v) for v in trace_values(theirs_fig, axis)] == [
                _cell(v) for v in trace_values(ours_fig, axis)], (page, level, axis)
    assert [m.value for m in natstat.metric] == [m.value for m in root.metric]


def test_the_dialect_is_found_from_the_url_or_set(monkeypatch: pytest.MonkeyPatch) -> None:
    from services.config import load_config

    monkeypatch.setenv("SPORTS_API_URL", "http://127.0.0.1:1/natstat/")
    monkeypatch.delenv("SPORTS_API_DIALECT", raising=False)
    assert load_config().natstat and load_config().url == "http://127.0.0.1:1/natstat"
    monkeypatch.setenv("SPORTS_API_URL", "https://api.example.org/")
    assert not load_config().natstat
    monkeypatch.setenv("SPORTS_API_DIALECT", "NatStat")
    assert load_config().natstat
