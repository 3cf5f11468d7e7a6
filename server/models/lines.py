"""Forecast fields from bookmaker lines: over/under, money line and spread.

Pure functions of a DataFrame of odds snapshots (``schema.odds``: one "open" row about 24 h
before the start and one "close" row at the start) joined to final scores. Conventions:
American money lines (negative = favourite; -150 means stake 150 to win 100); the spread is the
home team's (negative = home favoured), so the home side covers when
``score_home + spread > score_vis``.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

LINE_COLUMNS = ("game_id", "over_under", "over_under_result", "vis_ml", "home_ml", "ml_drift",
                "ml_movement", "ml_correct", "spread", "favourite", "spread_correct")
TOWARD_HOME, TOWARD_VISITOR, NO_MOVE = "Toward home", "Toward visitor", "None"
# A result field before the game is final (None as a 0-d object array: numpy's typed
# ``np.where`` takes arrays, and this gives the same object array a bare None does).
_UNDECIDED = np.array(None, dtype=object)


def implied_probability(american: float) -> float:
    """Win probability implied by an American money line, vig included.
    -150 -> 150/250 = 0.6; +135 -> 100/235 = 0.4255. NaN for a missing line."""
    if american is None or math.isnan(american) or american == 0:
        return float("nan")
    return -american / (-american + 100.0) if american < 0 else 100.0 / (american + 100.0)


def movement(open_home: float, close_home: float) -> str:
    """Which way the market moved: a home line whose implied probability rose moved toward
    home. American lines are not monotone across +/-100, so compare implied probabilities."""
    po, pc = implied_probability(open_home), implied_probability(close_home)
    if not (np.isfinite(po) and np.isfinite(pc)) or pc == po:
        return NO_MOVE
    return TOWARD_HOME if pc > po else TOWARD_VISITOR


def line_fields(odds: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """One row per game that has a closing (or only an opening) line, ``LINE_COLUMNS``.

    ``odds``: game_id, taken ("open"/"close"), vis_ml, home_ml, spread, total.
    ``games``: game_id, home, visitor, score_home, score_vis (NaN when not final).
    Result fields (over_under_result, ml_correct, spread_correct) are None until final;
    ml_correct is None when the closing lines are level (no favourite) or the game is a draw.
    """
    if odds.empty:
        return pd.DataFrame(columns=list(LINE_COLUMNS))
    op = odds[odds["taken"] == "open"].set_index("game_id")
    cl = odds[odds["taken"] == "close"].set_index("game_id")
    cl = pd.concat([cl, op[~op.index.isin(cl.index)]])  # no close: the open line stands
    g = games.set_index("game_id").reindex(cl.index)
    sh, sv = g["score_home"].to_numpy(float), g["score_vis"].to_numpy(float)
    final = np.isfinite(sh) & np.isfinite(sv)
    total = cl["total"].to_numpy(float)
    ou = np.where(sh + sv > total, "Over", np.where(sh + sv < total, "Under", "Push"))
    ou_res = np.where(final & np.isfinite(total), ou, _UNDECIDED)
    hml = cl["home_ml"].to_numpy(float)
    vml = cl["vis_ml"].to_numpy(float)
    open_hml = op["home_ml"].reindex(cl.index).to_numpy(float)
    drift = hml - open_hml
    moves = [movement(o, c) for o, c in zip(open_hml, hml)]
    ph = np.array([implied_probability(x) for x in hml])
    pv = np.array([implied_probability(x) for x in vml])
    has_fav = np.isfinite(ph) & np.isfinite(pv) & (ph != pv)
    ml_ok = np.where(ph > pv, sh > sv, sv > sh)
    ml_correct = np.where(final & has_fav & (sh != sv), ml_ok, _UNDECIDED)
    spread = cl["spread"].to_numpy(float)
    home_fav = spread < 0
    has_spread = np.isfinite(spread) & (spread != 0)
    fav = np.where(home_fav, g["home"].to_numpy(), g["visitor"].to_numpy())
    margin = sh + spread - sv  # > 0: home covered; 0: push
    covered = np.where(home_fav, margin > 0, margin < 0)
    spread_ok = np.where(final & has_spread & (margin != 0), covered, _UNDECIDED)
    return pd.DataFrame({
        "game_id": cl.index.to_numpy(), "over_under": total, "over_under_result": ou_res,
        "vis_ml": _ints(vml), "home_ml": _ints(hml), "ml_drift": _ints(drift), "ml_movement": moves,
        "ml_correct": ml_correct, "spread": spread,
        "favourite": pd.array(np.where(has_spread, fav, np.nan)).astype("Int64")
        if len(fav) else pd.array([], dtype="Int64"),
        "spread_correct": spread_ok,
    })


def _ints(values: np.ndarray) -> list[int | None]:
    return [int(x) if np.isfinite(x) else None for x in values]
