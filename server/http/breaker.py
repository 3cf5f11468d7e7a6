"""Redis is an accelerator, never a single point of failure: one circuit breaker per Redis URL
and process, shared by the rate counters (``auth``) and the result cache (``shared_cache``).

While Redis answers, every call goes to it. The first failure opens the breaker: callers fall
back to their in-process twin (each worker's own rate counters, its own result cache) without
touching Redis again, so an outage adds no connect timeout to any request. After ``RETRY_AFTER``
seconds (doubling while it stays down, up to ``RETRY_MAX``) exactly one request tries Redis
again; if that works the breaker closes and everyone is back on Redis. One warning is logged
when an outage starts and one line when it ends; neither carries a key or a URL's password.
"""
from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

log = logging.getLogger("server.http")

RETRY_AFTER = 1.0  # seconds before the first retry of an unreachable Redis
RETRY_MAX = 8.0  # the longest wait between two retries while it stays down
SOCKET_TIMEOUT = 0.25  # seconds: a slow Redis must not slow the answer much


def client_options() -> dict[str, Any]:
    """Options for every Redis client here: short timeouts, and one immediate retry on a fresh
    connection, so a pooled connection left dead by a Redis restart costs no outage of its own
    (a worker idle while Redis was away would otherwise fail its first call after, and count
    alone for a back-off)."""
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    return {"socket_timeout": SOCKET_TIMEOUT, "socket_connect_timeout": SOCKET_TIMEOUT,
            "retry": Retry(NoBackoff(), 1)}


@dataclass(frozen=True)
class BreakerState:
    """What ``/health`` shows of Redis: ``ok``, ``down`` (since when, UTC epoch seconds)."""

    state: str
    down_since: float | None
    failure: str | None


class Breaker:
    def __init__(self, name: str, url: str | None = None) -> None:
        self.name = name  # e.g. "127.0.0.1:6379/0": no scheme, no password
        self._url = url
        self._client: Any = None
        self._lock = threading.Lock()
        self._open_until = 0.0  # monotonic instant before which Redis is not tried
        self._wait = RETRY_AFTER
        self._probing = False
        self._down_since: float | None = None
        self._failure: str | None = None

    def allows(self) -> bool:
        """Try Redis now? True while closed; while open, True for one caller once the back-off
        has passed (the probe), False for everyone else."""
        if self._down_since is None:
            return True
        now = time.monotonic()
        with self._lock:
            if self._down_since is None:
                return True
            if self._probing or now < self._open_until:
                return False
            self._probing = True
            return True

    def failed(self, exc: BaseException) -> None:
        """Redis failed a call: open (or keep open) the breaker; warn once per outage."""
        with self._lock:
            first = self._down_since is None
            if first:
                self._down_since = time.time()
                self._wait = RETRY_AFTER
            else:
                self._wait = min(self._wait * 2, RETRY_MAX)
            self._failure = type(exc).__name__
            self._open_until = time.monotonic() + self._wait
            self._probing = False
        if first:
            log.warning("Redis at %s unreachable (%s): rate limits per worker, results cached "
                        "per worker, until it answers again", self.name, type(exc).__name__)

    def succeeded(self) -> None:
        """Redis answered: close the breaker (and say so when it was open)."""
        if self._down_since is None:
            return
        with self._lock:
            if self._down_since is None:
                return
            seconds = time.time() - self._down_since
            self._down_since, self._failure, self._probing = None, None, False
            self._wait = RETRY_AFTER
        log.warning("Redis at %s answers again after %.1f s: limits and results shared again",
                    self.name, seconds)

    def state(self) -> BreakerState:
        down = self._down_since
        return BreakerState("ok" if down is None else "down", down, self._failure)

    def ping(self) -> BreakerState:
        """Ask Redis now (for ``/health``, at most ``SOCKET_TIMEOUT``), note the answer."""
        if self._url is not None:
            import redis

            if self._client is None:
                self._client = redis.Redis.from_url(self._url, **client_options())
            try:
                self._client.ping()
            except (redis.exceptions.RedisError, OSError) as exc:
                self.failed(exc)
            else:
                self.succeeded()
        return self.state()


_BREAKERS: dict[str, Breaker] = {}
_REGISTRY_LOCK = threading.Lock()


def redis_name(url: str) -> str:
    """host:port/db of a Redis URL, for logs and /health (never the user or password)."""
    try:
        parts = urlsplit(url)
        if parts.scheme == "unix":
            return parts.path
        return f"{parts.hostname or 'localhost'}:{parts.port or 6379}{parts.path or '/0'}"
    except ValueError:
        return "(unparsable REDIS_URL)"


def breaker_for(url: str) -> Breaker:
    """The process's one breaker for this Redis (the cache and the counters share its fate)."""
    with _REGISTRY_LOCK:
        found = _BREAKERS.get(url)
        if found is None:
            found = _BREAKERS[url] = Breaker(redis_name(url), url)
        return found
