"""Where API keys and the secret they are hashed with live, apart from the served data.

SQLite has one writer per file, and a data job holds the store's write lock for as long as it
writes (an ingest's one transaction, 46 s for ``demo --size full``; a level's re-tabulation): a
key revoked then waited out SQLite's busy timeout and failed with "database is locked" while the
key kept answering. So on SQLite the keys live in a file of their own beside the store
(``sports.db`` -> ``sports.keys.db``), whose transactions are a row each: issuing, revoking
and the service's ``last_used`` writes never wait for a data job. That file has its own
``store_info`` epoch, which ``server.store.watch.StoreWatch`` watches as it watches the store. On
PostgreSQL the ``api_keys`` table stays in the database: row locks never make a revocation wait
for a job.

The HMAC secret is never kept beside the hashes on SQLite: it is ``SPORTS_KEY_SECRET`` when set,
else a file created 0600 beside the store (``sports.key-secret``). On PostgreSQL, without
``SPORTS_KEY_SECRET``, it stays in ``store_info`` (every machine sharing the database must hash
alike). Stores made before this layout keep working: their keys are copied into the keys file
when it is first made, and a secret kept inside the store moves out to the file on first use.
Every file made here (the keys file, the secret) is created 0600.
"""
from __future__ import annotations

import os
import secrets
import sqlite3
import threading
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from server.store import schema
from server.store.engine import PRIVATE, make_engine

SECRET_ENV = "SPORTS_KEY_SECRET"
SECRET_ROW = "key_secret"
KEY_TABLES = (schema.store_info, schema.api_keys)
_MIGRATED_ROW = "keys_copied_from_store"

_ENGINES: dict[str, sa.Engine] = {}
_LOCK = threading.Lock()


def store_path(engine: sa.Engine) -> Path | None:
    """The SQLite store's file, or None (PostgreSQL, an in-memory or URI database)."""
    if engine.dialect.name != "sqlite":
        return None
    path = engine.url.database
    if not path or path == ":memory:" or path.startswith("file:"):
        return None
    return Path(path)


def keys_path(store: Path) -> Path:
    """``sports.db`` -> ``sports.keys.db``, beside it."""
    return store.with_name(store.stem + ".keys.db")


def secret_path(store: Path) -> Path:
    """``sports.db`` -> ``sports.key-secret``, beside it."""
    return store.with_name(store.stem + ".key-secret")


def key_engine(engine: sa.Engine) -> sa.Engine:
    """The engine holding ``api_keys``: the keys file beside a SQLite store (made, and filled
    from the store's own table, on first use), else the store's engine itself."""
    store = store_path(engine)
    if store is None:  # tables made by ensure_tables when a key is written (never at start-up:
        return engine  # a server starts, and answers 503, while its database is down)
    path = keys_path(store)
    name = str(path.resolve())
    with _LOCK:
        found = _ENGINES.get(name)
        if found is not None:
            return found
        found = make_engine(f"sqlite:///{path}")
        try:
            schema.metadata.create_all(found, tables=list(KEY_TABLES))
        except sa.exc.OperationalError:  # another process made them between check and create
            schema.metadata.create_all(found, tables=list(KEY_TABLES))
        _copy_old_keys(engine, found)
        _ENGINES[name] = found
        return found


def ensure_tables(engine: sa.Engine) -> sa.Engine:
    """``key_engine``, its tables made where missing (before a key is issued or listed)."""
    found = key_engine(engine)
    if found is engine:
        schema.metadata.create_all(engine, tables=list(KEY_TABLES))
    return found


def _copy_old_keys(store: sa.Engine, keyfile: sa.Engine) -> None:
    """Once per keys file: the keys a store of the previous layout held in its own table.
    The copy and its mark are one transaction of the keys file, so two processes starting
    together copy once."""
    with keyfile.begin() as dst:
        marked = dst.execute(sqlite.insert(schema.store_info).values(key=_MIGRATED_ROW, value="1")
                             .on_conflict_do_nothing(index_elements=["key"]))
        if not marked.rowcount:  # copied before (this insert also took the file's write lock)
            return
        try:
            with store.connect() as src:
                rows = [dict(r) for r in src.execute(sa.select(schema.api_keys)).mappings()]
        except sa.exc.OperationalError:  # a new store: no table yet
            rows = []
        if rows:
            dst.execute(sqlite.insert(schema.api_keys).on_conflict_do_nothing(), rows)


