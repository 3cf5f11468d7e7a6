"""The request path of a query (docs/api/index.md), one step per module, in this order.

``app`` routes (``parse.route``: format, endpoint, version, path type); ``answer`` then checks the
key's form and validity, the level served and allowed, the rate; ``parse.parse`` reads the
parameters, ``endpoints.check`` applies the endpoint's rules, the answer cache (``caching``) or
``endpoints.query`` finds the records, ``document`` adds ``meta`` and ``encode`` makes the bytes,
with an ETag and 304. The order is the API's error precedence (docs/api/index.md).
"""
from __future__ import annotations

from dataclasses import dataclass
import sqlalchemy as sa
from starlette.requests import Request
from starlette.responses import Response

from server.endpoints import query
from server.endpoints.base import ParsedRequest, Endpoint, Record
from server.endpoints.check import check
from server.endpoints.registry import served_levels, serves
from server.errors import LevelNotSupported, show, store_fault
from server.http.auth import KeyGate
from server.keys import KeyGrant
from server.http.caching import GenerationCache, address, cache_answer
from server.http.document import document, public_base
from server.http.encode import Encoder, natstat
from server.http.limits import Limits
from server.http.parse import parse
from server.http.quota import with_quota
from server.http.responses import etag_of, matches, respond
from server.http.shared_cache import result_cache
from server.store import deadline
from server.store.engine import OverBudget, reader, time_limited
from server.store.facts import StoreFacts


TOTALS_BUDGET = 4 * 2**20  # bytes of cached totals per worker
# A page is encoded on the event loop when it holds at most this many values (``page_values``:
# its nested records' included): a 100-game page is ~2,800; a 100-game page of box scores
# (~140,000, 2.1 MB of XML) or a 1,000-record page of pitches goes to a thread.
INLINE_CELLS = 20_000
TOTAL_SIZE = 200  # bytes a cached total costs beyond the entry's overhead (its identity)


class Service:
    """Everything a request needs, built once per process by ``create_app``."""

    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine
        self.reader = reader(engine)  # the request path's reads (autocommit on PostgreSQL)
        self.gate = KeyGate(engine)
        self.facts = StoreFacts(self.reader, self.gate.watch)
        self.results = result_cache()  # Redis when REDIS_URL is set, else in process
        self.bodies = GenerationCache()  # cached answers by exact address, for ``replay.Replay``
        # each list's total, kept from any of its pages: another page or size of it is not
        # counted again (a count of the 2.2 million real pitches takes 1-2 s), and a page past
        # the end is answered without a read
        self.totals = GenerationCache(budget=TOTALS_BUDGET)
        self.limits = Limits()  # store threads, the wait on the store, requests in flight per key
        # On SQLite with local counters nothing blocks for long: ``Replay`` gives a cached answer
        # on the event loop (a thread hop would cost more than the answer), and an uncached
        # request reads there under ``limits.INLINE_MS`` before any hop to a store thread
        # (docs/performance.md). A networked store or Redis counters may block, so there every
        # request that reads hops to a store thread.
        self.inline = engine.dialect.name == "sqlite" and not self.gate.shared


class PageTooLarge(OverBudget):
    """A page read on the event loop holds more than ``INLINE_CELLS`` values: it is encoded in a
    store thread (``hit``: the records and total already read)."""

    def __init__(self, hit: tuple[list[Record], int]) -> None:
        super().__init__()
        self.hit = hit


@dataclass(frozen=True)
class Admitted:
    """A request past its key, level, rate and parameters: what reading and encoding need."""

    grant: KeyGrant
    digest: str
    level: str
    ask: ParsedRequest
    generation: int | None
    sources: str | None


def answer(service: Service, request: Request, encoder: Encoder, ep: Endpoint,
           level_text: str, kind: str | None, dialect: str = "") -> Response:
    """Everything after routing and the key's form, in a store thread (``limits``).

    ``dialect``: the NatStat form (``v1``-``v4``) when the request came under ``/natstat/``;
    the same result is shaped as the NatStat document (``encode.natstat``) before encoding.
    Parsing, checks, cache and query are shared.
    """
    return finish(service, request, encoder, ep, admit(service, request, ep, level_text, kind),
                  dialect)


