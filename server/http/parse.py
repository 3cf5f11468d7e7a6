"""Step one of a request: everything read from the address and its query string.

``route`` reads the path (format first, so every later error can be written in the asked
format; then endpoint, version and path type), ``parse`` the parameters of one endpoint into a
frozen ``ParsedRequest``. Each parameter is converted by its declared kind (``CONVERTERS``, as Starlette's
``CONVERTOR_TYPES`` does for path segments): a converter raises ``BadParameter`` naming the
parameter and never guesses silently except where the API promises best effort (docs/api/index.md) (dates). A
parameter the endpoint does not take is ignored with a warning, and so is a ``search`` of 4
characters or fewer (docs/api/index.md). Never guessed either: a value over ``MAX_TEXT`` characters
(a 49,999-character ``search`` kept a worker busy until the store gave up), a parameter given
twice (which one counts would depend on who reads it), a number written in other than ASCII
digits (``max=٣``, a fullwidth ``４``): each is a 400 naming the parameter. The endpoint's own
rules come next, in ``server.endpoints.check``.
"""
from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from types import MappingProxyType
from typing import Any

from dateutil import parser as date_parser

from server.catalog.clock import today
from server.catalog.levels import Level
from server.catalog.parameters import MAX_TEXT, SEARCH_MIN
from server.endpoints.base import ParsedRequest, Endpoint
from server.catalog.phases import PHASES, SEASON_TYPES
from server.endpoints.registry import find_endpoint
from server.errors import BadParameter, NotFound, WrongVersion, show
from server.http.encode import DEFAULT_FORMAT, ENCODERS, Encoder
from server.store.schema import GAME_STATES

MAX_DEFAULT = 100
MAX_LIMIT = 1000
COMMON = ("key", "format", "max", "page")  # taken by every endpoint, read apart
_MAX_INT = 2**63 - 1
_INT = re.compile(r"^[+-]?[0-9]{1,19}$")
_ISO = re.compile(r"^([0-9]{4})-?([0-9]{2})-?([0-9]{2})$")
_DATES = ("date", "start", "end", "last")
_SEASON = re.compile(r"^\d{4}$")


def encoder_for(format_value: str | None) -> Encoder:
    """The encoder the ``format`` parameter names (json when absent), or a 400."""
    if format_value is None:
        return ENCODERS[DEFAULT_FORMAT]
    encoder = ENCODERS.get(format_value.strip().lower())
    if encoder is None:
        raise BadParameter(f"format '{show(format_value)}' is not one of {', '.join(ENCODERS)}",
                           "format")
    return encoder


VERSIONS = ("v1", "v2")  # every endpoint answers under both; its declared one is documented
# Under /natstat/ (docs/api/natstat.md) also v4, v2's form, and v3, whose own form carries
# the key in the path (``v3_query``); ``/natstat/v3/...`` with a query string is v2's form too.
DIALECT_VERSIONS = ("v1", "v2", "v3", "v4")


def route(version: str, name: str, level: str, kind: str | None,
          dialect: bool = False) -> Endpoint:
    """The endpoint the path names, taking path type ``kind``.

    Every endpoint is served under v1 and v2 (and v3, v4 under /natstat/): its declared version
    is the documented one (OpenAPI), the others aliases, because NatStat clients call endpoints
    under any (issues #15, #31). Any other version is a 404 naming every version served there.
    """
    ep = find_endpoint(name)
    if ep is None:
        raise NotFound(f"no endpoint '{show(name)}'", None)
    served = DIALECT_VERSIONS if dialect else VERSIONS
    if version.lower() not in served:
        where = "/natstat/" if dialect else "/"
        raise WrongVersion(
            f"{ep.name} is served under {', '.join(served[:-1])} and {served[-1]}, documented "
            f"at /{ep.version}/{ep.name}/{show(level)}/; version '{show(version)}' is not served "
            f"under {where}", None)
    if kind is not None and kind.lower() not in ep.types:
        if not ep.types:
            raise NotFound(f"{ep.name} takes no /{{type}}/ path segment", None)
        raise BadParameter(f"{ep.name} type '{show(kind)}' is not one of {', '.join(ep.types)}",
                           "type")
    return ep


