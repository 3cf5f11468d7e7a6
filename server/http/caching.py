"""Caching: ETag/304 and Cache-Control for clients, a small in-process result cache for us.

The result cache is keyed by the parsed request (endpoint, level, type, every typed parameter
but ``key`` and ``format``, page size, page): every key shares it, and auth and rate limits run
before it. Entries live ``RESULT_TTL`` seconds (env ``SPORTS_CACHE_TTL``; 0 disables), which bounds
how stale an answer about "today" can be. An entry put under a store generation
(``StoreWatch``) is also dropped as soon as the store changes, so an ingest or re-tabulation is
served at once; without a generation (PostgreSQL) the TTL alone bounds staleness.
"""
from __future__ import annotations

import hashlib
import os
import threading
import time
from collections import OrderedDict
from typing import Any

CACHE_CONTROL = "private, max-age=30"
ERROR_CACHE_CONTROL = "no-store"
RESULT_TTL = float(os.environ.get("SPORTS_CACHE_TTL", "15"))
RESULT_ENTRIES = 4096


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


class ResultCache:
    def __init__(self, ttl: float = RESULT_TTL, entries: int = RESULT_ENTRIES) -> None:
        self.ttl = ttl
        self.entries = entries
        self._data: OrderedDict[Any, tuple[float, int | None, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Any, generation: int | None = None) -> Any | None:
        if self.ttl <= 0:
            return None
        hit = self._data.get(key)
        if hit is None or hit[0] < time.monotonic() or hit[1] != generation:
            return None
        return hit[2]

    def put(self, key: Any, value: Any, generation: int | None = None) -> None:
        if self.ttl <= 0:
            return
        with self._lock:
            self._data[key] = (time.monotonic() + self.ttl, generation, value)
            self._data.move_to_end(key)
            while len(self._data) > self.entries:
                self._data.popitem(last=False)
