"""The key gate (docs/api/index.md): verify a key, scope it to levels, enforce its rate.

A verified grant is remembered for at most ``GRANT_TRUST`` seconds, and on SQLite only while the
keys file's generation is the one it was read in (``StoreWatch`` on ``keystore.key_engine``):
there a revoked key fails on the very next request of every worker. On PostgreSQL a revoked key
is refused by every worker of every machine within ``GRANT_TRUST`` of the revocation's commit,
whatever the load and whether or not any change signal arrives; a busy key costs one store
lookup per worker per ``GRANT_TRUST``. (The previous promise there, the very next request, rode
on an asynchronous NOTIFY and failed under load.) Rates use the ``limits`` library's fixed one-minute window:
counters live in process memory by default, in Redis when ``REDIS_URL`` is set (then every worker
and machine shares them). Grants and counters are keyed by the key's HMAC, never the key.

When Redis cannot be reached the gate counts in process memory instead (the ``Breaker`` of
``server.http.breaker`` decides, shared with the result cache): requests keep answering, each
worker enforcing the key's rate on its own, so a key may pass up to its rate times the number of
workers in a minute until Redis is back, and then the shared counters (which kept their counts
from before the outage, or started afresh with Redis) rule again by themselves.
"""
from __future__ import annotations

import logging
import math
import os
import threading
import time

import sqlalchemy as sa
from limits import RateLimitItemPerMinute
from limits.errors import StorageError
from limits.storage import MemoryStorage, Storage, storage_from_string
from limits.strategies import FixedWindowRateLimiter

from server import keys
from server.errors import UserError
from server.errors import KeyInvalid, KeyMalformed, KeyMissing, LevelForbidden, RateLimited
from server.http.breaker import Breaker, breaker_for, client_options
from server.http.quota import Quota
from server.store import keystore
from server.store.engine import reader
from server.store.watch import StoreWatch

log = logging.getLogger(__name__)

TOUCH_EVERY = 60.0  # seconds between two last_used writes of one process (one write per batch)
GRANTS_HELD = 10_000  # remembered grants (unknown keys included) before the memory is emptied
GRANT_TRUST = 0.1  # seconds a worker trusts a grant it read before reading it again


class SweeplessMemoryStorage(MemoryStorage):
    """``limits``' memory storage without its sweeper thread.

    MemoryStorage starts a ``threading.Timer`` (10 ms) on every hit whose timer has ended; on a
    busy server that is a thread start, and a GIL hand-off, per request (measured: most of the
    cached request's time). Fixed-window counters already expire lazily when read
    (``MemoryStorage.get``), and there is one counter per API key in use, so nothing needs
    sweeping. The override targets the storage's private hook by its mangled name.
    """

    def _MemoryStorage__schedule_expiry(self) -> None:
        return None


def rate_storage(url: str | None = None) -> Storage:
    """Memory storage, or the storage named by REDIS_URL (e.g. ``redis://127.0.0.1:6379/0``)."""
    url = url if url is not None else os.environ.get("REDIS_URL")
    if not url:
        return SweeplessMemoryStorage()
    storage = storage_from_string(url, **client_options())
    if not isinstance(storage, Storage):  # an async scheme (async+redis://) cannot serve here
        raise UserError(f"REDIS_URL must name a synchronous storage, not {url.split(':')[0]}")
    return storage


