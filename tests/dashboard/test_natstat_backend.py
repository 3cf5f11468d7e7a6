"""The dashboard on a NatStat backend (issue #31): every page over this service's ``/natstat/``
shows what it shows over the root, table for table and chart for chart.

The dialect sends keyed objects of strings; ``services.natstat`` reads them back into the
typed records the pages use. These tests open each page twice, as a shared link would, once
with the services pointed at the root and once at ``/natstat`` (the dialect found from the
URL, as an operator would configure it), and compare every table's cells and every chart's
points.
"""
from __future__ import annotations

import http.server
import json
import math
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from tests.dashboard._apptest import assert_clean, figures, open_clean, open_page, trace_values
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


def test_a_baseball_box_score_over_natstat_reads_as_the_roots(
        api_server: ApiServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """The decisions and the notes under the box (lists the dialect keys by their codes:
    ``visitor_HR``) read as the root's."""
    from services import api

    monkeypatch.delenv("SPORTS_API_DIALECT", raising=False)
    point_services_at(api_server, monkeypatch)
    game = str(int(api.games("MLB", status="final", size=1).frame.iloc[0]["ID"]))
    root = open_clean("games", {"level": "MLB", "game": game})
    point_services_at(ApiServer(api_server.url + "/natstat", api_server.key, ""), monkeypatch)
    natstat = open_clean("games", {"level": "MLB", "game": game})
    said = [[t for t in [c.value for c in at.caption] + [m.value for m in at.markdown]
             if "API ok" not in t] for at in (root, natstat)]  # the sidebar names the address
    assert any(line.startswith("**Decisions:**") for line in said[0])
    assert any(f"{code}\\:" in line for line in said[0] for code in ("2B", "HR", "SB", "E")), said[0]
    assert said[1] == said[0]


def test_the_dialect_is_found_from_the_url_or_set(monkeypatch: pytest.MonkeyPatch) -> None:
    from services.config import load_config

    monkeypatch.setenv("SPORTS_API_URL", "http://127.0.0.1:1/natstat/")
    monkeypatch.delenv("SPORTS_API_DIALECT", raising=False)
    assert load_config().natstat and load_config().url == "http://127.0.0.1:1/natstat"
    monkeypatch.setenv("SPORTS_API_URL", "https://api.example.org/")
    assert not load_config().natstat
    monkeypatch.setenv("SPORTS_API_DIALECT", "NatStat")
    assert load_config().natstat


# ------------------------------------------------------------------ a backend that lacks ours

OURS_ONLY = ("/projections/", "/boxscores/", "/boxscore/", "/calibration/")


class _NatStatOnly(http.server.BaseHTTPRequestHandler):
    """A NatStat backend as the public one is: this service's ``/natstat/`` documents, without
    what only this service offers (projections, box scores, calibration, ``/health``), which answer
    NatStat's 404."""

    upstream = ""

    def do_GET(self) -> None:
        if any(part in self.path for part in OURS_ONLY) or self.path.startswith("/health"):
            status, body = 404, json.dumps({"success": "0", "error": {
                "message": "no such endpoint", "detail": "not_found"}}).encode()
        else:
            answer = httpx.get(self.upstream + self.path, timeout=30)
            status, body = answer.status_code, answer.content
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_: Any) -> None:
        return


@pytest.fixture()
def natstat_only(api_server: ApiServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[ApiServer]:
    handler = type("Handler", (_NatStatOnly,), {"upstream": api_server.url})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        backend = ApiServer(f"http://127.0.0.1:{server.server_address[1]}/natstat",
                            api_server.key, "")
        yield point_services_at(backend, monkeypatch)
    finally:
        server.shutdown()
        server.server_close()


def test_what_a_natstat_backend_lacks_is_said_not_offered(natstat_only: ApiServer) -> None:
    at = open_page("projections", {"level": "MLB"})
    assert_clean(at)
    assert any("Not offered by this backend" in i.value for i in at.info), [
        i.value for i in at.info]
    games = open_clean("games", {"level": "MLB"})
    game_id = str(games.dataframe[0].value.iloc[0]["ID"]) if "ID" in games.dataframe[
        0].value.columns else None
    assert game_id is not None
    detail = open_clean("games", {"level": "MLB", "tab": "Game detail", "game": game_id, "charts": "true"})
    assert any("not offered by this backend" in c.value for c in detail.caption)
    assert figures(detail), "the rest of the game page is drawn"
    forecasts = open_clean("forecasts", {"level": "MLB", "tab": "In-game"})
    assert any(c.value.startswith("In-game calibration: not offered by this backend")
               for c in forecasts.caption)


def test_standings_and_overview_need_only_natstat(natstat_only: ApiServer) -> None:
    """Standings come from NatStat's own ``standings``: only the projected columns beside them
    need this service; the overview's levels list (our ``/health``) is left empty, not the page."""
    standings = open_clean("standings", {"level": "MLB"})
    assert standings.dataframe, "the table, without the projections"
    assert all("ProjW" not in t.value.columns for t in standings.dataframe)
    assert any("not offered by this backend" in c.value for c in standings.caption)
    overview = open_clean("overview", {"level": "MLB", "chart": "true"})
    assert not [i.value for i in overview.info if "Not offered" in i.value]
    assert figures(overview) and overview.dataframe