def admit(service: Service, request: Request, ep: Endpoint, level_text: str,
          kind: str | None) -> Admitted:
    """The key's grant, the level served and allowed, the rate counted, the parameters read
    and checked: the API's error precedence up to the query (docs/api/index.md)."""
    gate = service.gate
    key = gate.check_form(request.query_params.get("key"))
    try:
        generation = gate.watch.generation()
        grant, digest = gate.verify(key)
        level = service.facts.find_level(level_text, generation)
        if level is None or not serves(ep, level.code):
            raise LevelNotSupported(
                f"{ep.name} does not serve level '{show(level_text)}'; it serves "
                f"{', '.join(served_levels(ep, service.facts.level_codes()))}", "level")
        gate.admit(grant, digest, level.code)
        ask = parse(ep, level, kind.lower() if kind else None, request.query_params.multi_items(),
                    public_base(request))  # never the Host header (document.public_base)
        ask = check(ep, ask, service.facts)
        return Admitted(grant, digest, level.code, ask, generation,
                        service.facts.sources(level.code, generation))
    except (sa.exc.SQLAlchemyError, OverflowError) as exc:
        fault = store_fault(exc)
        if fault is None:
            raise
        raise fault from exc


def finish(service: Service, request: Request, encoder: Encoder, ep: Endpoint, done: Admitted,
           dialect: str = "", budget_ms: int | None = None,
           hit: tuple[list[Record], int] | None = None) -> Response:
    """The admitted request's records, document, bytes and answer. ``budget_ms``: on the event
    loop, the CPU its reads may use before ``OverBudget`` hands it to a store thread (and a
    page of more than ``INLINE_CELLS`` values goes there to be encoded); ``hit``: the records
    and total already read."""
    gate = service.gate
    try:
        found, total = hit if hit is not None else _found(service, ep, done.ask, done.generation,
                                                          budget_ms)
        if budget_ms is not None and page_values(found) > INLINE_CELLS:
            raise PageTooLarge((found, total))
        deadline.check()  # in a store thread: its client still waits (shaping, encoding too)
        doc = document(request, ep, done.ask, found, total, done.sources)
        body = encoder.encode(natstat.shape(doc, ep, done.ask, dialect) if dialect else doc)
        etag = etag_of(body)
        # A v3/v4 body is cached without the key's quota, which is added to every answer.
        quota = gate.quota(done.grant, done.digest) if dialect in natstat.LIVE_FORMS else None
        if service.bodies.enabled:
            cached = cache_answer(body, etag, done.level, done.digest, encoder, quota is not None)
            service.bodies.put(address(request.scope), cached, len(cached.body), done.generation)
        gate.note_use(done.grant)
    except (sa.exc.SQLAlchemyError, OverflowError) as exc:
        fault = store_fault(exc)
        if fault is None:
            raise
        raise fault from exc
    if quota is not None:
        return with_quota(encoder, body, etag, quota, request.headers.get("if-none-match"))
    if matches(request.headers.get("if-none-match"), etag):
        return respond(encoder, body, etag, 304)
    return respond(encoder, body, etag)


def page_values(found: list[Record]) -> int:
    """About how many values encoding ``found`` writes: its first record's, nested lists and
    records included, times its records (a page's records share their shape).

    Records times fields counted a box score as its 45 fields, not its ~1,400 values with its
    players' lines: a page of 100 whose records came from the result cache (read in another
    format) was encoded on the event loop, 0.2-0.5 s of CPU (XML) during which every other
    client of the worker waited (a cheap cached page beside it: max 465 ms)."""
    return len(found) * _values(found[0]) if found else 0


def _values(value: object) -> int:
    if isinstance(value, dict):
        return sum(_values(v) for v in value.values()) or 1
    if isinstance(value, list):
        return sum(_values(v) for v in value) or 1
    return 1


def _found(service: Service, ep: Endpoint, ask: ParsedRequest, generation: int | None,
           budget_ms: int | None = None) -> tuple[list[Record], int]:
    """The records and total of a checked request: kept, or queried and kept; ``OverBudget``
    when a ``budget_ms`` was given and its reads needed more."""
    identity = ask.identity()
    hit = service.results.get(identity, generation)
    if hit is None:
        listed = query.is_list(ep, ask)
        matches = identity[:-2]  # the list: its identity without page size and page
        total: int | None = service.totals.get(matches, generation) if listed else None
        if total is not None and (ask.page - 1) * ask.size >= total:
            return [], total  # past the end of a list whose total is kept: nothing to read
        if budget_ms is None:
            with service.reader.connect() as conn, time_limited(conn):
                hit = query.run(conn, ep, ask, total)
        else:
            with service.reader.connect() as conn, time_limited(conn, budget_ms, budget=True):
                hit = query.run(conn, ep, ask, total)
        service.results.put(identity, hit, generation)
        if listed:
            service.totals.put(matches, hit[1], TOTAL_SIZE, generation)
    return hit
