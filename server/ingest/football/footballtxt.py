"""The Football.TXT text format of openfootball's cup files, read strictly.

A file is a title (``= UEFA Champions League 2021/22``), ``#`` header lines, stage headers
(``» Group A``, ``» Finals, Round of 16``, ``» League, Matchday 3``), day lines (``Tue Sep/14
2021``; the year only where it changes) and match lines::

    21.00  Liverpool FC (ENG)      v Real Madrid (ESP)        0-1 (0-0)
           Real Madrid (ESP)       v Chelsea FC (ENG)         2-3 a.e.t. (1-3, 0-1)
           Sevilla FC (ESP)        v AS Roma (ITA)            4-1 pen. 1-1 a.e.t. (1-1, 0-1)
           Tottenham Hotspur (ENG) v Stade Rennais (FRA)      0-3    [awarded]
           RB Leipzig (GER)        v Spartak Moskva (RUS)     [cancelled]

The kick-off time (local) carries to the lines below it until the next one, as the day carries
to the matches under it. After ``a.e.t.`` the score is the one after extra time and the bracket
holds the full-time and half-time scores; before it, the shoot-out's. A match line with nothing
after the clubs has not been played. A two-legged tie is two match lines, one per leg.

Anything else stops the read with the file and line named: a format read loosely would load a
misread score as a result.
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path

from server.errors import UserError

MONTHS = {m: i for i, m in enumerate(
    ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"), 1)}
FIRST_MONTH = 7  # a European season runs July to June: July-December are its first year's

TITLE = re.compile(r"=\s+(?P<title>\S.*)")
HEADER = re.compile(r"#.*")
STAGE = re.compile(r"»\s+(?P<stage>\S.*?)\s*")
DAY = re.compile(r"\s+(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?P<month>[A-Z][a-z]{2})/(?P<day>\d{1,2})"
                 r"(?: (?P<year>\d{4}))?\s*")
_SCORE = r"\d{1,2}-\d{1,2}"
MATCH = re.compile(r"\s+(?:(?P<time>\d{1,2}\.\d{2})\s+)?"
                   r"(?P<home>\S.*?\([A-Z]{3}\))\s+v\s+(?P<visitor>\S.*?\([A-Z]{3}\))"
                   r"(?:\s+(?P<result>\S.*?))?\s*")
RESULT = re.compile(rf"(?:(?P<pens>{_SCORE}) pen\. )?(?P<score>{_SCORE})(?P<aet> a\.e\.t\.)?"
                    rf"(?: \((?P<first>{_SCORE})(?:, (?P<second>{_SCORE}))?\))?"
                    r"(?:\s+\[(?P<note>awarded)\])?")
CANCELLED = "[cancelled]"


@dataclass(frozen=True)
class TxtMatch:
    """One match line as the file gives it (clubs as spelt, ``Name (CCC)``)."""
    stage: str
    day: dt.date
    time: str | None
    home: str
    visitor: str
    ft: tuple[int, int] | None = None
    ht: tuple[int, int] | None = None
    et: tuple[int, int] | None = None
    pens: tuple[int, int] | None = None
    status: str | None = None  # "awarded" | "cancelled"
    line: int = 0


def _pair(text: str | None) -> tuple[int, int] | None:  # "2-1" -> (2, 1)
    if text is None:
        return None
    a, b = text.split("-")
    return int(a), int(b)


Pair = tuple[int, int] | None
Scores = tuple[Pair, Pair, Pair, Pair, str | None]  # full time, half time, extra time, shoot-out
NOT_PLAYED: Scores = (None, None, None, None, None)


def _result(text: str) -> Scores | None:
    """The scores a match line's result part gives, and its note; None if it is not one."""
    if text == CANCELLED:
        return (None, None, None, None, "cancelled")
    m = RESULT.fullmatch(re.sub(r"[ \t]+", " ", text))
    if m is None:
        return None
    score, first, second = _pair(m["score"]), _pair(m["first"]), _pair(m["second"])
    if m["aet"]:
        if first is None:  # extra time without the full-time score: unreadable
            return None
        return (first, second, score, _pair(m["pens"]), m["note"])
    if second is not None or m["pens"]:  # a second bracket score or a shoot-out needs a.e.t.
        return None
    return (score, first, None, None, m["note"])


def _day(m: re.Match[str], first_year: int, where: str) -> dt.date:
    month = MONTHS.get(m["month"])
    if month is None:
        raise UserError(f"{where}: {m['month']!r} is not a month")
    year = first_year if month >= FIRST_MONTH else first_year + 1
    if m["year"] is not None and int(m["year"]) != year:
        raise UserError(f"{where}: {m['year']} is outside the season {first_year}-{first_year + 1}")
    try:
        return dt.date(year, month, int(m["day"]))
    except ValueError as exc:
        raise UserError(f"{where}: {exc}") from None


def parse(text: str, first_year: int, name: str = "<text>") -> tuple[str, list[TxtMatch]]:
    """The title and the matches of a file's text, for the season starting in ``first_year``
    (a day line without a year: July-December of that year, January-June of the next). Raises
    ``UserError`` naming ``name`` and the line for anything it cannot read."""
    title = ""
    stage: str | None = None
    day: dt.date | None = None
    time: str | None = None
    out: list[TxtMatch] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip("\r\n")
        where = f"{name} line {number}"
        if not line.strip() or HEADER.fullmatch(line):
            continue
        if (m := TITLE.fullmatch(line)) is not None:
            title = m["title"].strip()
        elif (m := STAGE.fullmatch(line)) is not None:
            stage, day, time = m["stage"], None, None
        elif (m := DAY.fullmatch(line)) is not None:
            day, time = _day(m, first_year, where), None
        elif (m := MATCH.fullmatch(line)) is not None:
            if stage is None or day is None:
                raise UserError(f"{where}: a match before any stage or day line: {line.strip()!r}")
            time = m["time"] or time
            scores = NOT_PLAYED if m["result"] is None else _result(m["result"])
            if scores is None:
                raise UserError(f"{where}: unreadable result {m['result']!r}")
            ft, ht, et, pens, status = scores
            out.append(TxtMatch(stage, day, time, m["home"], m["visitor"], ft, ht, et, pens,
                                status, number))
        else:
            raise UserError(f"{where}: not a Football.TXT line: {line.strip()!r}")
    return title, out


def read(path: Path, first_year: int) -> tuple[str, list[TxtMatch]]:
    """``parse`` of a file (UTF-8, CRLF or LF)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"cannot read {path}: {exc}") from None
    return parse(text, first_year, str(path))

