"""The money-line season record (docs/api/reference.md, moneyline ``season`` object) as one query.

``moneyline_season_record(conn, level, season, team=None)`` counts the stored forecasts'
``ml_correct`` (favourite by the closing line won) over a season's final games, optionally only
games of one team: ``{"Season", "Correct", "Wrong", "Percentage"}``; Percentage is
Correct / (Correct + Wrong) rounded to 4 places, None when no game has a verdict.
"""
from __future__ import annotations

import sqlalchemy as sa

from server.store import schema

PERCENT_DIGITS = 4


def moneyline_season_record(conn: sa.Connection, level: str, season: int,
                            team: int | None = None) -> dict[str, object]:
    f, g = schema.forecasts.c, schema.games.c
    correct = sa.func.sum(sa.case((f.ml_correct.is_(True), 1), else_=0))
    wrong = sa.func.sum(sa.case((f.ml_correct.is_(False), 1), else_=0))
    stmt = (sa.select(correct, wrong)
            .join_from(schema.forecasts, schema.games, f.game_id == g.id)
            .where(f.level == level, f.season == season, f.ml_correct.is_not(None)))
    if team is not None:
        stmt = stmt.where(sa.or_(g.home_id == team, g.visitor_id == team))
    c, w = conn.execute(stmt).one()
    c, w = int(c or 0), int(w or 0)
    return {"Season": season, "Correct": c, "Wrong": w,
            "Percentage": round(c / (c + w), PERCENT_DIGITS) if c + w else None}
