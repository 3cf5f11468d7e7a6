"""A store built before divisions existed (schema 3: no ``team_seasons.division_id``) keeps its
rows and gains the column and its teams' declared divisions from ``python -m server init``, on
SQLite and on PostgreSQL alike; a second init changes nothing."""
from __future__ import annotations

import os

import sqlalchemy as sa

from server.store import schema
from server.store.engine import make_engine
from server.store.init import init_store
from tests.demo_api import run_server_command


def _version_3_store(url: str) -> None:
    """Today's tables without what version 4 added, holding two MLB team seasons of 2023 in
    the American League (as Retrosheet's ingest writes them) and a WNBA one without a league."""
    engine = make_engine(url)
    try:
        init_store(engine)
        with engine.begin() as conn:
            conn.execute(sa.text("ALTER TABLE team_seasons DROP COLUMN division_id"))
            conn.execute(schema.store_info.update().where(schema.store_info.c.key == "schema_version")
                         .values(value="3"))
            conn.execute(schema.sublevels.insert(), [
                {"id": 1, "level": "MLB", "name": "American League", "abbrev": "AL", "type": "League"}])
            conn.execute(schema.teams.insert(), [
                {"id": 12, "level": "MLB", "name": "Houston Astros", "abbrev": "HOU", "sublevel_id": 1,
                 "source": "retrosheet"},
                {"id": 28, "level": "MLB", "name": "Texas Rangers", "abbrev": "TEX", "sublevel_id": 1,
                 "source": "retrosheet"},
                {"id": 90, "level": "WNBA", "name": "Las Vegas Aces", "abbrev": "LVA",
                 "sublevel_id": None, "source": "fivethirtyeight"}])
            conn.execute(sa.text(
                "INSERT INTO team_seasons (team_id, level, season, sublevel_id, wins, losses, ties) "
                "VALUES (12, 'MLB', 2023, 1, 90, 72, 0), (28, 'MLB', 2023, 1, 90, 72, 0), "
                "(90, 'WNBA', 2023, NULL, 34, 6, 0)"))
    finally:
        engine.dispose()


def test_init_adds_divisions_to_a_store_of_the_previous_version(store_url: str) -> None:
    _version_3_store(store_url)
    env = {**os.environ, "DATABASE_URL": store_url}
    env.pop("REDIS_URL", None)
    run_server_command(["init"], env)
    run_server_command(["init"], env)  # idempotent
    engine = make_engine(store_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(sa.text(
                "SELECT ts.team_id, ts.wins, ts.losses, d.name, d.type, d.parent_id "
                "FROM team_seasons ts LEFT JOIN sublevels d ON d.id = ts.division_id "
                "ORDER BY ts.team_id")).all()
            version = conn.execute(sa.select(schema.store_info.c.value).where(
                schema.store_info.c.key == "schema_version")).scalar_one()
            divisions = conn.execute(sa.text(
                "SELECT count(*) FROM sublevels WHERE type = 'Division'")).scalar_one()
    finally:
        engine.dispose()
    assert [tuple(r) for r in rows] == [(12, 90, 72, "AL West", "Division", 1),
                                        (28, 90, 72, "AL West", "Division", 1),
                                        (90, 34, 6, None, None, None)]
    assert version == str(schema.SCHEMA_VERSION) and int(version) >= 4
    assert divisions == 1