def server_secret(engine: sa.Engine) -> bytes:
    """The HMAC secret: ``SPORTS_KEY_SECRET``, else the file beside a SQLite store (a secret
    the store still holds moves there first, so keys issued before keep verifying), else on
    PostgreSQL the database's own, created once."""
    env = os.environ.get(SECRET_ENV)
    if env:
        return env.encode()
    store = store_path(engine)
    if store is None:
        return _row_secret(engine)
    path = secret_path(store)
    if not path.exists() or path.stat().st_size == 0:
        _write_secret(path, _secret_stored_in(engine) or secrets.token_hex(32))
    if _secret_stored_in(engine) is not None:
        _drop_stored_secret(store)
    return path.read_text().strip().encode()


def _write_secret(path: Path, value: str) -> None:
    """Write the secret once, 0600; a process racing here keeps the first one written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f"{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(temp, os.O_CREAT | os.O_EXCL | os.O_WRONLY, PRIVATE)
    try:
        os.write(fd, value.encode())
        os.fsync(fd)
    finally:
        os.close(fd)
    try:
        os.link(temp, path)  # fails if another process got there first: theirs stands
    except FileExistsError:
        if path.stat().st_size == 0:  # an empty file left by a crash: replace it
            os.replace(temp, path)
            return
    os.unlink(temp)


def _secret_stored_in(engine: sa.Engine) -> str | None:
    info = schema.store_info.c
    try:
        with engine.connect() as conn:
            value = conn.execute(sa.select(info.value).where(info.key == SECRET_ROW)).scalar()
    except sa.exc.OperationalError:  # a new store: no table yet
        return None
    return None if value is None else str(value)


def _drop_stored_secret(store: Path) -> None:
    """Delete a secret the store still holds once it is safe in its file; a store busy with a
    job keeps it until a later use (waited for 0.1 s at most, on a connection of its own)."""
    try:
        conn = sqlite3.connect(store, timeout=0.1)
        try:
            with conn:
                conn.execute("DELETE FROM store_info WHERE key = ?", (SECRET_ROW,))
        finally:
            conn.close()
    except sqlite3.Error:
        pass


def _row_secret(engine: sa.Engine) -> bytes:
    info = schema.store_info.c
    with engine.begin() as conn:
        value = conn.execute(sa.select(info.value).where(info.key == SECRET_ROW)).scalar()
    if value is None:
        insert = postgresql.insert if engine.dialect.name == "postgresql" else sqlite.insert
        with engine.begin() as conn:
            # Two workers racing here both keep the first secret written.
            conn.execute(insert(schema.store_info)
                         .values(key=SECRET_ROW, value=secrets.token_hex(32))
                         .on_conflict_do_nothing(index_elements=["key"]))
            value = conn.execute(sa.select(info.value).where(info.key == SECRET_ROW)).scalar()
    return str(value).encode()


def copy_secret(conn: sa.Connection, target: sa.Engine, secret: bytes) -> None:
    """Give a copy of a store the secret its keys were hashed with (inside the copy's
    transaction ``conn`` on ``target``): its secret file beside a SQLite target, else its
    ``store_info`` row. Nothing when ``SPORTS_KEY_SECRET`` holds it."""
    if os.environ.get(SECRET_ENV):
        return
    conn.execute(schema.store_info.delete().where(schema.store_info.c.key == SECRET_ROW))
    store = store_path(target)
    if store is None:
        conn.execute(schema.store_info.insert().values(key=SECRET_ROW, value=secret.decode()))
        return
    path = secret_path(store)
    path.unlink(missing_ok=True)
    _write_secret(path, secret.decode())
