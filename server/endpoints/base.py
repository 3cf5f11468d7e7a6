"""What an endpoint declaration is made of: fields, parameters, the declaration, the request.

An endpoint is data (design section 3): its record fields (which also document it in OpenAPI),
the parameters it takes, a ``build`` function giving its base query for one request, filters
keyed by parameter (a column the value must equal, a tuple of columns any of which must, or a
function for anything else), and optional named hooks for detail records. ``server.endpoints.handler``
is the one function that runs any of them.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa

from server.catalog.levels import Level

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
    only: tuple[str, ...] = ()  # levels that carry this field (FC's League fields); () = all
    hook: bool = False  # filled by the endpoint's hook, not read from the row


@dataclass(frozen=True)
class Param:
    name: str
    kind: str  # a key of server.http.params.CONVERTERS
    doc: str
    example: str


@dataclass
class Ask:
    """One request, parsed: what every build function and hook reads."""

    endpoint: str
    level: Level
    type: str | None
    values: dict[str, Any]
    warnings: list[str]
    size: int
    page: int
    base_url: str
    season: int | None = None  # resolved season (the level's newest when defaulted)
    day_from: dt.date | None = None
    day_to: dt.date | None = None

    @property
    def code(self) -> str:
        return self.level.code

    def get(self, name: str) -> Any:
        return self.values.get(name)


Build = Callable[[Ask], sa.Select[Any]]
Clause = Callable[[Any, Ask], sa.ColumnElement[bool]]
Filter = sa.ColumnElement[Any] | tuple[sa.ColumnElement[Any], ...] | Clause
Hook = Callable[[sa.Connection, Ask, list[Record]], None]
Custom = Callable[[sa.Connection, Ask], list[Record]]


@dataclass(frozen=True, eq=False)  # identity hash: declarations are singletons
class Endpoint:
    name: str
    singular: str
    summary: str
    fields: tuple[Field, ...]
    build: Build | None = None
    version: str = "v1"
    aliases: tuple[str, ...] = ()
    levels: tuple[str, ...] | None = None  # None: every level of the glossary
    excluded: tuple[str, ...] = ()  # levels left out of "every level"
    params: tuple[Param, ...] = ()
    filters: Mapping[str, Filter] = field(default_factory=dict)
    day_column: sa.ColumnElement[Any] | None = None  # date/start/end/last filter this column
    day_is_instant: bool = False  # day_column is a DateTime
    search: tuple[sa.ColumnElement[Any], ...] = ()  # columns a search matches
    id_filter: Clause | None = None
    limits: tuple[str, ...] = ()  # values `limit` may take
    types: tuple[str, ...] = ()  # values of the /{type}/ path segment; first is the default
    season_default: bool = False  # season defaults to the level's newest (spec part 8)
    required_any: tuple[str, ...] = ()  # at least one must be given (playbyplay)
    with_id_only: tuple[str, ...] = ()  # parameters that count only together with id
    type_limits: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # per path type
    paginated: bool = True
    reuse: bool = False  # build reads only the level and type: its statements are reused
    detail: Hook | None = None  # enriches the one record of an id query
    enrich: Hook | None = None  # enriches every page of records
    check: Callable[[sa.Connection, Ask], None] | None = None  # validates against the store
    custom: Custom | None = None  # replaces the query entirely (glossary)

    def param_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.params)

    def takes(self, name: str) -> bool:
        return any(p.name == name for p in self.params)


def list_fields(fields: Sequence[Field]) -> tuple[Field, ...]:
    return tuple(f for f in fields if not f.detail)
