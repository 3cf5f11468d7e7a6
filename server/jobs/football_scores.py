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
from server.store.competitions import in_league_tables
from server.store.football_matches import chances, matches

MEASURES = (("rps", "RPS"), ("log_loss", "log loss"), ("brier", "Brier"))


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
        in_league_tables(g.sublevel_id), g.score_home.is_not(None), g.score_vis.is_not(None))).all()
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
        df = football.with_outcomes(matches(conn, level, season, fc.code))
        if df.empty:
            continue
        lines.append(f"{level} {season}: three outcomes (home, draw, away), ours (Elo and goals) and "
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

