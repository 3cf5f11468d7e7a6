"""One built level into the store: its rows, table by table, and how many of each there were.

Used by both ways a demo is built (one process, ``server.ingest.simulator``; several,
``server.ingest.simulator.parallel``), inside the caller's transaction.
"""
from __future__ import annotations

import time

from server.ingest.simulator import writer
from server.ingest.simulator.build import LevelBuild
from server.store import schema
from server.store.loader import Loader

# Row tuples the level builds carry, in each table's column order (the schema's own).
TUPLE_TABLES = (
    ("games", schema.games), ("plays", schema.plays), ("pitches", schema.pitches),
    ("player_lines", schema.player_lines), ("team_lines", schema.team_lines),
    ("game_officials", schema.game_officials), ("odds", schema.odds), ("news", schema.news),
    ("transactions", schema.transactions), ("accounts", schema.social_accounts),
    ("posts", schema.social_posts),
)


def level_counts(build: LevelBuild, t0: float) -> dict[str, int]:
    """Rows of each kind the level built, and the milliseconds since ``t0`` (the demo's summary)."""
    return {"games": len(build.games), "plays": len(build.plays), "pitches": len(build.pitches),
            "player_lines": len(build.player_lines), "team_lines": len(build.team_lines),
            "teams": len(build.world.teams), "players": len(build.world.player_rows),
            "odds": len(build.odds), "news": len(build.news),
            "transactions": len(build.transactions), "social_posts": len(build.posts),
            "ms": int((time.perf_counter() - t0) * 1000)}


def write_level(loader: Loader, b: LevelBuild, keys: list[dict[str, object]]) -> None:
    """Insert every row of a built level (after its old rows were wiped)."""
    s = schema
    w = b.world
    code = b.plan.code
    loader.levels.add(code)
    writer.insert_dicts(loader, s.source_keys, keys)
    writer.insert_dicts(loader, s.sublevels, w.sublevel_rows)
    writer.insert_dicts(loader, s.venues, w.venue_rows)
    writer.insert_dicts(loader, s.teams, [
        {"id": t.id, "level": code, "name": t.name, "abbrev": t.abbrev, "city": t.city,
         "nickname": t.nickname, "sublevel_id": t.sublevel_id, "venue_id": t.venue_id,
         "nation": t.nation, "source": writer.SOURCE} for t in w.teams])
    updated = b.today
    writer.insert_dicts(loader, s.players, [dict(r, updated=updated) for r in w.player_rows])
    writer.insert_dicts(loader, s.officials, w.official_rows)
    writer.insert_dicts(loader, s.seasons, b.seasons)
    writer.insert_dicts(loader, s.team_seasons, b.team_seasons)
    writer.insert_dicts(loader, s.player_seasons, b.player_seasons)
    for attr, table in TUPLE_TABLES:
        writer.insert_rows(loader, table, tuple(c.name for c in table.c), getattr(b, attr))