def parse(ep: Endpoint, level: Level, kind: str | None, query: list[tuple[str, str]],
          base_url: str) -> ParsedRequest:
    """The query string's parameters for ``ep``, typed, with the warnings they earned."""
    warnings: list[str] = []
    values: dict[str, object] = {}
    declared = {p.name: p for p in ep.params}
    raw_common: dict[str, str] = {}
    given: set[str] = set()
    for name, raw in query:
        lname = name.lower()
        if lname in given and (lname in COMMON or lname in declared):
            raise BadParameter(f"{lname} is given more than once; give it once", lname)
        given.add(lname)
        if len(raw) > MAX_TEXT and (lname in COMMON or lname in declared):
            raise BadParameter(f"{lname} is longer than {MAX_TEXT} characters", lname)
        if lname in COMMON:
            raw_common[lname] = raw
            continue
        param = declared.get(lname)
        if param is None:
            warnings.append(f"parameter '{show(name)}' is not taken by {ep.name}; ignored")
            continue
        values[lname] = CONVERTERS[param.kind](lname, raw)

    search = values.get("search")
    if isinstance(search, str) and len(search) < SEARCH_MIN:
        warnings.append(f"search '{show(search)}' ignored: {SEARCH_MIN - 1} characters or fewer")
        del values["search"]

    if ep.paginated:
        size, page = page_window(raw_common.get("max"), raw_common.get("page"), warnings)
    else:
        size, page = 0, 1
        for name in ("max", "page"):
            if name in raw_common:
                warnings.append(f"{ep.name} is not paginated; {name} ignored")

    day_from = day_to = None
    if any(n in values for n in _DATES):
        day_from, day_to = day_range(values, warnings)
    return ParsedRequest(endpoint=ep.name, level=level, type=kind, values=MappingProxyType(values),
               warnings=tuple(warnings), size=size, page=page, base_url=base_url,
               season=values.get("season"), day_from=day_from,  # type: ignore[arg-type]
               day_to=day_to)




