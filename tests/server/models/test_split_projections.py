"""Season projections of a split season past its split read the table as the standings do
(``server.models.standings.split_seasons``, one engine): the points halved, each group ranked
on its own, a lower group's club never projected above a higher group's. Austria 2022-23,
whose 22nd round was played on 19 March 2023 (docs/football.md)."""
from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa

from server.jobs import projections
from server.store import schema
from server.store.engine import make_engine
from tests.demo_api import ApiServer

pytestmark = [pytest.mark.realdata, pytest.mark.slow, pytest.mark.timeout(1800)]
AUSTRIA = "Austrian Bundesliga"


@pytest.fixture(scope="module")
def real_engine(real_store: ApiServer) -> Iterator[sa.Engine]:
    engine = make_engine(real_store.database_url)
    yield engine
    engine.dispose()


def _projected(engine: sa.Engine, day: dt.date) -> dict[int, tuple[int, float, float]]:
    """Austria 2022-23's clubs on ``day``: team id -> (points so far, projected rank, title)."""
    with engine.connect() as conn:
        rows = projections.project_days(conn, "FC", 2023, [day], 500)
        sl = schema.sublevels.c
        league = conn.execute(sa.select(sl.id).where(sl.level == "FC", sl.name == AUSTRIA)
                              ).scalar_one()
    mine = rows[rows["sublevel_id"] == league]
    return {int(r.team_id): (int(r.points), float(r.proj_rank), float(r.title_prob))
            for r in mine.itertuples()}


def _table(api: ApiServer, date: str) -> list[dict[str, Any]]:
    rows = [r for r in api.get_json("/v2/standings/FC/", season=2023, date=date)["standings"]
            if r["League"] == AUSTRIA]
    return sorted(rows, key=lambda r: r["LeagueRank"])


def test_a_projection_after_the_split_halves_and_keeps_the_groups(
        real_engine: sa.Engine, real_api: ApiServer) -> None:
    """On 20 April 2023 (three rounds into the groups): every club's points so far are the
    table's (Salzburg 32 with 27 of them from halving), and no club of the qualifying group
    is projected above 7th or has a chance of the title."""
    table = _table(real_api, "2023-04-20")
    projected = _projected(real_engine, dt.date(2023, 4, 20))
    assert len(table) == len(projected) == 12
    for row in table:
        points, rank, title = projected[row["Team_ID"]]
        assert points == row["Points"]
        if row["LeagueRank"] > 6:
            assert rank >= 7 and title == 0
        else:
            assert rank <= 6


def test_the_last_day_projects_the_final_table(
        real_engine: sa.Engine, real_api: ApiServer) -> None:
    """On the last day (11 June 2023) the projection is the final table: Salzburg champions on
    49, Wolfsberg 7th on 31 above clubs of the championship group on fewer."""
    table = _table(real_api, "2023-06-11")
    projected = _projected(real_engine, dt.date(2023, 6, 11))
    assert [(projected[r["Team_ID"]][0], round(projected[r["Team_ID"]][1])) for r in table] == [
        (r["Points"], r["LeagueRank"]) for r in table]
    assert (table[0]["Team"], table[0]["Points"]) == ("RB Salzburg", 49)
