"""Realism of a full-size build of the major levels: scoring, home advantage and draws in the
ranges of the real leagues (slow: thousands of games).

Two seasons per level (``demo --seasons 2``), not the full size's four: at the build clock (late
November) that is two whole MLB seasons and, for the winter sports, one whole season and the
current one's first weeks - thousands of games a level, the same checks at half the build."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from tests.server.ingest.simulator.conftest import build_store

pytestmark = pytest.mark.slow
SEASONS = 2


@pytest.fixture(scope="module")
def full_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[sa.Engine]:
    path: Path = tmp_path_factory.mktemp("simfull") / "full.db"
    engine = build_store(path, size="full", levels="MLB,NBA,NHL,FC", seasons=SEASONS)
    yield engine
    engine.dispose()


def _level(engine: sa.Engine, level: str) -> tuple[float, float, float, int]:
    with engine.connect() as conn:
        row = conn.execute(sa.text(
            "SELECT avg(score_vis + score_home) / 2.0, avg(score_home > score_vis), "
            "avg(score_home = score_vis), count(*) FROM games "
            "WHERE level = :l AND state = 'final' AND playoff IS NULL"), {"l": level}).one()
    return float(row[0]), float(row[1]), float(row[2]), int(row[3])


def test_mlb(full_store: sa.Engine) -> None:
    per_team, home, _, n = _level(full_store, "MLB")
    assert n >= 2 * 2430
    assert 4.2 <= per_team <= 4.9
    assert 0.51 <= home <= 0.56


def test_nba(full_store: sa.Engine) -> None:
    per_team, home, _, n = _level(full_store, "NBA")
    assert n >= 1230
    assert 108 <= per_team <= 117
    assert 0.54 <= home <= 0.61


def test_nhl(full_store: sa.Engine) -> None:
    per_team, home, _, n = _level(full_store, "NHL")
    assert n >= 1312
    assert 2.8 <= per_team <= 3.4
    assert 0.51 <= home <= 0.58


def test_fc(full_store: sa.Engine) -> None:
    per_team, _, draws, n = _level(full_store, "FC")
    assert n >= 500
    assert 1.2 <= per_team <= 1.6
    assert 0.2 <= draws <= 0.3


def test_pitches_per_plate_appearance(full_store: sa.Engine) -> None:
    with full_store.connect() as conn:
        pitches = conn.execute(sa.text("SELECT count(*) FROM pitches WHERE level='MLB'")).scalar_one()
        pas = conn.execute(sa.text(
            "SELECT count(*) FROM plays WHERE level='MLB' AND id IN (SELECT DISTINCT play_id FROM pitches)"
        )).scalar_one()
    assert 3.6 <= pitches / pas <= 4.1


def test_the_build_holds_the_seasons_asked_for(full_store: sa.Engine) -> None:
    with full_store.connect() as conn:
        held = dict(conn.execute(sa.text(
            "SELECT level, count(DISTINCT season) FROM games GROUP BY level")).all())
    assert held == dict.fromkeys(("MLB", "NBA", "NHL", "FC"), SEASONS)
