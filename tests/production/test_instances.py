"""Any number of instances on one PostgreSQL, one nightly job (issue 19, parts 2 and 3).

Three ``serve`` instances on a scratch database, each with its scheduler on and the job moved to
a few seconds ahead (``SPORTS_RETABULATE_AT``):

* an ingest through the command line is seen by every instance on its very next request, though
  each kept its answers for ten minutes (``SPORTS_CACHE_TTL``): the store's change signal, not the
  TTL, drops them;
* exactly one instance runs the night's job, the others skip it; killed mid-job (the store's
  pause hook holds it before its commit), it leaves every table as it was when the job began,
  nobody runs that night again, and the next night is led and run normally.
"""
from __future__ import annotations

import datetime as dt
import os
import signal
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest

from server.catalog import clock
from server.jobs import scheduler
from server.jobs.runs import last_run
from server.store.loader import PAUSE_HOOK
from tests.fixtures.digest import table_digests
from tests.production._harness import Server, cli, issue_key, serving
from tests.production.conftest import Store, mini_store_at

INSTANCES = 3
LEAD_SECONDS = 20  # the job is due this long after the test starts the instances
PAUSED = "written, not committed"  # the pause hook's line: the job wrote and waits to commit
SKIPPED = "another instance has it; skipped here"
FEED = {
    "feed.json": '{"source": "acme", "level": "NBA"}',
    "teams.csv": "key,name,abbrev\nhb,Harbor Hawks,HBH\nrc,River City Rams,RCR\n",
    "games.csv": ("key,season,date,visitor,home,score_vis,score_home,state\n"
                  "g1,2025,2025-01-10,rc,hb,101,99,final\n"),
}

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def pg_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    with mini_store_at(tmp_path_factory.mktemp("instances"), postgres=True) as store:
        yield store


def _games(server: Server, key: str) -> list[dict[str, object]]:
    response = httpx.get(server.base_url + "/v1/games/NBA/",
                         params={"key": key, "season": 2025}, timeout=30)
    assert response.status_code == 200, response.text[:300]
    games: list[dict[str, object]] = response.json()["games"]
    return games


def test_three_instances_one_job_fresh_answers(pg_store: Store, tmp_path: Path) -> None:
    key = issue_key(pg_store.url)
    due = dt.datetime.now(clock.SERVICE_TZ) + dt.timedelta(seconds=LEAD_SECONDS)
    env = {scheduler.RUN_AT_ENV: due.strftime("%H:%M:%S"), PAUSE_HOOK: "60",
           "SPORTS_CACHE_TTL": "600"}
    with ExitStack() as stack:
        servers = [stack.enter_context(serving(pg_store.url, tmp_path / f"serve{n}.log",
                                               scheduler=True, **env))
                   for n in range(INSTANCES)]
        assert dt.datetime.now(clock.SERVICE_TZ) < due - dt.timedelta(seconds=4), \
            "instances too slow to start before the job"

        # fresh answers: every instance keeps the empty answer, then sees the ingest at once
        for server in servers:
            assert _games(server, key) == [] and _games(server, key) == []
        bundle = tmp_path / "feed"
        bundle.mkdir()
        for name, text in FEED.items():
            (bundle / name).write_text(text)
        cli(pg_store.url, "ingest", "feed", str(bundle))
        for server in servers:
            games = _games(server, key)
            assert [(g["ScoreVis"], g["ScoreHome"]) for g in games] == [(101, 99)], games

        # one job: exactly one instance reaches the job's commit, the others skip the night
        deadline = time.monotonic() + LEAD_SECONDS + 30
        while not any(PAUSED in s.log() for s in servers):
            assert time.monotonic() < deadline, "no instance ran the job:\n" + servers[0].log()
            time.sleep(0.1)
        leaders = [s for s in servers if PAUSED in s.log()]
        others = [s for s in servers if s not in leaders]
        assert len(leaders) == 1
        deadline = time.monotonic() + 10
        while not all(SKIPPED in s.log() for s in others):
            assert time.monotonic() < deadline, [s.log()[-1500:] for s in others]
            time.sleep(0.1)

        # killed mid-job: the store is as the job found it
        before = table_digests(pg_store.engine)
        with pg_store.engine.connect() as conn:
            run_before = last_run(conn)
        os.killpg(leaders[0].process.pid, signal.SIGKILL)
        leaders[0].process.wait(10)
        assert table_digests(pg_store.engine) == before
        time.sleep(1.0)  # nobody takes the night up again
        assert not any(PAUSED in s.log() for s in others)
        for server in others:  # and the survivors answer as before
            assert len(_games(server, key)) == 1
            assert httpx.get(server.base_url + "/health", timeout=10).status_code == 200

    # the next night is led (the dead leader's lock went with its connection) and runs
    tomorrow = dt.datetime.now(clock.SERVICE_TZ).date() + dt.timedelta(days=1)
    report = scheduler.run_night(pg_store.engine, tomorrow)
    assert report is not None and "MLB" in report, report
    with pg_store.engine.connect() as conn:
        assert last_run(conn) != run_before
