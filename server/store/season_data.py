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
season holds, a plain list's total (``kept_total``, read by ``endpoints.query.run``). Counted per
request, every pitch of MLB (the list a stranger calls first, 2.2 million rows) took 78-85 ms on
SQLite and 0.95-1.7 s on PostgreSQL, a 503 at the 1 s query limit in one try of a fresh server.
The page and its total in one process on the real store, against the code before (2eb1c95),
interleaved rounds, medians (a loaded machine): ``pitch/MLB/`` 109 -> 2.2 ms (SQLite), 270-286
-> 23-24 ms (PostgreSQL); ``pitch/MLB/?season=2023`` 34 -> 1.9 and 168-173 -> 17-19 ms;
``playbyplay/MLB/?season=2023`` 18 -> 2.3 and 146-164 -> 56-59 ms; ``games/FC`` (PostgreSQL)
20-22 -> 8-10 ms; ``boxscores/NBA`` (SQLite, 200 rounds) 2.2 -> 1.7 ms. Served, a fresh server's
first call on PostgreSQL: ``pitch/MLB/`` 342-563 -> 103-156 ms.

And a baseball pitcher's record through each game he had a decision in (``pitcher_records``),
which box scores print (``endpoints.boxscores``). Both cost an ingest one pass of grouped counts
and running sums over each level it wrote: 0.3-1.5 s for MLB's 2.2 million pitches, 0.7 million
plays and 26,189 decisions on SQLite (a loaded machine; the flags alone took 0.01 s), and
``init`` counts the whole real store in 2.3 s.
"""
from __future__ import annotations

from collections.abc import Iterable

import sqlalchemy as sa

from server.catalog.levels import find_level
from server.catalog.linestats import DECISIONS
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


# the decisions a pitcher's record counts: the line's code -> its ``pitcher_records`` column
RECORD_CODES = {"W": "wins", "L": "losses", "SV": "saves", "HLD": "holds"}


def _records(conn: sa.Connection, level: str) -> None:
    """A baseball level's pitchers' records through each game with a decision, afresh: per
    line with one, the running sums of its player's decisions in its season and its game's
    phase, a doubleheader's games in their order."""
    pr, pl, g = schema.pitcher_records, schema.player_lines.c, schema.games.c
    conn.execute(pr.delete().where(pr.c.level == level))
    lv = find_level(level)
    if lv is None or lv.sport not in DECISIONS:
        return
    decided = {code: sa.func.coalesce(pl.stats[code].as_float(), 0) for code in RECORD_CODES}
    part, order = (pl.player_id, pl.season, g.phase), (pl.game_day, g.game_no, pl.game_id)
    lines = (sa.select(pl.id, pl.level, pl.game_id, pl.player_id,
                       *(sa.cast(sa.func.sum(v).over(partition_by=part, order_by=order),
                                 sa.Integer).label(RECORD_CODES[c]) for c, v in decided.items()))
             .select_from(schema.player_lines.join(schema.games, g.id == pl.game_id))
             .where(pl.level == level, sa.or_(*(v > 0 for v in decided.values()))))
    conn.execute(pr.insert().from_select(
        ["id", "level", "game_id", "player_id", *RECORD_CODES.values()], lines))


def refresh(conn: sa.Connection, levels: Iterable[str]) -> None:
    """Every season of these levels counted afresh (a level's rows replaced whole), and a
    baseball level's pitchers' records (``pitcher_records``)."""
    sd, se, sr = schema.season_data, schema.seasons.c, schema.season_rows
    for level in sorted(set(levels)):
        _records(conn, level)
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
