"""The SQL of one request: the declaration's base query, its filters, date window and search.

Most requests share one of a few shapes (which filters are given, which date bounds). For an
endpoint whose base query reads nothing of a request but its level and type (``Endpoint.reuse``),
the statements of a shape are built once with bound parameters named ``p_<name>`` and reused, the
request's values bound at execution: building a statement and computing SQLAlchemy's cache key
for it cost more than running the query (``bench/api.py`` (b), a distinct page or date every
request with the answer cache off: 3,096 req/s with reuse, 2,127 without, 1.46x). A filter
declared as a callable is built with the request's own value, so such a request, like a search,
gets statements of its own.
"""
from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.sql import operators, visitors
from sqlalchemy.sql.elements import BinaryExpression, BooleanClauseList

from server.catalog.names import fold
from server.endpoints.base import ParsedRequest, Endpoint, Filter
from server.store import deadline
from server.store.engine import JOINS_AS_WRITTEN

SHAPES_HELD = 4096  # shapes remembered before the memory is emptied (a few dozen in practice)


def clause(filt: Filter, value: Any, ask: ParsedRequest) -> sa.ColumnElement[bool]:
    """A column equals the value; a tuple of columns: any of them does; a callable decides."""
    if isinstance(filt, tuple):
        return sa.or_(*(column == value for column in filt))
    if isinstance(filt, sa.ColumnElement):
        equal: sa.ColumnElement[bool] = filt == value
        return equal
    return filt(value, ask)


def _window(ep: Endpoint, ask: ParsedRequest) -> tuple[Any, Any]:
    """The request's date bounds as the day column compares them (whole days for instants)."""
    lo, hi = ask.day_from, ask.day_to
    if not ep.day_is_instant:
        return lo, hi
    return (None if lo is None else dt.datetime.combine(lo, dt.time()),
            # not hi + 1 day, which would overflow on 9999-12-31
            None if hi is None else dt.datetime.combine(hi, dt.time.max))


def filtered(ep: Endpoint, ask: ParsedRequest, bind: bool = False) -> sa.Select[Any]:
    """The endpoint's base query with every given filter applied (not yet paginated); with
    ``bind``, plain filters and the date bounds take parameters (see ``parameters``)."""
    assert ep.build is not None
    query = ep.build(ask)
    for name, filt in ep.filters.items():
        value = ask.values.get(name)
        if value is not None:
            bound = bind and not callable(filt)
            query = query.where(clause(filt, sa.bindparam("p_" + name) if bound else value, ask))
    # With id the date window narrows the record's children (social posts), not the record.
    if ep.day_column is not None and ask.values.get("id") is None:
        column = ep.day_column
        lo, hi = _window(ep, ask)
        one_day = lo is not None and lo == hi  # never for instants (00:00 to 23:59:59)
        if bind:
            lo = None if lo is None else sa.bindparam("p_day_from", type_=column.type)
            hi = None if hi is None else sa.bindparam("p_day_to", type_=column.type)
        if one_day:
            query = query.where(column == lo)
        else:
            if lo is not None:
                query = query.where(column >= lo)
            if hi is not None:
                query = query.where(column <= hi)
    text = ask.values.get("search")
    if text and ep.search_folded:
        text = fold(text)
    if text and ep.search:
        query = query.where(sa.or_(*(c.icontains(text, autoescape=True) for c in ep.search)))
        # private: SQLAlchemy has no public accessor for a statement's ordering
        query = query.order_by(None).order_by(relevance(ep.search, text),
                                              *query._order_by_clauses)
    if ep.joins_as_written:
        query = query.execution_options(**{JOINS_AS_WRITTEN: True})
    return query


def relevance(columns: tuple[sa.ColumnElement[Any], ...], text: str) -> sa.ColumnElement[int]:
    """How well a name matches a search, best first: the whole name (0), its last word, as a
    surname (1), its start (2), anywhere (3). ``Olson`` finds Matt Olson before Bill Nicholson."""
    text = text.lower()  # here: SQLite's lower() leaves letters beyond ASCII as they are

    def any_of(test: Any) -> sa.ColumnElement[bool]:
        return sa.or_(*(test(sa.func.lower(c)) for c in columns))

    return sa.case((any_of(lambda c: c == text), 0),
                   (any_of(lambda c: c.endswith(" " + text, autoescape=True)), 1),
                   (any_of(lambda c: c.startswith(text, autoescape=True)), 2), else_=3)


