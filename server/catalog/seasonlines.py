"""Baseball's season lines as analysts read them: the batting and pitching columns, in order.

One declaration serves every table that prints a line (a player's seasons and career, his
splits, a team's splits): each column says its heading, how it is computed from the line's
counting stats (``server.catalog.linestats``) and how it is printed. A rate is the stat code's
own formula (``server.catalog.statcodes``), so a career or a split recomputes AVG from its summed
H and AB, never an average of averages. The pitching H, R, HR, BB and SO are those allowed
(``HA``, ``RA``, ``HRA``, ``BBA``, ``K``), as a pitching line heads them.

Two pseudo codes count games, since a summed line cannot: ``GP`` the games played (statcodes'
pseudo code) and ``GPITCHED`` the games pitched in.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from server.catalog import figures
from server.catalog.linestats import LINE_STATS
from server.catalog.statcodes import BATTING as BATTING_RULE
from server.catalog.statcodes import GP, Formula, codes_for, metric_codes
from server.catalog.statcodes import PITCHING as PITCHING_RULE

GAMES_PITCHED = "GPITCHED"  # pseudo line code: games in which the player pitched


@dataclass(frozen=True)
class LineColumn:
    label: str  # the heading analysts print (pitching H: hits allowed)
    formula: Formula
    innings: bool = False  # outs printed as innings in thirds (200.1 = 200 1/3)


@dataclass(frozen=True)
class SeasonLine:
    name: str  # batting | pitching
    title: str
    columns: tuple[LineColumn, ...]
    basis: tuple[str, ...]  # line codes whose total says the player has such a line
    caption: str  # what the columns are, for the table's caption

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(c.label for c in self.columns)


_RATES = {c.code: c.formula for c in codes_for("baseball", "player") if c.formula.is_rate}


def _count(code: str) -> Formula:
    return Formula(((code, 1.0),))


def _counts(*codes: str) -> tuple[LineColumn, ...]:
    return tuple(LineColumn(c, _count(c)) for c in codes)


BATTING = SeasonLine(
    "batting", "Batting",
    (LineColumn("G", _count(GP)),
     *_counts("PA", "AB", "R", "H", "2B", "3B", "HR", "RBI", "SB", "BB", "SO"),
     *(LineColumn(c, _RATES[c]) for c in ("AVG", "OBP", "SLG", "OPS"))),
    basis=("PA", "AB"),
    caption=("G games played, PA plate appearances, AB at bats, R runs, H hits, 2B doubles, "
             "3B triples, HR home runs, RBI runs batted in, SB stolen bases, BB walks, "
             "SO strikeouts; AVG H/AB, OBP (H+BB+HBP)/(AB+BB+HBP+SF), SLG total bases/AB, "
             "OPS OBP+SLG."))

PITCHING = SeasonLine(
    "pitching", "Pitching",
    (*_counts("W", "L"),
     LineColumn("ERA", _RATES["ERA"]),
     LineColumn("G", _count(GAMES_PITCHED)),
     *_counts("GS", "SV"),
     LineColumn("IP", _count("OUTS"), innings=True),
     LineColumn("H", _count("HA")), LineColumn("R", _count("RA")), LineColumn("ER", _count("ER")),
     LineColumn("HR", _count("HRA")), LineColumn("BB", _count("BBA")),
     LineColumn("SO", _count("K")),
     LineColumn("WHIP", _RATES["WHIP"])),
    basis=("OUTS", "BF"),
    caption=("W wins, L losses, ERA earned runs per 9 innings, G games pitched, GS games "
             "started, SV saves, IP innings pitched (.1 and .2 are thirds), H hits, R runs, "
             "ER earned runs, HR home runs, BB walks and SO strikeouts, all allowed; WHIP "
             "(BB+H)/IP."))

LINES: tuple[SeasonLine, ...] = (BATTING, PITCHING)


def metrics(line: SeasonLine) -> tuple[str, ...]:
    """The metrics printed after a line's columns (``statcodes.metric_codes`` of its group:
    batting's ISO .. wRC+, pitching's FIP, ERA+, K%, BB%), which a season's record carries
    computed (its ``Metrics``), not summed."""
    rule = BATTING_RULE if line is BATTING else PITCHING_RULE
    by_code = {c.code: c for c in codes_for("baseball", "player")}
    return tuple(code for code in metric_codes("baseball") if by_code[code].rule is rule)


def has_line(line: SeasonLine, totals: Mapping[str, float | int | None]) -> bool:
    """Whether the totals hold any of this line (a hitter's pitching line is usually none)."""
    return any((totals.get(code) or 0) > 0 for code in line.basis)


def lines_for(totals: Mapping[str, float | int | None], pitcher: bool) -> tuple[SeasonLine, ...]:
    """The lines the totals hold, the player's own first: a pitcher's pitching, else batting."""
    held = [line for line in LINES if has_line(line, totals)]
    return tuple(sorted(held, key=lambda line: (line is PITCHING) != pitcher))


def codes(column: LineColumn) -> frozenset[str]:
    """The line codes a column reads (a rate's parts through their own formulas)."""
    formula = column.formula
    if formula.parts:
        return frozenset().union(*(codes(LineColumn(p, _RATES[p])) for p in formula.parts))
    return frozenset(code for code, _w in (*formula.num, *formula.den))


def _sum(totals: Mapping[str, float | int | None], terms: tuple[tuple[str, float], ...]) -> float:
    return sum(w * float(totals.get(code) or 0) for code, w in terms)


def value(column: LineColumn, totals: Mapping[str, float | int | None]) -> float | None:
    """The column's value from summed totals; None for a rate without a denominator (no at
    bats: no average), never for a count (a count not held is 0)."""
    formula = column.formula
    if formula.parts:
        parts = [value(LineColumn(p, _RATES[p]), totals) for p in formula.parts]
        return None if any(p is None for p in parts) else sum(p for p in parts if p is not None)
    num = formula.scale * _sum(totals, formula.num)
    if not formula.den:
        return num
    den = _sum(totals, formula.den)
    return num / den if den > 0 else None


def text(column: LineColumn, number: float | None) -> str:
    """A column's value as printed: 0 as 0, a rate as every table prints its code
    (``server.catalog.figures``: .311, 1.111, 3.45), 200.1 innings; "" only where a rate has
    no denominator."""
    if number is None:
        return ""
    if column.innings:
        outs = round(number)
        return f"{outs // 3}.{outs % 3}"
    if not column.formula.is_rate:
        return str(round(number))
    return figures.text(_code(column), number)


def row(line: SeasonLine, totals: Mapping[str, float | int | None]) -> dict[str, str]:
    """One printed line: heading -> text, in the line's order."""
    return {c.label: text(c, value(c, totals)) for c in line.columns}


def _code(column: LineColumn) -> str:
    """The stat code behind a column (the ranked table's ``Stat``): a count's line code, a
    rate's own code."""
    formula = column.formula
    if formula.is_rate or column.innings:
        return "IP" if column.innings else column.label
    return formula.num[0][0]


def stat_order(pitcher: bool) -> tuple[str, ...]:
    """The stat codes in the order a player's ranked stats read: his own line first (a
    pitcher's pitching, else batting) in its columns' order, then the rest of that group, then
    the other line's, then the rest (fielding, WPA)."""
    groups = {s.code: s.group for s in LINE_STATS["baseball"]}
    rules = {c.code: c.rule for c in codes_for("baseball", "player") if c.rule is not None}
    groups.update({code: "batting" if rule is BATTING_RULE else "pitching"
                   for code, rule in rules.items()})
    out: list[str] = []
    for line in sorted(LINES, key=lambda line: (line is PITCHING) != pitcher):
        out += [c for c in (_code(col) for col in line.columns) if c not in out and c != GP
                and c != GAMES_PITCHED]
        out += [c for c, g in groups.items() if g == line.name and c not in out]
    return tuple(out)
