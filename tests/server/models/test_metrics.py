from __future__ import annotations

import math

import numpy as np
import pytest

from server.models import metrics


def test_known_values() -> None:
    p, y = np.array([1.0, 0.0, 0.5, 0.5]), np.array([1.0, 0.0, 1.0, 0.0])
    assert metrics.brier(p, y) == pytest.approx(0.125)  # (0 + 0 + .25 + .25) / 4
    assert metrics.log_loss(np.array([0.5]), np.array([1.0])) == pytest.approx(math.log(2))
    assert metrics.accuracy(np.array([0.7, 0.3, 0.6]), np.array([1.0, 1.0, 0.5])) == 0.5
    assert math.isnan(metrics.brier(np.array([]), np.array([])))


def test_draw_log_loss_is_half_each_side() -> None:
    v = metrics.log_loss(np.array([0.8]), np.array([0.5]))
    assert v == pytest.approx(-(math.log(0.8) + math.log(0.2)) / 2)


def test_calibration_bins() -> None:
    cal = metrics.calibration(np.array([0.05, 0.15, 0.95, 1.0]), np.array([0, 1, 1, 1]))
    assert list(cal["count"]) == [1, 1, 0, 0, 0, 0, 0, 0, 0, 2]
    assert cal.loc[9, "mean_predicted"] == pytest.approx(0.975)
    assert cal.loc[9, "observed"] == 1.0


def test_rmse_known_values() -> None:
    assert metrics.rmse(np.array([1.0, 3.0]), np.array([0.0, 0.0])) == pytest.approx(math.sqrt(5))
    assert math.isnan(metrics.rmse(np.array([]), np.array([])))


def test_rmse_gap_tells_a_clear_winner_from_a_coin_flip() -> None:
    rng = np.random.default_rng(1)
    y = rng.normal(41, 10, 30)
    close = y + rng.normal(0, 2, 30)
    far = y + rng.normal(0, 8, 30)
    gap, low, high = metrics.rmse_gap(close, far, y)
    assert gap == pytest.approx(metrics.rmse(close, y) - metrics.rmse(far, y))
    assert low <= gap <= high < 0  # every resample prefers the close forecast
    twin = close + rng.normal(0, 0.5, 30)  # as good as ``close``, up to noise
    gap, low, high = metrics.rmse_gap(close, twin, y)
    assert low < 0 < high
    assert metrics.rmse_gap(far, close, y)[0] == pytest.approx(-metrics.rmse_gap(close, far, y)[0])
