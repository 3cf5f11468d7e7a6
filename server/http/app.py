"""The ASGI app: routes, and the single place an error becomes a response.

``/{version}/{endpoint}/{level}/[{type}/]`` (trailing slash optional) serves every declared
endpoint through ``pipeline.answer``; ``/health``, ``/openapi.json`` and ``/docs`` need no key.
"""
from __future__ import annotations

import logging

import sqlalchemy as sa
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp

from server.http import docs, health, openapi
from server.http.documents import Encoder
from server.http.errors import ApiError, Internal, MethodNotAllowed, NotFound
from server.http.params import show
from server.http.pipeline import Service, answer, requested_encoder, resolve
from server.http.replay import Replay
from server.http.responses import render_error

log = logging.getLogger("server.http")


def create_app(engine: sa.Engine) -> ASGIApp:
    service = Service(engine)

    async def query(request: Request) -> Response:
        encoder: Encoder | None = None
        try:
            encoder = requested_encoder(request)
            p = request.path_params
            ep = resolve(service, p["version"], p["endpoint"], p["level"], p.get("type"))
            if service.inline:
                return answer(service, request, encoder, ep, p["level"], p.get("type"))
            return await run_in_threadpool(answer, service, request, encoder, ep, p["level"],
                                           p.get("type"))
        except ApiError as error:
            return render_error(error, encoder)
        except Exception:  # the last line of defence: a document, never a trace
            log.exception("unexpected fault answering %s", request.url.path)
            return render_error(Internal("an unexpected fault occurred; it has been logged"),
                                encoder)

    async def health_route(request: Request) -> Response:
        try:
            body = await run_in_threadpool(health.report, service)
        except ApiError as error:
            return render_error(error)
        return Response(body, media_type="application/json",
                        headers={"Cache-Control": "no-store"})

    spec_cache: dict[str, bytes] = {}

    async def openapi_route(request: Request) -> Response:
        if "json" not in spec_cache:
            spec_cache["json"] = openapi.encoded(service.facts.level_codes())
        return Response(spec_cache["json"], media_type="application/json")

    async def docs_route(request: Request) -> Response:
        return HTMLResponse(docs.page(openapi.spec(service.facts.level_codes())))

    async def not_found(request: Request, exc: Exception) -> Response:
        try:
            encoder: Encoder | None = requested_encoder(request)
        except ApiError:
            encoder = None
        if isinstance(exc, HTTPException) and exc.status_code == 405:
            return render_error(MethodNotAllowed("only GET is supported", None), encoder)
        return render_error(NotFound(f"no such address: {show(request.url.path)}; "
                                     "see /docs for the API", None), encoder)

    routes = [
        Route("/health", health_route, methods=["GET"]),
        Route("/openapi.json", openapi_route, methods=["GET"]),
        Route("/docs", docs_route, methods=["GET"]),
    ]
    for path in ("/{version}/{endpoint}/{level}", "/{version}/{endpoint}/{level}/{type}"):
        routes.append(Route(path, query, methods=["GET"]))
        routes.append(Route(path + "/", query, methods=["GET"]))
    app = Starlette(routes=routes, exception_handlers={HTTPException: not_found})
    return Replay(app, service)
