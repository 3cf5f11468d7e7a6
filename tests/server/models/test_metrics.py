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
