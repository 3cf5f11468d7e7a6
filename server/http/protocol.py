"""The HTTP connection itself: what uvicorn's protocol answers before the app sees a request.

uvicorn's httptools protocol answered bytes it could not parse (a malformed request line, a
header block over its parser's limits) with a plain-text "Invalid HTTP request received.", and
held a connection whose request never finished arriving for as long as the client liked: 1,100
such connections under a 1,024 open-file limit made 147 of 148 normal requests fail. This
protocol keeps uvicorn's parsing and adds three things:

* an unreadable request is answered with the API's error document (400 ``bad_request``);
* a request's headers must arrive within ``SPORTS_HEADER_TIMEOUT`` seconds of its first byte
  (or of the connection, when no byte comes), else 408 ``request_timeout`` and the connection
  is closed (checked every quarter of the timeout, at most every second);
* a worker holds at most ``SPORTS_MAX_CONNECTIONS`` connections; one more is answered 503
  ``unavailable`` and closed at once, so a flood of idle sockets cannot take every file
  descriptor (keep the limit under the process's open-file limit, ``ulimit -n``);
* one client address holds at most ``SPORTS_MAX_CONNECTIONS_PER_CLIENT`` of them (not counted
  for a proxy named in ``SPORTS_TRUSTED_PROXIES``, whose connections carry many clients), so a
  client that hoards sockets is refused itself while every other client is answered;
* a header block of more than ``MAX_HEADERS`` fields or ``MAX_HEADER_BYTES`` bytes is a 400;
* no request's body is read: the service is read-only. A request that announces one is
  answered as soon as its headers are in and its connection then ends, so a body sent a byte a
  second holds nothing (the whole request is its headers, under the header deadline).

Settings and their defaults are in docs/operations.md ("Settings").
"""
from __future__ import annotations

import asyncio
import os
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from server.errors import ApiError, RequestTimeout, Unavailable, UnreadableRequest, error_document
from server.http.encode import DEFAULT_FORMAT, ENCODERS

HEADER_TIMEOUT = float(os.environ.get("SPORTS_HEADER_TIMEOUT", "10") or 10)
MAX_CONNECTIONS = int(os.environ.get("SPORTS_MAX_CONNECTIONS", "800") or 800)
# one address's share: a browser opens 6, a NAT'd office a few dozen; 0 turns the cap off
MAX_PER_CLIENT = int(os.environ.get("SPORTS_MAX_CONNECTIONS_PER_CLIENT", "64") or 0)
TRUSTED_PROXIES = frozenset(
    a.strip() for a in os.environ.get("SPORTS_TRUSTED_PROXIES", "").split(",") if a.strip())
