"""A store built by the previous schema version keeps working after ``python -m server init``:
version 4 adds each game's phase, filled from the playoff round it already held, and settles
the games of past days that a source listed without a result; and it adds a team season's own
abbreviation, city and nickname, nothing lost, a season still read under its stored name with
the team's current abbreviation until the next ingest."""
from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from server.endpoints.seasonnames import SeasonTeam
from server.ingest import fivethirtyeight as fte
from server.store import schema
from server.store.engine import make_engine
from server.store.init import init_store, schema_version
from tests.demo_api import run_server_command

ADDED_IN_4 = ("abbrev", "city", "nickname")

NBA_ROWS = ("date,season,neutral,playoff,team1,team2,score1,score2\n"
            "2023-04-05,2023,0,,DEN,SAC,109,95\n"
            "2023-04-11,2023,0,p,MIA,ATL,105,116\n"
            "2023-04-16,2023,0,q,DEN,MIN,109,80\n"
            "2023-06-15,2023,0,f,DEN,MIA,,\n")


_V3_STAT_TABLES = """CREATE TABLE stat_tables (
    level VARCHAR(8) NOT NULL, season INTEGER NOT NULL, type VARCHAR(8) NOT NULL,
    code VARCHAR(16) NOT NULL, entity_id INTEGER NOT NULL, team_id INTEGER, sublevel_id INTEGER,
    value FLOAT NOT NULL, gp INTEGER NOT NULL, qualified BOOLEAN NOT NULL, rank INTEGER NOT NULL,
    qualified_rank INTEGER, PRIMARY KEY (level, season, type, code, entity_id))"""


def _as_version_3(engine: sa.Engine) -> None:
    """What the previous version left: no phase column, unscored past games 'scheduled', stat
    tables keyed without a phase (one regular-season row here)."""
    with engine.begin() as conn:
        conn.execute(sa.text("DROP TABLE stat_tables"))
        conn.execute(sa.text(_V3_STAT_TABLES))
        conn.execute(sa.text("CREATE INDEX ix_stat_tables_rank ON stat_tables "
                             "(level, season, type, code, rank)"))
        conn.execute(sa.text("INSERT INTO stat_tables VALUES "
                             "('NBA', 2023, 'team', 'PTS', 1, NULL, NULL, 109.0, 1, TRUE, 1, 1)"))
        conn.execute(sa.text("DROP INDEX ix_games_level_phase"))
        conn.execute(sa.text("ALTER TABLE games DROP COLUMN phase"))
        conn.execute(sa.text("UPDATE games SET state = 'scheduled', game_status = '' "
                             "WHERE state = 'noresult'"))
        conn.execute(sa.text("DROP TABLE season_data"))  # version 10's
        conn.execute(sa.text("DROP TABLE season_rows"))  # version 11's
        conn.execute(sa.text("DROP TABLE pitcher_records"))
        conn.execute(sa.text("UPDATE store_info SET value = '3' WHERE key = 'schema_version'"))


def test_init_upgrades_a_version_3_store_in_place(store_url: str, tmp_path: Path) -> None:
    url = store_url
    engine = make_engine(url)
    init_store(engine)
    (tmp_path / "nba.csv").write_text(NBA_ROWS)
    fte.ingest(engine, tmp_path / "nba.csv", "NBA")
    _as_version_3(engine)
    with engine.connect() as conn:
        held = {c["name"] for c in sa.inspect(conn).get_columns("games")}
    assert "phase" not in held
    engine.dispose()

    run_server_command(["init"], {"DATABASE_URL": url, "PATH": "/usr/bin:/bin"})
    engine = make_engine(url)
    g = schema.games.c
    with engine.connect() as conn:
        rows = conn.execute(sa.select(g.game_day, g.phase, g.state, g.game_status)
                            .order_by(g.game_day)).all()
        version = conn.execute(sa.select(schema.store_info.c.value)
                               .where(schema.store_info.c.key == "schema_version")).scalar()
        tables = conn.execute(sa.select(schema.stat_tables.c.code, schema.stat_tables.c.phase,
                                        schema.stat_tables.c.value)).all()
        counted = conn.execute(sa.select(schema.season_data.c.level, schema.season_data.c.season,
                                         schema.season_data.c.player_lines)).all()
        sr = schema.season_rows.c
        kept = conn.execute(sa.select(sr.level, sr.kind, sr.season, sr.row_count)).all()
        # the new key takes a postseason row beside the regular season's
        conn.execute(schema.stat_tables.insert().values(
            level="NBA", season=2023, phase="postseason", type="team", code="PTS", entity_id=1,
            value=109.0, gp=1, qualified=True, rank=1))
    engine.dispose()
    assert [tuple(r[1:]) for r in rows] == [
        ("regular", "final", "Final"), ("playin", "final", "Final"),
        ("postseason", "final", "Final"), ("postseason", "noresult", "No result")]
    assert version == str(schema.SCHEMA_VERSION) == "11"
    assert [tuple(r) for r in tables] == [("PTS", "regular", 109.0)]
    assert [tuple(r) for r in counted] == [("NBA", 2023, False)]  # the kept granularity
    assert [tuple(r) for r in kept] == [("NBA", "games", 2023, 4)]  # a plain list's total


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
    assert init_store(engine) == schema.SCHEMA_VERSION == 11
    init_store(engine)  # idempotent
    with engine.connect() as conn:
        assert schema_version(conn) == 11
        columns = {c["name"] for c in sa.inspect(conn).get_columns("team_seasons")}
        assert set(ADDED_IN_4) <= columns
        named = SeasonTeam(schema.teams, schema.team_seasons)
        row = conn.execute(
            sa.select(named.name, named.abbrev, named.column("city"), schema.team_seasons.c.wins)
            .select_from(named.join_season(schema.teams, schema.teams.c.id, 1935))).one()
    engine.dispose()
    assert tuple(row) == ("Boston Braves", "ATL", None, 38), \
        "the season's name; no borrowed city of a later name"


