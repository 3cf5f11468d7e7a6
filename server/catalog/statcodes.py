"""Stat codes of the stat tables and the glossary, per sport: totals and rates.

Each ``StatCode`` says how a season value is computed from the game lines' counting stats
(``server.catalog.linestats``), which way it ranks, and the qualifier rule for rates.
"""
from __future__ import annotations

from dataclasses import dataclass

from server.catalog.linestats import LINE_STATS


@dataclass(frozen=True)
class StatCode:
    sport: str
    type: str  # player | team
    code: str
    name: str
    description: str
    order: str = "desc"  # desc: higher ranks first; asc: lower ranks first (ERA)
    qualifier: str | None = None  # human-readable rule; None for totals


def _totals() -> list[StatCode]:
    out = []
    for sport, stats in LINE_STATS.items():
        for s in stats:
            for kind in ("player", "team"):
                if kind == "team" and not s.team:
                    continue
                out.append(StatCode(sport, kind, s.code, s.name, f"Season total: {s.name.lower()}."))
    return out


STAT_CODES: tuple[StatCode, ...] = tuple(_totals())


def glossary_rows() -> list[dict[str, object]]:
    return [
        {"sport": s.sport, "type": s.type, "code": s.code, "name": s.name,
         "description": s.description, "order": s.order, "qualifier": s.qualifier}
        for s in STAT_CODES
    ]
