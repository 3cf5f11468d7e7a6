"""The HTTP connection itself: what uvicorn's protocol answers before the app sees a request.

uvicorn's httptools protocol answered bytes it could not parse (a malformed request line, a
header block over its parser's limits) with a plain-text "Invalid HTTP request received.", and
held a connection whose request never finished arriving for as long as the client liked: 1,100
such connections under a 1,024 open-file limit made 147 of 148 normal requests fail. This
protocol keeps uvicorn's parsing and adds three things:

* an unreadable request is answered with the contract's error document (400 ``bad_request``),
  and so is a header block over ``MAX_HEADER_BYTES`` or ``MAX_HEADERS`` headers (httptools itself
  set no bound: a 100 KB header and 5,000 headers were answered 200);
* a request's headers must arrive within ``SPORTS_HEADER_TIMEOUT`` seconds of its first byte
  (or of the connection, when no byte comes), else 408 ``request_timeout`` and the connection
  is closed (checked every quarter of the timeout, at most every second);
* a worker holds at most ``SPORTS_MAX_CONNECTIONS`` connections; one more is answered 503
  ``unavailable`` and closed at once, so a flood of idle sockets cannot take every file
  descriptor (keep the limit under the process's open-file limit, ``ulimit -n``);
* and at most ``SPORTS_CLIENT_CONNECTIONS`` from one client address, so a client that holds
  sockets starves only itself (820 idle sockets from one client took every other client's
  answers: 215 of 216 refused);
* a whole request, headers and body, must arrive within ``SPORTS_REQUEST_TIMEOUT`` seconds of
  its first byte (a declared 100 MB body sent a byte a second held its connection past 40 s);
* a GET's body is never read: the request is answered and its connection closed.
"""
from __future__ import annotations

import asyncio
import os
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from server.errors import ApiError, RequestTimeout, Unavailable, UnreadableRequest, error_document
from server.http.encode import DEFAULT_FORMAT, ENCODERS

HEADER_TIMEOUT = float(os.environ.get("SPORTS_HEADER_TIMEOUT", "10") or 10)
# the whole request, headers and body, from its first byte
REQUEST_TIMEOUT = float(os.environ.get("SPORTS_REQUEST_TIMEOUT", "30") or 30)
MAX_CONNECTIONS = int(os.environ.get("SPORTS_MAX_CONNECTIONS", "800") or 800)
# The proxies whose X-Forwarded-For / X-Forwarded-Proto are believed (addresses or networks,
# comma-separated): none by default, so no client, not even one on the loopback, chooses the
# address the access log records (``serve.forwarding``).
TRUSTED_PROXIES = os.environ.get("SPORTS_TRUSTED_PROXIES", "").strip()
# connections a worker holds from one client address; off behind a declared proxy (every
# connection comes from it) and at 0
CLIENT_CONNECTIONS = 0 if TRUSTED_PROXIES else int(
    os.environ.get("SPORTS_CLIENT_CONNECTIONS", "64") or 0)
PER_CLIENT = "sports_per_client"  # uvicorn's server state: client address -> connections
# A request's header block: at most this many bytes of names and values, and this many headers
# (Apache's LimitRequestFields is 100; nginx's large_client_header_buffers 4 x 8 KiB); then 400.
MAX_HEADER_BYTES = 32 * 1024
MAX_HEADERS = 100
LINGER = 1.0  # seconds a refused connection is drained before it is closed
SWEEP_EVERY = min(1.0, HEADER_TIMEOUT / 4, REQUEST_TIMEOUT / 4)  # so a deadline is kept within a quarter of itself
SWEEPING = "sports_sweeping"  # set on uvicorn's server state once its worker sweeps
_REASONS = {400: b"Bad Request", 408: b"Request Timeout", 503: b"Service Unavailable"}


def error_bytes(error: ApiError) -> bytes:
    """A whole HTTP/1.1 response carrying ``error``'s document (JSON), closing the connection."""
    encoder = ENCODERS[DEFAULT_FORMAT]
    body = encoder.encode(error_document(error))
    head = (b"HTTP/1.1 %d %s\r\ncontent-type: %s\r\ncontent-length: %d\r\n"
            b"cache-control: no-store\r\nconnection: close\r\n\r\n"
            % (error.status, _REASONS[error.status], encoder.media_type.encode(), len(body)))
    return head + body


