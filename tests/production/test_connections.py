"""The connection itself (issue 28, part 5): bytes that are not a request, requests that never
finish arriving, more connections than a worker should hold. Each gets the contract's error
document, and normal requests keep being answered."""
from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from urllib.parse import urlsplit

import httpx
import pytest

from tests.production._harness import Server, issue_key, serving
from tests.production.conftest import Store, wants_postgres

HEADER_TIMEOUT = 1.5
MAX_CONNECTIONS = 40

pytestmark = pytest.mark.skipif(
    wants_postgres(), reason="the connection does not depend on the store: checked once, in the SQLite pass")


@pytest.fixture(scope="module")
def guarded(store: Store, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving(store.url, tmp_path_factory.mktemp("conn") / "server.log",
                 SPORTS_HEADER_TIMEOUT=str(HEADER_TIMEOUT),
                 SPORTS_MAX_CONNECTIONS=str(MAX_CONNECTIONS)) as server:
        yield server


def _connect(server: Server) -> socket.socket:
    parts = urlsplit(server.base_url)
    return socket.create_connection((parts.hostname, parts.port), timeout=30)


def _exchange(server: Server, raw: bytes) -> tuple[int, dict[str, str], bytes]:
    with _connect(server) as sock:
        sock.sendall(raw)
        return _read_response(sock)


def _read_response(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    data = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in lines[1:] if ": " in line)
    return int(lines[0].split()[1]), headers, body


def _error(status: int, headers: dict[str, str], body: bytes, expected: int, code: str) -> None:
    assert status == expected, body[:300]
    assert headers["content-type"].startswith("application/json")
    error = json.loads(body)["error"]
    assert error["Status"] == expected and error["Code"] == code and error["Message"]


@pytest.mark.parametrize("raw", [
    b"GARBAGE\r\n\r\n",
    b"GET /v1/games/MLB/ HTTP/9.9\r\n\r\n",
    b"GET /v1/games/MLB/?key=" + b"x" * 70_000 + b" HTTP/1.1\r\nHost: a\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: a\r\nX: " + b"y" * 200_000 + b"\r\n\r\n",
    b"GET /\x00 HTTP/1.1\r\n\r\n",
])
def test_what_is_not_http_gets_the_error_document(guarded: Server, raw: bytes) -> None:
    status, headers, body = _exchange(guarded, raw)
    assert status in (400, 404, 414, 431), body[:300]
    code = {400: "bad_request", 404: "not_found"}.get(status, "bad_request")
    if status == 400 and b"bad_parameter" in body:
        code = "bad_parameter"
    _error(status, headers, body, status, code)
    assert len(body) < 2000  # never the whole path echoed back


def test_a_request_that_never_finishes_is_timed_out(guarded: Server) -> None:
    with _connect(guarded) as sock:
        sock.sendall(b"GET /v1/games/MLB/ HTTP/1.1\r\nHost: a\r\n")  # no blank line, ever
        started = time.monotonic()
        status, headers, body = _read_response(sock)
        waited = time.monotonic() - started
    _error(status, headers, body, 408, "request_timeout")
    assert waited < HEADER_TIMEOUT + 5, waited


def test_slow_connections_neither_take_the_worker_nor_stay(store: Store, guarded: Server) -> None:
    key = issue_key(store.url)
    held = [_connect(guarded) for _ in range(MAX_CONNECTIONS + 20)]
    try:
        for sock in held:
            sock.sendall(b"GET /v1/teams/MLB/ HTTP/1.1\r\n")  # and nothing more
        refused = 0
        for sock in held[MAX_CONNECTIONS:]:
            sock.settimeout(5)
            status, headers, body = _read_response(sock)
            _error(status, headers, body, 503, "unavailable")
            refused += 1
        assert refused == 20
        time.sleep(HEADER_TIMEOUT + 1)  # the slow ones are dropped ...
        answered = [httpx.get(guarded.base_url + "/v1/teams/MLB/", params={"key": key},
                              timeout=30).status_code for _ in range(20)]
        assert answered == [200] * 20  # ... and every normal request is answered
    finally:
        for sock in held:
            sock.close()


def test_a_kept_alive_connection_is_not_cut_between_requests(store: Store,
                                                              guarded: Server) -> None:
    key = issue_key(store.url)
    with httpx.Client(base_url=guarded.base_url, timeout=30) as client:
        for _ in range(3):
            assert client.get("/v1/teams/MLB/", params={"key": key}).status_code == 200
            time.sleep(HEADER_TIMEOUT / 2)
