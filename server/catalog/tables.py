"""How each sport's standings read, one row per sport: the API's standings fields and the
dashboard's columns both come from here (docs/football.md for football's table).

``behind``: the distance to the leader, in games (``GB``) where teams rank by record, in table
points (``PointsBack``) where they rank by points (hockey, football); ``differential``: what the
scored-minus-allowed column counts (``RunDiff``, ``PointDiff``, ``GoalDiff``); ``goals``: the
table shows goals for and against (``GF``, ``GA``) as football tables do. ``record``: the
record's columns in the order the sport prints them (football W-D-L, the draws in the middle;
``T`` is the API's name for a tie or a draw, shown as ``draw``). ``pct``: whether the table has
a winning percentage (football's has none). ``form``: the recent-results column, ``Last10``
(the record in the last ten games) or ``Form`` (football's last ``FORM_GAMES`` results as
letters, oldest first, the newest at the right end, as the Premier League's and the BBC's
tables print it). ``points``: what a win, a tie or draw (hockey: an overtime or shootout loss)
and a loss are worth in the table where the sport ranks by points (NHL's 2, 1, 0; football's
3, 1, 0); None where teams rank by record. Standings and projections count ``Points`` and
``ProjPoints`` by it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from server.catalog.levels import LEVELS, find_level

FORM_GAMES = 5  # results in football's Form column
HOCKEY_POINTS = (2, 1, 0)  # the NHL's: 2 a win, 1 an overtime or shootout loss, 0 a loss


@dataclass(frozen=True)
class TableRules:
    sport: str
    behind: str  # GB | PointsBack
    differential: str  # RunDiff | PointDiff | GoalDiff
    goals: bool = False
    record: tuple[str, ...] = ("W", "L", "T", "OTL")  # print order (a level shows those it has)
    draw: str = "T"  # the letter and column label of a tie or a draw
    pct: bool = True
    form: str = "Last10"  # Last10 | Form
    points: tuple[int, int, int] | None = None  # (win, tie or OT loss, loss) where ranked by points

    def table_points(self, wins: Any, ties: Any, losses: Any) -> Any:
        """Table points of records (numbers or numpy arrays alike); None where the sport ranks
        by record."""
        if self.points is None:
            return None
        win, tie, loss = self.points
        return wins * win + ties * tie + losses * loss


SPORT_TABLES: dict[str, TableRules] = {r.sport: r for r in (
    TableRules("baseball", "GB", "RunDiff"),
    TableRules("basketball", "GB", "PointDiff"),
    TableRules("hockey", "PointsBack", "GoalDiff", points=HOCKEY_POINTS),
    TableRules("soccer", "PointsBack", "GoalDiff", goals=True, record=("W", "T", "L"), draw="D",
               pct=False, form="Form", points=(3, 1, 0)),
)}


def table_rules(level: str) -> TableRules:
    lv = find_level(level)
    assert lv is not None, level
    return SPORT_TABLES[lv.sport]


def levels_where(test: str, value: object) -> tuple[str, ...]:
    """The level codes whose sport's row has ``test`` equal to ``value``."""
    return tuple(lv.code for lv in LEVELS if getattr(SPORT_TABLES[lv.sport], test) == value)


def levels_with_points() -> tuple[str, ...]:
    """The level codes whose sport's table counts points (``TableRules.points``)."""
    return tuple(lv.code for lv in LEVELS if SPORT_TABLES[lv.sport].points is not None)
