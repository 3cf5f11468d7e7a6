"""Caching: ETag/304 and Cache-Control for clients, and the answers each worker keeps.

Two in-process caches, both bounded by the bytes they hold (``SPORTS_CACHE_MB`` per worker,
default 64, half each), so a worker's memory is known in advance whatever the traffic:

* the result cache, keyed by the parsed request (endpoint, level, type, every typed parameter but
  ``key`` and ``format``, page size, page): every key and format shares it, and auth and rate
  limits run before it. It keeps the found records as compact JSON (``pack``), a fifth of what the
  same records take as Python objects, and decodes them on a hit;
* the body cache of ``replay.Replay``, keyed by exact address, keeping encoded answers.

Entries live ``RESULT_TTL`` seconds (env ``SPORTS_CACHE_TTL``; 0 disables both), which bounds how
stale an answer about "today" can be. An entry put under a store generation (``StoreWatch``) is
also dropped as soon as the store changes, so an ingest or re-tabulation is served at once;
without a generation (PostgreSQL) the TTL alone bounds staleness.
"""
from __future__ import annotations

import hashlib
import os
import threading
import time
from collections import OrderedDict
from typing import Any

import orjson

CACHE_CONTROL = "private, max-age=30"
ERROR_CACHE_CONTROL = "no-store"
RESULT_TTL = float(os.environ.get("SPORTS_CACHE_TTL", "15"))
CACHE_BYTES = int(float(os.environ.get("SPORTS_CACHE_MB", "64")) * 2**20)
ENTRY_OVERHEAD = 512  # bytes an entry costs beyond its value: key, tuple, dict slot, headers

# Types orjson would silently turn into strings are refused instead (``pack`` returns None), so a
# decoded entry is always the very records it was made from.
_PACK_OPTIONS = (orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
                 | orjson.OPT_PASSTHROUGH_SUBCLASS)

Found = tuple[list[dict[str, Any]], int]


def etag_of(body: bytes) -> str:
    return '"' + hashlib.blake2b(body, digest_size=16).hexdigest() + '"'


def matches(if_none_match: str | None, etag: str) -> bool:
    """If-None-Match semantics: a list of tags, weak or strong, or '*'."""
    if not if_none_match:
        return False
    for tag in if_none_match.split(","):
        tag = tag.strip()
        if tag == "*" or tag.removeprefix("W/") == etag:
            return True
    return False


def trimmed(body: bytes) -> bytes:
    """An exact-size copy: orjson hands back bytes that keep its whole growth buffer (about
    twice their length; ijl/orjson since 3.12), which a kept answer would hold for its life."""
    return bytes(memoryview(body))


def _refuse(value: Any) -> Any:
    raise TypeError(type(value).__name__)


def pack(found: Found) -> bytes | None:
    """Records and total as compact JSON; None when a value is not plain JSON data and the
    answer must not be kept. (Tuples come back as lists, which every encoder writes alike.)"""
    try:
        return trimmed(orjson.dumps(found, default=_refuse, option=_PACK_OPTIONS))
    except TypeError:  # orjson.JSONEncodeError too: a big integer, a lone surrogate
        return None


def unpack(raw: bytes) -> Found | None:
    """The records and total ``pack`` made; None for anything else (an older entry's format)."""
    try:
        found, total = orjson.loads(raw)
    except (orjson.JSONDecodeError, TypeError, ValueError):
        return None
    return found, total


class KeptCache:
    """Entries that live ``ttl`` seconds, and only while the store generation they were put
    under holds; once their sizes pass ``budget`` bytes the oldest are dropped first."""

    def __init__(self, ttl: float = RESULT_TTL, budget: int = CACHE_BYTES // 2) -> None:
        self.ttl = ttl
        self.budget = budget
        self.held = 0  # bytes of the entries held, overheads included
        self._data: OrderedDict[Any, tuple[float, int | None, Any, int]] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def enabled(self) -> bool:
        return self.ttl > 0 and self.budget > 0

    def __len__(self) -> int:
        return len(self._data)

    def get(self, key: Any, generation: int | None = None) -> Any | None:
        if self.ttl <= 0:
            return None
        hit = self._data.get(key)
        if hit is None or hit[0] < time.monotonic() or hit[1] != generation:
            return None
        return hit[2]

    def put(self, key: Any, value: Any, size: int, generation: int | None = None) -> None:
        """Keep ``value``, which holds about ``size`` bytes; one larger than the whole budget
        is not kept."""
        cost = size + ENTRY_OVERHEAD
        if not self.enabled or cost > self.budget:
            return
        with self._lock:
            old = self._data.pop(key, None)
            if old is not None:
                self.held -= old[3]
            self._data[key] = (time.monotonic() + self.ttl, generation, value, cost)
            self.held += cost
            while self.held > self.budget:
                _, dropped = self._data.popitem(last=False)
                self.held -= dropped[3]


class ResultCache:
    """The in-process result cache: found records, packed, in a ``KeptCache``."""

    def __init__(self, ttl: float = RESULT_TTL, budget: int = CACHE_BYTES // 2) -> None:
        self.kept = KeptCache(ttl, budget)

    def get(self, key: Any, generation: int | None = None) -> Found | None:
        raw = self.kept.get(key, generation)
        return None if raw is None else unpack(raw)

    def put(self, key: Any, found: Found, generation: int | None = None) -> None:
        if self.kept.enabled:
            raw = pack(found)
            if raw is not None:
                self.kept.put(key, raw, len(raw), generation)
