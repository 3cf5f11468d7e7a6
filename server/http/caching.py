"""Caching: ETag/304 and Cache-Control for clients, a small in-process result cache for us.

The result cache is keyed by the parsed request (endpoint, level, type, every typed parameter
but ``key`` and ``format``, page size, page): every key shares it, and auth and rate limits run
before it. Entries live ``RESULT_TTL`` seconds (env ``SPORTS_CACHE_TTL``; 0 disables), which bounds
how stale a reader can be after an ingest or re-tabulation; data change at most nightly.
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
        self._data: OrderedDict[Any, tuple[float, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Any) -> Any | None:
        if self.ttl <= 0:
            return None
        hit = self._data.get(key)
        if hit is None or hit[0] < time.monotonic():
            return None
        return hit[1]

    def put(self, key: Any, value: Any) -> None:
        if self.ttl <= 0:
            return
        with self._lock:
            self._data[key] = (time.monotonic() + self.ttl, value)
            self._data.move_to_end(key)
            while len(self._data) > self.entries:
                self._data.popitem(last=False)
