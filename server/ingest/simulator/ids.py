"""Stable IDs for the simulator's source keys, allocated without a round trip to the store.

The book starts from a snapshot of the store's ``source_keys``: a key seen before keeps its ID
(so a re-run changes nothing). A new key of level number ``i`` (its place in the glossary) takes
the next ID of that level's own block, ``max ID of the kind at the start + i * BLOCK + n``. Blocks
make a level's IDs independent of the other levels, which lets levels be built in parallel and
still get the same IDs as a one-at-a-time build.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import sqlalchemy as sa

from server.catalog.levels import ALL_CODES
from server.store import schema

SOURCE = "simulated"
BLOCK = 1_000_000  # new IDs of one kind one level may take in one build
KINDS = ("sublevel", "team", "venue", "player", "official", "game", "news", "transaction", "social",
         "social_post")


@dataclass
class IdBook:
    known: dict[str, dict[str, int]]  # kind -> key -> id (this source's keys)
    top: dict[str, int]  # kind -> highest id of any source at the start
    new: list[dict[str, object]] = field(default_factory=list)
    _next: dict[tuple[str, str], int] = field(default_factory=dict)

    @classmethod
    def snapshot(cls, conn: sa.Connection, codes: list[str]) -> IdBook:
        sk = schema.source_keys.c
        known: dict[str, dict[str, int]] = {k: {} for k in KINDS}
        for code in codes:
            rows = conn.execute(sa.select(sk.kind, sk.key, sk.id).where(
                sk.source == SOURCE, sk.kind.in_(KINDS), sk.key.like(f"{code}:%")))
            for kind, key, id_ in rows:
                known[kind][key] = id_
        top = {k: 0 for k in KINDS}
        for kind, hi in conn.execute(sa.select(sk.kind, sa.func.max(sk.id)).where(
                sk.kind.in_(KINDS)).group_by(sk.kind)):
            top[kind] = int(hi or 0)
        return cls(known, top)

    def ids(self, kind: str, keys: list[str]) -> list[int]:
        """IDs of these keys (``"MLB:t007"``), allocating in the key's level block when new."""
        known = self.known[kind]
        out = []
        for key in keys:
            id_ = known.get(key)
            if id_ is None:
                code = key.split(":", 1)[0]
                slot = (kind, code)
                n = self._next.get(slot, 0) + 1
                self._next[slot] = n
                id_ = self.top[kind] + ALL_CODES.index(code) * BLOCK + n
                known[key] = id_
                self.new.append({"kind": kind, "source": SOURCE, "key": key, "id": id_})
            out.append(id_)
        return out

    def take_new(self) -> list[dict[str, object]]:
        rows, self.new = self.new, []
        return rows