def v3_query(key: str, span: str | None, offset: str | None,
             query: list[tuple[str, str]], max_page: int | None = None) -> list[tuple[str, str]]:
    """The query string a v3 address means (docs/api/natstat.md): the key from the path, the
    ``span`` (a day, two days joined by a comma, or a season) as ``date``, ``start``/``end`` or
    ``season``, and the ``offset`` of the first record as the ``page`` holding it, in pages of
    the size the endpoint serves (``max`` clamped to its ``max_page``, as ``check`` clamps it).
    Parameters of the query string come first, so a path value given twice earns the usual
    warning."""
    items = [(k, v) for k, v in query if k.lower() != "key"] + [("key", key)]
    if span is not None:
        text = span.strip()
        if _SEASON.match(text):
            items.append(("season", text))
        elif "," in text:
            start, _, end = text.partition(",")
            items += [("start", start), ("end", end)]
        else:
            items.append(("date", text))
    if offset is not None:
        first = to_number("offset", offset)
        if first < 0:
            raise BadParameter(f"offset must be 0 or more, not {first}", "offset")
        size = next((v for k, v in query if k.lower() == "max"), None)
        per_page = min(MAX_LIMIT, max_page or MAX_LIMIT,
                       MAX_DEFAULT if size is None else to_positive("max", size))
        items.append(("page", str(first // per_page + 1)))
    return items


def to_number(name: str, raw: str) -> int:
    """A whole number within 64 bits, or a 400."""
    text = raw.strip()
    if not _INT.match(text) or abs(int(text)) > _MAX_INT:
        raise BadParameter(f"{name} '{show(raw)}' is not a whole number", name)
    return int(text)


def to_positive(name: str, raw: str) -> int:
    """A whole number of 1 or more, or a 400."""
    value = to_number(name, raw)
    if value < 1:
        raise BadParameter(f"{name} must be 1 or more, not {value}", name)
    return value


def to_string(name: str, raw: str) -> str:
    """Non-empty text of at most 200 characters without NUL, or a 400."""
    text = raw.strip()
    if not text:
        raise BadParameter(f"{name} is empty", name)
    if len(text) > MAX_TEXT:
        raise BadParameter(f"{name} is longer than {MAX_TEXT} characters", name)
    if "\x00" in text:  # PostgreSQL text cannot hold NUL
        raise BadParameter(f"{name} contains a NUL character", name)
    return text


def to_ref(name: str, raw: str) -> int | str:
    """A parameter the spec types as a string but that names a record: an ID or a name."""
    text = to_string(name, raw)
    return int(text) if _INT.match(text) and abs(int(text)) <= _MAX_INT else text


def to_date(name: str, raw: str) -> dt.date:
    """YYYY-MM-DD and YYYYMMDD always; other forms best effort (month first); else 400."""
    text = raw.strip()
    match = _ISO.match(text)
    try:
        if match:
            return dt.date(int(match[1]), int(match[2]), int(match[3]))
        if not re.search(r"[0-9]{4}", text) or not text.isascii():
            raise ValueError("no year")  # '7/4' or '5' would silently mean this year
        parsed: dt.datetime = date_parser.parse(text, dayfirst=False, yearfirst=False)
        return parsed.date()
    except (ValueError, OverflowError, TypeError, date_parser.ParserError):
        raise BadParameter(
            f"{name} '{show(raw)}' is not a date; use YYYY-MM-DD or YYYYMMDD", name) from None


def to_limit(name: str, raw: str) -> str:
    """`limit==today` and `limit=today` mean the same (docs/api/index.md)."""
    text = raw.strip()
    while text.startswith("="):  # the equals signs and blanks before the value, however many
        text = text[1:].strip()
    return text.lower()




def to_state(name: str, raw: str) -> str:
    """A game state, in any case; anything else is a 400 naming the allowed ones."""
    state = raw.strip().lower()
    if state not in GAME_STATES:
        raise BadParameter(f"{name} '{show(raw)}' is not a game state; allowed: "
                           f"{', '.join(GAME_STATES)}", name)
    return state


def to_season_type(name: str, raw: str) -> tuple[str, ...]:
    """regular or postseason, in any case: the phases each stands for (``SEASON_TYPES``)."""
    kind = raw.strip().lower()
    if kind not in SEASON_TYPES:
        raise BadParameter(f"{name} '{show(raw)}' is not one of {', '.join(SEASON_TYPES)}", name)
    return SEASON_TYPES[kind]


def to_phases(name: str, raw: str) -> tuple[str, ...]:
    """One game phase or several, comma separated, in any case (``playin,postseason``), in the
    order a season runs; anything else is a 400 naming the phases."""
    asked = {part.strip().lower() for part in raw.split(",")}
    unknown = sorted(asked - set(PHASES))
    if unknown:
        raise BadParameter(f"{name} '{show(raw)}': '{show(unknown[0])}' is not a phase; allowed: "
                           f"{', '.join(PHASES)} (one, or several comma separated)", name)
    return tuple(p for p in PHASES if p in asked)


def to_search(name: str, raw: str) -> str:
    """Search text without NUL (its length is judged by ``parse``)."""
    text = raw.strip()
    if "\x00" in text:  # PostgreSQL text cannot hold NUL
        raise BadParameter(f"{name} contains a NUL character", name)
    return text


CONVERTERS: dict[str, Callable[[str, str], Any]] = {
    "number": to_number,
    "positive": to_positive,
    "string": to_string,
    "ref": to_ref,
    "date": to_date,
    "limit": to_limit,
    "search": to_search,
    "state": to_state,
    "seasontype": to_season_type,
    "phase": to_phases,
}


def page_window(raw_max: str | None, raw_page: str | None, warnings: list[str]) -> tuple[int, int]:
    """max and page (docs/api/index.md): max clamped to 1000 with a warning; zero/negative -> 400."""
    size = MAX_DEFAULT if raw_max is None else to_positive("max", raw_max)
    if size > MAX_LIMIT:
        warnings.append(f"max {size} clamped to {MAX_LIMIT}")
        size = MAX_LIMIT
    page = 1 if raw_page is None else to_positive("page", raw_page)
    return size, page


def day_range(values: dict[str, Any], warnings: list[str]) -> tuple[dt.date | None, dt.date | None]:
    """The inclusive date window from date, start/end and last; date overrides a range."""
    date = values.get("date")
    start, end, last = values.get("start"), values.get("end"), values.get("last")
    if date is not None:
        if start is not None or end is not None or last is not None:
            warnings.append("date overrides start, end and last")
        return date, date
    if last is not None:
        if last < 1:
            raise BadParameter("last must be 1 or more days", "last")
        if start is not None or end is not None:
            warnings.append("last overrides start and end")
        now = today()
        return now - dt.timedelta(days=min(last, 36500) - 1), now
    if start is not None and end is not None and end < start:
        raise BadParameter(f"end {end} is before start {start}", "end")
    return start, end
