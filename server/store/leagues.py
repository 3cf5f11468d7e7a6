"""Which games make a league table: every game but national teams' matches.

FC's internationals (``server.ingest.football.internationals``) are calendar years of
friendlies, qualifiers and tournaments between nations, played beside the club leagues'
seasons: no standings table and no season projection counts them. They are the games of the
sublevels whose ``league_type`` is International.
"""
from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from server.store import schema

INTERNATIONAL = "International"


def in_league_tables(games: Any) -> sa.ColumnElement[bool]:
    """True for a game a league table counts (``games``: the games table's columns or an
    alias's)."""
    sl = schema.sublevels.c
    return sa.or_(games.sublevel_id.is_(None), games.sublevel_id.not_in(
        sa.select(sl.id).where(sl.league_type == INTERNATIONAL)))
