"""Which kinds of data each season holds, kept beside the data (server.store.season_data): an
ingest counts the levels it wrote, ``init`` counts a store that has no count yet, and the
seasons list reads the count, so a level of 155 seasons answers at once on PostgreSQL too."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa

from server.ingest import fivethirtyeight as fte
from server.store import schema, season_data
from server.store.engine import make_engine
from tests.pg import fresh_database
from tests.production._harness import cli, issue_key, serving

NBA_ROWS = ("date,season,neutral,playoff,team1,team2,elo1_pre,elo2_pre,elo_prob1,elo_prob2,"
            "elo1_post,elo2_post,score1,score2\n"
            "2022-10-18,2023,0,,BOS,PHI,1600,1550,0.6,0.4,1605,1545,126,117\n")


def test_an_ingest_counts_the_levels_it_wrote(new_store: sa.Engine, tmp_path: Path) -> None:
    (tmp_path / "nba.csv").write_text(NBA_ROWS)
    fte.ingest(new_store, tmp_path / "nba.csv", "NBA")
    sd = schema.season_data.c
    with new_store.begin() as conn:
        assert conn.execute(sa.select(sd.level, sd.season, sd.plays, sd.odds)).all() == [
            ("NBA", 2023, False, False)]
        # a season's first plays: the next count of its level says so
        game = conn.execute(sa.select(schema.games.c.id)).scalar_one()
        conn.execute(schema.plays.insert().values(
            id=1, level="NBA", game_id=game, seq=1, period=1, explanation="Tatum makes a jumper",
            scoring=True, points=2, score_vis=0, score_home=2))
        season_data.refresh(conn, ["NBA"])
        assert conn.execute(sa.select(sd.plays)).scalar_one() is True


@pytest.mark.postgres
def test_a_level_of_many_seasons_is_listed_at_once_on_postgresql(tmp_path: Path) -> None:
    """155 football seasons, none with player lines, beside 300,000 lines of three baseball
    seasons: asked per season, PostgreSQL scanned the lines once per football season (past the
    1 s query limit: a 503); counted beforehand, the list answers well within it."""
    with fresh_database("sports_seasons") as url:
        cli(url, "init")
        engine = make_engine(url)
        with engine.begin() as conn:
            conn.execute(schema.seasons.insert(), [
                {"level": "FC", "season": y, "name": str(y), "start": dt.date(y, 1, 1),
                 "end": dt.date(y, 12, 31), "source": "internationals"}
                for y in range(1872, 2027)] + [
                {"level": "MLB", "season": y, "name": str(y), "start": dt.date(y, 4, 1),
                 "end": dt.date(y, 10, 1), "source": "retrosheet"} for y in (2021, 2022, 2023)])
            conn.execute(sa.text(
                "INSERT INTO player_lines (id, level, season, game_id, game_day, player_id, "
                "team_id, opponent_id, home, stats) SELECT n, 'MLB', 2021 + n % 3, n / 50, "
                "DATE '2021-04-01' + (n % 180), n % 1500, n % 30, (n + 1) % 30, n % 2 = 0, "
                "'{\"AB\": 4}' FROM generate_series(1, 300000) AS n"))
            conn.execute(sa.text("ANALYZE player_lines"))
        engine.dispose()
        cli(url, "init")  # counts a store whose rows came in another way: as an upgrade does
        key = issue_key(url)
        with serving(url, tmp_path / "serve.log") as server:
            got = httpx.get(f"{server.base_url}/v1/seasons/FC/", params={"key": key, "max": 200},
                            timeout=30)
            mlb = httpx.get(f"{server.base_url}/v1/seasons/MLB/", params={"key": key},
                            timeout=30)
    assert got.status_code == 200, got.text[:300]
    seasons = got.json()["seasons"]
    assert len(seasons) == 155 and {s["Granularity"]["PlayerPerfs"] for s in seasons} == {"N"}
    assert [s["Granularity"]["PlayerPerfs"] for s in mlb.json()["seasons"]] == ["Y", "Y", "Y"]
