"""Named parameter converters (contract section 4): raw query text in, typed value or 400 out.

``CONVERTERS`` maps a parameter kind to its converter, as Starlette's ``CONVERTOR_TYPES`` does for
path segments. A converter raises ``BadParameter`` naming the parameter; it never guesses silently
except where the contract asks for best effort (dates).
"""
from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Any

from dateutil import parser as date_parser

from server.catalog.clock import today
from server.http.errors import BadParameter

MAX_DEFAULT = 100
MAX_LIMIT = 1000
SEARCH_MIN = 5  # searches of 4 characters or fewer are ignored (spec part 8)
_MAX_INT = 2**63 - 1
_INT = re.compile(r"^[+-]?\d{1,19}$")
_ISO = re.compile(r"^(\d{4})-?(\d{2})-?(\d{2})$")


def to_number(name: str, raw: str) -> int:
    text = raw.strip()
    if not _INT.match(text) or abs(int(text)) > _MAX_INT:
        raise BadParameter(f"{name} '{_show(raw)}' is not a whole number", name)
    return int(text)


def to_positive(name: str, raw: str) -> int:
    value = to_number(name, raw)
    if value < 1:
        raise BadParameter(f"{name} must be 1 or more, not {value}", name)
    return value


def to_string(name: str, raw: str) -> str:
    text = raw.strip()
    if not text:
        raise BadParameter(f"{name} is empty", name)
    if len(text) > 200:
        raise BadParameter(f"{name} is longer than 200 characters", name)
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
        if not re.search(r"\d{4}", text):
            raise ValueError("no year")  # '7/4' or '5' would silently mean this year
        parsed: dt.datetime = date_parser.parse(text, dayfirst=False, yearfirst=False)
        return parsed.date()
    except (ValueError, OverflowError, TypeError, date_parser.ParserError):
        raise BadParameter(
            f"{name} '{_show(raw)}' is not a date; use YYYY-MM-DD or YYYYMMDD", name) from None


def to_limit(name: str, raw: str) -> str:
    """`limit==today` and `limit=today` mean the same (contract 4)."""
    return raw.strip().lstrip("=").strip().lower()


GAME_STATES = ("final", "scheduled", "inprogress", "postponed")  # the store's games.state


def to_state(name: str, raw: str) -> str:
    """A game state, in any case; anything else is a 400 naming the allowed ones."""
    state = raw.strip().lower()
    if state not in GAME_STATES:
        raise BadParameter(f"{name} '{_show(raw)}' is not a game state; allowed: "
                           f"{', '.join(GAME_STATES)}", name)
    return state


def to_search(name: str, raw: str) -> str:
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
}


def _show(raw: str) -> str:
    """Echo user input in a message safely: short, printable."""
    text = "".join(ch if ch.isprintable() else "?" for ch in raw[:40])
    return text + ("..." if len(raw) > 40 else "")


def show(raw: str) -> str:
    return _show(raw)


def page_window(raw_max: str | None, raw_page: str | None, warnings: list[str]) -> tuple[int, int]:
    """max and page (contract 4): max clamped to 1000 with a warning; zero/negative -> 400."""
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
