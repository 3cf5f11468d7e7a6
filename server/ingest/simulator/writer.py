"""Bulk writing of one level's simulated rows, inside the loader's one transaction.

A level is rewritten whole: its earlier simulated rows (found through their source keys and
``source = 'simulated'``) are deleted, then the new ones inserted, so a re-run with the same seed
writes the same rows and a run of another size leaves nothing stale behind. Rows of the big
tables arrive as tuples already in SQLite's storage form (ISO dates, JSON text, 0/1), which lets
SQLite take them by ``executemany`` directly; other stores get them converted to Python values.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from typing import Any

import orjson
import sqlalchemy as sa

from server.catalog.sources import SIMULATED
from server.store import schema
from server.store.loader import Loader, insert

SOURCE = SIMULATED
_CHUNK = 20000


def ts(value: dt.datetime) -> str:
    """A UTC instant as SQLAlchemy's SQLite DATETIME stores it."""
    return value.isoformat(sep=" ", timespec="microseconds")


def js(value: Any) -> str:
    return orjson.dumps(value).decode()


def _keys(code: str, kind: str) -> sa.Select[tuple[int]]:
    sk = schema.source_keys.c
    return sa.select(sk.id).where(sk.kind == kind, sk.source == SOURCE, sk.key.like(f"{code}:%"))


def wipe_level(conn: sa.Connection, code: str) -> None:
    """Delete every simulated row of a level (children before parents)."""
    s = schema
    games = sa.select(s.games.c.id).where(s.games.c.level == code, s.games.c.source == SOURCE)
    for table in (s.plays, s.pitches, s.player_lines, s.team_lines):
        conn.execute(table.delete().where(table.c.level == code, table.c.game_id.in_(games)))
    for table in (s.game_officials, s.odds):
        conn.execute(table.delete().where(table.c.game_id.in_(games)))
    conn.execute(s.news.delete().where(s.news.c.id.in_(_keys(code, "news"))))
    conn.execute(s.games.delete().where(s.games.c.level == code, s.games.c.source == SOURCE))
    conn.execute(s.transactions.delete().where(s.transactions.c.id.in_(_keys(code, "transaction"))))
    conn.execute(s.social_posts.delete().where(s.social_posts.c.account_id.in_(_keys(code, "social"))))
    conn.execute(s.social_accounts.delete().where(s.social_accounts.c.id.in_(_keys(code, "social"))))
    teams = sa.select(s.teams.c.id).where(s.teams.c.level == code, s.teams.c.source == SOURCE)
    conn.execute(s.team_seasons.delete().where(s.team_seasons.c.team_id.in_(teams)))
    conn.execute(s.player_seasons.delete().where(s.player_seasons.c.level == code,
                                                 s.player_seasons.c.team_id.in_(teams)))
    conn.execute(s.seasons.delete().where(s.seasons.c.level == code, s.seasons.c.source == SOURCE))
    conn.execute(s.teams.delete().where(s.teams.c.level == code, s.teams.c.source == SOURCE))
    for table, kind in ((s.players, "player"), (s.venues, "venue"), (s.officials, "official"),
                        (s.sublevels, "sublevel")):
        conn.execute(table.delete().where(table.c.id.in_(_keys(code, kind))))


def _converter(col: sa.Column[Any]) -> Callable[[Any], Any] | None:
    t = col.type
    if isinstance(t, sa.DateTime):
        return lambda v: None if v is None else dt.datetime.fromisoformat(v)
    if isinstance(t, sa.Date):
        return lambda v: None if v is None else dt.date.fromisoformat(v)
    if isinstance(t, sa.JSON):
        return lambda v: None if v is None else orjson.loads(v)
    if isinstance(t, sa.Boolean):
        return lambda v: None if v is None else bool(v)
    return None


def insert_rows(loader: Loader, table: sa.Table, columns: Sequence[str],
                rows: Sequence[tuple[Any, ...]]) -> None:
    """Insert tuples (in storage form) into a table, as fast as the store allows."""
    if not rows:
        return
    conn = loader.conn
    if conn.dialect.name == "sqlite":
        cols = ", ".join(f'"{c}"' for c in columns)
        marks = ", ".join("?" for _ in columns)
        sql = f'INSERT INTO "{table.name}" ({cols}) VALUES ({marks})'
        for k in range(0, len(rows), _CHUNK):
            conn.exec_driver_sql(sql, list(rows[k:k + _CHUNK]))
        return
    convs = [_converter(table.c[c]) for c in columns]
    dicts = [{c: (f(v) if f else v) for c, f, v in zip(columns, convs, row)} for row in rows]
    insert(conn, table, dicts)


def insert_dicts(loader: Loader, table: sa.Table, rows: Sequence[dict[str, Any]]) -> None:
    insert(loader.conn, table, rows)
