"""Scores of probability forecasts: Brier score, log loss, accuracy and a calibration table.

Pure functions of arrays. ``p`` is the forecast probability of the event (a home win), ``y`` the
outcome: 1 (home win), 0 (home loss) or 0.5 (a draw, scored as half a win, as 538 scores club
soccer draws in its Elo-style accounting).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

LOG_LOSS_EPS = 1e-15  # probabilities are clipped to [eps, 1 - eps] so log loss stays finite
CALIBRATION_BINS = 10


def brier(p: np.ndarray, y: np.ndarray) -> float:
    """Mean squared error of the probabilities, in [0, 1]; lower is better.
    Source: G. W. Brier, Monthly Weather Review 78 (1950). NaN for empty input."""
    p, y = np.asarray(p, float), np.asarray(y, float)
    return float(np.mean((p - y) ** 2)) if len(p) else float("nan")


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    """Mean negative log-likelihood (natural log, nats per game); lower is better.
    A draw (y = 0.5) contributes -(ln p + ln(1 - p)) / 2. NaN for empty input."""
    p, y = np.clip(np.asarray(p, float), LOG_LOSS_EPS, 1 - LOG_LOSS_EPS), np.asarray(y, float)
    if not len(p):
        return float("nan")
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def accuracy(p: np.ndarray, y: np.ndarray) -> float:
    """Fraction of decided games whose favourite (p > 0.5 means home) won; draws and p = 0.5
    are excluded. NaN when nothing is left."""
    p, y = np.asarray(p, float), np.asarray(y, float)
    keep = (y != 0.5) & (p != 0.5)
    return float(np.mean((p[keep] > 0.5) == (y[keep] == 1))) if keep.any() else float("nan")


def calibration(p: np.ndarray, y: np.ndarray, bins: int = CALIBRATION_BINS) -> pd.DataFrame:
    """Equal-width probability bins: bin (0..bins-1), lower and upper edge, count, mean
    predicted and observed frequency (NaN for empty bins)."""
    p, y = np.asarray(p, float), np.asarray(y, float)
    idx = np.minimum((p * bins).astype(int), bins - 1)
    rows = []
    for b in range(bins):
        m = idx == b
        rows.append({"bin": b, "low": b / bins, "high": (b + 1) / bins, "count": int(m.sum()),
                     "mean_predicted": float(p[m].mean()) if m.any() else float("nan"),
                     "observed": float(y[m].mean()) if m.any() else float("nan")})
    return pd.DataFrame(rows)


def summary(p: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """count, brier, log_loss and accuracy in one dict."""
    return {"count": float(len(p)), "brier": brier(p, y), "log_loss": log_loss(p, y),
            "accuracy": accuracy(p, y)}
