"""The declared deductions, one row per decision with its day: each club's rows add up to what
its final table carries, and a season projection of a day counts only the decisions announced
by then (``server.jobs.football_tables``), so it never knows a later one."""
from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest
import sqlalchemy as sa

from server.catalog.football.deductions import DEDUCTIONS, deducted
from server.jobs import projections
from server.store import schema
from server.store.engine import make_engine
from tests.demo_api import ApiServer

# the final tables' deductions (docs/football.md): Everton 2023-24 -10, +4 on appeal, -2
FINAL = {("en.1", 2024, "everton-fc"): 8, ("en.1", 2024, "nottingham-forest-fc"): 4,
         ("it.1", 2023, "juventus-fc"): 10, ("en.2", 2022, "derby-county-fc"): 21,
         ("en.2", 2022, "reading-fc"): 6, ("en.2", 2023, "reading-fc"): 6,
         ("nl.1", 2024, "sbv-vitesse"): 18}


def test_each_clubs_rows_add_up_to_its_final_deduction() -> None:
    clubs = {(d.league, d.season, d.club) for d in DEDUCTIONS}
    assert clubs == set(FINAL)
    for (league, season, club), points in FINAL.items():
        assert deducted(league, season)[club] == points


def test_a_deduction_counts_from_its_day() -> None:
    assert "everton-fc" not in deducted("en.1", 2024, dt.date(2023, 11, 16))
    assert deducted("en.1", 2024, dt.date(2023, 11, 17))["everton-fc"] == 10
    assert deducted("en.1", 2024, dt.date(2024, 2, 26))["everton-fc"] == 6
    assert deducted("en.1", 2024, dt.date(2024, 4, 8))["everton-fc"] == 8


@pytest.fixture(scope="module")
def real_engine(real_store: ApiServer) -> Iterator[sa.Engine]:
    engine = make_engine(real_store.database_url)
    yield engine
    engine.dispose()


@pytest.mark.realdata
@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_a_projection_knows_only_the_deductions_announced_by_its_day(
        real_engine: sa.Engine) -> None:
    """Everton 2023-24 projected on 16 and 17 November 2023 (no match between): the points so
    far drop by the 10 announced on the 17th, and so does the projected final total."""
    days = [dt.date(2023, 11, 16), dt.date(2023, 11, 17)]
    with real_engine.connect() as conn:
        rows = projections.project_days(conn, "FC", 2024, days, 200)
        t = schema.teams.c
        (everton,) = conn.execute(sa.select(t.id).where(t.level == "FC",
                                                        t.name == "Everton FC")).scalars()
    mine = rows[rows["team_id"] == everton].set_index("date")
    before, after = (mine.loc[d] for d in days)
    assert before["wins"] == after["wins"] and before["ties"] == after["ties"]
    assert before["points"] == 3 * before["wins"] + before["ties"]
    assert after["points"] == before["points"] - 10
    assert after["proj_points"] < before["proj_points"] - 8