class KeyGate:
    def __init__(self, engine: sa.Engine, storage: Storage | None = None,
                 watch: StoreWatch | None = None, breaker: Breaker | None = None) -> None:
        self.engine = engine
        self.keys = keystore.key_engine(engine)
        self.reader = reader(self.keys)
        self.watch = watch or StoreWatch(engine)  # the served data's generation
        # the keys file's (SQLite); None on PostgreSQL, where GRANT_TRUST alone bounds a grant
        self.key_watch = StoreWatch(self.keys) if self.keys.dialect.name == "sqlite" else None
        self.storage = storage or rate_storage()
        self.limiter = FixedWindowRateLimiter(self.storage)
        self.shared = not isinstance(self.storage, MemoryStorage)
        # while the shared storage is unreachable: this worker's own counters
        self.local_limiter = (FixedWindowRateLimiter(SweeplessMemoryStorage()) if self.shared
                              else self.limiter)
        self.breaker: Breaker | None = None
        if self.shared:
            self.breaker = breaker or breaker_for(os.environ.get("REDIS_URL") or "")
        self._secret: bytes | None = None
        self._grants: dict[str, tuple[int | None, float, keys.KeyGrant | None]] = {}
        self._used: set[int] = set()
        self._recorded: set[int] = set()  # keys this process has written last_used for
        self._next_touch = 0.0
        self._lock = threading.Lock()

    @staticmethod
    def check_form(raw: str | None) -> str:
        if raw is None or raw == "":
            raise KeyMissing("an API key is required: add key=XXXX-XXXXXX", "key")
        key = raw.strip()
        if not keys.KEY_PATTERN.match(key):
            raise KeyMalformed("the key is malformed; keys look like XXXX-XXXXXX", "key")
        return key

    def _digest(self, key: str) -> str:
        if self._secret is None:
            # On PostgreSQL the secret is a row, read (once) through the request path's engine
            # and so under its timeouts; a SQLite store's is a file beside the data file.
            self._secret = keys.server_secret(self.engine if self.engine.dialect.name == "sqlite"
                                              else self.reader)
        return keys.key_hash(self._secret, key)

    def verify(self, key: str) -> tuple[keys.KeyGrant, str]:
        """The key's grant and its hash (the rate counter's name); KeyInvalid when not live."""
        digest = self._digest(key)
        return self.verify_digest(digest), digest

    def verify_digest(self, digest: str) -> keys.KeyGrant:
        """The grant of the key whose hash is ``digest`` (a cached answer holds the hash, so a
        replay computes no HMAC); KeyInvalid when not live."""
        generation = None if self.key_watch is None else self.key_watch.generation()
        now = time.monotonic()
        hit = self._grants.get(digest)
        if (hit is not None and now - hit[1] < GRANT_TRUST
                and (self.key_watch is None or generation is not None and hit[0] == generation)):
            grant = hit[2]
        else:
            with self.reader.connect() as conn:
                grant = keys.lookup(conn, digest)
            if self.key_watch is None or generation is not None:
                with self._lock:
                    if len(self._grants) >= GRANTS_HELD:
                        self._grants.clear()
                    self._grants[digest] = (generation, now, grant)
        if grant is None:
            raise KeyInvalid("the key is not valid (unknown or revoked)", "key")
        return grant

    def admit(self, grant: keys.KeyGrant, digest: str, level: str) -> None:
        """Level scope, then rate; raises LevelForbidden or RateLimited (with Retry-After)."""
        if grant.levels is not None and level not in grant.levels:
            raise LevelForbidden(f"this key is not allowed level {level}; it may use "
                                 f"{', '.join(sorted(grant.levels))}", "key")
        item = RateLimitItemPerMinute(grant.rate)
        limiter = self._limiter_now()
        try:
            allowed = limiter.hit(item, "api", digest)
        except self._storage_errors() as exc:  # only a shared storage fails, so a breaker
            if self.breaker is not None:
                self.breaker.failed(exc)
            limiter = self.local_limiter
            allowed = limiter.hit(item, "api", digest)
        else:
            if self.breaker is not None and limiter is self.limiter:
                self.breaker.succeeded()
        if not allowed:
            reset = self._reset_time(limiter, item, digest)
            wait = max(1, math.ceil(reset - time.time()))
            raise RateLimited(f"over this key's rate of {grant.rate} requests per minute; "
                              f"retry in {wait} s", "key", headers={"Retry-After": str(wait)})

    def quota(self, grant: keys.KeyGrant, digest: str) -> Quota:
        """The key's rate limit after this request was counted (``admit``): the v3/v4 ``user``
        block and ``X-RateLimit-*`` headers."""
        item = RateLimitItemPerMinute(grant.rate)
        limiter = self._limiter_now()
        try:
            stats = limiter.get_window_stats(item, "api", digest)
        except self._storage_errors():  # Redis went away between two calls: this worker's count
            stats = self.local_limiter.get_window_stats(item, "api", digest)
        return Quota(grant.rate, stats.remaining, math.ceil(stats.reset_time))

    def _limiter_now(self) -> FixedWindowRateLimiter:
        """The shared counters, unless the breaker says Redis is down (then this worker's)."""
        if self.breaker is None or self.breaker.allows():
            return self.limiter
        return self.local_limiter

    def _storage_errors(self) -> tuple[type[BaseException], ...]:
        if not self.shared:
            return ()
        own = self.storage.base_exceptions
        return (*(own if isinstance(own, tuple) else (own,)), StorageError, OSError)

    def _reset_time(self, limiter: FixedWindowRateLimiter, item: RateLimitItemPerMinute,
                    digest: str) -> float:
        try:
            return limiter.get_window_stats(item, "api", digest).reset_time
        except self._storage_errors():  # Redis went away between two calls: a full window
            return time.time() + item.get_expiry()

    def note_use(self, grant: keys.KeyGrant) -> None:
        """Remember that a key was used. ``last_used`` is written off the request path (a
        re-tabulation holds SQLite's write lock for its whole run and a request must not wait):
        at a key's first use in this process, then for every key used since the last write at
        most once per ``TOUCH_EVERY`` seconds, since every write also ends the cached grants
        and bodies of every worker."""
        self._used.add(grant.id)
        now = time.monotonic()
        if now < self._next_touch and grant.id in self._recorded:
            return
        with self._lock:
            if not self._used:
                return
            self._next_touch = now + TOUCH_EVERY
            used, self._used = self._used, set()
            self._recorded.update(used)
        threading.Thread(target=self._touch, args=(sorted(used),), daemon=True).start()

    def _touch(self, key_ids: list[int]) -> None:
        try:
            with self.keys.begin() as conn:
                keys.touch(conn, key_ids)
        except sa.exc.OperationalError as exc:
            log.warning("last_used not recorded (store busy): %s", exc.orig)
