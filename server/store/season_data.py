"""Which kinds of data each season holds, kept beside the data: the seasons list's
``Granularity``.

Asked per request, each flag was an EXISTS per season over a table of up to millions of rows.
PostgreSQL, expecting a match at once, scanned the table for every season that has none: the
real store's ``/v1/seasons/FC/`` (155 seasons, most without player lines or pitches) took 2.3 s
and ``/v1/seasons/MLB/`` 2.0 s, answered 503 at the 1 s query limit, for a script's first call.
Kept, a flag is read with its season's key. Every ingest refreshes the levels it wrote in its
own transaction (``server.store.loader.loading``; the simulator's parallel build after its
copy), and ``init`` fills the seasons of a store that has no row for them yet.

Kept the same way, in the same pass (``season_rows``): how many games, plays and pitches each
season holds, a plain list's total (``kept_total``). Counted per request, every pitch of MLB (the
list a stranger calls first, 2.2 million rows) took 78-85 ms on SQLite and 0.95-1.7 s on
PostgreSQL, a 503 at the 1 s query limit in one try of a fresh server.
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


# the kinds whose rows a season counts (``season_rows``): the table, and whether it is reached
# through its game (the endpoints list them by their game's level and season)
COUNTED: dict[str, tuple[sa.Table, bool]] = {
    "games": (schema.games, False),
    "plays": (schema.plays, True),
    "pitches": (schema.pitches, True),
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


def _rows_by_season(conn: sa.Connection, kind: str, level: str) -> dict[int, int]:
    """The level's rows of this kind per season of their game, seasons without any left out:
    the level's games, each one's rows counted through its index."""
    table, via_game = COUNTED[kind]
    g = schema.games.c
    query = sa.select(g.season, sa.func.count()).where(g.level == level).group_by(g.season)
    if via_game:
        query = query.select_from(table.join(schema.games, g.id == table.c.game_id))
    return {int(season): int(n) for season, n in conn.execute(query)}


def refresh(conn: sa.Connection, levels: Iterable[str]) -> None:
    """Every season of these levels counted afresh (a level's rows replaced whole)."""
    sd, se, sr = schema.season_data, schema.seasons.c, schema.season_rows
    for level in sorted(set(levels)):
        rows = {kind: _rows_by_season(conn, kind, level) for kind in COUNTED}
        conn.execute(sr.delete().where(sr.c.level == level))
        counted = [{"level": level, "kind": kind, "season": season, "row_count": n}
                   for kind, by_season in rows.items() for season, n in sorted(by_season.items())]
        if counted:
            conn.execute(sr.insert(), counted)
        seasons = conn.execute(sa.select(se.season).where(se.level == level)).scalars().all()
        held = {kind: set(rows[kind]) if kind in COUNTED else _seasons_with(conn, kind, level)
                for kind in KINDS} if seasons else {}
        conn.execute(sd.delete().where(sd.c.level == level))
        if seasons:
            conn.execute(sd.insert(), [{"level": level, "season": season,
                                        **{kind: season in held[kind] for kind in KINDS}}
                                       for season in seasons])


def fill_missing(conn: sa.Connection) -> None:
    """The levels not yet counted (a store from before either table): counted. A level with a
    season and no ``season_data`` row for it, or with games of a season it has no count of."""
    se, sd, g, sr = schema.seasons.c, schema.season_data.c, schema.games.c, schema.season_rows.c
    levels = set(conn.execute(sa.select(se.level).distinct().where(~sa.exists(
        sa.select(1).where(sd.level == se.level, sd.season == se.season)))).scalars())
    seasons = sa.select(g.level, g.season).distinct().subquery()
    levels.update(conn.execute(sa.select(seasons.c.level).distinct().where(~sa.exists(
        sa.select(1).where(sr.level == seasons.c.level, sr.kind == "games",
                           sr.season == seasons.c.season)))).scalars())
    refresh(conn, levels)


_SR = schema.season_rows.c
_KEPT = sa.select(sa.func.coalesce(sa.func.sum(_SR.row_count), 0)).where(
    _SR.level == sa.bindparam("level"), _SR.kind == sa.bindparam("kind"))
_KEPT_SEASON = _KEPT.where(_SR.season == sa.bindparam("season"))


def kept_total(conn: sa.Connection, level: str, kind: str, season: int | None = None) -> int:
    """How many rows of this kind the level holds (in ``season``, when given), as counted by
    the last ingest that wrote the level: one read by key (a statement built once)."""
    if season is None:
        return int(conn.execute(_KEPT, {"level": level, "kind": kind}).scalar() or 0)
    return int(conn.execute(_KEPT_SEASON, {"level": level, "kind": kind, "season": season})
               .scalar() or 0)
