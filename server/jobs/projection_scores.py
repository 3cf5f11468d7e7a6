"""``python -m server evaluate --projections``: were the season projections any good?

On the real seasons in the store, as of a fixed day (1 July for MLB; mid-season, the day by which
half the regular-season games were played, for the others), the projected final wins are
compared with the actual by root mean squared error, next to two baselines: the current winning
pace (wins per game so far times the season's games) and .500 for the games left. The playoff
probabilities are scored by Brier score against who made the playoff (a team that played a
postseason game beyond the play-in), next to the constant share of teams that make it.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import numpy as np
import sqlalchemy as sa

from server.catalog.levels import find_level
from server.errors import UserError
from server.jobs import projections
from server.store import schema

EVAL_SIMS = 5_000
# The real seasons scored by default: (level, season); MLB on 1 July, others at mid-season.
SCORED = (("MLB", 2022), ("MLB", 2023), ("NBA", 2023), ("NHL", 2023))
MLB_DAY = (7, 1)
PLAY_IN = "Play-In"


@dataclass(frozen=True)
class Score:
    level: str
    season: int
    day: dt.date
    teams: int
    rmse: float
    rmse_pace: float
    rmse_500: float
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
        g.level == level, g.season == season, g.playoff.is_(None), g.state == "final")
        .order_by(g.game_day)).all()
    return rows[len(rows) // 2][0]  # type: ignore[no-any-return]


def _playoff_teams(conn: sa.Connection, level: str, season: int) -> set[int]:
    g = schema.games.c
    rows = conn.execute(sa.select(g.home_id, g.visitor_id).where(
        g.level == level, g.season == season, g.playoff.is_not(None), g.playoff != PLAY_IN)).all()
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

    def rmse(x: np.ndarray) -> float:
        return float(np.sqrt(np.mean((x - actual) ** 2)))

    made = _playoff_teams(conn, level, season)
    brier = brier_base = None
    probs = rows["playoff_prob"]
    if made and probs.notna().all():
        y = np.array([t in made for t in teams], dtype=float)
        p = probs.to_numpy(float)
        brier = float(np.mean((p - y) ** 2))
        brier_base = float(np.mean((y.mean() - y) ** 2))
    return Score(level, season, day, len(teams), rmse(rows["proj_wins"].to_numpy(float)),
                 rmse(pace), rmse(half), brier, brier_base)


def report(conn: sa.Connection, level: str | None = None, season: int | None = None) -> str:
    """The scores of ``SCORED`` (or of one level and season) as text."""
    if level is not None:
        lv = find_level(level)
        if lv is None:
            raise UserError(f"unknown level {level!r}")
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
        text = (f"{r.level} {r.season} as of {r.day} ({r.teams} teams): RMSE {r.rmse:.2f} "
                f"(pace {r.rmse_pace:.2f}, .500 {r.rmse_500:.2f})")
        if r.brier is not None and r.brier_base is not None:
            text += f"; playoff Brier {r.brier:.4f} (constant {r.brier_base:.4f})"
        lines.append(text)
    return "\n".join(lines)
