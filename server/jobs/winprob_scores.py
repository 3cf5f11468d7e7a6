"""``python -m server evaluate --winprob LEVEL``: is the in-game win probability any good?

Honest scoring: the model (``server.models.winprob`` for baseball, ``server.models.winprob_clock``
for basketball, hockey and soccer) is learnt from earlier seasons and scored on a later one it
never saw. By default the level's newest season whose plays hold the base-out
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

The clock sports are scored the same way on every play but substitutions, after the play (the
time left and the lead), against a table of the time left in tenths of regulation and the lead;
soccer by its three outcomes. The real NBA and NHL seasons are results files without
play-by-play: there is nothing to learn or score, and the command says so.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import sqlalchemy as sa

from server.catalog.levels import find_level
from server.catalog.simulated import PLANS, SPORTS
from server.errors import UserError
from server.jobs import _frames
from server.models import metrics
from server.models import winprob as wp
from server.models import winprob_clock as wc
from server.store import schema

FIT_SEASONS = 2  # seasons before the scored one the model and the baseline learn from
BASELINE_INNINGS = 10  # the baseline's innings: 1..9 and every extra inning as one
BASELINE_LEAD = 10  # the baseline's leads: -10..10, bigger leads pooled at the ends
CALIBRATION_MIN_COUNT = 1_000  # bins with at least this many plays are held to the tolerance
CALIBRATION_TOLERANCE = 0.03  # |observed - mean predicted| allowed in such a bin


@dataclass(frozen=True)
class Evaluation:
    """The scored season's forecasts (plate appearances, or plays of the clock sports) from the
    model and the baseline, the outcomes, and what they came from."""

    level: str
    fit_seasons: tuple[int, ...]
    season: int
    model: wp.RunModel | None  # baseball's run distributions
    outcome: np.ndarray  # 1 home win, 0 home loss (0.5 a tie or draw), per forecast
    model_p: np.ndarray  # the home side's chance to win
    baseline_p: np.ndarray
    games: int
    model_draw: np.ndarray | None = None  # soccer: the chance of a draw
    baseline_draw: np.ndarray | None = None
    what: str = "plate appearance"  # what one forecast is
    learnt: str = ""  # the clock sports: what the model learnt, in words
    plain_p: np.ndarray | None = None  # the model without the ball or power play (time, lead)


def seasons_with_states(conn: sa.Connection, level: str) -> list[int]:
    """Seasons of a level whose plays hold the base-out state, oldest first."""
    p, g = schema.plays.c, schema.games.c
    return [int(s) for s in conn.execute(
        sa.select(g.season).distinct()
        .join_from(schema.plays, schema.games, g.id == p.game_id)
        .where(g.level == level, p.outs.is_not(None)).order_by(g.season)).scalars()]


def season_plays(conn: sa.Connection, level: str, seasons: list[int],
                 states: tuple[str, ...] = ("final",)) -> pd.DataFrame:
    """Every play of the seasons' games in ``states`` (final ones by default) with its game's
    rules, prior and outcome, and the state it began in (``wp.half_innings``): one row per play,
    in game order. Games whose plays lack the base-out state are left out."""
    plays = _frames.read_plays(conn, level, seasons, states)
    games = _frames.read_winprob_games(conn, level, seasons, states)
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
        return _clock_evaluate(conn, lv.code, lv.sport, season)
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
        test["lead_before"].to_numpy(), last_inning=test["last_inning"].to_numpy())
    base = baseline(fitting[fitting["event"].isin(wp.PLATE_APPEARANCES)], test)
    return Evaluation(level=lv.code, fit_seasons=fit_seasons, season=scored, model=model,
                      outcome=test["home_win"].to_numpy(float), model_p=p, baseline_p=base,
                      games=int(test["game_id"].nunique()))


def home_won(ev: Evaluation) -> np.ndarray:
    """The outcome the home-win chances are calibrated against: soccer's draw is not a win (its
    own chance is scored in the three-way figures); elsewhere a tie counts half."""
    out: np.ndarray = (ev.outcome == 1.0).astype(float) if ev.model_draw is not None \
        else ev.outcome
    return out


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
    head = (f"{ev.level} {ev.season}: in-game win probability, every {ev.what} of "
            f"{ev.games} final games (regular season and postseason), learnt from {fit_text}")
    lines = [head]
    if ev.model is not None:
        re24 = " / ".join(f"{x:.3f}" for x in ev.model.run_expectancy()[[0, 8, 16]])
        lines.append(f"run expectancy learnt (bases empty, 0/1/2 out): {re24}")
        names = ("model (base-out states, ELO prior)", "baseline (inning, half, lead)")
    else:
        lines.append(f"learnt: {ev.learnt}")
        names = ("model (time left, lead, ELO prior)", "baseline (time left, lead)")
    rows = [(names[0], ev.model_p, ev.model_draw), (names[1], ev.baseline_p, ev.baseline_draw)]
    if ev.plain_p is not None:  # basketball's ball, hockey's power play, and without them
        extra = "power play" if "power play" in ev.learnt else "ball"
        names = (f"model (time left, lead, {extra}, ELO prior)", names[1])
        rows = [(names[0], ev.model_p, None), (f"model without the {extra}", ev.plain_p, None),
                rows[1]]
    for name, probs, draw in rows:
        s = metrics.summary(probs, ev.outcome)
        if draw is None:
            lines.append(f"{name}: count {int(s['count'])}  log loss {s['log_loss']:.4f}  "
                         f"Brier {s['brier']:.4f}")
        else:
            loss3, brier3 = three_way(probs, draw, ev.outcome)
            lines.append(f"{name}: count {int(s['count'])}  three-way log loss {loss3:.4f}  "
                         f"Brier {brier3:.4f}")
    won = home_won(ev)
    for name, probs in (("model", ev.model_p), ("baseline", ev.baseline_p)):
        lines.append(f"calibration ({name}, home win): bin  range       count  mean predicted"
                     "  observed")
        for r in metrics.calibration(probs, won).itertuples():
            lines.append(f"  {r.bin:>2}  {r.low:.1f}-{r.high:.1f}  {r.count:>7}  "
                         f"{r.mean_predicted:>14.4f}  {r.observed:>8.4f}")
    misses = calibration_misses(ev.model_p, won)
    lines.append(f"model bins with {CALIBRATION_MIN_COUNT:,}+ plays off by more than "
                 f"{CALIBRATION_TOLERANCE}: {', '.join(map(str, misses)) or 'none'}")
    return "\n".join(lines)


# ------------------------------------------------------------------------ the clock sports

CLOCK_BINS = 10  # the baseline's shares of regulation left: tenths, and the end as its own
CLOCK_LEAD = {"basketball": 20, "hockey": 3, "soccer": 3}  # the baseline's leads, +-


def seasons_with_plays(conn: sa.Connection, level: str) -> list[int]:
    p, g = schema.plays.c, schema.games.c
    return [int(s) for s in conn.execute(
        sa.select(g.season).distinct()
        .join_from(schema.plays, schema.games, g.id == p.game_id)
        .where(g.level == level, g.state == "final").order_by(g.season)).scalars()]


def clock_plays(conn: sa.Connection, level: str, sport: str, seasons: list[int],
                states: tuple[str, ...] = ("final",)) -> pd.DataFrame:
    """Every play but substitutions (which change nothing) of the seasons' games in ``states``
    with its game's prior and outcome, the home lead after it and the share of regulation left
    (the level's periods and their length from the catalog; soccer's clock is the match
    minute)."""
    plays = _frames.read_plays(conn, level, seasons, states)
    games = _frames.read_winprob_games(conn, level, seasons, states)
    df = plays.merge(games, on="game_id", how="inner", sort=False)
    df = df[df["event"] != "substitution"].reset_index(drop=True)
    plan = PLANS.get(level)
    rules = SPORTS[sport]
    periods = (plan.periods if plan and plan.periods else None) or rules.periods
    minutes = (plan.period_minutes if plan and plan.period_minutes else None) \
        or rules.period_minutes
    seconds = wc.clock_seconds(df["clock"].tolist())
    left = wc.time_left(df["period"].to_numpy(), np.nan_to_num(seconds), periods, minutes * 60,
                        rules.ot_minutes * 60, counts_up=sport == "soccer")
    side = np.where(df["team_id"].isna(), 0.0,
                    np.where(df["team_id"] == df["home_id"], 1.0, -1.0))
    ball = wc.possession(df["game_id"].to_numpy(), df["period"].to_numpy(),
                         df["event"].to_numpy(), side, df["points"].to_numpy()) \
        if sport == "basketball" else np.zeros(len(df))
    regulation = periods * minutes * 60
    overtime = df["period"].to_numpy(np.int64) > periods
    pp, pp_state = np.zeros(len(df)), np.zeros(len(df))
    if sport == "hockey":
        elapsed = np.where(overtime, regulation + rules.ot_minutes * 60 - np.nan_to_num(seconds),
                           (1.0 - left) * regulation)
        pp, pp_state = wc.power_play(df["game_id"].to_numpy(), elapsed, df["event"].to_numpy(),
                                     side)
        pp = np.where(overtime, 0.0, pp / regulation)
    return df.assign(lead=(df["score_home"] - df["score_vis"]).to_numpy(np.int64), left=left,
                     overtime=overtime, ball=ball, pp=pp, pp_state=pp_state,
                     regulation_seconds=float(regulation))


def _clock_baseline(fitting: pd.DataFrame, scored: pd.DataFrame, sport: str,
                    outcome: np.ndarray) -> np.ndarray:
    """The time-left/lead table of the fitting plays: the rate of ``outcome`` (one per fitting
    play) in each cell, with one of it and one against added, looked up for the scored plays."""
    span = CLOCK_LEAD[sport]

    def key(df: pd.DataFrame) -> np.ndarray:
        t = np.where(df["left"].to_numpy() <= 0, CLOCK_BINS,
                     np.minimum((df["left"].to_numpy() * CLOCK_BINS).astype(np.int64),
                                CLOCK_BINS - 1))
        lead = np.clip(df["lead"].to_numpy(np.int64), -span, span) + span
        out: np.ndarray = t * (2 * span + 1) + lead
        return out

    cells = (CLOCK_BINS + 1) * (2 * span + 1)
    k = key(fitting)
    hits = np.bincount(k, weights=outcome, minlength=cells)
    seen = np.bincount(k, minlength=cells).astype(float)
    rate: np.ndarray = ((hits + 1.0) / (seen + 2.0))[key(scored)]
    return rate


def clock_fitting_games(conn: sa.Connection, level: str, seasons: list[int],
                        plays: pd.DataFrame) -> pd.DataFrame:
    """The final games of ``seasons`` the clock models learn from (``clock_forecast``), with
    their goals in regulation (the total less the overtime goals of ``plays``, their plays)."""
    games = _frames.read_winprob_games(conn, level, seasons)
    overtime_goals = plays[plays["overtime"]].groupby("game_id")["points"].sum()
    games["regulation_goals"] = games["total"] - games["game_id"].map(overtime_goals).fillna(0)
    return games


def clock_forecast(df: pd.DataFrame, sport: str, fitting_games: pd.DataFrame,
                   fitting_plays: pd.DataFrame | None = None
                   ) -> tuple[np.ndarray, np.ndarray | None, str]:
    """(home win, draw or None, what was learnt) for every play of ``df``. With
    ``fitting_plays`` (``clock_plays`` of the fitting games), basketball also learns what the
    ball is worth and reads who has it after each play, hockey how the power play changes the
    scoring rates and reads each play's power play; without, the model knows the time and the
    lead only."""
    prior = df["helo_win_exp"].to_numpy()
    if sport == "basketball":
        sigma = wc.fit_margin_spread(fitting_games["margin"].to_numpy(),
                                     fitting_games["helo_win_exp"].to_numpy())
        if fitting_plays is None or fitting_plays.empty:
            p = wc.normal_home_win(df["lead"].to_numpy(), df["left"].to_numpy(), prior, sigma)
            return p, None, f"a game's margin spread {sigma:.2f} points"
        f = fitting_plays
        value = wc.fit_possession_value(f["margin"].to_numpy(), f["lead"].to_numpy(),
                                        f["left"].to_numpy(), f["helo_win_exp"].to_numpy(),
                                        f["ball"].to_numpy(), sigma)
        p = wc.normal_home_win(df["lead"].to_numpy(), df["left"].to_numpy(), prior, sigma,
                               ball=df["ball"].to_numpy(), ball_value=value)
        known = float((f["ball"].to_numpy() != 0).mean())
        return p, None, (f"a game's margin spread {sigma:.2f} points; the ball worth "
                         f"{value:.2f} points (known after {known:.0%} of the plays)")
    rate = wc.fit_goal_rate(fitting_games["regulation_goals"].to_numpy())
    games = df.drop_duplicates("game_id")
    shares = pd.Series(wc.rate_share(sport, games["helo_win_exp"].to_numpy(), rate),
                       index=games["game_id"].to_numpy())
    share = df["game_id"].map(shares).to_numpy(float)
    power, learnt = None, f"{rate:.2f} goals a regulation game"
    if sport == "hockey" and fitting_plays is not None and not fitting_plays.empty:
        f = fitting_plays[~fitting_plays["overtime"]]
        goals = f[f["event"] == "goal"]
        on_pp, short = wc.fit_power_play(goals["pp_state"].to_numpy(),
                                         int((f["event"] == "penalty").sum()),
                                         float(f["regulation_seconds"].iloc[0]),
                                         int(f["game_id"].nunique()))
        power = (df["pp"].to_numpy(float), on_pp, short)
        learnt += (f"; a side on the power play scores {on_pp:.2f}x its even-strength rate, "
                   f"short-handed {short:.2f}x")
    win, draw, _ = wc.goal_outcomes(sport, df["lead"].to_numpy(), df["left"].to_numpy(), share,
                                    rate, overtime=df["overtime"].to_numpy(), power=power)
    return win, (draw if sport == "soccer" else None), learnt


def _clock_evaluate(conn: sa.Connection, level: str, sport: str, season: int | None
                    ) -> Evaluation:
    have = seasons_with_plays(conn, level)
    if not have:
        raise UserError(f"{level} has no play-by-play in the store to learn from or score "
                        "(results files carry none)")
    scored = have[-1] if season is None else int(season)
    fit_seasons = tuple(s for s in have if s < scored)[-FIT_SEASONS:]
    if scored not in have or not fit_seasons:
        raise UserError(f"{level} seasons with play-by-play: {', '.join(map(str, have))}; "
                        "scoring needs a season in that list with an earlier one to learn from")
    plays = clock_plays(conn, level, sport, [*fit_seasons, scored])
    fitting = plays[plays["season"] != scored]
    test = plays[plays["season"] == scored]
    games = clock_fitting_games(conn, level, list(fit_seasons), fitting)
    p, draw, learnt = clock_forecast(test, sport, games, fitting)
    plain = clock_forecast(test, sport, games)[0] if sport in ("basketball", "hockey") \
        else None
    y = test["home_win"].to_numpy(float)
    fit_y = fitting["home_win"].to_numpy(float)
    base = _clock_baseline(fitting, test, sport, (fit_y == 1.0).astype(float))
    base_draw = _clock_baseline(fitting, test, sport, (fit_y == 0.5).astype(float)) \
        if sport == "soccer" else None
    if base_draw is not None:  # the two tables' rates of one cell, as shares of three
        away = _clock_baseline(fitting, test, sport, (fit_y == 0.0).astype(float))
        total = base + base_draw + away
        base, base_draw = base / total, base_draw / total
    return Evaluation(level=level, fit_seasons=fit_seasons, season=scored, model=None,
                      outcome=y, model_p=p, baseline_p=base, games=int(test["game_id"].nunique()),
                      model_draw=draw, baseline_draw=base_draw, what="play", learnt=learnt,
                      plain_p=plain)


def three_way(home: np.ndarray, draw: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Log loss and Brier score over soccer's three outcomes (y 1 home, 0.5 draw, 0 away)."""
    away = 1.0 - home - draw
    probs = np.clip(np.stack([home, draw, away], axis=1), metrics.LOG_LOSS_EPS, 1.0)
    hit = np.stack([y == 1.0, y == 0.5, y == 0.0], axis=1).astype(float)
    log_loss = float(-np.mean(np.log((probs * hit).sum(axis=1))))
    brier = float(np.mean(((np.stack([home, draw, away], axis=1) - hit) ** 2).sum(axis=1)))
    return log_loss, brier