def test_init_creates_the_win_probability_tables_and_retabulate_fills_them(tmp_path: Path
                                                                           ) -> None:
    """A store built before ``play_winprob`` and ``winprob_calibration`` (its plays already
    there): ``init`` creates the tables, the plays it had stay, and the next ``retabulate``
    gives them their line and its calibration."""
    from server.jobs import retabulate
    from tests.fixtures import minidata

    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = make_engine(url)
    minidata.build(engine)
    with engine.begin() as conn:
        conn.execute(sa.text("DROP TABLE play_winprob"))
        conn.execute(sa.text("DROP TABLE winprob_calibration"))
        plays = conn.execute(sa.select(sa.func.count()).select_from(schema.plays)).scalar()
    engine.dispose()
    run_server_command(["init"], {"DATABASE_URL": url, "PATH": "/usr/bin:/bin"})
    engine = make_engine(url)
    with engine.connect() as conn:
        assert sa.inspect(conn).has_table("play_winprob")
        assert sa.inspect(conn).has_table("winprob_calibration")
        assert conn.execute(sa.select(sa.func.count()).select_from(schema.plays)).scalar() == plays
    retabulate.run(engine, ["MBB"])
    with engine.connect() as conn:
        lined = conn.execute(sa.select(sa.func.count()).select_from(schema.play_winprob)
                             .where(schema.play_winprob.c.level == "MBB")).scalar()
        held = conn.execute(sa.select(sa.func.count()).select_from(schema.plays)
                            .where(schema.plays.c.level == "MBB")).scalar()
        games = conn.execute(sa.select(sa.func.count(sa.distinct(schema.plays.c.game_id)))
                             .where(schema.plays.c.level == "MBB")).scalar()
        c = schema.winprob_calibration.c
        scored = conn.execute(sa.select(c.forecast, sa.func.sum(c.count))
                              .where(c.level == "MBB").group_by(c.forecast)).all()
    engine.dispose()
    assert lined == held > 0
    # every play but each game's last is scored in-game; each game once before it
    assert dict(scored) == {"ingame": held - games, "pregame": games}


