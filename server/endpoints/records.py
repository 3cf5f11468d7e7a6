"""Turn query rows into records, driven by the declared fields (one plan per endpoint).

Rows carry labelled columns; a field reads ``column`` (default: its own name) and converts it by
kind, so the wire conventions of docs/api/index.md (IDs numbers, dates YYYY-MM-DD, Y/N, signed
money lines, null when unknown) live here and nowhere else.
"""
from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Sequence
from typing import Any

import sqlalchemy as sa

from server.endpoints.base import Field, Record

Convert = Callable[[Any], Any]


def as_int(v: Any) -> int | None:
    """An integer, or null."""
    return None if v is None else int(v)


def as_number(v: Any) -> float | None:
    """A finite number rounded to 4 places, or null (NaN and infinities too)."""
    if v is None:
        return None
    f = float(v)
    return round(f, 4) if math.isfinite(f) else None


def as_string(v: Any) -> str | None:
    """Text, or null."""
    return None if v is None else str(v)


def as_date(v: Any) -> str | None:
    """YYYY-MM-DD from a date, a datetime or a driver's text, or null."""
    if v is None:
        return None
    if isinstance(v, (dt.date, dt.datetime)):
        return v.isoformat()[:10]
    return str(v)[:10]


def as_instant(v: Any) -> str | None:
    """UTC YYYY-MM-DDTHH:MM:SSZ from a datetime or SQLite's text, or null."""
    if v is None:
        return None
    if isinstance(v, dt.datetime):
        return v.strftime("%Y-%m-%dT%H:%M:%SZ")
    text = str(v)
    if len(text) >= 19 and text[10] in " T":  # SQLite's own text: 2024-07-04 23:05:00.000000
        return f"{text[:10]}T{text[11:19]}Z"
    return text


def as_yn(v: Any) -> str | None:
    """Y or N from a truth value, or null."""
    return None if v is None else ("Y" if v else "N")


def as_money(v: Any) -> str | None:
    """American money line with its sign: +135, -150 (docs/api/index.md)."""
    if v is None:
        return None
    n = int(v)
    return f"+{n}" if n > 0 else str(n)


def as_any(v: Any) -> Any:
    """The value as it is (stats objects, free values)."""
    return v


CONVERT: dict[str, Convert] = {
    "integer": as_int, "number": as_number, "string": as_string, "date": as_date,
    "datetime": as_instant, "yn": as_yn, "money": as_money, "stats": as_any, "any": as_any,
}

# Kinds written as the row gives them: the drivers hand integers and strings over in wire form,
# and stats objects and free values need no conversion.
_NATIVE = {"integer", "string", "stats", "any"}
# Kinds whose converters take a driver's own values as well as SQLAlchemy's (SQLite gives dates
# and instants as text and yes/no as 0/1; psycopg gives native types): a plan of only these
# reads the DBAPI cursor directly, skipping SQLAlchemy's result rows. Measured by bench/api.py
# (b), a distinct page every request with the answer cache off, three runs a side in one
# session: 3,064-3,118 req/s reading the cursor, 2,307-2,888 through result rows.
DRIVER_SAFE = {"integer", "number", "string", "date", "datetime", "yn", "money"}


class RecordPlan:
    """How rows of one query become records: the one record builder.

    Compiled into one function per endpoint, mode, level and column set, the way
    ``dataclasses`` generates ``__init__``: a list of dict displays reading each row by position,
    objects as nested displays, calling a converter only for the fields whose kind needs one
    (dates, Y/N, money, rounding); a hook's or a list's field is a ``None`` placeholder that keeps
    the declared order. Measured on 100 game rows: 79 us generated, against 149 us for a loop
    zipping names and converters and 295 us for one interpreting the fields per row.

    Fields the query does not select are left out, so one declaration serves several modes of an
    endpoint (elo rankings or a team's series); ``detail`` fields only in a detail record.
    """

    def __init__(self, fields: Sequence[Field], detail: bool, level: str,
                 columns: Sequence[str]) -> None:
        index = {name: i for i, name in enumerate(columns)}
        scope: dict[str, Any] = {}
        kinds: set[str] = set()
        names: list[str] = []

        def display(chosen: Sequence[Field]) -> str | None:
            items = []
            for f in chosen:
                if (f.detail and not detail) or (f.levels and level not in f.levels):
                    continue
                if f.hook or f.kind == "list":
                    items.append(f"{f.name!r}: None")
                elif f.kind == "object":
                    inner = display(f.children)
                    if inner is not None:
                        items.append(f"{f.name!r}: {inner}")
                elif (f.column or f.name) in index:
                    value = f"row[{index[f.column or f.name]}]"
                    if f.kind not in _NATIVE:
                        convert = f"_{f.kind}"
                        scope[convert] = CONVERT[f.kind]
                        value = f"{convert}({value})"
                    kinds.add(f.kind)
                    items.append(f"{f.name!r}: {value}")
                else:
                    continue
                names.append(f.name)
            return "{" + ", ".join(items) + "}" if items else None

        record = display(fields) or "{}"
        source = f"def build_all(rows):\n    return [{record} for row in rows]\n"
        exec(source, scope)  # noqa: S102 - names come from the declarations, quoted by repr
        self.build_all: Callable[[Sequence[Any]], list[Record]] = scope["build_all"]
        self.driver_safe = kinds <= DRIVER_SAFE
        self.internal = any(name.startswith("_") for name in names)  # read by hooks only

    @classmethod
    def of(cls, fields: Sequence[Field], select: sa.Select[Any], detail: bool = False,
           level: str = "") -> RecordPlan:
        """The plan for rows of ``select``, whose labels name the columns."""
        return cls(fields, detail, level, tuple(select.selected_columns.keys()))
