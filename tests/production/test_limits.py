"""No client can slow or stall another; a stalled PostgreSQL answers 503 in seconds.

On the real-data store (2.2 million real pitches, 660,000 plays), with real expensive requests
(the deep pages, wide date ranges and unindexed searches a client may send):
(a) a query past the time limit answers 503 ``query_too_expensive`` in about the limit;
(b) a page past the end answers the empty page without the scan its offset would cost;
(c) a key with expensive requests in flight leaves another client's cached page, the documents,
    the key checks and cheap pages never kept answering at once;
(d) a key over its cap of requests in flight is answered 429 ``too_many_in_flight`` with
    ``Retry-After`` while another key is served;
(h) a request answered 503 at its deadline leaves no work behind: its thread stops there, and
    its key's slot stays taken until it has; a heavy page whose records are cached is encoded
    in a store thread too, never on the event loop.
Behind a proxy that stops forwarding to a real PostgreSQL (the sockets stay open):
(e) queries, pool exhaustion included, answer 503 ``store_unavailable`` with ``Retry-After``
    within the store timeout, ``/health`` 503 within its own, and what needs no store (the
    documents, a 404, a missing key) at once, a cached answer (its key unchecked) with a 503 in
    seconds; it recovers by itself;
(f) a process started while the store is frozen answers the documents, 404s and 401s at once.
(g) ``/health`` shows the store's kind and state, never its address;
(i) a request answered 503 while its thread still waits on the frozen store keeps its key's
    slot: the key's next request is refused 429, not given a second stalled thread.
"""
from __future__ import annotations

import datetime as dt
import itertools
import os
import statistics
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from server.endpoints.registry import ENDPOINTS, serves
from server.store import watch
from server.store.engine import make_engine
from tests.demo_api import ApiServer
from tests.pg import ADMIN_URL
from tests.production._harness import FreezableProxy, Server, issue_key, serving, until
from tests.production.conftest import Store, mini_store_at

# Real requests a stranger may send that cost seconds of a core on the real store.
DEEP_PITCH = "/v1/pitch/MLB/?start=1900-01-01&end=2030-12-31&max=1000&page=2000"
EXPENSIVE = (
    DEEP_PITCH,
    "/v1/pitch/MLB/?start=1900-01-01&end=2030-12-31&max=1000&page={n}",
    "/v1/playbyplay/MLB/?start=1900-01-01&end=2030-12-31&max=1000&page={n}",
    "/v1/playbyplay/MLB/?season=2022&search=grounded{n}&max=1000",
)
STORE_TIMEOUT = 2.0  # the frozen-PostgreSQL servers' SPORTS_STORE_TIMEOUT
HEALTH_TIMEOUT = 1.0


def _timed(client: httpx.Client, url: str) -> tuple[float, httpx.Response]:
    start = time.monotonic()
    response = client.get(url)
    return time.monotonic() - start, response


def _error(response: httpx.Response, status: int, code: str) -> dict[str, object]:
    """The API's error document (docs/api/index.md), no trace."""
    assert response.status_code == status, response.text[:300]
    assert "Traceback" not in response.text
    error: dict[str, object] = response.json()["error"]
    assert error["Status"] == status and error["Code"] == code and error["Message"]
    return error


# ---------------------------------------------------------------- the real store

@pytest.fixture(scope="module")
def real_server(real_store: ApiServer, tmp_path_factory: pytest.TempPathFactory
                ) -> Iterator[Server]:
    """The real store served with the default limits, but for a longer store timeout: on a
    machine busy with other tests a query's 1 s of CPU may take several seconds by the clock,
    and here the query limit is what must stop it."""
    with serving(real_store.database_url, tmp_path_factory.mktemp("limits") / "server.log",
                 SPORTS_STORE_TIMEOUT="30") as server:
        yield server