MAX_HEADERS = 100  # fields in one request's header block (Apache's LimitRequestFields)
MAX_HEADER_BYTES = 32 * 1024  # bytes of names and values (nginx's 4 buffers of 8 KiB)
LINGER = 1.0  # seconds a refused connection is drained before it is closed
SWEEP_EVERY = min(1.0, HEADER_TIMEOUT / 4)  # so a deadline is kept within a quarter of itself
SWEEPING = "sports_sweeping"  # set on uvicorn's server state once its worker sweeps
PER_CLIENT = "sports_per_client"  # uvicorn's server state: open connections per client address
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
    documents in the API's shape (docs/api/index.md).

    The deadline is kept as the loop time a request's headers began to be awaited, and one
    sweep per worker (``_sweep``, every ``SWEEP_EVERY`` seconds) ends the connections past it:
    a timer armed and cancelled for every request cost 1.9 µs (uvloop, 200,000 in a loop), 3%
    of the server CPU a cached page takes (61 µs, ``bench/api.py``), a sweep nothing a request."""

    _waiting_since: float | None = None  # loop time the headers began to be awaited
    _refused = False
    _counted_as: str | None = None  # the client address this connection counts against
    _header_fields = 0
    _header_bytes = 0
    _too_large: str | None = None  # why the header block was refused
    _body_unread = False  # the request announced a body, which is never read

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > MAX_CONNECTIONS:
            self.logger.warning("connection refused: %d open, the most is %d",
                                len(self.connections) - 1, MAX_CONNECTIONS)
            self._refuse(Unavailable(f"the server holds its most connections "
                                     f"({MAX_CONNECTIONS}); try again shortly"))
            return
        if not self._count_client():
            self.logger.warning("connection refused: a client holds %d, the most one may",
                                MAX_PER_CLIENT)
            self._refuse(Unavailable(f"this address holds the most connections one client may "
                                     f"({MAX_PER_CLIENT}); close some before opening more"))
            return
        self._waiting_since = self.loop.time()
        state = self.server_state
        if not getattr(state, SWEEPING, False):  # the worker's first connection starts it
            setattr(state, SWEEPING, True)
            self.loop.call_later(SWEEP_EVERY, _sweep, self.loop, self.connections)

    def _count_client(self) -> bool:
        """Count this connection against its client address; False when that is over its cap
        (a trusted proxy's connections carry many clients and are not counted)."""
        host = self.client[0] if self.client else None
        if not MAX_PER_CLIENT or host is None or host in TRUSTED_PROXIES:
            return True
        counts: dict[str, int] = getattr(self.server_state, PER_CLIENT, None) or {}
        setattr(self.server_state, PER_CLIENT, counts)
        if counts.get(host, 0) >= MAX_PER_CLIENT:
            return False
        counts[host] = counts.get(host, 0) + 1
        self._counted_as = host
        return True

    def _uncount_client(self) -> None:
        host, self._counted_as = self._counted_as, None
        if host is not None:
            counts: dict[str, int] = getattr(self.server_state, PER_CLIENT)
            counts[host] -= 1
            if not counts[host]:
                del counts[host]

    def connection_lost(self, exc: Exception | None) -> None:
        self._uncount_client()
        super().connection_lost(exc)

    def _too_slow(self) -> None:
        self._waiting_since = None
        if not self.transport.is_closing():
            self._refuse(RequestTimeout(f"the request's headers did not arrive within "
                                        f"{HEADER_TIMEOUT:g} s"))

    def _refuse(self, error: ApiError) -> None:
        """Answer ``error`` and end the connection. What the client sends meanwhile is read and
        dropped for a moment first: closing a socket with unread bytes sends a reset, which may
        destroy the answer before the client reads it."""
        self.transport.write(error_bytes(error))
        self._end()

    def _end(self) -> None:
        """End the connection after what was written, draining the client's bytes a moment."""
        self._refused = True
        # no longer counted against the caps: the connection is only being drained
        self.connections.discard(self)
        self._uncount_client()
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.loop.call_later(LINGER, self.transport.close)

    def data_received(self, data: bytes) -> None:
        if not self._refused and not self._body_unread:  # an unread body's bytes are dropped
            super().data_received(data)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        # a kept-alive connection's next request has the same deadline, from its first byte
        self._waiting_since = self.loop.time()
        self._header_fields = self._header_bytes = 0

    def on_header(self, name: bytes, value: bytes) -> None:
        self._header_fields += 1
        self._header_bytes += len(name) + len(value)
        if self._header_fields > MAX_HEADERS or self._header_bytes > MAX_HEADER_BYTES:
            self._too_large = (f"the request's header block is over {MAX_HEADERS} fields or "
                               f"{MAX_HEADER_BYTES // 1024} KiB")
            raise ValueError(self._too_large)  # the parser stops: send_400_response answers
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._waiting_since = None
        self._body_unread = self._body_unread or any(
            (name == b"content-length" and value.strip() not in (b"", b"0"))
            or name == b"transfer-encoding" for name, value in self.headers)
        super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        if not self._body_unread:
            super().on_body(body)

    def on_message_complete(self) -> None:
        if not self._body_unread:
            super().on_message_complete()

    def on_response_complete(self) -> None:
        if self._body_unread:  # the body was never read: nothing more can follow on this socket
            self.server_state.total_requests += 1
            self._end()
            return
        super().on_response_complete()

    def send_400_response(self, msg: str) -> None:
        self._waiting_since = None
        self._refuse(UnreadableRequest(self._too_large or (
            "the request could not be read as HTTP/1.1 (a malformed request line, or a line or "
            "header too long)")))


def _sweep(loop: asyncio.AbstractEventLoop, connections: set[Any]) -> None:
    """End every connection whose request's headers are past the deadline, then come again."""
    now = loop.time()
    for connection in list(connections):
        since = getattr(connection, "_waiting_since", None)
        if since is not None and now - since >= HEADER_TIMEOUT:
            connection._too_slow()
    loop.call_later(SWEEP_EVERY, _sweep, loop, connections)
