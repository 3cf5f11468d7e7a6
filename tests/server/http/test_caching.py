"""ETag and Cache-Control on every answer; If-None-Match answers 304 (docs/api/index.md); cached
answers are the fresh ones and stay within their memory budget."""
from __future__ import annotations

import datetime as dt
import time
import tracemalloc
from collections.abc import Iterator

import httpx
import orjson
import pytest

from server import keys
from server.http.caching import ENTRY_OVERHEAD, GenerationCache, pack, trimmed, unpack
from tests.conftest import MiniStore, start_server, stop_server
from tests.demo_api import ApiServer
from tests.server.endpoints.test_endpoints import SAMPLES


def test_etag_and_304(api: ApiServer) -> None:
    first = api.send("/v1/games/MLB/", {"max": 3})
    etag = first.headers["etag"]
    assert etag.startswith('"') and "max-age" in first.headers["cache-control"]
    again = api.send("/v1/games/MLB/", {"max": 3}, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == etag
    weak = api.send("/v1/games/MLB/", {"max": 3}, headers={"If-None-Match": f'"x", W/{etag}'})
    assert weak.status_code == 304


def test_etag_differs_by_content_and_format(api: ApiServer) -> None:
    a = api.send("/v1/games/MLB/", {"max": 3}).headers["etag"]
    b = api.send("/v1/games/MLB/", {"max": 4}).headers["etag"]
    c = api.send("/v1/games/MLB/", {"max": 3, "format": "xml"}).headers["etag"]
    assert len({a, b, c}) == 3
    stale = api.send("/v1/games/MLB/", {"max": 3}, headers={"If-None-Match": b})
    assert stale.status_code == 200


def test_same_query_same_body(api: ApiServer) -> None:
    one = api.send("/v1/games/MLB/", {"team": 1, "season": 2024, "max": 10})
    two = api.send("/v1/games/MLB/", {"season": 2024, "max": 10, "team": 1})
    assert one.json()["games"] == two.json()["games"]


@pytest.fixture(scope="module")
def uncached(mini_store: MiniStore, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The same store served with every cache off."""
    process, base = start_server(mini_store.url, tmp_path_factory.mktemp("uncached") / "log",
                                 SPORTS_CACHE_TTL="0")
    yield base
    stop_server(process)


@pytest.mark.parametrize("fmt", ("json", "xml", "php"))
def test_answers_from_cached_results_are_the_fresh_answers(api: ApiServer, mini_store: MiniStore,
                                                           uncached: str, fmt: str) -> None:
    """A second key asking what the first asked gets its answer from the cached records; it must
    be byte for byte what a server without caches answers (but for the host in Next_Page)."""
    second = keys.issue(mini_store.engine, None, 1_000_000, "second reader")
    f = mini_store.facts
    queries = [(path, {**params, "max": 5}) for path, params, _ in SAMPLES.values()]
    queries += [("/v1/games/MLB/", {"id": f["detail_game"]}),
                ("/v1/teams/MLB/", {"id": f["mlb_teams"][0]}),
                ("/v1/players/MLB/", {"id": f["players"][0], "season": 2024})]
    with httpx.Client(base_url=uncached, timeout=30) as fresh_client:
        for path, params in queries:
            query = {**params, "format": fmt}
            api.send(path, query)
            cached = api.send(path, query, key=second)
            fresh = fresh_client.get(path, params={"key": second, **query})
            assert cached.status_code == fresh.status_code == 200, (path, fresh.text[:300])
            assert cached.content.replace(api.url.encode(), b"BASE") == \
                fresh.content.replace(uncached.encode(), b"BASE"), (path, fmt)


def test_cached_bodies_hold_no_more_than_their_length() -> None:
    """orjson's bytes keep their growth buffer; a cached body is an exact-size copy."""
    document = {"games": [{"ID": n, "Visitor": f"Visiting Club {n}", "GameDay": "2024-07-04"}
                          for n in range(300)]}
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        bodies = [trimmed(orjson.dumps(document)) for _ in range(50)]
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    length = sum(len(b) for b in bodies)
    assert held < length * 1.1, (held, length)


def test_the_answer_cache_stays_within_its_budget() -> None:
    cache = GenerationCache(ttl=60, budget=10 * (1000 + ENTRY_OVERHEAD))
    for n in range(25):
        cache.put(n, b"x" * 1000, 1000)
        assert cache.held <= cache.budget
    assert len(cache) == 10
    assert cache.get(24) is not None and cache.get(14) is None  # the oldest went first
    cache.put("huge", b"", cache.budget)  # larger than the whole budget: not cached
    assert cache.get("huge") is None and cache.get(24) is not None
    cache.put(24, b"y", 1)  # replacing an entry gives back its bytes
    assert cache.held == 9 * (1000 + ENTRY_OVERHEAD) + 1 + ENTRY_OVERHEAD


def test_the_answer_cache_honours_generation_and_ttl() -> None:
    cache = GenerationCache(ttl=0.05, budget=1 << 20)
    cache.put("k", "v", 1, generation=3)
    assert cache.get("k", 3) == "v"
    assert cache.get("k", 4) is None  # the store changed since
    time.sleep(0.1)
    assert cache.get("k", 3) is None  # lived its TTL
    off = GenerationCache(ttl=0, budget=1 << 20)
    off.put("k", "v", 1)
    assert not off.enabled and off.get("k") is None


def test_packed_results_round_trip_and_refuse_what_json_would_change() -> None:
    found = ([{"ID": 7, "GameDay": "2024-07-04", "Name": "Caf\u00e9", "WinExp": 0.5625,
               "Flag": None, "scores": [{"Period": 1, "ScoreVis": 0}]}], 41)
    raw = pack(found)
    assert raw is not None and unpack(raw) == found
    assert pack(([{"GameDay": dt.date(2024, 7, 4)}], 1)) is None  # would come back a string
    assert pack(([{"ID": 2**70}], 1)) is None  # beyond JSON's integers
    assert unpack(b"\x80\x04not json") is None  # an older entry's format is a miss