def test_init_creates_the_comparison_table_and_the_same_files_fill_it(tmp_path: Path) -> None:
    """A version 4 store of a results file (its games there, no published chances kept):
    ``init`` creates ``comparison_forecasts`` and records version 5, the games kept; ingesting
    the same file again keeps each game's published chances, one row per forecaster."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    path = tmp_path / "nba_elo_latest.csv"
    path.write_text("date,season,neutral,playoff,team1,team2,elo_prob1,raptor_prob1,score1,score2\n"
                    "2023-04-05,2023,0,,DEN,SAC,0.71,0.64,109,95\n"
                    "2023-04-06,2023,0,,SAC,DEN,0.48,NA,120,118\n")
    engine = make_engine(url)
    init_store(engine)
    fte.ingest(engine, path, "NBA")
    with engine.begin() as conn:
        conn.execute(sa.text("DROP TABLE comparison_forecasts"))
        conn.execute(sa.text("UPDATE store_info SET value = '4' WHERE key = 'schema_version'"))
    engine.dispose()
    run_server_command(["init"], {"DATABASE_URL": url, "PATH": "/usr/bin:/bin"})
    engine = make_engine(url)
    with engine.connect() as conn:
        assert schema_version(conn) == 11
        assert conn.execute(sa.select(sa.func.count()).select_from(schema.games)).scalar() == 2
        assert conn.execute(sa.select(sa.func.count())
                            .select_from(schema.comparison_forecasts)).scalar() == 0
    fte.ingest(engine, path, "NBA")
    c, g = schema.comparison_forecasts.c, schema.games.c
    with engine.connect() as conn:
        kept = conn.execute(sa.select(g.game_day, c.forecaster, c.home_win_prob, c.source)
                            .join_from(schema.comparison_forecasts, schema.games, c.game_id == g.id)
                            .order_by(g.game_day, c.forecaster)).all()
    engine.dispose()
    assert [(str(d), f, p, s) for d, f, p, s in kept] == [
        ("2023-04-05", "fte_elo", 0.71, "fivethirtyeight"),
        ("2023-04-05", "fte_raptor", 0.64, "fivethirtyeight"),
        ("2023-04-06", "fte_elo", 0.48, "fivethirtyeight")], "NA is no chance"


def test_the_next_make_run_loads_the_chances_an_older_build_lacks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``make run`` on a store it built before the published chances were kept loads the
    results files again (their games kept); a second run finds them and loads nothing."""
    from scripts import run

    data = tmp_path / "data" / "nba"
    data.mkdir(parents=True)
    path = data / "nba_elo_latest.csv"
    path.write_text("date,season,neutral,playoff,team1,team2,elo_prob1,raptor_prob1,score1,score2\n"
                    "2023-04-05,2023,0,,DEN,SAC,0.71,0.64,109,95\n")
    url = f"sqlite:///{tmp_path / 'built.db'}"
    monkeypatch.setenv("DATABASE_URL", url)
    engine = make_engine(url)
    init_store(engine)
    fte.ingest(engine, path, "NBA")
    with engine.begin() as conn:
        conn.execute(schema.comparison_forecasts.delete())
        games = conn.execute(sa.select(schema.games.c.id)).scalars().all()
    run.load_published_chances(tmp_path / "data")
    with engine.connect() as conn:
        kept = conn.execute(sa.select(schema.comparison_forecasts.c.forecaster,
                                      schema.comparison_forecasts.c.home_win_prob)
                            .order_by(schema.comparison_forecasts.c.forecaster)).all()
        assert conn.execute(sa.select(schema.games.c.id)).scalars().all() == games
    assert [tuple(r) for r in kept] == [("fte_elo", 0.71), ("fte_raptor", 0.64)]
    path.write_text("not,a,results,file\n1,2,3,4\n")  # read again, it would stop the build
    run.load_published_chances(tmp_path / "data")  # the chances are there: nothing is read
    engine.dispose()


ADDED_IN_7 = {"plays": ("outs_before", "bases_before"), "player_lines": ("batting_order",)}


def test_init_adds_the_state_before_a_play_and_the_batting_order(tmp_path: Path) -> None:
    """A version 6 store with its plays and lines: ``init`` adds the columns last (rows written by
    position keep their places), the rows kept with no value in them until the next ingest."""
    from tests.fixtures import minidata

    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = make_engine(url)
    minidata.build(engine)
    with engine.begin() as conn:
        for table, columns in ADDED_IN_7.items():
            for column in columns:
                conn.execute(sa.text(f'ALTER TABLE {table} DROP COLUMN "{column}"'))
        conn.execute(sa.text("DROP TABLE stint_metrics"))  # version 8's
        conn.execute(sa.text("UPDATE store_info SET value = '6' WHERE key = 'schema_version'"))
        held = {t: conn.execute(sa.select(sa.func.count()).select_from(schema.metadata.tables[t])).scalar()
                for t in ADDED_IN_7}
    engine.dispose()
    run_server_command(["init"], {"DATABASE_URL": url, "PATH": "/usr/bin:/bin"})
    engine = make_engine(url)
    with engine.connect() as conn:
        assert schema_version(conn) == 11
        assert "stint_metrics" in sa.inspect(conn).get_table_names()
        for table, columns in ADDED_IN_7.items():
            names = [c["name"] for c in sa.inspect(conn).get_columns(table)]
            assert names[-len(columns):] == list(columns), names
            rows = conn.execute(sa.text(f"SELECT {', '.join(columns)} FROM {table}")).all()
            assert len(rows) == held[table] > 0 and all(v is None for r in rows for v in r)
    engine.dispose()


def test_every_version_is_declared_once_and_in_order() -> None:
    """The store's history is a declaration: a version missing or out of order would leave an
    older store without the steps that version's change needs."""
    from server.store.migrations import MIGRATIONS

    assert [m.version for m in MIGRATIONS] == list(range(1, schema.SCHEMA_VERSION + 1))
    assert all(m.changes for m in MIGRATIONS)
