"""Football's three-outcome forecasts scored beside FiveThirtyEight's SPI, for ``evaluate``.

For a season of a football level: every league match played in league rounds (``games.phase``
regular) that both our Elo (``forecasts.elo_*_prob``) and a three-outcome comparison forecaster
(``server.catalog.forecasters``, ``three_way``) gave chances for, scored by ranked probability
score, log loss and the three-outcome Brier score (``server.models.football``), per league and
over all, with a constant forecast (the previous season's shares of home wins, draws and away
wins) as the floor and a calibration table of the chances pooled over the three outcomes. A
published row whose chances do not add up to exactly 1 (rounded to four places) is scaled to 1
before it is scored. The figures and what they say are in docs/football.md.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import sqlalchemy as sa

from server.catalog import forecasters
from server.catalog.phases import REGULAR
from server.models import football, metrics
from server.store import schema

MEASURES = (("rps", "RPS"), ("log_loss", "log loss"), ("brier", "Brier"))


def matches(conn: sa.Connection, level: str, season: int, forecaster: str | None
            ) -> pd.DataFrame:
    """One row per final league-round match of the season with our chances (and, with
    ``forecaster``, only those it gave chances for too): league ID and name, outcome code, our
    three chances (``ours_*``) and the forecaster's (``theirs_*``, scaled to 1)."""
    g, f, c, s = (schema.games.c, schema.forecasts.c, schema.comparison_forecasts.c,
                  schema.sublevels.c)
    theirs_cols = (c.home_win_prob, c.draw_prob, c.vis_win_prob) if forecaster else ()
    query = (sa.select(s.id, s.name, g.score_home, g.score_vis, f.elo_home_prob,
                       f.elo_draw_prob, f.elo_vis_prob, *theirs_cols)
             .join_from(schema.games, schema.forecasts, f.game_id == g.id))
    if forecaster:
        query = (query.join(schema.comparison_forecasts,
                            sa.and_(c.game_id == g.id, c.forecaster == forecaster))
                 .where(c.draw_prob.is_not(None), c.vis_win_prob.is_not(None)))
    rows = conn.execute(
        query.outerjoin(schema.sublevels, s.id == g.sublevel_id)
        .where(g.level == level, g.season == season, g.state == "final", g.phase == REGULAR,
               g.score_home.is_not(None), g.score_vis.is_not(None),
               f.elo_home_prob.is_not(None))
        .order_by(g.game_day, g.id)).all()
    cols = ["league_id", "league", "score_home", "score_vis", "ours_home", "ours_draw",
            "ours_away"] + (["theirs_home", "theirs_draw", "theirs_away"] if forecaster else [])
    df = pd.DataFrame(rows, columns=cols)
    if forecaster and len(df):
        theirs = df[["theirs_home", "theirs_draw", "theirs_away"]].to_numpy(float)
        df[["theirs_home", "theirs_draw", "theirs_away"]] = theirs / theirs.sum(axis=1,
                                                                                keepdims=True)
    df["outcome"] = football.outcomes(df["score_home"].to_numpy(float),
                                      df["score_vis"].to_numpy(float))
    return df


def chances(df: pd.DataFrame, who: str) -> np.ndarray:
    """(n, 3) chances of ``who`` ("ours" or "theirs") in the order home, draw, away."""
    return df[[f"{who}_home", f"{who}_draw", f"{who}_away"]].to_numpy(float)


def score_table(df: pd.DataFrame) -> pd.DataFrame:
    """Per league and over all (``All``): count and both sides' RPS, log loss and Brier."""
    groups = [*((name, part) for name, part in df.groupby("league", sort=True)), ("All", df)]
    rows = []
    for name, part in groups:
        y = part["outcome"].to_numpy(int)
        ours, theirs = (football.scores(chances(part, w), y) for w in ("ours", "theirs"))
        rows.append({"league": name, "count": len(part),
                     **{f"ours_{k}": ours[k] for k, _ in MEASURES},
                     **{f"theirs_{k}": theirs[k] for k, _ in MEASURES}})
    return pd.DataFrame(rows)


# European league football's long-run shares of home wins, draws and away wins.
LONG_RUN_OUTCOMES = (0.45, 0.26, 0.29)


