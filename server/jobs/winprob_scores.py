"""``python -m server evaluate --winprob LEVEL``: is the in-game win probability any good?

Honest scoring: the model (``server.models.winprob``) is learnt from earlier seasons and scored
on a later one it never saw. By default the level's newest season whose plays hold the base-out
state is scored (``--season`` picks another) and the up to ``FIT_SEASONS`` seasons before it
are the fitting seasons: for MLB, fit on 2021-2022, score 2023. Every plate appearance of the
scored season's final games, regular season and postseason, is one forecast: the home team's
chance to win from the state in which the plate appearance's deciding play began, against
whether the home team won. The pre-game ELO forecast of each game (the stored forecasts) is the
model's prior.

The baseline knows only the inning, the half and the home lead: the home team's win rate in
each (inning, half, lead) cell of the same fitting seasons' plate appearances (innings past the
ninth pooled, leads beyond ``BASELINE_LEAD`` pooled, each cell's rate with one win and one loss
added so an empty or tiny cell says .5-ish rather than 0 or 1).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import sqlalchemy as sa

from server.catalog.levels import find_level
from server.errors import UserError
from server.jobs import _frames
from server.models import metrics
from server.models import winprob as wp
from server.store import schema

FIT_SEASONS = 2  # seasons before the scored one the model and the baseline learn from
BASELINE_INNINGS = 10  # the baseline's innings: 1..9 and every extra inning as one
BASELINE_LEAD = 10  # the baseline's leads: -10..10, bigger leads pooled at the ends
CALIBRATION_MIN_COUNT = 1_000  # bins with at least this many plays are held to the tolerance
CALIBRATION_TOLERANCE = 0.03  # |observed - mean predicted| allowed in such a bin


@dataclass(frozen=True)
class Evaluation:
    """The scored season's plate appearances with both forecasts, and what they came from."""

    level: str
    fit_seasons: tuple[int, ...]
    season: int
    model: wp.RunModel
    outcome: np.ndarray  # 1 home win, 0 home loss (0.5 a tie), per plate appearance
    model_p: np.ndarray
    baseline_p: np.ndarray
    games: int


def seasons_with_states(conn: sa.Connection, level: str) -> list[int]:
    """Seasons of a level whose plays hold the base-out state, oldest first."""
    p, g = schema.plays.c, schema.games.c
    return [int(s) for s in conn.execute(
        sa.select(g.season).distinct()
        .join_from(schema.plays, schema.games, g.id == p.game_id)
        .where(g.level == level, p.outs.is_not(None)).order_by(g.season)).scalars()]


def season_plays(conn: sa.Connection, level: str, seasons: list[int]) -> pd.DataFrame:
    """Every play of the seasons' final games with its game's rules, prior and outcome, and the
    state it began in (``wp.half_innings``): one row per play, in game order. Games whose plays
    lack the base-out state are left out."""
    plays = _frames.read_plays(conn, level, seasons)
    games = _frames.read_baseball_games(conn, level, seasons)
    df = plays.merge(games, on="game_id", how="inner", sort=False)
    df = df[~df.groupby("game_id")["outs"].transform(lambda s: s.isna().any())]
    halves = wp.half_innings(df["game_id"].to_numpy(), df["period"].to_numpy(),
                             df["bottom"].to_numpy(), df["outs"].to_numpy(np.int64),
                             df["bases"].to_numpy(np.int64), df["score_vis"].to_numpy(),
                             df["score_home"].to_numpy(), df["regulation"].to_numpy(),
                             df["automatic_runner"].to_numpy())
    return df.assign(outs_before=halves.outs, bases_before=halves.bases,
                     lead_before=halves.lead, runs_after=halves.runs_after,
                     half_complete=halves.complete).reset_index(drop=True)


def fit(plays: pd.DataFrame) -> wp.RunModel:
    """The run distributions from the plate appearances of half innings played to their third
    out, leaving out the home team's last at-bats (bottom of the last regulation inning and
    later), whose runs a walk-off cuts short and whose very presence depends on the score."""
    use = plays["event"].isin(wp.PLATE_APPEARANCES) & plays["half_complete"] \
        & ~(plays["bottom"] & (plays["period"] >= plays["regulation"]))
    u = plays[use]
    return wp.fit_runs(wp.state_index(u["outs_before"].to_numpy(), u["bases_before"].to_numpy()),
                       u["runs_after"].to_numpy())


def _baseline_key(plays: pd.DataFrame) -> np.ndarray:
    inning = np.minimum(plays["period"].to_numpy(np.int64), BASELINE_INNINGS) - 1
    lead = np.clip(plays["lead_before"].to_numpy(np.int64), -BASELINE_LEAD, BASELINE_LEAD) \
        + BASELINE_LEAD
    key: np.ndarray = (inning * 2 + plays["bottom"].to_numpy(np.int64)) * (2 * BASELINE_LEAD + 1) \
        + lead
    return key


