"""Step three of a request: one page of records (or the one detail record) and the total.

Any declaration and a checked ``ParsedRequest`` in, records out: the statements come from ``statements``
(filters, date window and search, from the declaration), the rows become records through one
``RecordPlan``, the list is paginated with a separate count so ``Total_Results`` is exact, and an
``id`` query answers one detail record or 404. Nothing here knows about a particular endpoint.
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import sqlalchemy as sa

from server.endpoints import statements
from server.endpoints.base import ParsedRequest, Custom, Endpoint, Record
from server.endpoints.records import RecordPlan
from server.errors import NotFound
from server.store import season_data

_MAX_OFFSET = 2**62  # far past any last page; databases refuse such offsets
# Rows before a page from which its list is counted before it is read. Counting every page past
# the first added a COUNT to half the second pages of bench/api.py (b) that a short page answers
# without; the scan to an offset under this costs no more than one page of the largest size.
DEEP_OFFSET = 1000


@lru_cache(maxsize=1024)
def _plan(ep: Endpoint, detail: bool, level: str, columns: tuple[str, ...]) -> RecordPlan:
    return RecordPlan(ep.fields, detail, level, columns)


def is_list(ep: Endpoint, ask: ParsedRequest) -> bool:
    """Whether ``run`` answers a page of a list: one total for every page and size of it."""
    return (ep.custom is None and ep.paginated and _mode(ep, ask) is None
            and (ask.values.get("id") is None or ep.id_filter is None))


def is_kept(ep: Endpoint, ask: ParsedRequest) -> bool:
    """Whether the list's total is kept with the store (``season_data.kept_total``): an
    endpoint that declares it, asked for the whole level or one season of it (no other filter,
    no date, no search).

    Counted on each request, the plain lists were the slowest uncached answers: every pitch of
    MLB (2.2 million rows) took 78-85 ms on SQLite's real store and 0.95-1.7 s on PostgreSQL (a
    503 at the 1 s query limit, a stranger's first call to the endpoint); read, the page and its
    total take 2.2 ms and 23-24 ms (figures in ``server.store.season_data``)."""
    if ep.kept_total is None or ask.day_from is not None or ask.day_to is not None \
            or ask.values.get("search") or ask.values.get("id") is not None:
        return False
    return all(name == "season" or ask.values.get(name) is None for name in ep.filters)


def _mode(ep: Endpoint, ask: ParsedRequest) -> Custom | None:
    """The function a given mode parameter answers through (``split``), if one is given."""
    return next((answer for name, answer in ep.modes.items()
                 if ask.values.get(name) is not None), None)


def run(conn: sa.Connection, ep: Endpoint, ask: ParsedRequest,
        total: int | None = None) -> tuple[list[Record], int]:
    """Records of one page (or the one detail record) and the total number of matches.

    ``total``: the list's total when already known (kept from another page of it): it is not
    counted again, and a page past it is answered without a read."""
    custom = ep.custom or _mode(ep, ask)
    if custom is not None:
        found = custom(conn, ask)
        return found, len(found)
    ident = ask.values.get("id")
    if ident is not None and ep.id_filter is not None:
        return _detail(conn, ep, ask, ident)
    offset = (ask.page - 1) * ask.size
    known = total if is_list(ep, ask) else None  # the total, when known before the page
    kind = ep.kept_total
    if known is None and kind is not None and ep.paginated and is_kept(ep, ask):
        known = season_data.kept_total(conn, ask.code, kind, ask.values.get("season"))
    paged: statements.Page | None = None
    if not ep.paginated:
        result = conn.execute(statements.filtered(ep, ask))
    elif offset > _MAX_OFFSET:
        return [], int(conn.execute(statements.count(statements.filtered(ep, ask))).scalar() or 0)
    else:
        paged = statements.page(ep, ask, offset, conn.dialect)
        if offset >= DEEP_OFFSET and known is None:
            # Counted first past the first thousand rows: a page past the end is the empty
            # page at once, never a scan of every earlier row to reach its offset (the total
            # is needed anyway unless the page is short). Nearer the start the scan costs
            # less than the count, and a short page needs none.
            known = paged.total(conn)
        if known is not None and offset >= known:
            return [], known
    direct = paged.direct if paged is not None else None
    plan = (_plan(ep, False, ask.code, direct[0].columns) if direct is not None else None)
    if plan is not None and plan.driver_safe:
        assert direct is not None and paged is not None
        rows: Sequence[Any] = direct[0].fetch(conn, paged.values)
    else:
        if paged is not None:
            result = conn.execute(paged.query, paged.values)
        plan = _plan(ep, False, ask.code, tuple(result.keys()))
        if plan.driver_safe:
            rows = result.cursor.fetchall()  # driver values; the plan converts them
            result.close()
        else:
            rows = result.all()
    if known is not None:
        total = known
    elif paged is None or (len(rows) < ask.size and (rows or offset == 0)):
        total = offset + len(rows)  # a short page ends the list: no COUNT needed
    else:
        total = paged.total(conn)
    found = plan.build_all(rows)
    if ep.enrich is None and not plan.internal:
        return found, total
    if ep.enrich is not None:
        ep.enrich(conn, ask, found)
    return _public(found), total


def _detail(conn: sa.Connection, ep: Endpoint, ask: ParsedRequest, ident: Any) -> tuple[list[Record], int]:
    """The one record ``id`` names, with what the detail and enrich hooks add; else 404."""
    assert ep.id_filter is not None
    result = conn.execute(statements.filtered(ep, ask).where(ep.id_filter(ident, ask)).limit(1))
    plan = _plan(ep, True, ask.code, tuple(result.keys()))
    row = result.first()
    if row is None:
        raise NotFound(f"no {ep.singular} with id {ident} in {ask.code}", "id")
    found = plan.build_all([row])
    for hook in (ep.detail, ep.enrich):
        if hook is not None:
            hook(conn, ask, found)
    return _public(found), 1


def _public(found: list[Record]) -> list[Record]:
    """Records without the internal fields (``_name``) the hooks read."""
    return [{k: v for k, v in r.items() if k[0] != "_"} for r in found]
