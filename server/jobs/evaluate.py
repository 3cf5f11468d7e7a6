"""``python -m server evaluate --level L --season S``: how good were the ELO win expectations?

Scores the stored forecasts' ``helo_win_exp`` on the level's regular-season final games
(``games.phase`` regular) with Brier score, log loss, accuracy and a 10-bin calibration table,
next to a constant baseline: the home win rate of the level's previous season in the store, or,
when the store holds none, the sport's long-run home win rate (``LONG_RUN_HOME_WIN``). Draws
(soccer) count as half a home win (y = 0.5) in every metric but accuracy, which leaves them out.

Where a source published its own model's chances for the season (``server.catalog.forecasters``:
FiveThirtyEight's NBA Elo and RAPTOR, its NHL Elo, Neil Paine's WNBA Elo), each is scored the
same way on the games it covers, with its calibration and its credit, and the report says in
words which of them ours beats and which it loses to, ours scored on those same games. A football level adds its three outcomes
(home win, draw, away win) scored beside FiveThirtyEight's SPI (``football_scores``).
"""
from __future__ import annotations

import argparse
from collections.abc import Callable

import numpy as np
import sqlalchemy as sa

from server.catalog import forecasters
from server.catalog.phases import REGULAR
from server.catalog.levels import find_level
from server.errors import UserError
from server.jobs import football_scores
from server.models import metrics
from server.store import schema

# Long-run home win fractions (ties as half): MLB 1901-2023 ~.54, NBA ~.60 (2010s ~.58),
# NHL since the shoot-out ~.55, European football ~.45 wins + .26 draws -> ~.58.
LONG_RUN_HOME_WIN = {"baseball": 0.54, "basketball": 0.59, "hockey": 0.55, "soccer": 0.58}


def season_outcomes(conn: sa.Connection, level: str, season: int) -> tuple[np.ndarray, np.ndarray]:
    """(home win expectation, outcome) of the regular-season final games of a season."""
    g, f = schema.games.c, schema.forecasts.c
    rows = conn.execute(
        sa.select(f.helo_win_exp, g.score_home, g.score_vis)
        .join_from(schema.games, schema.forecasts, f.game_id == g.id)
        .where(g.level == level, g.season == season, g.state == "final", g.phase == REGULAR,
               g.score_home.is_not(None), g.score_vis.is_not(None), f.helo_win_exp.is_not(None))
        .order_by(g.game_day, g.id)).all()
    p = np.array([r[0] for r in rows], dtype=float)
    y = np.array([1.0 if r[1] > r[2] else 0.0 if r[1] < r[2] else 0.5 for r in rows])
    return p, y


def comparison_outcomes(conn: sa.Connection, level: str, season: int
                        ) -> tuple[np.ndarray, dict[str, np.ndarray], np.ndarray]:
    """Ours, each comparison forecaster's (by code, in declared order) and the outcomes, on the
    games of ``season_outcomes`` that every such forecaster published a chance for: a verdict
    compares forecasts of the same games (SPI covers ten of FC's leagues, not its cups or
    internationals). A three-outcome forecaster's chance is its expected score, as ours is: home
    win plus half the draw."""
    g, f, c = schema.games.c, schema.forecasts.c, schema.comparison_forecasts.c
    expected = c.home_win_prob + 0.5 * sa.func.coalesce(c.draw_prob, 0.0)
    rows = conn.execute(
        sa.select(g.id, c.forecaster, expected, f.helo_win_exp, g.score_home, g.score_vis)
        .join_from(schema.comparison_forecasts, schema.games, c.game_id == g.id)
        .join(schema.forecasts, f.game_id == g.id)
        .where(g.level == level, g.season == season, g.state == "final", g.phase == REGULAR,
               g.score_home.is_not(None), g.score_vis.is_not(None), f.helo_win_exp.is_not(None))
        .order_by(g.game_day, g.id)).all()
    theirs: dict[str, dict[int, float]] = {}
    games: dict[int, tuple[float, float]] = {}  # game -> (ours, outcome), in game order
    for game, code, chance, ours, home, vis in rows:
        theirs.setdefault(code, {})[game] = chance
        games[game] = (ours, 1.0 if home > vis else 0.0 if home < vis else 0.5)
    codes = [fc.code for fc in forecasters.FORECASTERS if fc.code in theirs]
    shared = [gid for gid in games if all(gid in theirs[code] for code in codes)]
    return (np.array([games[gid][0] for gid in shared], dtype=float),
            {code: np.array([theirs[code][gid] for gid in shared], dtype=float) for code in codes},
            np.array([games[gid][1] for gid in shared]))


