"""Turn query rows into records, driven by the declared fields (one plan per endpoint).

Rows carry labelled columns; a field reads ``column`` (default: its own name) and converts it by
kind, so the wire conventions of contract section 3 (IDs numbers, dates YYYY-MM-DD, Y/N, signed
money lines, null when unknown) live here and nowhere else.
"""
from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Sequence
from typing import Any

from server.endpoints.base import Field, Record

Convert = Callable[[Any], Any]


def as_is(v: Any) -> Any:
    return v


def as_int(v: Any) -> int | None:
    return None if v is None else int(v)


def as_number(v: Any) -> float | None:
    if v is None:
        return None
    f = float(v)
    return round(f, 4) if math.isfinite(f) else None


def as_string(v: Any) -> str | None:
    return None if v is None else str(v)


def as_date(v: Any) -> str | None:
    if v is None:
        return None
    if isinstance(v, (dt.date, dt.datetime)):
        return v.isoformat()[:10]
    return str(v)[:10]


def as_instant(v: Any) -> str | None:
    if v is None:
        return None
    if isinstance(v, dt.datetime):
        return v.strftime("%Y-%m-%dT%H:%M:%SZ")
    text = str(v)
    if len(text) >= 19 and text[10] in " T":  # SQLite's own text: 2024-07-04 23:05:00.000000
        return f"{text[:10]}T{text[11:19]}Z"
    return text


def as_yn(v: Any) -> str | None:
    return None if v is None else ("Y" if v else "N")


def as_money(v: Any) -> str | None:
    """American money line with its sign: +135, -150 (contract section 3)."""
    if v is None:
        return None
    n = int(v)
    return f"+{n}" if n > 0 else str(n)


def as_any(v: Any) -> Any:
    return v


CONVERT: dict[str, Convert] = {
    "integer": as_int, "number": as_number, "string": as_string, "date": as_date,
    "datetime": as_instant, "yn": as_yn, "money": as_money, "stats": as_any, "any": as_any,
}

Step = tuple[str, str, Convert | None, tuple[Any, ...]]


def plan(fields: Sequence[Field], detail: bool, level: str,
         columns: frozenset[str] | None = None) -> tuple[Step, ...]:
    """The steps that read a row into a record; list fields are left to hooks.

    With ``columns`` (the query's labels) a field the query does not select is left out: one
    declaration can serve several modes of an endpoint (elo rankings or a team's series).
    """
    steps: list[Step] = []
    for f in fields:
        if (f.detail and not detail) or (f.only and level not in f.only):
            continue
        if f.hook or f.kind == "list":
            steps.append((f.name, "", None, ()))  # a placeholder keeps the declared order
        elif f.kind == "object":
            children = plan(f.children, detail, level, columns)
            if children:
                steps.append((f.name, "", None, children))
        elif columns is None or (f.column or f.name) in columns:
            steps.append((f.name, f.column or f.name, CONVERT[f.kind], ()))
    return tuple(steps)


def build(steps: tuple[Step, ...], row: Any) -> Record:
    out: Record = {}
    for name, column, convert, children in steps:
        if convert is not None:
            out[name] = convert(row[column])
        elif children:
            out[name] = build(children, row)
        else:
            out[name] = None
    return out


def money_drift(v: Any) -> str | None:
    return as_money(v) if v else (None if v is None else "0")


# Kinds whose values the drivers already hand over in wire form (ints, strs, None).
_NATIVE = {"integer", "string"}
# Kinds whose converters take a driver's own values as well as SQLAlchemy's (SQLite gives dates
# and instants as text and yes/no as 0/1; psycopg gives native types): a flat plan of only these
# reads the DBAPI cursor directly, skipping a result layer that costs more than the query.
DRIVER_SAFE = {"integer", "number", "string", "date", "datetime", "yn", "money"}


class FlatPlan:
    """A fast plan for records without objects or hook fields (most list records).

    The plan is compiled into one function per endpoint, level and column set, the way
    ``dataclasses`` generates ``__init__``: a list of dict displays reading each row by position
    and calling a converter only for the fields whose kind needs one (dates, Y/N, money,
    rounding). Per row that is one dict built in C instead of a loop over fields in Python.
    """

    def __init__(self, fields: Sequence[Field], level: str, columns: Sequence[str]) -> None:
        chosen = [f for f in fields if not f.detail and not (f.only and level not in f.only)
                  and (f.column or f.name) in columns and not f.name.startswith("_")]
        index = {name: i for i, name in enumerate(columns)}
        self.names = tuple(f.name for f in chosen)
        self.driver_safe = all(f.kind in DRIVER_SAFE for f in chosen)
        scope: dict[str, Any] = {}
        items = []
        for n, f in enumerate(chosen):
            value = f"row[{index[f.column or f.name]}]"
            if f.kind not in _NATIVE:
                scope[f"_convert{n}"] = CONVERT[f.kind]
                value = f"_convert{n}({value})"
            items.append(f"{f.name!r}: {value}")
        source = f"def build_all(rows):\n    return [{{{', '.join(items)}}} for row in rows]\n"
        exec(source, scope)  # noqa: S102 - names come from the declarations, quoted by repr
        self.build_all: Callable[[Sequence[Any]], list[Record]] = scope["build_all"]


def is_flat(fields: Sequence[Field], level: str) -> bool:
    """No objects, no hook fields, no internal fields, in a list record."""
    return all(f.kind not in ("object", "list") and not f.hook and not f.name.startswith("_")
               for f in fields if not f.detail and not (f.only and level not in f.only))
