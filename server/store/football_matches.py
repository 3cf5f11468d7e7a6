"""Football's league-round matches with their three-outcome chances, as the store holds them:
ours (``forecasts.elo_*_prob``) and a comparison forecaster's (``comparison_forecasts``), for
``evaluate --level FC`` (``server.jobs.football_scores``) and the ``outcomes`` endpoint alike.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import sqlalchemy as sa

from server.catalog import forecasters
from server.catalog.phases import REGULAR
from server.store import schema


def matches(conn: sa.Connection, level: str, season: int, forecaster: str | None
            ) -> pd.DataFrame:
    """One row per final league-round match of the season with our chances (and, with
    ``forecaster``, only those it gave chances for too): league ID and name, final score, our
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
    return df


def chances(df: pd.DataFrame, who: str) -> np.ndarray:
    """(n, 3) chances of ``who`` ("ours" or "theirs") in the order home, draw, away."""
    return df[[f"{who}_home", f"{who}_draw", f"{who}_away"]].to_numpy(float)


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
