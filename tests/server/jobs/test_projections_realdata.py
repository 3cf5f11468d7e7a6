"""Season projections on the real seasons: the postseason formats against who really made it,
and the projections against the pace and .500 baselines (``evaluate --projections``)."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from server.jobs import projection_scores, projections, retabulate
from server.store.engine import make_engine
from server.store.init import init_store
from tests.server.models import realdata

pytestmark = [
    pytest.mark.realdata, pytest.mark.slow, pytest.mark.timeout(1800),  # three Retrosheet seasons
    pytest.mark.skipif(not realdata.available(), reason="../shared/data is absent"),
]


@pytest.fixture(scope="module")
def real_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[sa.Engine]:
    """Retrosheet's seasons and the FiveThirtyEight NBA and NHL 2022-23 results, re-tabulated
    (a few minutes of CPU)."""
    retro = pytest.importorskip("server.ingest.retrosheet.load")
    fte = pytest.importorskip("server.ingest.fivethirtyeight")
    path: Path = tmp_path_factory.mktemp("real-projections") / "real.db"
    engine = make_engine(f"sqlite:///{path}")
    init_store(engine)
    retro.ingest_path(engine, realdata.DATA / "retrosheet")
    fte.ingest(engine, realdata.NBA, "NBA")
    fte.ingest(engine, realdata.NHL, "NHL")
    retabulate.run(engine, ["MLB", "NBA", "NHL"])
    yield engine
    engine.dispose()


@pytest.mark.parametrize("season", [2022, 2023])
def test_final_standings_send_the_real_twelve_mlb_teams(real_store: sa.Engine,
                                                        season: int) -> None:
    """As of the last regular-season day every record is final: the 2022 format must qualify
    exactly the 12 teams that played in that postseason (division winners by the divisions of
    the catalog, wild cards by record), with certainty."""
    with real_store.connect() as conn:
        last = projections.game_days(conn, "MLB", season)[-1]
        rows = projections.project_days(conn, "MLB", season, [last], 500)
        made = projection_scores._playoff_teams(conn, "MLB", season)
    assert len(made) == 12
    sure = set(rows.loc[rows["playoff_prob"] == 1.0, "team_id"])
    assert sure == made
    assert set(rows.loc[rows["playoff_prob"] == 0.0, "team_id"]) == set(rows["team_id"]) - made
    assert rows["bye_prob"].sum() == pytest.approx(4.0)
    assert rows["title_prob"].sum() == pytest.approx(1.0)


@pytest.mark.parametrize("level,season", projection_scores.SCORED)
def test_projections_beat_the_baselines(real_store: sa.Engine, level: str, season: int) -> None:
    with real_store.connect() as conn:
        s = projection_scores.score(conn, level, season)
    print(s)
    assert s.brier is not None and s.brier_base is not None and s.brier < s.brier_base
    assert s.rmse < s.rmse_500
    if level == "MLB":
        assert s.rmse < s.rmse_pace
