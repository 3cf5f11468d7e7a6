"""Known values of the pure transforms behind the forecast and game charts."""
from __future__ import annotations

import math

import pandas as pd
import pytest

from components import analysis


@pytest.mark.parametrize(("line", "expected"), [("+100", 0.5), ("-150", 0.6), ("+150", 0.4), ("abc", math.nan)])
def test_implied_probability(line: str, expected: float) -> None:
    got = analysis.implied_probability(line)
    assert (math.isnan(got) and math.isnan(expected)) or got == pytest.approx(expected)


def test_brier_and_log_loss_known_values() -> None:
    p, y = pd.Series([0.8, 0.3]), pd.Series([1.0, 0.0])
    assert analysis.brier(p, y) == pytest.approx((0.04 + 0.09) / 2)
    assert analysis.log_loss(p, y) == pytest.approx(-(math.log(0.8) + math.log(0.7)) / 2)
    assert math.isnan(analysis.brier(pd.Series(dtype=float), pd.Series(dtype=float)))


def test_calibration_counts_games_per_bin() -> None:
    table = analysis.calibration(pd.Series([0.05, 0.07, 0.95, 1.0]), pd.Series([0.0, 1.0, 1.0, 1.0]))
    assert table["games"].tolist() == [2, 2]
    assert table["observed"].tolist() == [0.5, 1.0]


def test_baseline_never_looks_ahead() -> None:
    assert analysis.home_rate_baseline(pd.Series([1.0, 0.0, 1.0])).tolist() == [0.5, 1.0, 0.5]


def test_line_score_from_detail() -> None:
    table = analysis.line_score_from_detail({"visitor": [0, 1, 2], "home": [1, 0]}, "V", "H")
    assert table["Total"].tolist() == [3, 1]
    assert table.columns.tolist() == ["Team", "1", "2", "3", "Total"]


def test_plate_appearances_sequences() -> None:
    pitches = pd.DataFrame({"ID": [1, 2, 3], "Inning": [1, 1, 1], "Half": ["top"] * 3, "Batter": ["a", "a", "b"],
                            "Number": [1, 2, 1], "Code": ["B", "X", "S"], "Balls": [0, 1, 0], "Strikes": [0, 0, 0]})
    table = analysis.plate_appearances(pitches)
    assert table["Sequence"].tolist() == ["BX", "S"] and table["Pitches"].tolist() == [2, 1]
