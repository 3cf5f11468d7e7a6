"""How well the served win probability line is calibrated, beside the pre-game forecast, stored
by re-tabulation (``winprob_calibration``) for the Forecasts vs outcomes page.

For each season and phase of a level's final games with a line: ten bins of the in-game chance
(``ingame``: the line after every play but a game's last, whose chance is the result itself)
and ten of the same games' pre-game ELO forecast (``pregame``), each with its count and the sums
``server.models.metrics.calibration_sums`` gives, so the endpoint adds phases exactly and the
Brier score and log loss of a season are a division. Both forecasts are scored as the ELO
expectation counts: a draw (soccer's; a tie) is half a home win, and soccer's in-game chance is
its home win chance plus half its draw chance.

The figures describe the line as served: its model is fitted on every season the store holds,
the scored one included, so they are in-sample. ``python -m server evaluate --winprob`` is the
honest, out-of-sample check (fit earlier seasons, score a later one).

Scoring a season's plays when a page asks took 0.82 s on MLB 2023 (220,000 plays); stored, the
answer is a read of at most a few dozen rows.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from server.models import metrics
from server.store.schema import INGAME, PREGAME

COLUMNS = ["season", "phase", "forecast", "bin", "count", "predicted", "observed", "brier",
           "log_loss"]


def compute(lines: pd.DataFrame, games: pd.DataFrame, prior: pd.Series) -> pd.DataFrame:
    """The calibration rows of a level (``COLUMNS``).

    ``lines``: the plays' line from ``winprob_plays.compute`` (game_id, wp_home, wp_draw, in game
    order); ``games``: the level's games as re-tabulation reads them (game_id, season, phase,
    state, score_home, score_vis); ``prior``: the pre-game home win chance by game_id."""
    if lines.empty:
        return pd.DataFrame(columns=COLUMNS)
    final = games[(games["state"] == "final") & games["score_home"].notna()
                  & games["score_vis"].notna()]
    sh, sv = final["score_home"].to_numpy(float), final["score_vis"].to_numpy(float)
    outcome = pd.Series(np.where(sh > sv, 1.0, np.where(sh < sv, 0.0, 0.5)),
                        index=final["game_id"].to_numpy())
    game = lines["game_id"].to_numpy()
    last = np.r_[game[1:] != game[:-1], True]
    scored = lines[~last & pd.Series(game).isin(outcome.index).to_numpy()]
    draw = scored["wp_draw"].to_numpy(float)
    chance = scored["wp_home"].to_numpy(float) + 0.5 * np.nan_to_num(draw)
    of_game = final.set_index("game_id")[["season", "phase"]]
    plays = pd.DataFrame({"game_id": scored["game_id"].to_numpy(), "p": chance})
    plays = plays.join(of_game, on="game_id").assign(y=plays["game_id"].map(outcome))
    pre = of_game.loc[of_game.index.isin(np.unique(game))].copy()
    pre = pre.assign(p=prior.reindex(pre.index).to_numpy(float),
                     y=outcome.reindex(pre.index).to_numpy(float))
    pre = pre[pre["p"].notna()]
    frames = []
    for forecast, rows in ((INGAME, plays), (PREGAME, pre)):
        for _, part in rows.groupby(["season", "phase"], sort=True):
            sums = metrics.calibration_sums(part["p"].to_numpy(float), part["y"].to_numpy(float))
            frames.append(sums.assign(season=int(part["season"].iloc[0]),
                                      phase=str(part["phase"].iloc[0]), forecast=forecast))
    if not frames:
        return pd.DataFrame(columns=COLUMNS)
    return pd.concat(frames, ignore_index=True)[COLUMNS]
