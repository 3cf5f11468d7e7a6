"""server/http/shared_cache.py: one worker's result is another's hit; without Redis, its own."""
from __future__ import annotations

import uuid

import pytest

from server.http.breaker import Breaker
from server.http.caching import ResultCache
from server.http.shared_cache import RedisResultCache, result_cache

REDIS_URL = "redis://127.0.0.1:6379/13"

pytestmark = pytest.mark.redis


@pytest.fixture
def prefix() -> str:
    redis = pytest.importorskip("redis")
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
    except redis.exceptions.ConnectionError:
        pytest.skip("Redis not reachable at 127.0.0.1:6379; shared cache tests skipped")
    return f"test:{uuid.uuid4().hex}:"


def test_two_caches_share_entries(prefix: str) -> None:
    one, two = RedisResultCache(REDIS_URL, 30, prefix), RedisResultCache(REDIS_URL, 30, prefix)
    key = ("games", "MLB", None, "http://h", (("season", "2024"),), None, None, 100, 1)
    value = ([{"ID": 1, "GameDay": "2024-07-04", "Name": "Caf\u00e9", "elo": {"ELOK": 4.5}}], 1)
    assert two.get(key) is None
    one.put(key, value)
    assert two.get(key) == value
    assert two.get(key[:-1] + (2,)) is None  # another page is another entry


def test_entries_expire(prefix: str) -> None:
    cache = RedisResultCache(REDIS_URL, 0.2, prefix)
    cache.put(("k",), ([], 0))
    assert cache.get(("k",)) == ([], 0)
    import time
    time.sleep(0.4)
    assert cache.get(("k",)) is None


def test_unreachable_redis_falls_back_to_the_workers_own_cache() -> None:
    cache = RedisResultCache("redis://127.0.0.1:1/0", 30, breaker=Breaker("nowhere"))
    assert cache.get(("k",)) is None
    cache.put(("k",), ([{"ID": 1}], 1))
    assert cache.get(("k",)) == ([{"ID": 1}], 1)
    assert cache.breaker.state().state == "down"


def test_entries_are_named_by_the_store_generation(prefix: str) -> None:
    """A new store generation (an ingest anywhere) asks every worker for new names at once."""
    one, two = RedisResultCache(REDIS_URL, 30, prefix), RedisResultCache(REDIS_URL, 30, prefix)
    one.put(("k",), ([{"ID": 1}], 1), generation=7)
    assert two.get(("k",), generation=7) == ([{"ID": 1}], 1)
    assert two.get(("k",), generation=8) is None


def test_without_redis_url_the_cache_stays_in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REDIS_URL", raising=False)
    assert isinstance(result_cache(), ResultCache)
    assert isinstance(result_cache(REDIS_URL), RedisResultCache)
