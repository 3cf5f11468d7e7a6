"""A repeated address answered from its encoded bytes, in front of routing.

The request path keeps every successful body under the request's exact address
(``caching.address``: key, format and page included), tagged with the store generation it was
read in. When the same address comes again and the store has not changed, ``Replay`` checks the
key, its level scope and its rate, and sends the cached bytes: no routing, parsing, querying or
encoding. Everything else (a miss, a key that must be looked up while the store is unreachable)
goes down the full request path, which renders every error. The address includes the path, so
a NatStat dialect body (under ``/natstat/``) and its root body are cached apart.

It pays, measured by ``bench/api.py`` in one session (2 workers, 2 cores): (a) one games URL
repeated, 20,689 req/s with it and 5,299 without (3.9x); (c) one game's detail, 21,061 against
7,145 (2.9x). Where answers go to a thread (PostgreSQL, Redis), the cached body is looked for on
the event loop first, so a miss costs no extra hop: on bench/api.py --postgres (b) traffic, one
run of 4 interleaved rounds against the lookup in the thread, the workers' CPU 1.06 against
1.11 ms a request (PostgreSQL's 0.44 / 0.49; requests/s within the noise).
"""
from __future__ import annotations

import logging

from starlette.types import ASGIApp, Receive, Scope, Send

from server.errors import ApiError
from server.http.auth import KeyGate
from server.http.caching import CachedAnswer, GenerationCache, address
from server.http.encode.natstat import is_dialect
from server.http.limits import Limits
from server.http.quota import cached_with_quota
from server.http.responses import Headers, matches, render_error

log = logging.getLogger("server.http")


class Replay:
    """ASGI middleware giving cached answers again; ``inline`` answers on the event loop (an
    embedded store and local counters never block)."""

    def __init__(self, app: ASGIApp, bodies: GenerationCache, gate: KeyGate, inline: bool,
                 limits: Limits) -> None:
        self.app = app
        self.bodies = bodies
        self.gate = gate
        self.inline = inline
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "GET":
            # Finding the cached answer is memory only (the generation too: a number, or on
            # SQLite a read of shared memory, asked only when an answer is cached); a miss goes
            # on without a hop to a thread.
            cached: CachedAnswer | None = self.bodies.find(address(scope), self.gate.watch.generation)
            if cached is None:
                answer = None
            elif self.inline:
                answer = self._answer(scope, cached)
            else:  # a networked store or Redis counters block: keep the event loop free
                try:  # in threads of their own, within the store timeout
                    answer = await self.limits.run(self._answer, scope, cached,
                                                   pool=self.limits.replays)
                except ApiError as error:
                    answer = _rendered(error, cached, scope)
            if answer is not None:
                status, headers, body = answer
                await send({"type": "http.response.start", "status": status, "headers": headers})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)

    def _answer(self, scope: Scope, cached: CachedAnswer) -> tuple[int, Headers, bytes] | None:
        gate = self.gate
        digest = cached.digest
        try:
            grant = gate.verify_digest(digest)
        except ApiError:
            return None  # revoked since: the request path says so in full
        except Exception:  # a store fault while verifying: the request path answers 503
            log.debug("replay fell back to the request path", exc_info=True)
            return None
        try:
            gate.admit(grant, digest, cached.level)
        except ApiError as error:
            return _rendered(error, cached, scope)
        gate.note_use(grant)
        if_none_match = None
        for name, value in scope["headers"]:
            if name == b"if-none-match":
                if_none_match = value.decode("latin-1")
        if cached.quota:
            return cached_with_quota(cached.encoder, cached.body, cached.etag, cached.headers_304,
                              gate.quota(grant, digest), if_none_match)
        if matches(if_none_match, cached.etag):
            return 304, cached.headers_304, b""
        return 200, cached.headers, cached.body


def _rendered(error: ApiError, cached: CachedAnswer, scope: Scope) -> tuple[int, Headers, bytes]:
    response = render_error(error, cached.encoder, is_dialect(scope["path"]))
    return response.status_code, response.raw_headers, bytes(response.body)
