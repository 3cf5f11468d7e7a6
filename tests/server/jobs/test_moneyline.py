"""The money-line season record: how often the favourite won, and no record for a season without one."""
from __future__ import annotations

from server.jobs import retabulate
from server.jobs.moneyline import moneyline_season_record


def test_moneyline_season_record(store) -> None:
    engine, _ = store
    retabulate.run(engine, ["MLB"])
    with engine.connect() as conn:
        rec = moneyline_season_record(conn, "MLB", 2024)
        assert set(rec) == {"Season", "Correct", "Wrong", "Percentage"}
        assert rec["Correct"] + rec["Wrong"] > 0
        assert rec["Percentage"] == round(rec["Correct"] / (rec["Correct"] + rec["Wrong"]), 4)
        assert moneyline_season_record(conn, "MLB", 1999)["Percentage"] is None
