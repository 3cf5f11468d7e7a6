"""The ASGI app: routes, one view wrapper, and one exception handler per kind of error.

``/{version}/{endpoint}/{level}/[{type}/]`` (trailing slash optional) serves every declared
endpoint through ``pipeline.answer``, and the same under ``/natstat/`` in the NatStat dialect,
where v3's form ``/natstat/{key}/{endpoint}/{level}[/{span}[/{offset}]]`` is read into the same
query (``parse.v3_query``); ``/health``, ``/openapi.json`` and ``/docs`` need no key.
A query's reads run in a store thread (``limits``), except on an embedded store with local
counters, where they first run on the event loop under a small CPU budget (``INLINE_MS``) and
only the ones that need more go on in a thread; what needs no store (the documents, a 404, a
missing or malformed key) never waits for one.
Views raise; they never render errors. An ``ApiError`` becomes its document in the format the
request asked for (json when that is the error), an unknown address or method the documented 404
or 405, and anything unexpected is logged once and answered as ``internal``, never a trace.
"""
from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from urllib.parse import urlencode

import sqlalchemy as sa
from starlette.applications import Starlette
from starlette.convertors import Convertor, register_url_convertor
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp

from server.catalog.levels import LEVELS
from server.endpoints.registry import find_endpoint
from server.errors import ApiError, Internal, MethodNotAllowed, NotFound, show
from server.http import docs, health, openapi
from server.http.caching import ADDRESS_AS_SENT, address
from server.http.limits import DOCS_WAIT, HEALTH_TIMEOUT, INLINE_MS
from server.http.encode import Encoder
from server.http.encode.natstat import PREFIX, is_dialect
from server.http.parse import encoder_for, route, v3_query
from server.http.pipeline import PageTooLarge, Service, admit, answer, finish
from server.http.replay import Replay
from server.store.engine import OverBudget
from server.http.responses import render_error

log = logging.getLogger("server.http")

View = Callable[[Request], Awaitable[Response]]


class VersionSegment(Convertor[str]):
    """A path segment naming a version (``v2``): what tells a versioned NatStat address from
    v3's, whose first segment is the key."""

    regex = "[vV][0-9]+"

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return value


class KeySegment(VersionSegment):
    """v3's first segment: anything but a version."""

    regex = "(?![vV][0-9]+(?:/|$))[^/]+"


class RootVersionSegment(VersionSegment):
    """The first segment of a root address with a path type: anything but ``natstat``, whose
    addresses of that length are the dialect's (``/natstat/v1/games/MLB``)."""

    regex = "(?!natstat/)[^/]+"


register_url_convertor("version", VersionSegment())
register_url_convertor("key", KeySegment())
register_url_convertor("root_version", RootVersionSegment())


def view(handler: View) -> View:
    """The one view wrapper: an unexpected fault becomes ``Internal``, logged with its trace."""
    @functools.wraps(handler)
    async def wrapped(request: Request) -> Response:
        try:
            return await handler(request)
        except (ApiError, HTTPException):
            raise
        except Exception as exc:  # the last line of defence: a document, never a trace
            log.exception("unexpected fault answering %s", request.url.path)
            raise Internal("an unexpected fault occurred; it has been logged") from exc
    return wrapped


def _encoder(request: Request) -> Encoder | None:
    """The encoder the request asked for; None (json) when the format itself is the error."""
    try:
        return encoder_for(request.query_params.get("format"))
    except ApiError:
        return None


async def api_error(request: Request, exc: Exception) -> Response:
    """An ``ApiError`` as its documented error document (the NatStat one under ``/natstat/``)."""
    assert isinstance(exc, ApiError)
    return render_error(exc, _encoder(request), is_dialect(request.url.path))


async def no_route(request: Request, exc: Exception) -> Response:
    """Starlette's 404 and 405 as the API's documented errors."""
    dialect = is_dialect(request.url.path)
    if isinstance(exc, HTTPException) and exc.status_code == 405:
        return render_error(MethodNotAllowed("only GET is supported", None), _encoder(request),
                            dialect)
    return render_error(NotFound(f"no such address: {show(request.url.path)}; "
                                 "see /docs for the API", None), _encoder(request), dialect)


def _pool_free(service: Service) -> bool:
    """Whether a pooled connection is free now, so that a read on the event loop never waits
    for one held by a store thread."""
    pool = service.reader.pool
    if not isinstance(pool, sa.QueuePool):
        return True
    return pool.checkedout() < pool.size()


