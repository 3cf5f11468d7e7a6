"""Lahman ingest: career spans, one ID per player across sources, idempotent re-runs."""
from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
import sqlalchemy as sa

from server.ingest import lahman
from server.ingest.retrosheet.load import ingest_path
from server.store import schema
from server.store.engine import make_engine
from server.store.init import init_store
from tests.fixtures.digest import store_checksum
from tests.server.ingest.retrosheet.test_load import write_season


def _engine(path: Path) -> sa.Engine:
    engine = make_engine(f"sqlite:///{path}")
    init_store(engine)
    return engine


@pytest.fixture(scope="module")
def tables() -> dict[str, pd.DataFrame]:
    return lahman._tables()


def _subset(tables: dict[str, pd.DataFrame], players: set[str]) -> dict[str, pd.DataFrame]:
    """Only these players (and every team and park), for quick linking tests."""
    out = dict(tables)
    for name in ("people", "batting", "pitching", "fielding"):
        out[name] = tables[name][tables[name]["playerID"].isin(players)]
    return out


@pytest.fixture(scope="module")
def full(tmp_path_factory: pytest.TempPathFactory, tables: dict[str, pd.DataFrame]) -> sa.Engine:
    engine = _engine(tmp_path_factory.mktemp("lahman") / "store.db")
    lahman.ingest(engine, tables)
    return engine


def _career(engine: sa.Engine, player_id: int) -> tuple[int, int]:
    ps = schema.player_seasons.c
    with engine.connect() as conn:
        lo, hi = conn.execute(sa.select(sa.func.min(ps.season), sa.func.max(ps.season))
                              .where(ps.player_id == player_id)).one()
    return lo, hi


def _player_id(engine: sa.Engine, key: str, source: str) -> int | None:
    sk = schema.source_keys.c
    with engine.connect() as conn:
        return conn.execute(sa.select(sk.id).where(sk.kind == "player", sk.source == source,
                                                   sk.key == key)).scalar()


@pytest.mark.slow
def test_jeter_career_span(full: sa.Engine) -> None:
    pid = _player_id(full, "jeterde01", "lahman")
    assert pid is not None and pid == _player_id(full, "jeted001", "retrosheet")
    assert _career(full, pid) == (1995, 2014)
    with full.connect() as conn:
        jeter = conn.execute(sa.select(schema.players).where(schema.players.c.id == pid)).one()
        assert jeter.name == "Derek Jeter" and str(jeter.debut) == "1995-05-29"
        stats = conn.execute(sa.select(schema.player_seasons.c.stats).where(
            schema.player_seasons.c.player_id == pid,
            schema.player_seasons.c.season == 1999)).scalar()
    assert stats["H"] == 219 and stats["HR"] == 24
    assert stats["G"] == 158  # games, shown where a season has no game lines
    with full.connect() as conn:
        pedro = conn.execute(sa.select(schema.player_seasons.c.stats).where(
            schema.player_seasons.c.player_id == _player_id(full, "martipe02", "lahman"),
            schema.player_seasons.c.season == 2000)).scalar()
    assert (pedro["K"], pedro["HRA"], pedro["BBA"], pedro["HBPA"]) == (284, 17, 32, 14)  # FIP's


@pytest.mark.slow
def test_seasons_and_teams(full: sa.Engine) -> None:
    with full.connect() as conn:
        seasons = conn.execute(sa.text(
            "select min(season), max(season), count(*) from seasons where source = 'lahman'")).one()
        assert tuple(seasons) == (1871, 2020, 150)
        nyy = conn.execute(sa.text(
            "select ts.wins, ts.losses, ts.batting_park_factor, ts.pitching_park_factor "
            "from team_seasons ts join teams t on t.id = ts.team_id "
            "where t.abbrev = 'NYA' and ts.season = 1998")).one()
        # Lahman's BPF and PPF of the 1998 Yankees (Teams.csv), which OPS+ and ERA+ read
        assert tuple(nyy) == (114, 48, 97, 95)


@pytest.mark.slow
def test_rerun_changes_nothing(full: sa.Engine, tables: dict[str, pd.DataFrame]) -> None:
    before = store_checksum(full)
    lahman.ingest(full, tables)
    assert store_checksum(full) == before


def test_one_id_when_retrosheet_runs_first(tmp_path: Path,
                                           tables: dict[str, pd.DataFrame]) -> None:
    engine = _engine(tmp_path / "a.db")
    ingest_path(engine, write_season(tmp_path / "season"))
    retro = _player_id(engine, "judga001", "retrosheet")
    lahman.ingest(engine, _subset(tables, {"judgeaa01", "jeterde01"}))
    assert _player_id(engine, "judgeaa01", "lahman") == retro
    with engine.connect() as conn:  # Retrosheet's row is kept, not overwritten
        assert conn.execute(sa.select(schema.players.c.source).where(
            schema.players.c.id == retro)).scalar() == "retrosheet"


def test_one_id_when_lahman_runs_first(tmp_path: Path, tables: dict[str, pd.DataFrame]) -> None:
    engine = _engine(tmp_path / "b.db")
    lahman.ingest(engine, _subset(tables, {"judgeaa01"}))
    first = _player_id(engine, "judgeaa01", "lahman")
    ingest_path(engine, write_season(tmp_path / "season"))
    assert _player_id(engine, "judga001", "retrosheet") == first
    with engine.connect() as conn:
        assert conn.execute(sa.text("select count(*) from players where name = 'Aaron Judge'")
                            ).scalar() == 1
