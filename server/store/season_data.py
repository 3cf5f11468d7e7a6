"""Which kinds of data each season holds, kept beside the data: the seasons list's
``Granularity``.

Asked per request, each flag was an EXISTS per season over a table of up to millions of rows.
PostgreSQL, expecting a match at once, scanned the table for every season that has none: the
real store's ``/v1/seasons/FC/`` (155 seasons, most without player lines or pitches) took 2.3 s
and ``/v1/seasons/MLB/`` 2.0 s, answered 503 at the 1 s query limit, for a script's first call.
Kept, a flag is read with its season's key. Every ingest refreshes the levels it wrote in its
own transaction (``server.store.loader.loading``; the simulator's parallel build after its
copy), and ``init`` fills the seasons of a store that has no row for them yet.
"""
from __future__ import annotations

from collections.abc import Iterable

import sqlalchemy as sa

from server.store import schema

# the kind (a column of season_data) -> its table, and whether it is reached through its game
KINDS: dict[str, tuple[sa.Table, bool]] = {
    "player_lines": (schema.player_lines, False),
    "team_lines": (schema.team_lines, True),
    "plays": (schema.plays, True),
    "pitches": (schema.pitches, True),
    "game_officials": (schema.game_officials, True),
    "odds": (schema.odds, True),
}


def _seasons_with(conn: sa.Connection, kind: str, level: str) -> set[int]:
    """The level's seasons holding rows of this kind: one pass over the level's games (or
    rows), each checked through an index."""
    table, via_game = KINDS[kind]
    if via_game:
        g = schema.games.c
        query = sa.select(g.season).where(
            g.level == level, sa.exists(sa.select(1).where(table.c.game_id == g.id)))
    else:
        query = sa.select(table.c.season).where(table.c.level == level)
    return set(conn.execute(query.distinct()).scalars())


def refresh(conn: sa.Connection, levels: Iterable[str]) -> None:
    """Every season of these levels counted afresh (a level's rows replaced whole)."""
    sd, se = schema.season_data, schema.seasons.c
    for level in sorted(set(levels)):
        seasons = conn.execute(sa.select(se.season).where(se.level == level)).scalars().all()
        held = {kind: _seasons_with(conn, kind, level) for kind in KINDS} if seasons else {}
        conn.execute(sd.delete().where(sd.c.level == level))
        if seasons:
            conn.execute(sd.insert(), [{"level": level, "season": season,
                                        **{kind: season in held[kind] for kind in KINDS}}
                                       for season in seasons])


def fill_missing(conn: sa.Connection) -> None:
    """The levels with a season not yet counted (a store from before the table): counted."""
    se, sd = schema.seasons.c, schema.season_data.c
    levels = conn.execute(sa.select(se.level).distinct().where(~sa.exists(
        sa.select(1).where(sd.level == se.level, sd.season == se.season)))).scalars().all()
    refresh(conn, levels)
