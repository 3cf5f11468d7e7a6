"""A store built by schema version 3 (team seasons without their own abbreviation, city and
nickname) is upgraded in place by ``init``: the columns are added, nothing is lost, and a season
still reads under its stored name with the team's current abbreviation until the next ingest."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from server.endpoints.seasonnames import SeasonTeam
from server.store import schema
from server.store.engine import make_engine
from server.store.init import init_store, schema_version
from tests.pg import fresh_database

ADDED_IN_4 = ("abbrev", "city", "nickname")


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'v3.db'}"
    else:
        with fresh_database("sports_upgrade") as url:
            yield url


def _version_3_store(engine: sa.Engine) -> None:
    """Version 3's tables: version 4's without the team season columns it added."""
    schema.metadata.create_all(engine)
    with engine.begin() as conn:
        for column in ADDED_IN_4:
            conn.execute(sa.text(f'ALTER TABLE team_seasons DROP COLUMN "{column}"'))
        conn.execute(schema.store_info.insert().values(key="schema_version", value="3"))
        conn.execute(schema.teams.insert().values(
            id=3, level="MLB", name="Atlanta Braves", abbrev="ATL", city="Atlanta",
            nickname="Braves", source="lahman"))
        conn.execute(sa.text("INSERT INTO team_seasons (team_id, level, season, name, wins, "
                             "losses, ties) VALUES (3, 'MLB', 1935, 'Boston Braves', 38, 115, 0)"))


def test_init_adds_the_team_season_columns_and_keeps_the_rows(store_url: str) -> None:
    engine = make_engine(store_url)
    _version_3_store(engine)
    assert init_store(engine) == schema.SCHEMA_VERSION == 4
    init_store(engine)  # idempotent
    with engine.connect() as conn:
        assert schema_version(conn) == 4
        columns = {c["name"] for c in sa.inspect(conn).get_columns("team_seasons")}
        assert set(ADDED_IN_4) <= columns
        named = SeasonTeam(schema.teams, schema.team_seasons)
        row = conn.execute(
            sa.select(named.name, named.abbrev, named.column("city"), schema.team_seasons.c.wins)
            .select_from(named.join_season(schema.teams, schema.teams.c.id, 1935))).one()
    engine.dispose()
    assert tuple(row) == ("Boston Braves", "ATL", None, 38), \
        "the season's name; no borrowed city of a later name"
