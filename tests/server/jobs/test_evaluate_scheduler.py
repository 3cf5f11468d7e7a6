"""evaluate, the nightly scheduler and the money-line season record."""
from __future__ import annotations

import argparse
import datetime as dt

import pytest

from server.catalog import clock
from server.errors import UserError
from server.jobs import evaluate, retabulate, scheduler
from server.jobs.moneyline import moneyline_season_record


def test_evaluate_report(store, capsys) -> None:
    engine, _ = store
    retabulate.run(engine, ["MLB", "FC"])
    assert evaluate.cli(argparse.Namespace(level="mlb", season=2024), lambda: engine) == 0
    out = capsys.readouterr().out
    assert "MLB 2024" in out and "Brier" in out and "log loss" in out
    assert "baseline" in out and "MLB 2023 home win rate" in out
    assert out.count("0.") > 10 and len([ln for ln in out.splitlines() if ln.startswith("  ")]) == 10
    with engine.connect() as conn:
        first = evaluate.report(conn, "MLB", 2023)
        assert "long-run baseball home win rate" in first
        with pytest.raises(UserError):
            evaluate.report(conn, "NBA", 2024)
        with pytest.raises(UserError):
            evaluate.report(conn, "XYZ", 2024)


def test_levels_in_season_window(store) -> None:
    engine, _ = store
    # synthetic seasons start on April 1st of 2023 and 2024
    assert scheduler.levels_in_season(engine, dt.date(2024, 3, 26)) == ["FC", "MBB", "MLB", "NHL"]
    assert scheduler.levels_in_season(engine, dt.date(2024, 3, 20)) == []
    assert scheduler.levels_in_season(engine, dt.date(2030, 1, 1)) == []


def test_start_scheduler_registers_the_nightly_job(store) -> None:
    engine, _ = store
    sched = scheduler.start_scheduler(engine)
    try:
        job = sched.get_job(scheduler.JOB_ID)
        nxt = job.next_run_time.astimezone(clock.SERVICE_TZ)
        assert (nxt.hour, nxt.minute) == (3, 0)
    finally:
        sched.shutdown(wait=False)
    assert scheduler.nightly(engine) == {}  # today: no synthetic level is in season


def test_moneyline_season_record(store) -> None:
    engine, _ = store
    retabulate.run(engine, ["MLB"])
    with engine.connect() as conn:
        rec = moneyline_season_record(conn, "MLB", 2024)
        assert set(rec) == {"Season", "Correct", "Wrong", "Percentage"}
        assert rec["Correct"] + rec["Wrong"] > 0
        assert rec["Percentage"] == round(rec["Correct"] / (rec["Correct"] + rec["Wrong"]), 4)
        assert moneyline_season_record(conn, "MLB", 1999)["Percentage"] is None
