"""Every error code, in every format, has the documented shape (docs/api/index.md)."""
from __future__ import annotations

import shutil
import sqlite3
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
import httpx

from server import keys
from server.store import keystore
from tests.conftest import ON_POSTGRES, LiveServer, MiniStore, start_server, stop_server
from tests.demo_api import ApiServer
from tests.server.http.test_documents import php_to_json

FORMATS = ("json", "xml", "php")


def _decode(response: Any, fmt: str, php: str | None) -> dict[str, Any]:
    """The error document, whatever its encoding."""
    if fmt == "json":
        return dict(response.json())
    if fmt == "xml":
        root = ET.fromstring(response.content)
        assert root.tag == "response"
        err = root.find("error")
        assert err is not None
        out: dict[str, Any] = {child.tag: child.text for child in err}
        out["Status"] = int(out["Status"])
        return {"error": out}
    if php is None:
        assert response.content.startswith(b'a:1:{s:5:"error";')
        return {}
    return dict(php_to_json(php, response.content))


def _check(response: Any, fmt: str, status: int, code: str, php: str | None) -> None:
    assert response.status_code == status, response.text
    doc = _decode(response, fmt, php)
    if not doc:
        return
    err = doc["error"]
    assert set(err) <= {"Status", "Code", "Parameter", "Message"}
    assert err["Status"] == status and err["Code"] == code and err["Message"]
    assert "Traceback" not in response.text


@pytest.fixture(scope="module")
def php_or_none() -> str | None:
    return shutil.which("php")


@pytest.fixture(scope="module")
def scoped_key(mini_store: MiniStore) -> str:
    return keys.issue(mini_store.engine, "FC", 1_000_000, "fc only")


CASES: list[tuple[str, str, dict[str, Any], int, str]] = [
    ("bad number", "/v1/games/MLB/", {"team": "abc"}, 400, "bad_parameter"),
    ("bad date", "/v1/games/MLB/", {"date": "2024-13-45"}, 400, "bad_parameter"),
    ("bad max", "/v1/games/MLB/", {"max": "0"}, 400, "bad_parameter"),
    ("bad page", "/v1/games/MLB/", {"page": "-2"}, 400, "bad_parameter"),
    ("bad limit", "/v1/games/MLB/", {"limit": "=soon"}, 400, "bad_parameter"),
    ("end before start", "/v1/games/MLB/", {"start": "2024-05-02", "end": "2024-05-01"}, 400,
     "bad_parameter"),
    ("pbp unfiltered", "/v1/playbyplay/MLB/", {}, 400, "filter_required"),
    ("level not served", "/v1/pitch/FC/", {}, 400, "level_not_supported"),
    ("unknown level", "/v1/games/XYZ/", {}, 400, "level_not_supported"),
    ("unknown id", "/v1/games/MLB/", {"id": 999999}, 404, "not_found"),
    ("unknown endpoint", "/v1/scores/MLB/", {}, 404, "not_found"),
    ("unknown address", "/nowhere", {}, 404, "not_found"),
    ("wrong version", "/v3/games/MLB/", {}, 404, "wrong_version"),
    ("wrong version v0", "/v0/moneyline/MLB/", {}, 404, "wrong_version"),
    ("missing key", "/v1/games/MLB/", {"key": ""}, 401, "key_missing"),
    ("malformed key", "/v1/games/MLB/", {"key": "ABCD-12345"}, 401, "key_malformed"),
    ("unknown key", "/v1/games/MLB/", {"key": "ABCD-123456"}, 401, "key_invalid"),
]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("name,path,params,status,code", CASES, ids=[c[0] for c in CASES])
def test_error_document(api: ApiServer, php_or_none: str | None, fmt: str, name: str, path: str,
                        params: dict[str, Any], status: int, code: str) -> None:
    query = {**params, "format": fmt}
    key = query.pop("key", None)
    _check(api.send(path, query, key=key), fmt, status, code, php_or_none)


def test_bad_format_answers_json(api: ApiServer) -> None:
    response = api.send("/v1/games/MLB/", {"format": "yaml"})
    assert response.status_code == 400 and response.headers["content-type"] == "application/json"
    assert response.json()["error"]["Parameter"] == "format"


@pytest.mark.parametrize("fmt", FORMATS)
def test_level_forbidden(api: ApiServer, scoped_key: str, php_or_none: str | None, fmt: str) -> None:
    _check(api.send("/v1/games/MLB/", {"format": fmt}, key=scoped_key), fmt, 403,
           "level_forbidden", php_or_none)
    assert api.send("/v1/games/FC/", key=scoped_key).status_code == 200


@pytest.mark.parametrize("fmt", FORMATS)
def test_rate_limited_with_retry_after(api: ApiServer, mini_store: MiniStore,
                                       php_or_none: str | None, fmt: str) -> None:
    key = keys.issue(mini_store.engine, None, 2, "slow")
    assert [api.send("/v1/teams/MLB/", key=key).status_code for _ in range(2)] == [200, 200]
    response = api.send("/v1/teams/MLB/", {"format": fmt}, key=key)
    _check(response, fmt, 429, "rate_limited", php_or_none)
    assert 1 <= int(response.headers["retry-after"]) <= 60


@pytest.mark.skipif(ON_POSTGRES, reason="breaks a SQLite file; PostgreSQL faults: tests/production")
def test_store_fault_is_503(mini_store: MiniStore, api_key: str, tmp_path: Path) -> None:
    """A store that fails mid-flight answers 503 unavailable, never a 500 or a trace."""
    broken = tmp_path / "broken.db"
    for source_path, target_path in ((mini_store.path, broken),  # the store, its keys file
                                     (keystore.keys_path(mini_store.path),
                                      keystore.keys_path(broken))):
        with sqlite3.connect(source_path) as source, sqlite3.connect(target_path) as target:
            source.backup(target)
    shutil.copy(keystore.secret_path(mini_store.path), keystore.secret_path(broken))
    process, base = start_server(f"sqlite:///{broken}", tmp_path / "log.txt")
    try:
        with sqlite3.connect(broken) as conn:
            conn.execute("DROP TABLE games")
        for fmt in FORMATS:
            response = httpx.get(base + "/v1/games/MLB/", params={"key": api_key,
                                                                  "format": fmt})
            _check(response, fmt, 503, "unavailable", None)
    finally:
        stop_server(process)


def test_unreachable_database_is_503(tmp_path: Path) -> None:
    process, base = start_server("postgresql://postgres@127.0.0.1:1/nothing",
                                 tmp_path / "log.txt")
    try:
        response = httpx.get(base + "/v1/games/MLB/", params={"key": "ABCD-123456"})
        assert response.status_code == 503
        assert response.json()["error"]["Code"] == "unavailable"
        health = httpx.get(base + "/health")
        assert health.status_code == 503 and "Traceback" not in health.text
    finally:
        stop_server(process)


def test_errors_are_not_cached(live_server: LiveServer, api: ApiServer) -> None:
    response = api.send("/v1/games/MLB/", {"team": "x"})
    assert response.headers["cache-control"] == "no-store"
