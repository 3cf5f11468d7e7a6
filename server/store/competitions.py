"""Which games make a league table: those of a league, never those of a cup.

Football's European cups are stored at the level their clubs play at (FC), with their group
stage and league phase as ``regular`` games (``server.catalog.football.cups``): they are league
rounds of their own competition. A domestic table, and a season projected from it, must not
count them, nor list a club that played only in a cup. The one rule: a game counts in tables
unless its sublevel is a competition whose ``league_type`` is a cup or an international one.
"""
from __future__ import annotations

import sqlalchemy as sa

from server.store import schema

CUP = "Cup"  # sublevels.league_type of a club cup (its group stage is a table of its own)
NOT_A_LEAGUE = (CUP, "International")  # sublevels.league_type of competitions in no league table


def in_league_tables(sublevel_id: sa.ColumnElement[int | None]) -> sa.ColumnElement[bool]:
    """A game's ``sublevel_id`` column -> true where the game counts in a league's table."""
    sl = schema.sublevels.c
    cups = sa.select(sl.id).where(sl.league_type.in_(NOT_A_LEAGUE)).scalar_subquery()
    return sa.or_(sublevel_id.is_(None), sublevel_id.not_in(cups))