def baseline(fit_plays: pd.DataFrame, scored: pd.DataFrame) -> np.ndarray:
    """The inning/half/lead table of the fitting plate appearances, looked up for the scored."""
    cells = BASELINE_INNINGS * 2 * (2 * BASELINE_LEAD + 1)
    key = _baseline_key(fit_plays)
    wins = np.bincount(key, weights=fit_plays["home_win"].to_numpy(float), minlength=cells)
    seen = np.bincount(key, minlength=cells).astype(float)
    rate = (wins + 1.0) / (seen + 2.0)
    out: np.ndarray = rate[_baseline_key(scored)]
    return out


def evaluate(conn: sa.Connection, level: str, season: int | None = None) -> Evaluation:
    lv = find_level(level)
    if lv is None:
        raise UserError(f"unknown level {level!r}")
    if lv.sport != "baseball":
        raise UserError(f"the win probability model covers baseball for now; {lv.code} is "
                        f"{lv.sport}")
    have = seasons_with_states(conn, lv.code)
    if not have:
        raise UserError(f"no {lv.code} plays hold the base-out state (outs, runners): ingest "
                        "the level's play-by-play again after `python -m server init`")
    scored = have[-1] if season is None else int(season)
    fit_seasons = tuple(s for s in have if s < scored)[-FIT_SEASONS:]
    if scored not in have or not fit_seasons:
        raise UserError(f"{lv.code} seasons with base-out states: "
                        f"{', '.join(map(str, have))}; scoring needs a season in that list with "
                        "an earlier one to learn from")
    plays = season_plays(conn, lv.code, [*fit_seasons, scored])
    pa = plays[plays["event"].isin(wp.PLATE_APPEARANCES)]
    fitting = plays[plays["season"] != scored]
    model = fit(fitting)
    test = pa[pa["season"] == scored]
    p = wp.home_win_probabilities(
        model, test["helo_win_exp"].to_numpy(), test["regulation"].to_numpy(),
        test["automatic_runner"].to_numpy(), test["period"].to_numpy(), test["bottom"].to_numpy(),
        test["outs_before"].to_numpy(), test["bases_before"].to_numpy(),
        test["lead_before"].to_numpy())
    base = baseline(fitting[fitting["event"].isin(wp.PLATE_APPEARANCES)], test)
    return Evaluation(level=lv.code, fit_seasons=fit_seasons, season=scored, model=model,
                      outcome=test["home_win"].to_numpy(float), model_p=p, baseline_p=base,
                      games=int(test["game_id"].nunique()))


def calibration_misses(p: np.ndarray, y: np.ndarray) -> list[int]:
    """Bins with ``CALIBRATION_MIN_COUNT`` plays or more whose observed rate is farther than
    ``CALIBRATION_TOLERANCE`` from their mean forecast."""
    cal = metrics.calibration(p, y)
    bad = cal[(cal["count"] >= CALIBRATION_MIN_COUNT)
              & ((cal["observed"] - cal["mean_predicted"]).abs() > CALIBRATION_TOLERANCE)]
    return [int(b) for b in bad["bin"]]


def report(conn: sa.Connection, level: str, season: int | None = None) -> str:
    return render(evaluate(conn, level, season))


def render(ev: Evaluation) -> str:
    """The printed report: both forecasts' log loss and Brier score, both calibration tables,
    and the model's bins that miss the tolerance."""
    fit_text = "-".join(str(s) for s in (ev.fit_seasons[0], ev.fit_seasons[-1])) \
        if len(ev.fit_seasons) > 1 else str(ev.fit_seasons[0])
    re24 = " / ".join(f"{x:.3f}" for x in ev.model.run_expectancy()[[0, 8, 16]])
    head = (f"{ev.level} {ev.season}: in-game win probability, every plate appearance of "
            f"{ev.games} final games (regular season and postseason), learnt from {fit_text}")
    lines = [head, f"run expectancy learnt (bases empty, 0/1/2 out): {re24}"]
    for name, probs in (("model (base-out states, ELO prior)", ev.model_p),
                        ("baseline (inning, half, lead)", ev.baseline_p)):
        s = metrics.summary(probs, ev.outcome)
        lines.append(f"{name}: count {int(s['count'])}  log loss {s['log_loss']:.4f}  "
                     f"Brier {s['brier']:.4f}")
    for name, probs in (("model", ev.model_p), ("baseline", ev.baseline_p)):
        lines.append(f"calibration ({name}): bin  range       count  mean predicted  observed")
        for r in metrics.calibration(probs, ev.outcome).itertuples():
            lines.append(f"  {r.bin:>2}  {r.low:.1f}-{r.high:.1f}  {r.count:>7}  "
                         f"{r.mean_predicted:>14.4f}  {r.observed:>8.4f}")
    misses = calibration_misses(ev.model_p, ev.outcome)
    lines.append(f"model bins with {CALIBRATION_MIN_COUNT:,}+ plays off by more than "
                 f"{CALIBRATION_TOLERANCE}: {', '.join(map(str, misses)) or 'none'}")
    return "\n".join(lines)
