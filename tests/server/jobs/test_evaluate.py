"""evaluate: a season's forecasts scored against a baseline, and what it cannot score."""
from __future__ import annotations

import argparse

import pytest

from server.errors import UserError
from server.jobs import evaluate, retabulate


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
