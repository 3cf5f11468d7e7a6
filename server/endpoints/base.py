"""What an endpoint declaration is made of: fields, parameters, the declaration, the request.

An endpoint is data (docs/development.md): its record fields (which also document it in OpenAPI),
the parameters it takes, a ``build`` function giving its base query for one request, filters
keyed by parameter (a column the value must equal, a tuple of columns any of which must, or a
function for anything else), and optional named hooks for detail records. ``server.endpoints.handler``
is the one function that runs any of them.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
import dataclasses
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import sqlalchemy as sa

from server.catalog.levels import Level
from server.store.facts import StoreFacts

Record = dict[str, Any]


@dataclass(frozen=True)
class Field:
    """One record field: its wire name, kind, example and meaning; ``column`` is the row label.

    Kinds: integer, number, string, date, datetime, yn, money (signed American line), object
    (``children`` read from the same row), list (filled by a detail hook), stats (an object of
    stat codes). ``detail`` fields appear only in a detail record (a query with ``id``).
    """

    name: str
    kind: str
    example: Any
    doc: str
    column: str | None = None
    children: tuple[Field, ...] = ()
    detail: bool = False
    levels: tuple[str, ...] = ()  # levels that carry this field (FC's League fields); () = all
    hook: bool = False  # filled by the endpoint's hook, not read from the row


@dataclass(frozen=True)
class Param:
    """A query parameter an endpoint takes: its name, converter kind and documentation."""
    name: str
    kind: str  # a key of server.http.parse.CONVERTERS
    doc: str
    example: str


@dataclass(frozen=True)
class ParsedRequest:
    """One request, parsed and checked: what every build function and hook reads.

    Frozen, values included: the endpoint's check returns a normalised copy (``replace``), and
    the answer cache keys on ``identity`` taken after it, so what is cached is what was asked.
    """

    endpoint: str
    level: Level
    type: str | None
    values: Mapping[str, Any]  # typed parameter values, a read-only mapping
    warnings: tuple[str, ...]
    size: int  # page size (0: not paginated)
    page: int
    base_url: str
    season: int | None = None  # resolved season (the level's newest when defaulted)
    day_from: dt.date | None = None
    day_to: dt.date | None = None

    @property
    def code(self) -> str:
        """The level's code, as the glossary spells it."""
        return self.level.code

    def get(self, name: str) -> Any:
        """A parameter's typed value, or None when it was not given."""
        return self.values.get(name)

    def replace(self, **changes: Any) -> ParsedRequest:
        """A copy with ``changes`` (``values`` given as a plain dict is made read-only)."""
        if "values" in changes:
            changes["values"] = MappingProxyType(dict(changes["values"]))
        return dataclasses.replace(self, **changes)

    def identity(self) -> tuple[object, ...]:
        """What the answer depends on (not the key, not the format): the answer cache's key."""
        values = tuple(sorted((k, str(v)) for k, v in self.values.items()))
        return (self.endpoint, self.code, self.type, self.base_url, values, self.day_from,
                self.day_to, self.size, self.page)


Build = Callable[[ParsedRequest], sa.Select[Any]]
Clause = Callable[[Any, ParsedRequest], sa.ColumnElement[bool]]
Filter = sa.ColumnElement[Any] | tuple[sa.ColumnElement[Any], ...] | Clause
Hook = Callable[[sa.Connection, ParsedRequest, list[Record]], None]
Check = Callable[[ParsedRequest, StoreFacts], ParsedRequest]
Custom = Callable[[sa.Connection, ParsedRequest], list[Record]]


@dataclass(frozen=True, eq=False)  # identity hash: declarations are singletons
class Endpoint:
    """One endpoint, as data: what it serves, takes and answers; ``query`` runs any of them."""
    name: str
    singular: str
    summary: str
    fields: tuple[Field, ...]
    build: Build | None = None
    version: str = "v1"
    aliases: tuple[str, ...] = ()
    needs: str | None = None  # a key of catalog.levels.FEATURES; None: every level
    params: tuple[Param, ...] = ()
    filters: Mapping[str, Filter] = field(default_factory=dict)
    day_column: sa.ColumnElement[Any] | None = None  # date/start/end/last filter this column
    day_is_instant: bool = False  # day_column is a DateTime
    search: tuple[sa.ColumnElement[Any], ...] = ()  # columns a search matches
    # the search columns hold folded text (server.catalog.names.fold): the search is folded too
    search_folded: bool = False
    id_filter: Clause | None = None
    limits: tuple[str, ...] = ()  # values `limit` may take
    types: tuple[str, ...] = ()  # values of the /{type}/ path segment; first is the default
    season_default: bool = False  # season defaults to the level's newest (docs/api/index.md)
    required_any: tuple[str, ...] = ()  # at least one must be given (playbyplay)
    with_id_only: tuple[str, ...] = ()  # parameters that count only together with id
    type_limits: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # per path type
    paginated: bool = True
    # the most records one page holds where a record is heavy (a box score is 10-16 KB): with
    # it a page's encoding, memory and bytes are bounded, not only its reads (docs/api/limits.md)
    max_page: int | None = None
    reuse: bool = False  # build reads only the level and type: its statements are reused
    # the kind of ``season_rows`` that counts the list when its only filter is the level's season
    # or none: its total is read there, not counted (``query.run``)
    kept_total: str | None = None
    # its statements join their tables in the order written, on PostgreSQL without a search
    # of every order (``server.store.engine.JOINS_AS_WRITTEN``): each joined table a lookup by
    # key from the rows before it
    joins_as_written: bool = False
    detail: Hook | None = None  # enriches the one record of an id query
    enrich: Hook | None = None  # enriches every page of records
    check: Check | None = None  # endpoint rules beyond the declared ones: a normalised copy
    custom: Custom | None = None  # replaces the query entirely (glossary)
    # parameters that, given, answer through their own function instead of the list (split)
    modes: Mapping[str, Custom] = field(default_factory=dict)

    def param_names(self) -> tuple[str, ...]:
        """The names of the parameters the endpoint takes, in declared order."""
        return tuple(p.name for p in self.params)
