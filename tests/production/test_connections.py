"""The connection itself: bytes that are not a request, requests that never finish arriving,
bodies sent a byte at a time, more connections than a worker or one client should hold, header
blocks too large, forwarded addresses. Each gets the error document, and every other client
keeps being answered (docs/api/limits.md)."""
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
PER_CLIENT = 15
CLIENTS = [f"127.0.0.{n}" for n in range(2, 7)]  # other loopback addresses: other clients

pytestmark = pytest.mark.skipif(
    wants_postgres(), reason="the connection does not depend on the store: checked once, in the SQLite pass")


@pytest.fixture(scope="module")
def guarded(store: Store, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving(store.url, tmp_path_factory.mktemp("conn") / "server.log",
                 SPORTS_HEADER_TIMEOUT=str(HEADER_TIMEOUT),
                 SPORTS_MAX_CONNECTIONS=str(MAX_CONNECTIONS),
                 SPORTS_MAX_CONNECTIONS_PER_CLIENT=str(PER_CLIENT)) as server:
        yield server


def _connect(server: Server, source: str = "127.0.0.1") -> socket.socket:
    parts = urlsplit(server.base_url)
    return socket.create_connection((parts.hostname, parts.port), timeout=30,
                                    source_address=(source, 0))


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
    # from five addresses, none over its own cap: the worker's cap is what refuses
    held = [_connect(guarded, CLIENTS[n % len(CLIENTS)]) for n in range(MAX_CONNECTIONS + 20)]
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


def test_one_client_hoarding_sockets_starves_only_itself(store: Store, guarded: Server) -> None:
    """Idle sockets from one address past its cap are refused at once; another address is
    answered meanwhile, and the hoarder's own requests once it lets go."""
    key = issue_key(store.url)
    held = [_connect(guarded) for _ in range(PER_CLIENT + 10)]
    try:
        for sock in held:
            sock.sendall(b"GET /v1/teams/MLB/ HTTP/1.1\r\n")  # and nothing more
        for sock in held[PER_CLIENT:]:
            sock.settimeout(5)
            status, headers, body = _read_response(sock)
            _error(status, headers, body, 503, "unavailable")
            assert b"one client" in body, body
        with httpx.Client(base_url=guarded.base_url, timeout=10,
                          transport=httpx.HTTPTransport(local_address=CLIENTS[0])) as other:
            assert other.get("/v1/teams/MLB/", params={"key": key}).status_code == 200
    finally:
        for sock in held:
            sock.close()
    time.sleep(0.5)  # the server sees them close
    assert httpx.get(guarded.base_url + "/v1/teams/MLB/", params={"key": key},
                     timeout=10).status_code == 200


def test_a_body_is_never_waited_for(store: Store, guarded: Server) -> None:
    """A request announcing 100 MB and sending a byte a second is answered from its headers,
    and its connection ends: the service reads no body."""
    key = issue_key(store.url)
    with _connect(guarded) as sock:
        sock.sendall(f"GET /v1/teams/MLB/?key={key} HTTP/1.1\r\nHost: a\r\n"
                     "Content-Length: 100000000\r\n\r\nx".encode())
        started = time.monotonic()
        sock.settimeout(10)
        for _ in range(3):  # a byte a second while the server answers
            try:
                sock.sendall(b"x")
            except OSError:
                break
            time.sleep(1)
        status, _headers, body = _read_response(sock)  # ends with the connection
        took = time.monotonic() - started
    assert status == 200 and json.loads(body)["teams"], body[:300]
    assert took < HEADER_TIMEOUT + 5, took
    with _connect(guarded) as sock:  # a method with a body: refused, not read
        sock.sendall(f"POST /v1/teams/MLB/?key={key} HTTP/1.1\r\nHost: a\r\n"
                     "Transfer-Encoding: chunked\r\n\r\n1\r\nx\r\n".encode())
        sock.settimeout(10)
        status, headers, body = _read_response(sock)
    _error(status, headers, body, 405, "method_not_allowed")


@pytest.mark.parametrize("block", [
    b"".join(b"X-%d: y\r\n" % n for n in range(5_000)),  # 5,000 fields
    b"".join(b"X-%d: %s\r\n" % (n, b"y" * 10_000) for n in range(10)),  # 100 KB in ten
])
def test_a_header_block_too_large_is_refused(guarded: Server, block: bytes) -> None:
    status, headers, body = _exchange(guarded, b"GET /health HTTP/1.1\r\nHost: a\r\n" + block
                                      + b"\r\n")
    _error(status, headers, body, 400, "bad_request")
    assert b"header block" in body, body


def test_forwarded_addresses_are_believed_only_from_named_proxies(
        store: Store, guarded: Server, tmp_path_factory: pytest.TempPathFactory) -> None:
    """X-Forwarded-For from a peer nobody named is ignored (the access log, and every cap kept
    by address, see the peer); from a named proxy it is the client, and the proxy's own
    connections count against no client's cap."""
    key = issue_key(store.url)
    forged = {"X-Forwarded-For": "203.0.113.9"}
    httpx.get(guarded.base_url + "/v1/teams/MLB/", params={"key": key}, headers=forged,
              timeout=10)
    time.sleep(0.3)
    assert "203.0.113.9" not in guarded.log()
    with serving(store.url, tmp_path_factory.mktemp("proxied") / "server.log",
                 SPORTS_TRUSTED_PROXIES="127.0.0.1",
                 SPORTS_MAX_CONNECTIONS_PER_CLIENT=str(PER_CLIENT)) as proxied:
        httpx.get(proxied.base_url + "/v1/teams/MLB/", params={"key": key}, headers=forged,
                  timeout=10)
        held = [_connect(proxied) for _ in range(PER_CLIENT + 5)]
        try:
            for sock in held:
                sock.sendall(b"GET /v1/teams/MLB/?key=" + key.encode() + b" HTTP/1.1\r\n"
                             b"Host: a\r\nConnection: close\r\n\r\n")
            answered = [_read_response(sock)[0] for sock in held]
        finally:
            for sock in held:
                sock.close()
        time.sleep(0.3)
        assert "203.0.113.9" in proxied.log()
    assert answered == [200] * (PER_CLIENT + 5), answered
