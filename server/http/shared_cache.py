"""The result cache shared by every worker through Redis when ``REDIS_URL`` is set (design
section 8); without it, the in-process ``caching.ResultCache``.

Same interface as ``ResultCache`` (``get``/``put``), same TTL (``caching.RESULT_TTL``). A store
generation (``StoreWatch``) is the same number in every process (it is derived from the store's
content epoch), so it is part of an entry's name: after an ingest or a re-tabulation every worker
on every machine asks for new names at once, and the old entries simply expire. Without a
generation (the change signal is not live) the TTL alone bounds staleness. Entries are the same
compact JSON (``caching.pack``) under a hash of the request's cache key, prefixed so that a
shared Redis can hold other things; being data, never pickles, an entry cannot run code in a
worker that reads it.

Redis trouble never fails a request and never slows one for long: the process's ``Breaker``
(shared with the rate counters) opens on the first failure, and until Redis answers a retry the
in-process ``ResultCache`` serves instead (one warning per outage, from the breaker).
"""
from __future__ import annotations

import hashlib
import os
from typing import Any, Protocol

from server.http.breaker import Breaker, breaker_for, client_options
from server.http.caching import RESULT_TTL, Found, ResultCache, pack, unpack

PREFIX = os.environ.get("SPORTS_CACHE_PREFIX", "sports:result:")


class Cache(Protocol):
    def get(self, key: Any, generation: int | None = None) -> Found | None: ...

    def put(self, key: Any, found: Found, generation: int | None = None) -> None: ...


class RedisResultCache:
    """Results shared through Redis, expiring after ``ttl`` seconds; the in-process cache while
    Redis cannot be reached."""

    def __init__(self, url: str, ttl: float = RESULT_TTL, prefix: str = PREFIX,
                 breaker: Breaker | None = None) -> None:
        import redis

        self.ttl = ttl
        self.prefix = prefix
        self.client = redis.Redis.from_url(url, **client_options())
        self.breaker = breaker or breaker_for(url)
        self.local = ResultCache(ttl)
        self._errors = (redis.exceptions.RedisError, OSError)

    def name(self, key: Any, generation: int | None = None) -> str:
        era = "" if generation is None else f"{generation:x}:"
        return (self.prefix + era
                + hashlib.blake2b(repr(key).encode(), digest_size=16).hexdigest())

    def get(self, key: Any, generation: int | None = None) -> Found | None:
        if self.ttl <= 0:
            return None
        if not self.breaker.allows():
            return self.local.get(key, generation)
        try:
            raw = self.client.get(self.name(key, generation))
        except self._errors as exc:
            self.breaker.failed(exc)
            return self.local.get(key, generation)
        self.breaker.succeeded()
        return unpack(raw) if isinstance(raw, bytes) else None

    def put(self, key: Any, found: Found, generation: int | None = None) -> None:
        if self.ttl <= 0:
            return
        raw = pack(found)
        if raw is None:
            return
        if not self.breaker.allows():
            self.local.put(key, found, generation)
            return
        try:
            self.client.set(self.name(key, generation), raw, px=max(1, int(self.ttl * 1000)))
        except self._errors as exc:
            self.breaker.failed(exc)
            self.local.put(key, found, generation)
            return
        self.breaker.succeeded()


def result_cache(url: str | None = None) -> Cache:
    """Redis when ``REDIS_URL`` (or ``url``) names one, else the in-process cache."""
    url = url if url is not None else os.environ.get("REDIS_URL")
    return RedisResultCache(url) if url else ResultCache()
