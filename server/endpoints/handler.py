"""The one generic handler: any declaration + a parsed request -> records and a total.

Filters, the date window and search are applied from the declaration; the list is paginated
with a separate count so ``Total_Results`` is exact; an ``id`` query answers one detail record or
404. Nothing here knows about a particular endpoint.
"""
from __future__ import annotations

import datetime as dt
from functools import lru_cache
from typing import Any

import sqlalchemy as sa

from server.endpoints import records
from server.endpoints.base import Ask, Endpoint, Record
from server.http.errors import NotFound


@lru_cache(maxsize=1024)
def _steps(ep: Endpoint, detail: bool, level: str,
           columns: frozenset[str]) -> tuple[records.Step, ...]:
    return records.plan(ep.fields, detail, level, columns)


def filtered(ep: Endpoint, ask: Ask) -> sa.Select[Any]:
    """The endpoint's base query with every given filter applied (not yet paginated)."""
    assert ep.build is not None
    query = ep.build(ask)
    for name, clause in ep.filters.items():
        value = ask.values.get(name)
        if value is not None:
            query = query.where(clause(value, ask))
    # With id the date window narrows the record's children (social posts), not the record.
    if ep.day_column is not None and ask.values.get("id") is None:
        lo, hi = ask.day_from, ask.day_to
        if ep.day_is_instant:
            if lo is not None:
                query = query.where(ep.day_column >= dt.datetime.combine(lo, dt.time()))
            if hi is not None:
                # hi + 1 day would overflow on 9999-12-31
                query = query.where(ep.day_column <= dt.datetime.combine(hi, dt.time.max))
        else:
            if lo is not None and lo == hi:
                query = query.where(ep.day_column == lo)
            else:
                if lo is not None:
                    query = query.where(ep.day_column >= lo)
                if hi is not None:
                    query = query.where(ep.day_column <= hi)
    text = ask.values.get("search")
    if text and ep.search:
        query = query.where(sa.or_(*(c.icontains(text, autoescape=True) for c in ep.search)))
    return query


def run(conn: sa.Connection, ep: Endpoint, ask: Ask) -> tuple[list[Record], int]:
    """Records of one page (or the one detail record) and the total number of matches."""
    if ep.check is not None:
        ep.check(conn, ask)
    if ep.custom is not None:
        found = ep.custom(conn, ask)
        return found, len(found)
    query = filtered(ep, ask)
    ident = ask.values.get("id")
    if ident is not None and ep.id_filter is not None:
        result = conn.execute(query.where(ep.id_filter(ident, ask)).limit(1)).mappings()
        row = result.first()
        if row is None:
            raise NotFound(f"no {ep.singular} with id {ident} in {ask.code}", "id")
        record = records.build(_steps(ep, True, ask.code, frozenset(result.keys())), row)
        if ep.detail is not None:
            ep.detail(conn, ask, [record])
        if ep.enrich is not None:
            ep.enrich(conn, ask, [record])
        return [_public(record)], 1
    offset = (ask.page - 1) * ask.size
    if offset > _MAX_OFFSET:  # far past any last page; databases refuse such offsets
        return [], int(conn.execute(_count(query)).scalar() or 0)
    result = conn.execute(query if not ep.paginated else query.limit(ask.size).offset(offset))
    columns = tuple(result.keys())
    rows = result.all()
    if not ep.paginated or (len(rows) < ask.size and (rows or offset == 0)):
        total = offset + len(rows)  # a short page ends the list: no COUNT needed
    else:
        total = int(conn.execute(_count(query)).scalar() or 0)
    if ep.enrich is None and records.is_flat(ep.fields, ask.code):
        flat = _flat(ep, ask.code, columns)
        return [flat.build(row) for row in rows], total
    steps = _steps(ep, False, ask.code, frozenset(columns))
    found = [records.build(steps, row._mapping) for row in rows]
    if ep.enrich is not None:
        ep.enrich(conn, ask, found)
    return [_public(r) for r in found], total


_MAX_OFFSET = 2**62


def _count(query: sa.Select[Any]) -> sa.Select[Any]:
    """COUNT(*) over the same FROM and WHERE. Dropping the selected columns lets the database
    skip outer joins that only fed them (SQLite omits unused LEFT JOINs on a key)."""
    if query._group_by_clauses or query._distinct:  # noqa: SLF001 - no public accessor
        return sa.select(sa.func.count()).select_from(query.order_by(None).subquery())
    return query.with_only_columns(sa.func.count(), maintain_column_froms=False).order_by(None)


@lru_cache(maxsize=1024)
def _flat(ep: Endpoint, level: str, columns: tuple[str, ...]) -> records.FlatPlan:
    return records.FlatPlan(ep.fields, level, columns)


def _public(record: Record) -> Record:
    """Drop internal fields (``_name``) a hook read but did not remove."""
    for name in record:
        if name[0] == "_":
            return {k: v for k, v in record.items() if k[0] != "_"}
    return record
