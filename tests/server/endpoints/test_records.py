"""Record plans: one compiled plan gives the wire form of docs/api/index.md from SQLAlchemy's
typed values and from a driver's raw ones alike, objects and hook placeholders in declared order."""
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
    Field("League", "string", "EPL", "FC only", levels=("FC",)),
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


def test_plan_reads_typed_and_driver_values_alike() -> None:
    plan = records.RecordPlan(FIELDS, False, "MLB", COLUMNS)
    assert plan.driver_safe and not plan.internal
    assert plan.build_all(TYPED) == EXPECTED
    assert plan.build_all(RAW_SQLITE) == EXPECTED
    assert [list(r) for r in plan.build_all(TYPED)] == [list(r) for r in EXPECTED]  # order


def test_level_only_fields_detail_fields_and_missing_columns() -> None:
    fc = records.RecordPlan(FIELDS, False, "FC", COLUMNS).build_all(TYPED)
    assert fc[0]["League"] == "EPL" and "Body" not in fc[0]
    detail = records.RecordPlan(FIELDS, True, "MLB", COLUMNS).build_all(TYPED)
    assert detail[0]["Body"] == "body" and "League" not in detail[0]
    narrow = records.RecordPlan(FIELDS, False, "MLB", ("ID", "Final")).build_all([(3, 1)])
    assert narrow == [{"ID": 3, "Final": "Y"}]


def test_objects_nest_and_hook_fields_keep_their_place() -> None:
    fields = (
        Field("ID", "integer", 1, "id"),
        Field("venue", "list", None, "filled by a hook"),
        Field("elo", "object", None, "ratings", children=(
            Field("Before", "number", 1500.0, "before", column="b"),
            Field("After", "number", 1510.0, "after", column="a"),
        )),
        Field("empty", "object", None, "nothing selected", children=(
            Field("Gone", "number", 1.0, "not selected", column="gone"),
        )),
        Field("_season", "integer", None, "internal"),
    )
    plan = records.RecordPlan(fields, False, "MLB", ("ID", "b", "a", "_season"))
    [record] = plan.build_all([(4, 1500.123456, None, 2024)])
    assert record == {"ID": 4, "venue": None, "elo": {"Before": 1500.1235, "After": None},
                      "_season": 2024}
    assert list(record) == ["ID", "venue", "elo", "_season"]
    assert plan.internal


def test_json_kinds_are_not_read_from_the_driver() -> None:
    fields = FIELDS[:1] + (Field("LineScore", "any", None, "json"),)
    assert not records.RecordPlan(fields, False, "MLB", ("ID", "LineScore")).driver_safe
