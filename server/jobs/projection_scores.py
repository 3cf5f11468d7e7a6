"""``python -m server evaluate --projections``: were the season projections any good?

On the real seasons in the store, as of a fixed day (1 July for MLB; mid-season, the day by which
half the regular-season games were played, for the others), the projected final wins are
compared with the actual by root mean squared error, next to two baselines: the current winning
pace (wins per game so far times the season's games) and .500 for the games left. The playoff
probabilities are scored by Brier score against who made the playoff (a team that played a
postseason game beyond the play-in), next to the constant share of teams that make it.

One season of 30 teams is a small sample: each line says how far the model is from the pace with
a paired bootstrap interval over the teams (NBA 2022-23's 0.1 win behind the pace sits inside
one that spans about 1.4 wins), and the report closes with every completed real season in the
store scored the same way: how often the projections beat each baseline, and the mean RMSE of
each.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import numpy as np
import sqlalchemy as sa

from server.catalog import phases
from server.catalog.sources import SIMULATED
from server.catalog.levels import find_level
from server.errors import UserError
from server.jobs import projections
from server.models.metrics import rmse, rmse_gap
from server.store import schema

EVAL_SIMS = 5_000
RECORD_SIMS = 1_000  # per season of the record: the projected means move by < 0.1 win
# The real seasons scored by default: (level, season); MLB on 1 July, others at mid-season.
SCORED = (("MLB", 2022), ("MLB", 2023), ("NBA", 2023), ("NHL", 2023))
MLB_DAY = (7, 1)


@dataclass(frozen=True)
class Score:
    level: str
    season: int
    day: dt.date
    teams: int
    rmse: float
    rmse_pace: float
    rmse_500: float
    pace_gap: tuple[float, float, float]  # RMSE(model) - RMSE(pace), its 90% bootstrap interval
    brier: float | None
    brier_base: float | None


def as_of_day(conn: sa.Connection, level: str, season: int) -> dt.date:
    """1 July for MLB; else the first day by whose end half the regular-season finals were
    played."""
    days = projections.game_days(conn, level, season)
    if not days:
        raise UserError(f"no regular-season finals for {level} {season}")
    if level == "MLB":
        cut = dt.date(season, *MLB_DAY)
        return max(d for d in days if d <= cut)
    g = schema.games.c
    rows = conn.execute(sa.select(g.game_day).where(
        g.level == level, g.season == season, g.phase == phases.REGULAR, g.state == "final")
        .order_by(g.game_day)).all()
    return rows[len(rows) // 2][0]  # type: ignore[no-any-return]


def _playoff_teams(conn: sa.Connection, level: str, season: int) -> set[int]:
    g = schema.games.c
    rows = conn.execute(sa.select(g.home_id, g.visitor_id).where(
        g.level == level, g.season == season, g.phase == phases.POSTSEASON)).all()
    return {t for r in rows for t in r}


def score(conn: sa.Connection, level: str, season: int, sims: int = EVAL_SIMS) -> Score:
    """The projection as of ``as_of_day`` against the season's outcome and both baselines."""
    day = as_of_day(conn, level, season)
    rows = projections.project_days(conn, level, season, [day], sims)
    games = projections.read_season(conn, level, season)
    final = games[games["final"]]
    teams = rows["team_id"].to_numpy(np.int64)
    total = np.array([((final["home"] == t) | (final["visitor"] == t)).sum() for t in teams])
    actual = np.array([((final["home"] == t) & (final["score_home"] > final["score_vis"])).sum()
                       + ((final["visitor"] == t) & (final["score_vis"] > final["score_home"])).sum()
                       for t in teams], dtype=float)
    w, lo, ti = (rows[c].to_numpy(float) for c in ("wins", "losses", "ties"))
    played = w + lo + ti
    pace = np.where(played > 0, w / np.maximum(played, 1) * total, total / 2)
    half = w + 0.5 * (total - played)
    proj = rows["proj_wins"].to_numpy(float)
    made = _playoff_teams(conn, level, season)
    brier = brier_base = None
    probs = rows["playoff_prob"]
    if made and probs.notna().all():
        y = np.array([t in made for t in teams], dtype=float)
        p = probs.to_numpy(float)
        brier = float(np.mean((p - y) ** 2))
        brier_base = float(np.mean((y.mean() - y) ** 2))
    return Score(level, season, day, len(teams), rmse(proj, actual), rmse(pace, actual),
                 rmse(half, actual), rmse_gap(proj, pace, actual), brier, brier_base)