def count(query: sa.Select[Any]) -> sa.Select[Any]:
    """COUNT(*) over the same rows: the same WHERE, and the FROM without the outer joins that
    only fed the selected columns (``_counted_from``). SQLite 3.40 does not omit them itself:
    a team's season of games counted through the four name joins took 449 µs against 238 µs
    without them (2,000 runs each, the bench store, a loaded machine)."""
    if query._group_by_clauses or query._distinct:  # private: SQLAlchemy has no public accessor
        return sa.select(sa.func.count()).select_from(query.order_by(None).subquery())
    froms = query.get_final_froms()
    if len(froms) == 1 and isinstance(froms[0], sa.Join):
        counted = sa.select(sa.func.count()).select_from(
            _counted_from(froms[0], _tables(query.whereclause)))
        return counted if query.whereclause is None else counted.where(query.whereclause)
    return query.with_only_columns(sa.func.count(), maintain_column_froms=False).order_by(None)


def _tables(clause: Any) -> set[Any]:
    """The tables (and aliases) whose columns ``clause`` reads, subqueries included."""
    if clause is None:
        return set()
    return {e.table for e in visitors.iterate(clause) if isinstance(e, sa.Column)}


def _counted_from(join: sa.Join, needed: set[Any]) -> Any:
    """``join`` less each LEFT OUTER JOIN that cannot change the number of rows: one whose ON
    clause matches the joined table's whole primary key by equality (at most one row each) and
    whose table nothing kept reads (``needed``: the WHERE's tables, then each kept join's).
    Walked from the last join in, so a join kept for its ON clause keeps what that reads."""
    steps: list[sa.Join] = []
    base: Any = join
    while isinstance(base, sa.Join):
        steps.append(base)
        base = base.left
    kept: list[sa.Join] = []
    for step in steps:  # the last join first
        if step.isouter and not step.full and isinstance(step.right, (sa.Table, sa.Alias)) \
                and step.right not in needed and _one_match(step.right, step.onclause):
            continue
        kept.append(step)
        needed |= _tables(step.onclause)
    for step in reversed(kept):
        base = base.join(step.right, step.onclause, isouter=step.isouter, full=step.full)
    return base


def _one_match(table: Any, onclause: Any) -> bool:
    """Whether ``onclause`` pins every primary key column of ``table`` with ``=`` (to a
    column of another table or a value), so that it matches at most one of its rows."""
    key = set(getattr(table, "primary_key", ()))
    if not key or onclause is None:
        return False
    terms = onclause.clauses if isinstance(onclause, BooleanClauseList) else [onclause]
    pinned = set()
    for term in terms:
        if isinstance(term, BinaryExpression) and term.operator is operators.eq:
            for own, other in ((term.left, term.right), (term.right, term.left)):
                if own in key and table not in _tables(other):
                    pinned.add(own)
    return key <= pinned


def _shape(ep: Endpoint, ask: ParsedRequest) -> tuple[Any, ...] | None:
    """What a reusable statement depends on, or None when this request needs its own."""
    if not ep.reuse or not ep.paginated or ask.values.get("id") is not None \
            or ask.values.get("search"):
        return None
    names = []
    for name, filt in ep.filters.items():
        if ask.values.get(name) is not None:
            if callable(filt):
                return None
            names.append(name)
    lo, hi = _window(ep, ask) if ep.day_column is not None else (None, None)
    return ep, ask.code, ask.type, tuple(names), lo is None, hi is None, lo == hi


def parameters(ep: Endpoint, ask: ParsedRequest, names: tuple[str, ...]) -> dict[str, Any]:
    """The values of a shape's bound parameters for this request."""
    values = {"p_" + name: ask.values[name] for name in names}
    if ep.day_column is not None:
        lo, hi = _window(ep, ask)
        if lo is not None:
            values["p_day_from"] = lo
        if hi is not None and hi != lo:
            values["p_day_to"] = hi
    return values


