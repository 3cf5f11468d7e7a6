"""The key gate (contract section 2): verify a key, scope it to levels, enforce its rate.

Verified keys are remembered for ``GRANT_TTL`` seconds only, so a revocation takes effect within
that time on every worker. Rates use the ``limits`` library's fixed one-minute window: counters
live in process memory by default, in Redis when ``REDIS_URL`` is set (then every worker and
machine shares them). Counters are keyed by the key's HMAC, never the key.
"""
from __future__ import annotations

import logging
import math
import os
import threading
import time

import sqlalchemy as sa
from limits import RateLimitItemPerMinute
from limits.storage import MemoryStorage, Storage, storage_from_string
from limits.strategies import FixedWindowRateLimiter

from server import keys
from server.http.errors import KeyInvalid, KeyMalformed, KeyMissing, LevelForbidden, RateLimited

log = logging.getLogger(__name__)

GRANT_TTL = 0.0  # a revocation holds from the next request (one indexed lookup per request)
TOUCH_EVERY = 60.0  # seconds between last_used updates of one key (a write per request is waste)


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
    return storage_from_string(url) if url else SweeplessMemoryStorage()


class KeyGate:
    def __init__(self, engine: sa.Engine, storage: Storage | None = None) -> None:
        self.engine = engine
        self.storage = storage or rate_storage()
        self.limiter = FixedWindowRateLimiter(self.storage)
        self.shared = not isinstance(self.storage, MemoryStorage)
        self._secret: bytes | None = None
        self._grants: dict[str, tuple[float, keys.KeyGrant | None, str]] = {}
        self._touched: dict[int, float] = {}
        self._lock = threading.Lock()

    @staticmethod
    def check_form(raw: str | None) -> str:
        if raw is None or raw == "":
            raise KeyMissing("an API key is required: add key=XXXX-XXXXXX", "key")
        key = raw.strip()
        if not keys.KEY_PATTERN.match(key):
            raise KeyMalformed("the key is malformed; keys look like XXXX-XXXXXX", "key")
        return key

    def cached(self, key: str) -> tuple[keys.KeyGrant, str] | None:
        """The grant remembered for this key, if still fresh (no store access)."""
        hit = self._grants.get(key)
        if hit is None or hit[0] < time.monotonic() or hit[1] is None:
            return None
        return hit[1], hit[2]

    def verify(self, key: str) -> tuple[keys.KeyGrant, str]:
        """The key's grant and its hash (the rate counter's name); KeyInvalid when not live."""
        hit = self._grants.get(key)
        now = time.monotonic()
        if hit is not None and hit[0] >= now:
            grant, digest = hit[1], hit[2]
        else:
            with self.engine.connect() as conn:
                if self._secret is None:
                    self._secret = keys.server_secret(self.engine)
                digest = keys.key_hash(self._secret, key)
                grant = keys.lookup(conn, self._secret, key)
            with self._lock:
                if len(self._grants) > 10000:
                    self._grants.clear()
                self._grants[key] = (now + GRANT_TTL, grant, digest)
        if grant is None:
            raise KeyInvalid("the key is not valid (unknown or revoked)", "key")
        return grant, digest

    def admit(self, grant: keys.KeyGrant, digest: str, level: str) -> None:
        """Level scope, then rate; raises LevelForbidden or RateLimited (with Retry-After)."""
        if grant.levels is not None and level not in grant.levels:
            raise LevelForbidden(f"this key is not allowed level {level}; it may use "
                                 f"{', '.join(sorted(grant.levels))}", "key")
        item = RateLimitItemPerMinute(grant.rate)
        if not self.limiter.hit(item, "api", digest):
            reset = self.limiter.get_window_stats(item, "api", digest).reset_time
            wait = max(1, math.ceil(reset - time.time()))
            raise RateLimited(f"over this key's rate of {grant.rate} requests per minute; "
                              f"retry in {wait} s", "key", headers={"Retry-After": str(wait)})

    def touch_due(self, grant: keys.KeyGrant) -> bool:
        now = time.monotonic()
        if self._touched.get(grant.id, 0.0) + TOUCH_EVERY > now:
            return False
        self._touched[grant.id] = now
        return True

    def touch(self, grant: keys.KeyGrant) -> None:
        """Record last use (at most once a minute per key and process), off the request path:
        a re-tabulation holds SQLite's write lock for its whole run, and a request must not
        wait for it. ``last_used`` is a convenience for operators, so a write that cannot get
        the lock is logged and skipped."""
        threading.Thread(target=self._touch, args=(grant.id,), daemon=True).start()

    def _touch(self, key_id: int) -> None:
        try:
            with self.engine.begin() as conn:
                keys.touch(conn, key_id)
        except sa.exc.OperationalError as exc:
            log.warning("last_used not recorded (store busy): %s", type(exc).__name__)
