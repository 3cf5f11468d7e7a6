"""The one generic handler: any declaration + a parsed request -> records and a total.

The statements come from ``statements`` (filters, date window and search, from the
declaration); the list is paginated with a separate count so ``Total_Results`` is exact; an
``id`` query answers one detail record or 404. Nothing here knows about a particular endpoint.
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import sqlalchemy as sa

from server.endpoints import records, statements
from server.endpoints.base import Ask, Endpoint, Record
from server.http.errors import NotFound


@lru_cache(maxsize=1024)
def _steps(ep: Endpoint, detail: bool, level: str,
           columns: frozenset[str]) -> tuple[records.Step, ...]:
    return records.plan(ep.fields, detail, level, columns)


def run(conn: sa.Connection, ep: Endpoint, ask: Ask) -> tuple[list[Record], int]:
    """Records of one page (or the one detail record) and the total number of matches."""
    if ep.check is not None:
        ep.check(conn, ask)
    if ep.custom is not None:
        found = ep.custom(conn, ask)
        return found, len(found)
    ident = ask.values.get("id")
    if ident is not None and ep.id_filter is not None:
        query = statements.filtered(ep, ask).where(ep.id_filter(ident, ask)).limit(1)
        one = conn.execute(query).mappings()
        row = one.first()
        if row is None:
            raise NotFound(f"no {ep.singular} with id {ident} in {ask.code}", "id")
        record = records.build(_steps(ep, True, ask.code, frozenset(one.keys())), row)
        if ep.detail is not None:
            ep.detail(conn, ask, [record])
        if ep.enrich is not None:
            ep.enrich(conn, ask, [record])
        return [_public(record)], 1
    offset = (ask.page - 1) * ask.size
    if not ep.paginated:
        result = conn.execute(statements.filtered(ep, ask))
        counted: tuple[sa.Select[Any], dict[str, Any]] | None = None
    elif offset > _MAX_OFFSET:  # far past any last page; databases refuse such offsets
        return [], int(conn.execute(statements.count(statements.filtered(ep, ask))).scalar() or 0)
    else:
        query, count, values = statements.page(ep, ask, offset)
        result = conn.execute(query, values)
        counted = count, values
    columns = tuple(result.keys())
    flat = _flat(ep, ask.code, columns) \
        if ep.enrich is None and records.is_flat(ep.fields, ask.code) else None
    if flat is not None and flat.driver_safe:
        rows: Sequence[Any] = result.cursor.fetchall()  # driver values; the plan converts them
        result.close()
    else:
        rows = result.all()
    if counted is None or (len(rows) < ask.size and (rows or offset == 0)):
        total = offset + len(rows)  # a short page ends the list: no COUNT needed
    else:
        total = int(conn.execute(*counted).scalar() or 0)
    if flat is not None:
        return flat.build_all(rows), total
    steps = _steps(ep, False, ask.code, frozenset(columns))
    found = [records.build(steps, row._mapping) for row in rows]
    if ep.enrich is not None:
        ep.enrich(conn, ask, found)
    return [_public(r) for r in found], total


_MAX_OFFSET = 2**62


@lru_cache(maxsize=1024)
def _flat(ep: Endpoint, level: str, columns: tuple[str, ...]) -> records.FlatPlan:
    return records.FlatPlan(ep.fields, level, columns)


def _public(record: Record) -> Record:
    """Drop internal fields (``_name``) a hook read but did not remove."""
    for name in record:
        if name[0] == "_":
            return {k: v for k, v in record.items() if k[0] != "_"}
    return record