@pytest.mark.realdata
def test_query_past_the_time_limit_answers_503_at_the_limit(real_server: Server,
                                                            real_store: ApiServer) -> None:
    """The deep pitch page took 10.5 s for a 200 (5.5 s of CPU); it now stops at the 1 s limit,
    in every format, with a hint to narrow the request, and the same server answers the next
    one."""
    with httpx.Client(base_url=real_server.base_url, timeout=60) as client:
        for fmt in ("json", "xml"):
            elapsed, response = _timed(client, f"{DEEP_PITCH}&key={real_store.key}&format={fmt}")
            assert response.status_code == 503, response.text[:300]
            assert "query_too_expensive" in response.text and "narrow" in response.text
            assert elapsed < 20, f"answered after {elapsed:.1f} s"
        _error(client.get(f"{DEEP_PITCH}&key={real_store.key}"), 503, "query_too_expensive")
        games = client.get(f"/v1/games/MLB/?key={real_store.key}&season=2022&max=5")
        assert games.status_code == 200 and len(games.json()["games"]) == 5


@pytest.mark.realdata
@pytest.mark.slow
def test_page_past_the_end_is_empty_without_the_scan(real_store: ApiServer,
                                                     tmp_path: Path) -> None:
    """With the limit lifted so both finish: a page past the last answers 200, empty, with the
    exact total, in a fraction of the time a deep page inside the list takes (its offset is a
    scan); before, both scanned."""
    key = real_store.key
    lifted = {"SPORTS_QUERY_MS": "60000", "SPORTS_STORE_TIMEOUT": "90", "SPORTS_CACHE_TTL": "0"}
    with (serving(real_store.database_url, tmp_path / "server.log", **lifted) as s,
          httpx.Client(base_url=s.base_url, timeout=120) as client):
        inside, deep = _timed(client, f"{DEEP_PITCH}&key={key}")
        past, empty = _timed(client, DEEP_PITCH.replace("page=2000", "page=20000")
                             + f"&key={key}")
    assert deep.status_code == 200 and len(deep.json()["pitch"]) == 1000
    assert empty.status_code == 200, empty.text[:300]
    meta = empty.json()["meta"]
    assert empty.json()["pitch"] == [] and "Next_Page" not in meta
    assert meta["Total_Results"] == deep.json()["meta"]["Total_Results"] > 2_000_000
    assert past < inside / 2, f"past the end {past:.1f} s, inside the list {inside:.1f} s"


@contextmanager
def _heavy_neighbour(base: str, heavy: str) -> Iterator[list[int]]:
    """A default-rate key keeping two expensive requests in flight while the block runs (one
    built at a time, the other waiting its turn: ``SPORTS_KEY_HEAVY``); its answers'
    statuses."""
    stop = threading.Event()
    heavy_answers: list[int] = []

    def expensive(lane: int) -> None:
        with httpx.Client(base_url=base, timeout=60) as own:
            n = lane
            while not stop.is_set():
                n += 2
                url = EXPENSIVE[n % len(EXPENSIVE)].format(n=1000 + n)
                heavy_answers.append(own.get(f"{url}&key={heavy}").status_code)

    lanes = [threading.Thread(target=expensive, args=(lane,)) for lane in range(2)]
    for lane in lanes:
        lane.start()
    try:
        time.sleep(0.5)
        yield heavy_answers
    finally:
        stop.set()
        for lane in lanes:
            lane.join(60)
    # 429: an expensive request that waited longer than 2 s for the key's heavy slot
    assert heavy_answers and set(heavy_answers) <= {200, 503, 429}, heavy_answers
    assert 503 in heavy_answers, "the expensive requests were not expensive"


@pytest.mark.realdata
def test_expensive_key_leaves_other_clients_answering(real_server: Server,
                                                      real_store: ApiServer) -> None:
    """A default-rate key keeps two expensive requests in flight for 8 s; meanwhile another
    client's cached page, /openapi.json and a key check answer as they do alone. (Before: the
    cached page's median 3.6 s, /openapi.json 8.9 s behind one pitch page.)"""
    heavy = issue_key(real_store.database_url, rate=600)
    base = real_server.base_url
    neighbour = f"/v1/games/MLB/?key={real_store.key}&season=2023&max=20"
    with httpx.Client(base_url=base, timeout=60) as client:
        assert client.get(neighbour).status_code == 200  # now kept
        alone = [_timed(client, neighbour)[0] for _ in range(20)]
    beside: list[float] = []
    others: list[tuple[str, float, int]] = []
    with _heavy_neighbour(base, heavy), httpx.Client(base_url=base, timeout=60) as client:
        deadline = time.monotonic() + 8
        while time.monotonic() < deadline:
            elapsed, response = _timed(client, neighbour)
            assert response.status_code == 200
            beside.append(elapsed)
            for path in ("/openapi.json", "/v1/games/MLB/", "/v1/nothing/MLB/?key=AAAA-BBBBBB"):
                elapsed, response = _timed(client, path)
                others.append((path, elapsed, response.status_code))
    assert {status for _, _, status in others} == {200, 401, 404}
    median = statistics.median(beside)
    assert median < max(0.1, 5 * statistics.median(alone)), (median, statistics.median(alone))
    slowest = max([*beside, *(elapsed for _, elapsed, _ in others)])
    assert slowest < 1.0, f"a neighbour's request waited {slowest:.2f} s"


