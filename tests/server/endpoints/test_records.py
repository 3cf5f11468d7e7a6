"""Record plans: the compiled flat plan gives what the general plan gives, from SQLAlchemy's typed
values and from a driver's raw ones alike (contract section 3's wire conventions)."""
from __future__ import annotations

import datetime as dt

from server.endpoints import records
from server.endpoints.base import Field

FIELDS = (
    Field("ID", "integer", 1, "id"),
    Field("Name", "string", "x", "name"),
    Field("GameDay", "date", "2024-07-04", "day"),
    Field("Posted", "datetime", "2024-07-04T23:05:00Z", "instant"),
    Field("Final", "yn", "Y", "yes/no"),
    Field("HomeMoneyLine", "money", "+135", "line"),
    Field("Factor", "number", 0.5, "number"),
    Field("League", "string", "EPL", "FC only", only=("FC",)),
    Field("Body", "string", "text", "detail only", detail=True),
)
COLUMNS = ("ID", "Name", "GameDay", "Posted", "Final", "HomeMoneyLine", "Factor", "League",
           "Body")
TYPED = [
    (7, "Café Zürich", dt.date(2024, 7, 4), dt.datetime(2024, 7, 4, 23, 5), True, 135,
     0.123456, "EPL", "body"),
    (8, None, None, None, False, -150, None, None, None),
]
RAW_SQLITE = [  # what sqlite3 hands back for the same rows
    (7, "Café Zürich", "2024-07-04", "2024-07-04 23:05:00.000000", 1, 135, 0.123456, "EPL",
     "body"),
    (8, None, None, None, 0, -150, None, None, None),
]
EXPECTED = [
    {"ID": 7, "Name": "Café Zürich", "GameDay": "2024-07-04", "Posted": "2024-07-04T23:05:00Z",
     "Final": "Y", "HomeMoneyLine": "+135", "Factor": 0.1235},
    {"ID": 8, "Name": None, "GameDay": None, "Posted": None, "Final": "N",
     "HomeMoneyLine": "-150", "Factor": None},
]


def _general(rows: list[tuple[object, ...]], level: str) -> list[dict[str, object]]:
    steps = records.plan(FIELDS, False, level, frozenset(COLUMNS))
    return [records.build(steps, dict(zip(COLUMNS, row))) for row in rows]


def test_flat_plan_matches_the_general_plan() -> None:
    flat = records.FlatPlan(FIELDS, "MLB", COLUMNS)
    assert flat.driver_safe
    assert flat.build_all(TYPED) == _general(TYPED, "MLB") == EXPECTED
    assert flat.build_all(RAW_SQLITE) == EXPECTED
    assert [list(r) for r in flat.build_all(TYPED)] == [list(r) for r in EXPECTED]  # order


def test_level_only_fields_and_missing_columns() -> None:
    fc = records.FlatPlan(FIELDS, "FC", COLUMNS).build_all(TYPED)
    assert fc[0]["League"] == "EPL" and "Body" not in fc[0]
    narrow = records.FlatPlan(FIELDS, "MLB", ("ID", "Final")).build_all([(3, 1)])
    assert narrow == [{"ID": 3, "Final": "Y"}]


def test_json_kinds_are_not_read_from_the_driver() -> None:
    fields = FIELDS[:1] + (Field("LineScore", "any", None, "json"),)
    assert not records.FlatPlan(fields, "MLB", ("ID", "LineScore")).driver_safe
