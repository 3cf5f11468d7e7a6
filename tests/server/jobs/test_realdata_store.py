"""End to end on real results: FiveThirtyEight NBA/NHL files -> store
-> retabulate -> evaluate. The Brier scores must equal the file-reader ones of
tests/server/models/test_realdata.py (the store path feeds the same model)."""
from __future__ import annotations

from pathlib import Path

import pytest

from server.jobs import evaluate, retabulate
from server.store.engine import make_engine
from server.store.init import init_store
from tests.server.models import realdata
from tests.server.models.test_realdata import ACHIEVED, SLACK, TARGET

pytestmark = [
    pytest.mark.realdata,
    pytest.mark.skipif(not realdata.available(), reason="../shared/data is absent"),
]


def test_nba_and_nhl_through_the_store(tmp_path: Path) -> None:
    fte = pytest.importorskip("server.ingest.fivethirtyeight")
    engine = make_engine(f"sqlite:///{tmp_path / 'real.db'}")
    init_store(engine)
    fte.ingest(engine, realdata.NBA, "NBA")
    fte.ingest(engine, realdata.NHL, "NHL")
    retabulate.run(engine)
    with engine.connect() as conn:
        for level, bound in (("NBA", TARGET["NBA"]), ("NHL", ACHIEVED["NHL"] + SLACK)):
            p, y = evaluate.season_outcomes(conn, level, 2023)
            assert len(p) == {"NBA": 1230, "NHL": 1312}[level]
            brier = float(((p - y) ** 2).mean())
            print(f"{level} 2023 from the store: Brier {brier:.4f}")
            assert brier < bound
    engine.dispose()
