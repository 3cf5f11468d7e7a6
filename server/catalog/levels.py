"""The competition levels of the service, one row each.

Routing, validation, the glossary's ``levels`` records and the simulator all read this table;
``python -m server init`` copies it into the store's ``levels`` table. ``FEATURES`` says which
levels carry each optional kind of data (docs/api/index.md): the endpoints that serve it, the
glossary's list of endpoints per level and the re-tabulation all read it from here.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    code: str  # canonical spelling, as the glossary shows it
    name: str
    sport: str  # baseball | basketball | hockey | soccer
    gender: str  # M | W | X (mixed: FC carries gender per league)
    tier: str  # pro | minor | college | international
    season_span: str  # "calendar" (season = year) or "split" (season = year it ends)
    college: bool = False  # a college level (ages, name pools of the simulator)


LEVELS: tuple[Level, ...] = (
    Level("MLB", "Major League Baseball", "baseball", "M", "pro", "calendar"),
    Level("MiLB", "Minor League Baseball", "baseball", "M", "minor", "calendar"),
    Level("KBO", "KBO League (Korea)", "baseball", "M", "pro", "calendar"),
    Level("NPB", "Nippon Professional Baseball", "baseball", "M", "pro", "calendar"),
    Level("CBB", "NCAA Division I Baseball", "baseball", "M", "college", "calendar", True),
    Level("NBA", "National Basketball Association", "basketball", "M", "pro", "split"),
    Level("WNBA", "Women's National Basketball Association", "basketball", "W", "pro", "calendar"),
    Level("GL", "NBA G League", "basketball", "M", "minor", "split"),
    Level("EuroBB", "EuroLeague Basketball", "basketball", "M", "international", "split"),
    Level("MBB", "NCAA Division I Men's Basketball", "basketball", "M", "college", "split", True),
    Level("MB2", "NCAA Division II Men's Basketball", "basketball", "M", "college", "split", True),
    Level("MB3", "NCAA Division III Men's Basketball", "basketball", "M", "college", "split", True),
    Level("WBB", "NCAA Division I Women's Basketball", "basketball", "W", "college", "split", True),
    Level("WB2", "NCAA Division II Women's Basketball", "basketball", "W", "college", "split", True),
    Level("WB3", "NCAA Division III Women's Basketball", "basketball", "W", "college", "split", True),
    Level("MBIA", "NAIA Men's Basketball", "basketball", "M", "college", "split", True),
    Level("WBIA", "NAIA Women's Basketball", "basketball", "W", "college", "split", True),
    Level("MBJC", "NJCAA Men's Basketball", "basketball", "M", "college", "split", True),
    Level("WBJC", "NJCAA Women's Basketball", "basketball", "W", "college", "split", True),
    Level("NHL", "National Hockey League", "hockey", "M", "pro", "split"),
    Level("KHL", "Kontinental Hockey League", "hockey", "M", "pro", "split"),
    Level("MHK", "NCAA Division I Men's Ice Hockey", "hockey", "M", "college", "split", True),
    Level("FC", "Football Clubs (soccer)", "soccer", "X", "pro", "split"),
)

BY_CODE: dict[str, Level] = {lv.code.upper(): lv for lv in LEVELS}
ALL_CODES: tuple[str, ...] = tuple(lv.code for lv in LEVELS)


def find_level(code: str) -> Level | None:
    """Level codes are case-insensitive on the wire (docs/api/index.md); this is the one lookup."""
    return BY_CODE.get(code.strip().upper())


# Optional data and the levels that carry it (docs/api/index.md); an endpoint declares the
# feature it needs (``Endpoint.needs``) and serves exactly these levels.
FEATURES: dict[str, frozenset[str]] = {
    "rpi": frozenset({"MBB", "MB2", "MB3", "WBB", "CBB"}),
    "officials": frozenset({"MBB", "MB2", "MB3", "NBA", "WNBA", "MiLB", "MLB", "WBB"}),
    "pitches": frozenset({"MLB", "MiLB"}),
    "playbyplay": frozenset(ALL_CODES) - {"EuroBB"},
    "transactions": frozenset({"NBA", "GL", "WNBA", "NHL", "MLB", "MiLB", "MBB"}),
    # a season's run expectancy and constants, from plays with the base-out state (baseball)
    "runenvironment": frozenset(lv.code for lv in LEVELS if lv.sport == "baseball"),
    # home win, draw and away win forecast and scored (football)
    "threeoutcomes": frozenset(lv.code for lv in LEVELS if lv.sport == "soccer"),
}


def has_feature(code: str, feature: str) -> bool:
    """Whether level ``code`` carries ``feature`` (a key of ``FEATURES``)."""
    return code in FEATURES[feature]