class Direct:
    """A held statement compiled once for SQLite's own driver: its SQL text, and how a request's
    values become its positional parameters (a constant of the statement is converted once).

    A reused page and its count run on the driver's cursor, not through SQLAlchemy's
    ``Connection.execute``, whose compiled-cache lookup, parameter processing, execution context
    and result object cost more per statement than SQLite spends running a page of 100 games
    (about 15 µs each on the bench store against 11 µs for the driver's execute and fetch).
    Only where nothing of that is needed: a SQLite connection, a statement without expanding
    parameters, rows handed to a record plan that reads driver values (``RecordPlan.driver_safe``).
    The request's deadline is checked before each statement as ``engine._within_deadline`` does,
    and a driver error is raised as SQLAlchemy's, so ``errors.store_fault`` reads it alike.
    Measured in one process on the ``bench/api.py`` store, the code before against this (the
    interpreter's instructions a request under callgrind, which other work on the machine does
    not move): (b) a distinct page or date 4,292k -> 3,920k (-8.7%), (a0) the 100-game page
    7,477k -> 6,893k (-7.8%); CPU a request, best of 6 rounds: (b) 445-503 -> 373-399 µs.
    Served (``bench/api.py --against`` the code before ``--only a0,b``, 3 rounds of 4 s, with
    the root's routes first, ``app.create_app``; a loaded machine): (b) 1.39x req/s, server CPU
    0.82x a request; (a0) 1.33x, CPU 0.85x."""

    def __init__(self, stmt: sa.Select[Any], dialect: sa.Dialect) -> None:
        compiled = stmt.compile(dialect=dialect)
        if compiled.positiontup is None or compiled.post_compile_params \
                or compiled.literal_execute_params:
            raise ValueError("not a plain positional statement")
        self.sql = compiled.string
        self.columns = tuple(stmt.selected_columns.keys())
        steps: list[tuple[str | None, Any]] = []  # (a request value's name, or None: a constant)
        for name in compiled.positiontup:
            bind = compiled.binds[name]
            convert = bind.type.dialect_impl(dialect).bind_processor(dialect)
            if bind.required:
                steps.append((name, convert))
            else:
                value = bind.effective_value
                steps.append((None, value if convert is None else convert(value)))
        self._steps = tuple(steps)

    def fetch(self, conn: sa.Connection, values: Mapping[str, Any]) -> list[Any]:
        """The statement's rows for ``values``, as the driver gives them."""
        deadline.check()
        params = [constant if name is None else (values[name] if constant is None
                                                  else constant(values[name]))
                  for name, constant in self._steps]
        cursor = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
        try:
            rows: list[Any] = cursor.execute(self.sql, params).fetchall()
            return rows
        except sqlite3.Error as exc:
            raise sa.exc.DBAPIError.instance(self.sql, params, exc, sqlite3.Error) from exc
        finally:
            cursor.close()


@dataclass
class Shape:
    """A shape's statements, a page's and its count's, built once; and on SQLite the same
    compiled for its driver (``Direct``), made at the first use."""

    query: sa.Select[Any]
    count: sa.Select[Any]
    direct: tuple[Direct, Direct] | None = None
    tried: bool = False


_shapes: dict[tuple[Any, ...], Shape] = {}


@dataclass(frozen=True)
class Page:
    """The statements of one page and of its count, and the values to execute them with;
    ``direct``: the same for SQLite's driver, when the shape is held and the store is SQLite."""

    query: sa.Select[Any]
    count: sa.Select[Any]
    values: dict[str, Any] = field(default_factory=dict)
    direct: tuple[Direct, Direct] | None = None

    def total(self, conn: sa.Connection) -> int:
        """The number of rows the page's list holds."""
        if self.direct is not None:
            return int(self.direct[1].fetch(conn, self.values)[0][0] or 0)
        return int(conn.execute(self.count, self.values).scalar() or 0)


def page(ep: Endpoint, ask: ParsedRequest, offset: int, dialect: sa.Dialect | None = None
         ) -> Page:
    """The statements of one page and of its count, and the values to execute them with
    (``dialect``: the store's, for ``Page.direct`` on SQLite)."""
    shape = _shape(ep, ask)
    if shape is None:
        query = filtered(ep, ask)
        return Page(query.limit(ask.size).offset(offset), count(query))
    held = _shapes.get(shape)
    if held is None:
        query = filtered(ep, ask, bind=True)
        # not p_limit: filters bind as p_<name>, and ``limit`` is a filter on some endpoints
        held = Shape(query.limit(sa.bindparam("page_size")).offset(sa.bindparam("page_offset")),
                     count(query))
        if len(_shapes) >= SHAPES_HELD:
            _shapes.clear()
        _shapes[shape] = held
    if not held.tried and dialect is not None and dialect.name == "sqlite":
        held.tried = True
        try:
            held.direct = (Direct(held.query, dialect), Direct(held.count, dialect))
        except (ValueError, KeyError):
            held.direct = None
    values = parameters(ep, ask, shape[3])
    values.update(page_size=ask.size, page_offset=offset)
    direct = held.direct if dialect is not None and dialect.name == "sqlite" else None
    return Page(held.query, held.count, values, direct)
