"""Keys never reach the server's logs (docs/api/index.md)."""
from __future__ import annotations

import logging
from pathlib import Path

import httpx
import pytest

from server.http.logmask import KeyMaskFilter, mask
from tests.conftest import LiveServer, MiniStore, start_server, stop_server
from tests.demo_api import ApiServer


def test_mask_filter_rewrites_records() -> None:
    record = logging.LogRecord("uvicorn.access", logging.INFO, "x", 1,
                               '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1:1", "GET", "/v1/games/MLB/?key=AB12-CD34EF&max=1",
                                "1.1", 200), None)
    KeyMaskFilter().filter(record)
    assert "AB12-CD34EF" not in record.getMessage() and "key=****" in record.getMessage()
    assert mask("?a=1&KEY=AB12-CD34EF") == "?a=1&KEY=****"


def test_key_never_in_server_log(api: ApiServer, live_server: LiveServer) -> None:
    api.send("/v1/games/MLB/", {"max": 1})
    api.send("/v1/games/MLB/", {"team": "bad"})
    api.send("/v1/nothing/MLB/")
    api.send("/v1/games/MLB/", key="WXYZ-987654")
    log = live_server.log()
    assert "GET /v1/games/MLB/" in log
    assert api.key not in log and "WXYZ-987654" not in log


@pytest.mark.slow
def test_multi_worker_serve_answers_and_masks(mini_store: MiniStore, api_key: str,
                                              tmp_path: Path) -> None:
    """--workers 2 builds each worker's app from DATABASE_URL; their logs mask keys too."""
    process, base = start_server(mini_store.url, tmp_path / "log.txt", workers=2)
    try:
        for _ in range(4):
            response = httpx.get(base + "/v1/teams/MLB/", params={"key": api_key}, timeout=30)
            assert response.status_code == 200
    finally:
        stop_server(process)
    log = (tmp_path / "log.txt").read_text()
    assert "key=****" in log and api_key not in log
