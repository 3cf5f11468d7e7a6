"""The request path of a query (contract sections 1-4), from URL to encoded document.

Order matters and is documented: format (so errors can be rendered), endpoint and version,
path type, key form and validity, level served, level allowed, rate, parameters, then the
result (from the result cache or the store), meta, encoding, ETag/304.
"""
from __future__ import annotations

import logging
import math
from typing import Any
from urllib.parse import urlencode

import sqlalchemy as sa
from starlette.requests import Request
from starlette.responses import Response

from server.catalog.sources import notices
from server.endpoints import handler
from server.endpoints.base import Ask, Endpoint, Record
from server.endpoints.registry import find_endpoint, served_levels, serves
from server.http.asks import cache_key, parse_ask
from server.http.auth import KeyGate
from server.http.caching import KeptCache, etag_of, matches
from server.http.documents import DEFAULT_FORMAT, ENCODERS, Encoder
from server.http.errors import (ApiError, BadParameter, LevelNotSupported, NotFound,
                                Unavailable, WrongVersion)
from server.http.facts import StoreFacts
from server.http.params import show
from server.http.replay import address, keep
from server.http.responses import respond
from server.http.shared_cache import result_cache
from server.store.engine import StoreUnavailable

log = logging.getLogger("server.http")


class Service:
    """Everything a request needs, built once per process by ``create_app``."""

    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine
        self.facts = StoreFacts(engine)
        self.gate = KeyGate(engine)
        self.results = result_cache()  # Redis when REDIS_URL is set, else in process
        self.bodies = KeptCache()  # kept answers by exact address, for ``replay.Replay``
        # SQLite answers in-process in well under a millisecond, so a thread hop per request
        # costs more than it saves; a networked store (PostgreSQL) or Redis counters block on
        # I/O, so their requests go to the thread pool and the event loop stays free.
        self.inline = engine.dialect.name == "sqlite" and not self.gate.shared


def requested_encoder(request: Request) -> Encoder:
    fmt = request.query_params.get("format")
    if fmt is None:
        return ENCODERS[DEFAULT_FORMAT]
    encoder = ENCODERS.get(fmt.strip().lower())
    if encoder is None:
        raise BadParameter(f"format '{show(fmt)}' is not one of {', '.join(ENCODERS)}", "format")
    return encoder


def resolve(service: Service, version: str, name: str, level: str,
            kind: str | None) -> Endpoint:
    ep = find_endpoint(name)
    if ep is None:
        raise NotFound(f"no endpoint '{show(name)}'", None)
    if version.lower() != ep.version:
        raise WrongVersion(f"{ep.name} is served under {ep.version}: "
                           f"/{ep.version}/{ep.name}/{show(level)}/", None)
    if kind is not None and kind.lower() not in ep.types:
        if not ep.types:
            raise NotFound(f"{ep.name} takes no /{{type}}/ path segment", None)
        raise BadParameter(f"{ep.name} type '{show(kind)}' is not one of {', '.join(ep.types)}",
                           "type")
    return ep


def _next_page(request: Request, ask: Ask) -> str:
    items = [(k, v) for k, v in request.query_params.multi_items() if k.lower() != "page"]
    items.append(("page", str(ask.page + 1)))
    url = request.url
    return f"{url.scheme}://{url.netloc}{url.path}?{urlencode(items)}"


def document(request: Request, ep: Endpoint, ask: Ask, found: list[Record], total: int,
             source: str | None) -> dict[str, Any]:
    meta: dict[str, Any] = {"Endpoint": ep.name, "Level": ask.code, "Version": ep.version}
    if ask.type is not None or ep.types:
        meta["Type"] = ask.type or ep.types[0]
    if ep.paginated:
        pages = math.ceil(total / ask.size) if total else 0
        meta.update({"Max_Results": ask.size, "Page": ask.page, "Total_Results": total,
                     "Total_Pages": pages})
        if ask.page < pages and "id" not in ask.values:
            meta["Next_Page"] = _next_page(request, ask)
    else:
        meta.update({"Max_Results": total, "Page": 1, "Total_Results": total,
                     "Total_Pages": 1 if total else 0})
    if ask.warnings:
        meta["Warnings"] = ask.warnings
    if source:
        meta["Source"] = source
        owed = notices(source)
        if owed:
            meta["Notices"] = owed
    return {"meta": meta, ep.name: found}


def answer(service: Service, request: Request, encoder: Encoder, ep: Endpoint,
           level_text: str, kind: str | None) -> Response:
    """Everything after routing; runs in a worker thread (it may touch the store)."""
    gate = service.gate
    key = gate.check_form(request.query_params.get("key"))
    try:
        generation = gate.watch.generation()
        grant, digest = gate.verify(key)
        level = service.facts.find_level(level_text)
        if level is None or not serves(ep, level.code):
            known = service.facts.level_codes()
            raise LevelNotSupported(
                f"{ep.name} does not serve level '{show(level_text)}'; it serves "
                f"{', '.join(served_levels(ep, known))}", "level")
        gate.admit(grant, digest, level.code)
        url = request.url
        ask = parse_ask(ep, level, kind.lower() if kind else None,
                        request.query_params.multi_items(), f"{url.scheme}://{url.netloc}",
                        service.facts.newest_season)
        ck = cache_key(ask, ask.type)
        hit = service.results.get(ck, generation)
        if hit is None:
            with service.engine.connect() as conn:
                hit = handler.run(conn, ep, ask)
            service.results.put(ck, hit, generation)
        found, total = hit
        body = encoder.encode(document(request, ep, ask, found, total,
                                       service.facts.sources(level.code)))
        etag = etag_of(body)
        if service.bodies.enabled:
            kept = keep(body, etag, level.code, key, encoder)
            service.bodies.put(address(request.scope), kept, len(kept.body), generation)
        gate.note_use(grant)
    except ApiError:
        raise
    except (sa.exc.DataError, OverflowError) as exc:
        # A value the database cannot hold (PostgreSQL: an integer beyond a 32-bit column, a NUL
        # in text; SQLite: an integer beyond 64 bits) is the request's fault, not the store's.
        log.warning("value refused by the store: %s", type(exc).__name__)
        raise BadParameter("a parameter value is out of range for this query", None) from exc
    except (StoreUnavailable, sa.exc.OperationalError, sa.exc.InterfaceError) as exc:
        log.warning("store fault: %s", type(exc).__name__)
        raise Unavailable("the data store is unavailable; try again shortly", None) from exc
    if matches(request.headers.get("if-none-match"), etag):
        return respond(encoder, body, etag, 304)
    return respond(encoder, body, etag)
