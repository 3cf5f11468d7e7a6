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
    # each final game's (season, phase) as a group number, read by game for plays and games
    keys = final["season"].astype(str).to_numpy(object) + "|" + final["phase"].astype(str)
    codes, labels = pd.factorize(keys)
    group = pd.Series(codes, index=final["game_id"].to_numpy())
    chance = scored["wp_home"].to_numpy(float) \
        + 0.5 * np.nan_to_num(scored["wp_draw"].to_numpy(float))
    of_play = scored["game_id"].to_numpy()
    with_line = group.index[group.index.isin(np.unique(game))]
    pre = prior.reindex(with_line).to_numpy(float)
    known = ~np.isnan(pre)
    frames = []
    for forecast, p, y, g in (
            (INGAME, chance, outcome.reindex(of_play).to_numpy(float),
             group.reindex(of_play).to_numpy()),
            (PREGAME, pre[known], outcome.reindex(with_line).to_numpy(float)[known],
             group.reindex(with_line).to_numpy()[known])):
        sums = metrics.calibration_sums(p, y, group=g, groups=len(labels))
        held = sums.groupby("group")["count"].transform("sum") > 0  # groups with forecasts
        season_phase = [str(label).split("|") for label in labels]
        sums = sums[held].assign(
            season=[int(season_phase[k][0]) for k in sums.loc[held, "group"]],
            phase=[season_phase[k][1] for k in sums.loc[held, "group"]], forecast=forecast)
        frames.append(sums)
    return pd.concat(frames, ignore_index=True)[COLUMNS]
