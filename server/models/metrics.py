"""Scores of forecasts: Brier score, log loss, accuracy and a calibration table for
probabilities; RMSE and a paired bootstrap of the RMSE difference for point forecasts.

Pure functions of arrays. ``p`` is the forecast probability of the event (a home win), ``y`` the
outcome: 1 (home win), 0 (home loss) or 0.5 (a draw, scored as half a win, as 538 scores club
soccer draws in its Elo-style accounting).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

LOG_LOSS_EPS = 1e-15  # probabilities are clipped to [eps, 1 - eps] so log loss stays finite
CALIBRATION_BINS = 10
BOOTSTRAP_DRAWS = 10_000  # resamples: the interval's ends move by < 0.02 between seeds
BOOTSTRAP_SEED = 7  # fixed: the same forecasts give the same interval


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


def calibration_sums(p: np.ndarray, y: np.ndarray, bins: int = CALIBRATION_BINS,
                     group: np.ndarray | None = None, groups: int = 1) -> pd.DataFrame:
    """Per equal-width bin (0..bins-1, every bin present) of each group (``group`` 0..groups-1
    per forecast; one group when absent): the count and the sums of the forecasts, the
    outcomes, the squared errors and the negative log-likelihoods (as ``brier`` and
    ``log_loss`` score each forecast). Sums rather than means so that tables of disjoint sets
    of forecasts (a season's phases) add up exactly: a bin's calibration is ``observed /
    count`` against ``predicted / count``, and the set's Brier score the sum of ``brier`` over
    its bins divided by the sum of ``count``."""
    p, y = np.asarray(p, float), np.asarray(y, float)
    idx = np.minimum((p * bins).astype(int), bins - 1)
    if group is not None:
        idx = np.asarray(group, dtype=np.int64) * bins + idx
    cells = bins * groups
    clipped = np.clip(p, LOG_LOSS_EPS, 1 - LOG_LOSS_EPS)
    loss = -(y * np.log(clipped) + (1 - y) * np.log(1 - clipped))
    return pd.DataFrame({
        "group": np.repeat(np.arange(groups), bins), "bin": np.tile(np.arange(bins), groups),
        "count": np.bincount(idx, minlength=cells),
        "predicted": np.bincount(idx, weights=p, minlength=cells),
        "observed": np.bincount(idx, weights=y, minlength=cells),
        "brier": np.bincount(idx, weights=(p - y) ** 2, minlength=cells),
        "log_loss": np.bincount(idx, weights=loss, minlength=cells)})


def summary(p: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """count, brier, log_loss and accuracy in one dict."""
    return {"count": float(len(p)), "brier": brier(p, y), "log_loss": log_loss(p, y),
            "accuracy": accuracy(p, y)}


def rmse(x: np.ndarray, y: np.ndarray) -> float:
    """Root mean squared error of point forecasts ``x`` against outcomes ``y`` (their unit,
    e.g. wins); NaN for empty input."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    return float(np.sqrt(np.mean((x - y) ** 2))) if len(x) else float("nan")


def rmse_gap(a: np.ndarray, b: np.ndarray, y: np.ndarray, level: float = 0.9,
             draws: int = BOOTSTRAP_DRAWS, seed: int = BOOTSTRAP_SEED
             ) -> tuple[float, float, float]:
    """How much better forecast ``a`` is than ``b`` on outcomes ``y``, and how sure that is:
    (RMSE(a) - RMSE(b), and the central ``level`` interval of that difference over ``draws``
    resamples of the items with replacement, both forecasts scored on the same resample).
    Negative means ``a`` is better; an interval that straddles 0 means the items (30 teams, say)
    cannot tell the two apart. Source: B. Efron & R. Tibshirani, *An Introduction to the
    Bootstrap* (1993), the paired percentile interval."""
    a, b, y = (np.asarray(v, float) for v in (a, b, y))
    sq_a, sq_b = (a - y) ** 2, (b - y) ** 2
    picks = np.random.default_rng(seed).integers(0, len(y), (draws, len(y)))
    diffs = np.sqrt(sq_a[picks].mean(axis=1)) - np.sqrt(sq_b[picks].mean(axis=1))
    tail = (1.0 - level) / 2 * 100
    low, high = np.percentile(diffs, [tail, 100 - tail])
    return rmse(a, y) - rmse(b, y), float(low), float(high)
