"""API keys (docs/api/index.md): issue, list, revoke, look up; the store never holds a key.

A key is ``XXXX-XXXXXX`` drawn with ``secrets``. The store keeps only HMAC-SHA256(server secret,
key) as hex plus a hint of the last two characters (62**2 guesses off a key of 62**10), so a copy
of the store does not leak usable keys. Where keys and the secret live (on SQLite a keys file
and a 0600 secret file beside the store, so a data job's write lock never delays a revocation):
``server.store.keystore``. Keys never go to logs: the CLI prints a new key alone on stdout,
nowhere else.
"""
from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import hmac
import re
import secrets
import string
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import sqlalchemy as sa

from server.catalog.levels import find_level
from server.errors import UserError
from server.store import keystore, schema
from server.store.watch import mark_changed

KEY_PATTERN = re.compile(r"^[A-Za-z0-9]{4}-[A-Za-z0-9]{6}$")
DEFAULT_RATE = 600  # requests per minute (docs/operations.md)
_ALPHABET = string.ascii_letters + string.digits
HINT = 2  # characters of a key kept to tell keys apart in `keys list`


@dataclass(frozen=True)
class KeyGrant:
    """What a verified key may do: its row ID, levels (None = every level) and rate."""

    id: int
    levels: frozenset[str] | None
    rate: int


def generate_key() -> str:
    pick = secrets.choice
    return "".join(pick(_ALPHABET) for _ in range(4)) + "-" + "".join(
        pick(_ALPHABET) for _ in range(6))


def key_store(engine: sa.Engine) -> sa.Engine:
    """The engine holding the keys of ``engine``'s store (``keystore.key_engine``), its tables
    made where missing."""
    return keystore.ensure_tables(engine)


def server_secret(engine: sa.Engine) -> bytes:
    """The HMAC secret of ``engine``'s store (``keystore.server_secret``)."""
    return keystore.server_secret(engine)


def key_hash(secret: bytes, key: str) -> str:
    return hmac.new(secret, key.encode(), hashlib.sha256).hexdigest()


def _parse_levels(text: str | None) -> str:
    if not text or text.strip() in ("", "*"):
        return "*"
    codes = []
    for part in text.split(","):
        level = find_level(part)
        if level is None:
            raise UserError(f"unknown level code '{part.strip()}'")
        codes.append(level.code)
    return ",".join(dict.fromkeys(codes))


def issue(engine: sa.Engine, levels: str | None = None, rate: int = DEFAULT_RATE,
          label: str | None = None) -> str:
    """Create a key and return it; only its keyed hash is stored."""
    if rate < 1:
        raise UserError("--rate must be at least 1 request per minute")
    scope = _parse_levels(levels)
    secret = server_secret(engine)
    key = generate_key()
    with key_store(engine).begin() as conn:
        conn.execute(schema.api_keys.insert().values(
            key_hash=key_hash(secret, key), hint=key[-HINT:], label=label, levels=scope,
            rate=rate, created=dt.datetime.now(dt.UTC).replace(tzinfo=None)))
        _announce(conn)  # a key refused before it existed is refused no longer
    return key


def _announce(conn: sa.Connection) -> None:
    """A key issued or revoked: on SQLite a new epoch of the keys file, which every worker
    reads before trusting a grant (``KeyGate``). On PostgreSQL nothing more: the store's epoch
    row is taken by a data job's transaction until it commits, and a revocation must never wait
    for one; each worker there re-reads a grant it holds at least every
    ``server.http.auth.GRANT_TRUST`` seconds instead."""
    if conn.dialect.name == "sqlite":
        mark_changed(conn)


def revoke(engine: sa.Engine, key: str) -> bool:
    """Revoke a key at once; False when no live key matches."""
    k = schema.api_keys.c
    digest = key_hash(server_secret(engine), key.strip())
    with key_store(engine).begin() as conn:
        done = conn.execute(schema.api_keys.update()
                            .where(k.key_hash == digest, k.revoked.is_(None))
                            .values(revoked=dt.datetime.now(dt.UTC).replace(tzinfo=None)))
        _announce(conn)
    return bool(done.rowcount)


def lookup(conn: sa.Connection, digest: str) -> KeyGrant | None:
    """The grant of a live key by its HMAC (``key_hash``), or None for an unknown or revoked
    one."""
    k = schema.api_keys.c
    row = conn.execute(sa.select(k.id, k.levels, k.rate)
                       .where(k.key_hash == digest, k.revoked.is_(None))).first()
    if row is None:
        return None
    levels = None if row.levels == "*" else frozenset(row.levels.split(","))
    return KeyGrant(int(row.id), levels, int(row.rate))


def touch(conn: sa.Connection, key_ids: Sequence[int]) -> None:
    """Record that these keys were used now."""
    k = schema.api_keys.c
    conn.execute(schema.api_keys.update().where(k.id.in_(key_ids))
                 .values(last_used=dt.datetime.now(dt.UTC).replace(tzinfo=None)))


def list_keys(engine: sa.Engine) -> list[dict[str, object]]:
    k = schema.api_keys.c
    with key_store(engine).connect() as conn:
        rows = conn.execute(sa.select(k.id, k.label, k.levels, k.rate, k.created, k.last_used,
                                      k.revoked, k.hint).order_by(k.id)).mappings().all()
    return [dict(r) for r in rows]


# ---------------------------------------------------------------- command line handlers

EngineFactory = Callable[[], sa.Engine]


def cli_issue(args: argparse.Namespace, engine: EngineFactory) -> int:
    print(issue(engine(), args.levels, args.rate, args.label))
    return 0


def _when(value: object) -> str:
    return value.strftime("%Y-%m-%d %H:%M") if isinstance(value, dt.datetime) else "-"


def cli_list(args: argparse.Namespace, engine: EngineFactory) -> int:
    rows = list_keys(engine())
    header: Sequence[str] = ("label", "levels", "rate/min", "created", "last used", "status",
                             "hint")
    lines = [header] + [
        (str(r["label"] or "-"), str(r["levels"]), str(r["rate"]), _when(r["created"]),
         _when(r["last_used"]), "revoked" if r["revoked"] else "live", f"...{str(r['hint'])[-HINT:]}")
        for r in rows]
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    for line in lines:
        print("  ".join(cell.ljust(w) for cell, w in zip(line, widths)).rstrip())
    return 0


def cli_revoke(args: argparse.Namespace, engine: EngineFactory) -> int:
    if not KEY_PATTERN.match(args.key.strip()):
        raise UserError("that is not a key (expected XXXX-XXXXXX)")
    if not revoke(engine(), args.key):
        raise UserError("no live key matches")
    print("key revoked", file=sys.stderr)
    return 0