@pytest.mark.realdata
def test_expensive_key_leaves_uncached_pages_answering(real_server: Server,
                                                       real_store: ApiServer) -> None:
    """Cheap pages never kept (each a distinct date's games, read from the store every time)
    answer beside the same heavy key as they do alone: a cheap read on the event loop never
    waits behind an expensive one, which goes on in a store thread."""
    heavy = issue_key(real_store.database_url, rate=600)
    base = real_server.base_url
    days = iter(range(10_000))

    def distinct() -> str:
        n = next(days)
        day = dt.date(2022, 4, 7) + dt.timedelta(days=n % 170)
        return f"/v1/games/MLB/?key={real_store.key}&date={day}&max={10 + n // 170}"

    with httpx.Client(base_url=base, timeout=60) as client:
        alone = [_timed(client, distinct()) for _ in range(20)]
    assert {r.status_code for _, r in alone} == {200}
    beside: list[float] = []
    with _heavy_neighbour(base, heavy), httpx.Client(base_url=base, timeout=60) as client:
        deadline = time.monotonic() + 8
        while time.monotonic() < deadline:
            elapsed, response = _timed(client, distinct())
            assert response.status_code == 200, response.text[:300]
            beside.append(elapsed)
    median, alone_median = statistics.median(beside), statistics.median(e for e, _ in alone)
    assert median < max(0.1, 5 * alone_median), (median, alone_median)
    assert max(beside) < 1.0, f"an uncached page waited {max(beside):.2f} s"


# What each level's plain list of an endpoint needs beyond the level: the one filter it requires.
# Every level the real-data store holds.
PLAIN = {"MLB": {"stats": "stat=HR", "playbyplay": "season=2023"},
         "NBA": {"stats": "stat=PTS", "playbyplay": "season=2023"},
         "NHL": {"stats": "stat=G", "playbyplay": "season=2023"},
         "WNBA": {"stats": "stat=PTS", "playbyplay": "season=2023"},
         "FC": {"stats": "stat=G", "playbyplay": "season=2023"}}


@pytest.mark.realdata
def test_every_plain_list_answers_uncached(real_store: ApiServer, tmp_path: Path) -> None:
    """Every endpoint's plain list (under each of its names), the one filter it requires and
    its first page, answers 200 on the real store with the answer cache off and the default
    1 s limit: a list's first page and its total never need a scan of every play, pitch or
    team line (before: pitches answered 503 ``query_too_expensive``, a season's play-by-play
    and the seasons list took seconds). ``winprob`` is asked for a real game. Each level's
    slowest plain list is printed (``-s``); docs/performance.md holds the figures."""
    key = real_store.key
    with (serving(real_store.database_url, tmp_path / "server.log", SPORTS_CACHE_TTL="0",
                  SPORTS_STORE_TIMEOUT="30") as server,
          httpx.Client(base_url=server.base_url, timeout=60) as client):
        for level, needs in PLAIN.items():
            game = client.get(f"/v1/games/{level}/?key={key}&season=2022&max=1").json()
            plain = {**needs, "winprob": f"game={game['games'][0]['ID']}"}
            asked, slowest = 0, (0.0, "")
            for ep in ENDPOINTS:
                if not serves(ep, level):
                    continue
                for name in (ep.name, *ep.aliases):
                    path = f"/v1/{name}/{level}/?key={key}&{plain.get(ep.name, '')}"
                    took, response = _timed(client, path)
                    assert response.status_code == 200, (path, response.text[:300])
                    assert "error" not in response.json(), path
                    slowest = max(slowest, (took, path.split("?")[0]))
                    asked += 1
            assert asked >= 20, (level, asked)
            print(f"{level}: {asked} plain lists, the slowest {slowest[1]} "
                  f"{slowest[0] * 1000:.0f} ms")


