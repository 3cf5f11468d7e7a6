"""A repeated address answered from its encoded bytes, in front of routing.

The pipeline keeps every successful body under the request's exact address (scheme, host, path
and query string: key, format and page included, so a body and its Next_Page only ever go back to
the key that asked), tagged with the store generation it was read in. When the same address comes
again and the store has not changed, ``Replay`` checks the key, its level scope and its rate, and
sends the kept bytes: no routing, parsing, querying or encoding. Everything else (a miss, a key
that must be looked up while the store is unreachable) goes down the full pipeline, which renders
every error.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Receive, Scope, Send

from server.http.caching import matches, trimmed
from server.http.documents import Encoder
from server.http.errors import ApiError
from server.http.responses import render_error, respond

if TYPE_CHECKING:
    from server.http.pipeline import Service

log = logging.getLogger("server.http")

Address = tuple[str, bytes, str, bytes]
Headers = list[tuple[bytes, bytes]]


@dataclass(frozen=True)
class Kept:
    """One encoded answer and what is needed to give it again."""

    body: bytes
    etag: str
    level: str
    key: str
    encoder: Encoder
    headers: Headers  # of the 200 answer
    headers_304: Headers


def keep(body: bytes, etag: str, level: str, key: str, encoder: Encoder) -> Kept:
    body = trimmed(body)
    return Kept(body, etag, level, key, encoder, respond(encoder, body, etag, 200).raw_headers,
                respond(encoder, b"", etag, 304).raw_headers)


def address(scope: Scope) -> Address:
    host = b""
    for name, value in scope["headers"]:
        if name == b"host":
            host = value
            break
    return scope["scheme"], host, scope["path"], scope["query_string"]


class Replay:
    def __init__(self, app: ASGIApp, service: Service) -> None:
        self.app = app
        self.service = service

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "GET":
            if self.service.inline:
                answer = self._answer(scope)
            else:  # a networked store or Redis counters block: keep the event loop free
                answer = await run_in_threadpool(self._answer, scope)
            if answer is not None:
                status, headers, body = answer
                await send({"type": "http.response.start", "status": status, "headers": headers})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)

    def _answer(self, scope: Scope) -> tuple[int, Headers, bytes] | None:
        service = self.service
        kept: Kept | None = service.bodies.get(address(scope), service.gate.watch.generation())
        if kept is None:
            return None
        gate = service.gate
        try:
            grant, digest = gate.verify(kept.key)
        except ApiError:
            return None  # revoked since: the pipeline says so in full
        except Exception:  # a store fault while verifying: the pipeline answers 503
            log.debug("replay fell back to the pipeline", exc_info=True)
            return None
        try:
            gate.admit(grant, digest, kept.level)
        except ApiError as error:
            response = render_error(error, kept.encoder)
            return response.status_code, response.raw_headers, bytes(response.body)
        gate.note_use(grant)
        for name, value in scope["headers"]:
            if name == b"if-none-match" and matches(value.decode("latin-1"), kept.etag):
                return 304, kept.headers_304, b""
        return 200, kept.headers, kept.body