def real_seasons(conn: sa.Connection, level: str) -> list[int]:
    """The level's completed seasons from real sources (not simulated), oldest first."""
    g = schema.games.c
    # a season whose source stops early (games without a result) is not complete
    left = sa.func.sum(sa.case((g.state.in_(("scheduled", "inprogress", phases.NO_RESULT)), 1),
                               else_=0))
    finals = sa.func.sum(sa.case((g.state == "final", 1), else_=0))
    rows = conn.execute(sa.select(g.season).where(
        g.level == level, g.phase == phases.REGULAR, g.source != SIMULATED)
        .group_by(g.season).having(sa.and_(left == 0, finals > 0)).order_by(g.season)).all()
    return [int(r[0]) for r in rows]


def record(conn: sa.Connection, level: str, sims: int = RECORD_SIMS) -> str | None:
    """One line: every completed real season of ``level`` scored as ``score`` does, with how
    many the projections win against each baseline. None when the level has none."""
    scores = [score(conn, level, s, sims) for s in real_seasons(conn, level)]
    if not scores:
        return None
    model = np.array([x.rmse for x in scores])
    pace = np.array([x.rmse_pace for x in scores])
    half = np.array([x.rmse_500 for x in scores])
    return (f"{level}, every real season ({scores[0].season}-{scores[-1].season}, {len(scores)}): "
            f"beats the pace in {int((model < pace).sum())}, .500 in {int((model < half).sum())}; "
            f"mean RMSE {model.mean():.2f} (pace {pace.mean():.2f}, .500 {half.mean():.2f})")


def report(conn: sa.Connection, level: str | None = None, season: int | None = None) -> str:
    """The scores of ``SCORED`` (or of one level and season) as text."""
    if level is not None:
        lv = find_level(level)
        if lv is None:
            raise UserError(f"unknown level {level!r}")
        if lv.sport == "soccer":  # league tables: positions, title and relegation
            from server.jobs import football_projection_scores

            return football_projection_scores.report(conn, season)
        if season is None:
            raise UserError("--projections with --level needs --season")
        wanted: tuple[tuple[str, int], ...] = ((lv.code, season),)
    else:
        held = {(r[0], r[1]) for r in conn.execute(
            sa.select(schema.games.c.level, schema.games.c.season).distinct())}
        wanted = tuple(x for x in SCORED if x in held)
        if not wanted:
            raise UserError("none of the real seasons scored (MLB 2022-2023, NBA and NHL "
                            "2022-23) is in the store")
    lines = [("season projections: projected final wins (RMSE, wins) against the pace and "
              ".500 baselines; playoff probability (Brier) against the share that make it")]
    for code, s in wanted:
        r = score(conn, code, s)
        gap, low, high = r.pace_gap
        text = (f"{r.level} {r.season} as of {r.day} ({r.teams} teams): RMSE {r.rmse:.2f} "
                f"(pace {r.rmse_pace:.2f}, .500 {r.rmse_500:.2f}; against the pace {gap:+.2f}, "
                f"90% of resampled teams {low:+.2f} to {high:+.2f})")
        if r.brier is not None and r.brier_base is not None:
            text += f"; playoff Brier {r.brier:.4f} (constant {r.brier_base:.4f})"
        lines.append(text)
    if level is None:
        levels = dict.fromkeys(code for code, _ in SCORED)
        levels.update(dict.fromkeys(sorted(r[0] for r in conn.execute(
            sa.select(schema.games.c.level).where(
                schema.games.c.source != SIMULATED).distinct()))))
        lines += [line for code in levels if (line := record(conn, code)) is not None]
    return "\n".join(lines)