@pytest.mark.realdata
def test_key_over_its_in_flight_cap_gets_429_while_others_are_served(
        real_server: Server, real_store: ApiServer) -> None:
    """Eight expensive requests at once from one key (the cap is 4 per worker), deep pitch pages
    inside the list: the ones over the cap wait half a second for a slot that does not come
    free, then are refused with Retry-After; of the four admitted, one at a time is built in a
    store thread (``SPORTS_KEY_HEAVY``, 1: each holds it for the 1 s limit), the others wait
    their turn for up to 2 s and are refused after that; another key is served meanwhile.
    Before the heavy slot, the four ran at once and ended within moments of each other."""
    busy = issue_key(real_store.database_url, rate=600)
    base = real_server.base_url

    def ask(n: int) -> tuple[float, httpx.Response]:
        with httpx.Client(base_url=base, timeout=60) as own:
            return _timed(own, EXPENSIVE[1].format(n=1500 + n) + f"&key={busy}")

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(ask, range(8)))
        with httpx.Client(base_url=base, timeout=60) as client:
            other = client.get(f"/v1/teams/MLB/?key={real_store.key}&season=2022")
    assert other.status_code == 200
    refused = [(elapsed, r) for elapsed, r in answers if r.status_code == 429]
    assert 1 <= len([e for e, _ in refused if e < 1.0]) <= 4, [r.status_code for _, r in answers]
    for elapsed, response in refused:
        error = _error(response, 429, "too_many_in_flight")
        assert int(response.headers["Retry-After"]) >= 1
        assert elapsed < 1.0 or "expensive" in str(error["Message"]), (elapsed, error)
    assert {r.status_code for _, r in answers} <= {429, 503, 200}
    built = sorted(elapsed for elapsed, r in answers if r.status_code != 429)
    assert built, [r.status_code for _, r in answers]
    # one at a time: each ended at least half its second of CPU after the one before
    assert all(b - a > 0.5 for a, b in itertools.pairwise(built)), built


