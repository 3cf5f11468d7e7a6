"""The result cache shared by every worker through Redis when ``REDIS_URL`` is set (design
section 8); without it, the in-process ``caching.ResultCache``.

Same interface as ``ResultCache`` (``get``/``put``), same TTL (``caching.RESULT_TTL``); store
generations are per process, so they are not part of a shared entry and the TTL alone bounds its
staleness. Entries are the same compact JSON (``caching.pack``) under a hash of the request's
cache key, prefixed so that a shared Redis can hold other things; being data, never pickles, an
entry cannot run code in a worker that reads it. Redis trouble never fails a request: a read
becomes a miss and a write is dropped, with a warning logged at most once a minute.
"""
from __future__ import annotations

import hashlib
import logging
import os
import time
from typing import Any, Protocol

from server.http.caching import RESULT_TTL, Found, ResultCache, pack, unpack

log = logging.getLogger("server.http")

PREFIX = os.environ.get("SPORTS_CACHE_PREFIX", "sports:result:")
WARN_EVERY = 60.0  # seconds between two warnings about an unreachable Redis
SOCKET_TIMEOUT = 0.25  # seconds: a slow cache must not slow the answer much


class Cache(Protocol):
    def get(self, key: Any, generation: int | None = None) -> Found | None: ...

    def put(self, key: Any, found: Found, generation: int | None = None) -> None: ...


class RedisResultCache:
    """Results shared through Redis, expiring after ``ttl`` seconds."""

    def __init__(self, url: str, ttl: float = RESULT_TTL, prefix: str = PREFIX) -> None:
        import redis

        self.ttl = ttl
        self.prefix = prefix
        self.client = redis.Redis.from_url(url, socket_timeout=SOCKET_TIMEOUT,
                                           socket_connect_timeout=SOCKET_TIMEOUT)
        self._errors = (redis.exceptions.RedisError, OSError)
        self._warned = 0.0

    def name(self, key: Any) -> str:
        return self.prefix + hashlib.blake2b(repr(key).encode(), digest_size=16).hexdigest()

    def get(self, key: Any, generation: int | None = None) -> Found | None:
        if self.ttl <= 0:
            return None
        try:
            raw = self.client.get(self.name(key))
        except self._errors as exc:
            self._warn(exc)
            return None
        return unpack(raw) if isinstance(raw, bytes) else None

    def put(self, key: Any, found: Found, generation: int | None = None) -> None:
        if self.ttl <= 0:
            return
        raw = pack(found)
        if raw is None:
            return
        try:
            self.client.set(self.name(key), raw, px=max(1, int(self.ttl * 1000)))
        except self._errors as exc:
            self._warn(exc)

    def _warn(self, exc: BaseException) -> None:
        now = time.monotonic()
        if now - self._warned >= WARN_EVERY:
            self._warned = now
            log.warning("shared result cache unavailable (%s); answering from the store",
                        type(exc).__name__)


def result_cache(url: str | None = None) -> Cache:
    """Redis when ``REDIS_URL`` (or ``url``) names one, else the in-process cache."""
    url = url if url is not None else os.environ.get("REDIS_URL")
    return RedisResultCache(url) if url else ResultCache()
