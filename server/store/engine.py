"""Which store, and how to connect: SQLite file by default, PostgreSQL when DATABASE_URL says so."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import orjson
import sqlalchemy as sa
from sqlalchemy import event

DEFAULT_SQLITE_PATH = Path("data") / "sports.db"


def database_url(url: str | None = None) -> str:
    """The store's URL: the argument, else DATABASE_URL, else the embedded SQLite file."""
    url = url or os.environ.get("DATABASE_URL")
    if url:
        if url.startswith("postgres://"):
            url = "postgresql://" + url[len("postgres://"):]
        if url.startswith("postgresql://"):
            url = "postgresql+psycopg://" + url[len("postgresql://"):]
        return url
    return f"sqlite:///{DEFAULT_SQLITE_PATH}"


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    # WAL lets readers go on while a re-tabulation writes; NORMAL is durable enough with WAL.
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=OFF")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.execute("PRAGMA cache_size=-65536")
    cur.execute("PRAGMA temp_store=MEMORY")
    cur.close()


def _json_dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


def make_engine(url: str | None = None, **kwargs: Any) -> sa.Engine:
    """Create the engine for the store, making the SQLite folder if needed."""
    url = database_url(url)
    kwargs.setdefault("json_serializer", _json_dumps)
    kwargs.setdefault("json_deserializer", orjson.loads)
    if url.startswith("sqlite"):
        path = sa.make_url(url).database
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = sa.create_engine(url, connect_args={"check_same_thread": False}, **kwargs)
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    kwargs.setdefault("pool_pre_ping", True)
    kwargs.setdefault("pool_size", 8)
    kwargs.setdefault("max_overflow", 8)
    return sa.create_engine(url, **kwargs)


def is_sqlite(engine: sa.Engine) -> bool:
    return engine.dialect.name == "sqlite"


def describe(engine: sa.Engine) -> str:
    """The store's name for /health and progress lines, without any password."""
    return engine.url.render_as_string(hide_password=True)


def analyze(engine: sa.Engine) -> None:
    """Refresh the query planner's statistics after a bulk write.

    Without them SQLite guesses, and picks e.g. ``ix_pitches_level`` over ``ix_pitches_game``
    for a game's pitches (90 ms instead of 0.3 ms). ``analysis_limit`` samples each index, so
    this takes seconds even on the full demo store.
    """
    with engine.begin() as conn:
        if is_sqlite(engine):
            conn.exec_driver_sql("PRAGMA analysis_limit=2000")
        conn.exec_driver_sql("ANALYZE")