def create_app(engine: sa.Engine) -> ASGIApp:
    """The service for ``engine``, with cached answers replayed in front of routing."""
    service = Service(engine)

    @view
    async def query(request: Request) -> Response:
        """A query of any endpoint: routed here, answered by ``pipeline.answer``."""
        encoder = encoder_for(request.query_params.get("format"))
        p = request.path_params
        # the scope's path, not ``request.url``: a URL parsed for every request (2% of an
        # uncached page's time) where only a page with a next one needs it (``next_page``);
        # instructions a request of ``bench/api.py``'s (b) under callgrind: 3,844k -> 3,759k
        dialect = p["version"].lower() if is_dialect(request.scope["path"]) else ""
        ep = route(p["version"], p["endpoint"], p["level"], p.get("type"), bool(dialect))
        key = service.gate.check_form(request.query_params.get("key"))
        limits = service.limits
        async with limits.in_flight(key) as hold:
            if not service.inline or not _pool_free(service):
                return await limits.run(answer, service, request, encoder, ep, p["level"],
                                        p.get("type"), dialect, hold=hold)
            # an embedded store and local counters: the key, rate and parameters on the loop
            # (memory, or a read of the keys file by its primary key), then the reads under
            # the inline budget unless this list needed more a moment ago
            done = admit(service, request, ep, p["level"], p.get("type"))
            hit = None
            listed = done.ask.identity()[:-2]  # the list, whatever its page and size
            if limits.inline_for(listed):
                try:
                    return finish(service, request, encoder, ep, done, dialect, INLINE_MS)
                except PageTooLarge as large:
                    hit = large.hit
                except OverBudget:
                    limits.overran(listed)
            async with limits.heavy(key) as heavy:  # one such page of a key at a time
                return await limits.run(finish, service, request, encoder, ep, done, dialect,
                                        None, hit, hold=hold, also=heavy)

    @view
    async def v3_query_route(request: Request) -> Response:
        """A v3 address (docs/api/natstat.md): answered as the v3 query it means."""
        p = request.path_params
        listed = find_endpoint(p["endpoint"])  # None: answered 404 by the query it means
        items = v3_query(p["key"], p.get("span"), p.get("offset"),
                         request.query_params.multi_items(),
                         listed.max_page if listed else None)
        scope = {**request.scope, "path": f"{PREFIX}/v3/{p['endpoint']}/{p['level']}/",
                 "query_string": urlencode(items).encode(),
                 ADDRESS_AS_SENT: address(request.scope),
                 "path_params": {"version": "v3", "endpoint": p["endpoint"], "level": p["level"]}}
        return await query(Request(scope, request.receive))

    @view
    async def health_route(request: Request) -> Response:
        """/health: the store's state, for monitors; no key. 503 when the store did not
        answer within ``HEALTH_TIMEOUT``."""
        body = await service.limits.run(health.report, service, within=HEALTH_TIMEOUT)
        return Response(body, media_type="application/json",
                        headers={"Cache-Control": "no-store"})

    spec_cache: dict[str, bytes] = {}

    async def level_codes() -> tuple[tuple[str, ...], bool]:
        """The store's level codes, and whether they are; the catalog's when the store did not
        answer within ``DOCS_WAIT`` (the documents need no store)."""
        try:
            return await service.limits.run(service.facts.level_codes, within=DOCS_WAIT), True
        except (ApiError, sa.exc.SQLAlchemyError):
            return tuple(level.code for level in LEVELS), False

    @view
    async def openapi_route(request: Request) -> Response:
        """/openapi.json, made once per process (from the store's levels)."""
        if "json" in spec_cache:
            return Response(spec_cache["json"], media_type="application/json")
        codes, from_store = await level_codes()
        body = openapi.encoded(codes)
        if from_store:
            spec_cache["json"] = body
        return Response(body, media_type="application/json")

    @view
    async def docs_route(request: Request) -> Response:
        """/docs: the API documented for people."""
        codes, _ = await level_codes()
        return HTMLResponse(docs.page(openapi.spec(codes)))

    routes = [
        Route("/health", health_route, methods=["GET"]),
        Route("/openapi.json", openapi_route, methods=["GET"]),
        Route("/docs", docs_route, methods=["GET"]),
    ]
    # The root's addresses first: nearly every request is one, and each address tried before
    # its own is a pattern matched for nothing (13 of them behind the dialect's). A root
    # address with a path type never takes a dialect address of the same length
    # (``root_version``); the shorter ones no dialect address has. Measured (instructions a
    # request under callgrind, ``bench/api.py``'s (b) in one process): 3,920k -> 3,838k (-2%).
    addresses = [(path, query) for path in (
        "/{version}/{endpoint}/{level}", "/{version:root_version}/{endpoint}/{level}/{type}")]
    addresses += [(PREFIX + path, query) for path in (
        "/{version:version}/{endpoint}/{level}", "/{version:version}/{endpoint}/{level}/{type}")]
    addresses += [(PREFIX + path, v3_query_route) for path in (
        "/{key:key}/{endpoint}/{level}", "/{key:key}/{endpoint}/{level}/{span}",
        "/{key:key}/{endpoint}/{level}/{span}/{offset}")]
    for path, handler in addresses:
        routes.append(Route(path, handler, methods=["GET"]))
        routes.append(Route(path + "/", handler, methods=["GET"]))
    app = Starlette(routes=routes, exception_handlers={ApiError: api_error,
                                                        HTTPException: no_route})
    return Replay(app, service.bodies, service.gate, service.inline, service.limits)