def home_win_rate(conn: sa.Connection, level: str, season: int) -> float | None:
    """Regular-season home win fraction of a season (draws as half), None without games."""
    g = schema.games.c
    rows = conn.execute(sa.select(g.score_home, g.score_vis).where(
        g.level == level, g.season == season, g.state == "final", g.phase == REGULAR,
        g.score_home.is_not(None))).all()
    if not rows:
        return None
    return float(np.mean([1.0 if h > v else 0.0 if h < v else 0.5 for h, v in rows]))


def report(conn: sa.Connection, level: str, season: int) -> str:
    lv = find_level(level)
    if lv is None:
        raise UserError(f"unknown level {level!r}")
    p, y = season_outcomes(conn, lv.code, season)
    if not len(p):
        raise UserError(f"no scored regular-season games with forecasts for {lv.code} {season}; "
                        "run `python -m server retabulate` first")
    prev = home_win_rate(conn, lv.code, season - 1)
    base = prev if prev is not None else LONG_RUN_HOME_WIN[lv.sport]
    source = f"{lv.code} {season - 1} home win rate" if prev is not None \
        else f"long-run {lv.sport} home win rate"
    ours, theirs, shared_y = comparison_outcomes(conn, lv.code, season)
    others = {forecasters.FORECASTERS_BY_CODE[code]: chances for code, chances in theirs.items()}
    lines = [f"{lv.code} {season}: ELO win expectations, regular-season final games"]
    scored = [("ELO", p, y), (f"baseline {base:.4f} ({source})", np.full(len(y), base), y),
              *((fc.name, fp, shared_y) for fc, fp in others.items())]
    if others and len(shared_y) != len(y):  # the comparison's games are not all of ours
        scored.append((f"ELO on the same {len(shared_y)} games", ours, shared_y))
    for name, probs, outcomes in scored:
        s = metrics.summary(probs, outcomes)
        lines.append(f"{name}: count {int(s['count'])}  Brier {s['brier']:.4f}  "
                     f"log loss {s['log_loss']:.4f}  accuracy {s['accuracy']:.4f}")
    for fc in others:
        lines.append(f"{fc.name}: {fc.credit}")
    if others:
        lines.append(forecasters.verdict(metrics.brier(ours, shared_y),
                     {fc.name: metrics.brier(fp, shared_y) for fc, fp in others.items()}))
        lines.append(forecasters.verdict(metrics.log_loss(ours, shared_y),
                     {fc.name: metrics.log_loss(fp, shared_y) for fc, fp in others.items()},
                     "log loss"))
    for name, probs, outcomes in (("ELO", p, y), *((fc.name, fp, shared_y)
                                                   for fc, fp in others.items())):
        lines.append(f"calibration ({name}): bin  range       count  mean predicted  observed")
        for r in metrics.calibration(probs, outcomes).itertuples():
            lines.append(f"  {r.bin:>2}  {r.low:.1f}-{r.high:.1f}  {r.count:>6}  "
                         f"{r.mean_predicted:>14.4f}  {r.observed:>8.4f}")
    if lv.sport == "soccer":
        lines.extend(football_scores.report_lines(conn, lv.code, season))
    return "\n".join(lines)


def cli(args: argparse.Namespace, engine_factory: Callable[[], sa.Engine]) -> int:
    if getattr(args, "winprob", None):
        from server.jobs import winprob_scores

        with engine_factory().connect() as conn:
            print(winprob_scores.report(conn, args.winprob, args.season))
        return 0
    if getattr(args, "projections", False):
        from server.jobs import projection_scores

        with engine_factory().connect() as conn:
            print(projection_scores.report(conn, args.level, args.season))
        return 0
    if args.level is None or args.season is None:
        raise UserError("evaluate needs --level and --season (or --projections, or --winprob "
                        "LEVEL)")
    with engine_factory().connect() as conn:
        print(report(conn, args.level, int(args.season)))
    return 0