def _cpu_seconds(pid: int) -> float:
    """A process's CPU time (all its threads), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.realdata
def test_work_answered_503_at_its_deadline_stops_there(real_store: ApiServer,
                                                        tmp_path: Path) -> None:
    """Real heavy pages (100 box scores in NatStat XML, 2.1 MB: 0.28-0.32 s each served
    uncached on a quiet machine, most of it shaping and encoding, the reads well under the query
    limit) under a short answer timeout (0.01 s of store timeout and a 150 ms query limit,
    0.16 s; at 0.3 s a faster page was served in time), four at once from one key: each is
    answered 503 at its deadline, and then the work stops, the worker idle in the second after (before: it went on encoding
    for nobody, 0.3-0.6 s of CPU in that second over three runs), and the key's slots are
    free again at once: its next requests are served."""
    key = real_store.key
    with (serving(real_store.database_url, tmp_path / "server.log", SPORTS_QUERY_MS="150",
                  SPORTS_STORE_TIMEOUT="0.01") as s,
          httpx.Client(base_url=s.base_url, timeout=60) as client):
        def heavy(n: int) -> tuple[float, httpx.Response]:
            with httpx.Client(base_url=s.base_url, timeout=60) as own:
                return _timed(own, f"/natstat/v2/boxscores/MLB/?key={key}&season=2022"
                                   f"&max=100&page={n + 2}&format=xml")

        assert client.get(f"/v1/teams/MLB/?key={key}&season=2022").status_code == 200
        with ThreadPoolExecutor(4) as pool:
            answers = list(pool.map(heavy, range(4)))
        answered_at = _cpu_seconds(s.process.pid)
        time.sleep(1.0)
        idle = _cpu_seconds(s.process.pid) - answered_at
        served = [client.get(f"/v1/games/MLB/?key={key}&date=2022-05-0{n + 1}")
                  for n in range(4)]
    codes = []
    for elapsed, response in answers:
        # one heavy page of a key at a time (SPORTS_KEY_HEAVY): the others wait for it within
        # the same answer timeout, then are refused
        assert response.status_code in (503, 429), response.text[:300]
        assert elapsed < 2.0, f"answered after {elapsed:.1f} s"
        codes.append(next((code for code in ("store_unavailable", "query_too_expensive",
                                             "too_many_in_flight")
                           if code in response.text), response.text[:200]))
    assert "store_unavailable" in codes, codes  # stopped by the deadline, not the query limit
    assert idle < 0.15, f"the worker used {idle:.2f} s of CPU in the second after the 503s"
    assert [r.status_code for r in served] == [200] * 4


@pytest.mark.realdata
def test_a_cached_heavy_page_in_another_format_leaves_the_loop_free(real_store: ApiServer,
                                                                   tmp_path: Path) -> None:
    """Pages of 100 real box scores read once in JSON, then asked in XML: their records come
    from the result cache, so nothing is read, and the encoding (2.1 MB of XML, 0.2-0.5 s of
    CPU each) is all that is left. It runs in a store thread, between its records giving the
    interpreter up, and another client's cached page beside it keeps answering in
    milliseconds. Before, a page was counted as its records times its 45 fields, not the ~1,400
    values of each box score with its players' lines, and encoded on the event loop: every
    other request of the worker waited for it (the cached page beside it: up to 465 ms)."""
    key = real_store.key
    with (serving(real_store.database_url, tmp_path / "server.log",
                  SPORTS_STORE_TIMEOUT="30") as s,
          httpx.Client(base_url=s.base_url, timeout=60) as client):
        # five lists, each read once (a list's reads sent to threads after two overruns
        # would send its encoding there too)
        pages = [f"/v1/boxscores/MLB/?key={key}&{filters}" for filters in (
            "season=2021", "season=2022", "season=2023", "start=2022-05-01&end=2022-08-31",
            "start=2023-05-01&end=2023-08-31")]
        for page in pages:  # the records, read and kept
            assert client.get(page).status_code == 200
        cheap = f"/v1/teams/MLB/?key={key}&season=2022"
        assert client.get(cheap).status_code == 200 and client.get(cheap).status_code == 200
        waits: list[float] = []
        done = threading.Event()

        def neighbour() -> None:
            with httpx.Client(base_url=s.base_url, timeout=60) as own:
                while not done.is_set():
                    took, response = _timed(own, cheap)
                    assert response.status_code == 200
                    waits.append(took)
                    time.sleep(0.002)

        beside = threading.Thread(target=neighbour)
        beside.start()
        try:
            answers = [client.get(page + "&format=xml") for page in pages]
        finally:
            done.set()
            beside.join()
    assert all(a.status_code == 200 and len(a.content) > 1_500_000 for a in answers), \
        [(a.status_code, len(a.content)) for a in answers]
    # a loaded machine may hold any one request back (the slowest 182-213 ms beside a busy
    # core, against 550-570 ms of waits before): the 95th percentile, and how many were answered
    waits.sort()
    assert waits and waits[int(len(waits) * 0.95)] < 0.15, \
        f"the cached page's 95th percentile {waits[int(len(waits) * 0.95)] * 1000:.0f} ms"
    assert len(waits) > 20, len(waits)  # answered all along, not once before and after


# ---------------------------------------------------------------- a frozen PostgreSQL

@pytest.fixture(scope="module")
def pg_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    with mini_store_at(tmp_path_factory.mktemp("frozen"), postgres=True) as store:
        yield store


def _proxied(store: Store, proxy: FreezableProxy) -> str:
    name = store.engine.url.database
    return ADMIN_URL.rsplit("@", 1)[0] + f"@127.0.0.1:{proxy.port}/{name}"


# one key asks 24 at once here, past the pool and the store threads: no cap on it
FROZEN_ENV = {"SPORTS_STORE_TIMEOUT": str(STORE_TIMEOUT),
              "SPORTS_HEALTH_TIMEOUT": str(HEALTH_TIMEOUT), "SPORTS_KEY_IN_FLIGHT": "64"}


def _concurrently(calls: dict[str, Callable[[], tuple[float, httpx.Response]]]
                  ) -> dict[str, tuple[float, httpx.Response]]:
    with ThreadPoolExecutor(len(calls)) as pool:
        futures = {name: pool.submit(call) for name, call in calls.items()}
        return {name: future.result() for name, future in futures.items()}


@pytest.mark.postgres
def test_frozen_postgres_answers_503_in_seconds_and_recovers(pg_store: Store,
                                                             tmp_path: Path) -> None:
    key = issue_key(pg_store.url)
    proxy = FreezableProxy("127.0.0.1", 5432)
    try:
        with serving(_proxied(pg_store, proxy), tmp_path / "server.log", **FROZEN_ENV) as s:
            kept = f"{s.base_url}/v1/games/MLB/?key={key}&max=5"
            with httpx.Client(timeout=60) as client:
                before = client.get(kept)
                assert before.status_code == 200 and client.get(kept).status_code == 200
            proxy.freeze()
            try:
                def get(url: str) -> Callable[[], tuple[float, httpx.Response]]:
                    def call() -> tuple[float, httpx.Response]:
                        with httpx.Client(timeout=120) as own:
                            return _timed(own, url)
                    return call

                # 24 distinct queries: more than the 16 pooled sessions and store threads
                calls = {f"query{n}": get(f"{s.base_url}/v1/games/MLB/?key={key}&max={n + 10}")
                         for n in range(24)}
                calls.update({"health": get(s.base_url + "/health"),
                              "openapi": get(s.base_url + "/openapi.json"),
                              "docs": get(s.base_url + "/docs"),
                              "no key": get(s.base_url + "/v1/games/MLB/"),
                              "malformed": get(s.base_url + "/v1/games/MLB/?key=x"),
                              "404": get(s.base_url + "/v1/nothing/MLB/"),
                              "kept": get(kept)})
                answers = _concurrently(calls)
            finally:
                proxy.thaw()
            # A cached answer needs its key checked, and on PostgreSQL a grant is read again at
            # least every 100 ms (revocation wins): while the store does not answer, the kept
            # page is a 503 in seconds like any query, never a wait and never a stale grant.
            for name in [f"query{n}" for n in range(24)] + ["kept"]:
                elapsed, response = answers[name]
                error = _error(response, 503, "store_unavailable")
                assert "try again" in str(error["Message"])
                assert int(response.headers["Retry-After"]) >= 1
                assert elapsed < STORE_TIMEOUT + 2.5, f"{name} answered after {elapsed:.1f} s"
            elapsed, health = answers["health"]
            assert health.status_code == 503 and elapsed < HEALTH_TIMEOUT + 1.5, elapsed
            expected = {"openapi": 200, "docs": 200, "no key": 401, "malformed": 401,
                        "404": 404}
            for name, status in expected.items():
                elapsed, response = answers[name]
                assert response.status_code == status, (name, response.text[:200])
                assert elapsed < 1.5, f"{name} waited {elapsed:.1f} s on a frozen store"
            with httpx.Client(timeout=60) as client:
                deadline = time.monotonic() + 20
                while True:
                    after = client.get(f"{s.base_url}/v1/games/MLB/?key={key}&max=7")
                    if after.status_code == 200 or time.monotonic() > deadline:
                        break
                    time.sleep(0.2)
                assert after.status_code == 200, after.text[:300]
                assert client.get(s.base_url + "/health").status_code == 200
            assert "Traceback" not in s.log()
    finally:
        proxy.close()



@pytest.mark.postgres
def test_key_slot_is_held_until_its_stalled_work_has_stopped(pg_store: Store,
                                                              tmp_path: Path) -> None:
    """One slot a key (``SPORTS_KEY_IN_FLIGHT=1``). On a frozen PostgreSQL a request is
    answered 503 at its deadline while its thread still waits on the network (until the
    engine's watchdog cuts the session a second later): the key's next request is refused 429
    within the half second it waits for a slot, rather than given a second stalled thread
    (before: the slot was given back with the 503, and one key had as many threads working as
    it sent requests). Once the store answers again the key is served."""
    key = issue_key(pg_store.url)
    proxy = FreezableProxy("127.0.0.1", 5432)
    try:
        with (serving(_proxied(pg_store, proxy), tmp_path / "server.log",
                      **{**FROZEN_ENV, "SPORTS_KEY_IN_FLIGHT": "1"}) as s,
              httpx.Client(base_url=s.base_url, timeout=60) as client):
            assert client.get(f"/v1/games/MLB/?key={key}&max=3").status_code == 200
            proxy.freeze()
            try:
                elapsed, first = _timed(client, f"/v1/games/MLB/?key={key}&max=4")
                _error(first, 503, "store_unavailable")
                assert elapsed < STORE_TIMEOUT + 2.5, f"answered after {elapsed:.1f} s"
                elapsed, second = _timed(client, f"/v1/games/MLB/?key={key}&max=5")
                _error(second, 429, "too_many_in_flight")
                assert int(second.headers["Retry-After"]) >= 1 and elapsed < 1.0
            finally:
                proxy.thaw()
            waited = until(lambda: client.get(f"/v1/games/MLB/?key={key}&max=6")
                            .status_code == 200, 15)
            assert waited < 10, f"the key was served again {waited:.1f} s after the thaw"
            assert "Traceback" not in s.log()
    finally:
        proxy.close()


@pytest.mark.postgres
def test_change_listener_lets_a_frozen_postgres_go_within_the_store_timeout(
        pg_store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker's change listener (key revocations, ingests) checks its connection every
    heartbeat; on a frozen PostgreSQL the check is cut at the store timeout, the signal is
    lost (nothing kept is trusted), and it comes back by itself after the thaw."""
    monkeypatch.setattr(watch, "HEARTBEAT", 0.2)
    monkeypatch.setattr(watch, "STORE_TIMEOUT", 1.0)
    proxy = FreezableProxy("127.0.0.1", 5432)
    engine = make_engine(_proxied(pg_store, proxy))
    try:
        signal = watch.StoreWatch(engine)
        signal.generation()  # starts the listener
        until(lambda: signal.listening() is True, 10)
        proxy.freeze()
        lost = until(lambda: signal.listening() is False, 6)
        assert lost < 0.2 + 1.0 + 1.0, f"the frozen signal trusted for {lost:.1f} s"
        proxy.thaw()
        until(lambda: signal.listening() is True, 6)
    finally:
        proxy.thaw()
        proxy.close()
        engine.dispose()


@pytest.mark.postgres
def test_process_started_on_a_frozen_postgres_answers_what_needs_no_store(
        pg_store: Store, tmp_path: Path) -> None:
    proxy = FreezableProxy("127.0.0.1", 5432)
    proxy.freeze()
    try:
        with (serving(_proxied(pg_store, proxy), tmp_path / "server.log", **FROZEN_ENV) as s,
              httpx.Client(base_url=s.base_url, timeout=60) as client):
            for path, status in (("/openapi.json", 200), ("/v1/nothing/MLB/", 404),
                                 ("/v1/games/MLB/", 401), ("/docs", 200)):
                elapsed, response = _timed(client, path)
                assert response.status_code == status, (path, response.text[:200])
                assert elapsed < 1.5, f"{path} waited {elapsed:.1f} s on a frozen store"
            elapsed, response = _timed(client, "/v1/games/MLB/?key=AAAA-BBBBBB")
            _error(response, 503, "store_unavailable")
            assert elapsed < STORE_TIMEOUT + 2.5
            elapsed, health = _timed(client, "/health")
            assert health.status_code == 503 and elapsed < HEALTH_TIMEOUT + 1.5
    finally:
        proxy.close()


# ---------------------------------------------------------------- /health

@pytest.mark.parametrize("postgres", [False, pytest.param(True, marks=pytest.mark.postgres)])
def test_health_shows_the_store_kind_and_state_never_its_address(postgres: bool,
                                                                 tmp_path: Path) -> None:
    with mini_store_at(tmp_path, postgres=postgres) as store:
        url = store.engine.url
        with serving(store.url, tmp_path / "server.log") as server:
            health = httpx.get(server.base_url + "/health", timeout=30)
        assert health.status_code == 200
        doc = health.json()
        assert doc["Store"] == store.dialect and doc["Parts"]["Store"]["State"] == "ok"
        text = health.text
        secrets = [url.database or ""] if not postgres else [
            f"{url.username}@", f"{url.host}:", str(url.database)]
        if not postgres:
            secrets += [str(tmp_path), "sports.db"]
        for secret in secrets:
            assert secret not in text, f"/health shows {secret!r}"