def outcome_shares(conn: sa.Connection, level: str, season: int) -> tuple[float, float, float] | None:
    """Home-win, draw and away-win shares of a season's final league-round matches; None
    without any."""
    g = schema.games.c
    rows = conn.execute(sa.select(g.score_home, g.score_vis).where(
        g.level == level, g.season == season, g.state == "final", g.phase == REGULAR,
        g.score_home.is_not(None), g.score_vis.is_not(None))).all()
    if not rows:
        return None
    y = football.outcomes(np.array([r[0] for r in rows], float), np.array([r[1] for r in rows], float))
    home, draw, away = (float(np.mean(y == code)) for code in (football.HOME, football.DRAW,
                                                                football.AWAY))
    return home, draw, away


def _baseline_line(conn: sa.Connection, level: str, season: int, df: pd.DataFrame) -> str:
    """The same matches scored with one constant forecast: the previous season's shares in the
    store, else the long-run ones; what a forecast must beat to know anything."""
    shares = outcome_shares(conn, level, season - 1)
    source = f"{level} {season - 1} shares" if shares is not None else "long-run shares"
    p = np.tile(shares or LONG_RUN_OUTCOMES, (len(df), 1))
    s = football.scores(p, df["outcome"].to_numpy(int))
    return (f"baseline ({source}, home {p[0, 0]:.3f} draw {p[0, 1]:.3f} away {p[0, 2]:.3f}): "
            f"RPS {s['rps']:.4f}  log loss {s['log_loss']:.4f}  Brier {s['brier']:.4f}")


def report_lines(conn: sa.Connection, level: str, season: int) -> list[str]:
    """The three-outcome section of ``evaluate``'s report: nothing where no three-outcome
    forecaster published for the season."""
    lines: list[str] = []
    for fc in forecasters.for_level(level):
        if not fc.three_way:
            continue
        df = matches(conn, level, season, fc.code)
        if df.empty:
            continue
        lines.append(f"{level} {season}: three outcomes (home, draw, away), ours (Elo) and "
                     f"{fc.name} on the same {len(df)} league-round matches; lower is better")
        lines.append(f"  {'league':<28} {'count':>5}  " + "  ".join(
            f"{label + ' ours':>14} {label + ' ' + fc.code:>16}" for _, label in MEASURES))
        for r in score_table(df).itertuples():
            lines.append(f"  {r.league:<28} {r.count:>5}  " + "  ".join(
                f"{getattr(r, 'ours_' + k):>14.4f} {getattr(r, 'theirs_' + k):>16.4f}"
                for k, _ in MEASURES))
        total = score_table(df).iloc[-1]
        for key, label in MEASURES:
            lines.append(forecasters.verdict(float(total[f"ours_{key}"]),
                                             {fc.name: float(total[f"theirs_{key}"])},
                                             f"{label} (three outcomes)"))
        lines.append(_baseline_line(conn, level, season, df))
        for who, name in (("ours", "ELO"), ("theirs", fc.name)):
            p, y = chances(df, who), np.eye(3)[df["outcome"].to_numpy(int)]
            lines.append(f"calibration, three outcomes pooled ({name}): bin  range       count"
                         "  mean predicted  observed")
            for r in metrics.calibration(p.ravel(), y.ravel()).itertuples():
                lines.append(f"  {r.bin:>2}  {r.low:.1f}-{r.high:.1f}  {r.count:>6}  "
                             f"{r.mean_predicted:>14.4f}  {r.observed:>8.4f}")
    return lines


OUTCOME_NAMES = ("home", "draw", "away")  # in the order of the outcome codes


def outcome_calibration(p: np.ndarray, y: np.ndarray) -> pd.DataFrame:
    """Each outcome's calibration (``metrics.calibration``'s ten bins): outcome name, bin, its
    edges, count, mean chance given and how often that outcome happened."""
    frames = [metrics.calibration(p[:, code], (np.asarray(y, dtype=int) == code).astype(float))
              .assign(outcome=name) for code, name in enumerate(OUTCOME_NAMES)]
    return pd.concat(frames, ignore_index=True)


def scored_sets(conn: sa.Connection, level: str, season: int
                ) -> list[tuple[forecasters.Forecaster | None, pd.DataFrame]]:
    """The season's matches to score: per three-outcome forecaster that published for it, the
    matches both gave chances for; when none did, ours alone on every league-round match."""
    sets: list[tuple[forecasters.Forecaster | None, pd.DataFrame]] = []
    for fc in forecasters.for_level(level):
        if fc.three_way:
            df = matches(conn, level, season, fc.code)
            if len(df):
                sets.append((fc, df))
    if not sets:
        df = matches(conn, level, season, None)
        if len(df):
            sets.append((None, df))
    return sets