class GuardedHttpTools(HttpToolsProtocol):
    """uvicorn's httptools protocol with a header deadline, a connection cap and error
    documents in the contract's shape.

    The deadline is kept as the loop time a request's headers began to be awaited, and one
    sweep per worker (``_sweep``, every ``SWEEP_EVERY`` seconds) ends the connections past it:
    a timer armed and cancelled for every request cost 1.9 µs (uvloop, 200,000 in a loop), 3%
    of the server CPU a kept page takes (61 µs, ``bench/api.py``), a sweep nothing a request."""

    _waiting_since: float | None = None  # loop time the headers began to be awaited
    _refused = False
    _header_bytes = 0  # of the request being read
    _header_count = 0

    _client: str | None = None  # the peer address counted against CLIENT_CONNECTIONS
    _request_since: float | None = None  # loop time the request being read began
    _unread_body = False  # a GET that declared a body: dropped, the connection closed after

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if CLIENT_CONNECTIONS > 0:
            peer = transport.get_extra_info("peername")
            client = str(peer[0]) if isinstance(peer, tuple) and peer else None
            counts: dict[str, int] = getattr(self.server_state, PER_CLIENT, None) or {}
            setattr(self.server_state, PER_CLIENT, counts)
            if client is not None and counts.get(client, 0) >= CLIENT_CONNECTIONS:
                self.logger.warning("connection refused: %s holds %d, the most one client may",
                                    client, CLIENT_CONNECTIONS)
                self._refuse(Unavailable(f"this client holds its most connections "
                                         f"({CLIENT_CONNECTIONS}); close one, or reuse one"))
                return
            if client is not None:
                counts[client] = counts.get(client, 0) + 1
                self._client = client
        if len(self.connections) > MAX_CONNECTIONS:
            self.logger.warning("connection refused: %d open, the most is %d",
                                len(self.connections) - 1, MAX_CONNECTIONS)
            self._refuse(Unavailable(f"the server holds its most connections "
                                     f"({MAX_CONNECTIONS}); try again shortly"))
            return
        self._waiting_since = self.loop.time()
        state = self.server_state
        if not getattr(state, SWEEPING, False):  # the worker's first connection starts it
            setattr(state, SWEEPING, True)
            self.loop.call_later(SWEEP_EVERY, _sweep, self.loop, self.connections)

    def connection_lost(self, exc: Exception | None) -> None:
        self._release_client()
        super().connection_lost(exc)

    def _release_client(self) -> None:
        if self._client is not None:
            counts: dict[str, int] = getattr(self.server_state, PER_CLIENT)
            left = counts.get(self._client, 1) - 1
            if left > 0:
                counts[self._client] = left
            else:
                counts.pop(self._client, None)
            self._client = None

    def _too_slow(self) -> None:
        self._waiting_since = None
        if not self.transport.is_closing():
            self._refuse(RequestTimeout(f"the request's headers did not arrive within "
                                        f"{HEADER_TIMEOUT:g} s"))

    def _too_slow_body(self) -> None:
        self._request_since = None
        if self._unread_body:  # a GET answered or being answered: nothing more to read
            if self.cycle is not None and self.cycle.response_complete:
                self.transport.close()
            return
        if not self.transport.is_closing():
            self._refuse(RequestTimeout(f"the request did not arrive within "
                                        f"{REQUEST_TIMEOUT:g} s"))

    def _refuse(self, error: ApiError) -> None:
        """Answer ``error`` and end the connection. What the client sends meanwhile is read and
        dropped for a moment first: closing a socket with unread bytes sends a reset, which may
        destroy the answer before the client reads it."""
        self._refused = True
        # no longer counted against the caps: the connection is only being drained
        self.connections.discard(self)
        self._release_client()
        self.transport.write(error_bytes(error))
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.loop.call_later(LINGER, self.transport.close)

    def data_received(self, data: bytes) -> None:
        if not self._refused:
            super().data_received(data)

    def on_message_begin(self) -> None:
        self._header_bytes = self._header_count = 0
        self._unread_body = False
        super().on_message_begin()
        # a kept-alive connection's next request has the same deadline, from its first byte
        self._waiting_since = self._request_since = self.loop.time()

    def on_body(self, body: bytes) -> None:
        if not self._unread_body:
            super().on_body(body)

    def on_message_complete(self) -> None:
        self._request_since = None
        super().on_message_complete()

    def on_header(self, name: bytes, value: bytes) -> None:
        self._header_bytes += len(name) + len(value)
        self._header_count += 1
        if self._header_bytes > MAX_HEADER_BYTES or self._header_count > MAX_HEADERS:
            # the parser turns a callback's exception into its own error: answered 400 below
            raise ValueError("header block too large")
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._waiting_since = None
        method = self.parser.get_method()
        declared = any(name in (b"content-length", b"transfer-encoding") and value.strip() != b"0"
                       for name, value in self.headers)
        super().on_headers_complete()
        if declared and method in (b"GET", b"HEAD"):
            # answered without reading it; the connection then closes, as it cannot be reused
            self._unread_body = True
            self.cycle.keep_alive = False

    def send_400_response(self, msg: str) -> None:
        self._waiting_since = None
        self._refuse(UnreadableRequest(
            "the request could not be read as HTTP/1.1 (a malformed request line, a line too "
            f"long, or a header block over {MAX_HEADER_BYTES // 1024} KiB or "
            f"{MAX_HEADERS} headers)"))


def _sweep(loop: asyncio.AbstractEventLoop, connections: set[Any]) -> None:
    """End every connection whose request's headers are past the deadline, then come again."""
    now = loop.time()
    for connection in list(connections):
        since = getattr(connection, "_waiting_since", None)
        begun = getattr(connection, "_request_since", None)
        if since is not None and now - since >= HEADER_TIMEOUT:
            connection._too_slow()
        elif begun is not None and now - begun >= REQUEST_TIMEOUT:
            connection._too_slow_body()
    loop.call_later(SWEEP_EVERY, _sweep, loop, connections)
