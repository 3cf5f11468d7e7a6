"""``python -m server serve`` runs the nightly job itself: a server started shortly before its
time (``SPORTS_RETABULATE_AT``, moved here to a few seconds ahead) re-tabulates the levels in
season on its own, first bringing a simulation built for an earlier day up to today, and
``/health`` shows the run."""
from __future__ import annotations

import datetime as dt
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import orjson
import pytest
import requests

from server.errors import UserError
from server.ingest import simulator
from server.catalog import clock
from server.jobs import retabulate, scheduler
from server.store import schema
from server.store.engine import make_engine
from server.store.init import init_store
from server.store.loader import upsert
from tests.conftest import free_port
from tests.demo_api import ROOT, ApiServer, wait_until_up

LEAD_SECONDS = 10  # time to start the server before the job is due
WAIT_SECONDS = 180  # a rebuilt small simulation and a full re-tabulation fit well within it


def _copy(database_url: str, target: Path) -> None:
    """A consistent copy of a SQLite store another server is using (the backup API)."""
    source = sqlite3.connect(database_url.removeprefix("sqlite:///"))
    with sqlite3.connect(target) as copy:
        source.backup(copy)
    source.close()


def _due() -> dt.datetime:
    """When the served job is to run: ``LEAD_SECONDS`` from now, in the service's zone."""
    return dt.datetime.now(clock.SERVICE_TZ) + dt.timedelta(seconds=LEAD_SECONDS)


def _serve_until_the_job_ran(store: Path, tmp_path: Path, due: dt.datetime | None = None
                             ) -> tuple[dict[str, Any], str]:
    """Serve ``store`` with the job due at ``due`` (default: in ``LEAD_SECONDS``); return
    /health's record of the run that follows (failing when none comes) and the server's log."""
    due = due or _due()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{store}",
           scheduler.RUN_AT_ENV: due.strftime("%H:%M:%S")}
    env.pop("REDIS_URL", None)
    port = free_port()
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "server", "serve", "--port", str(port)],
                                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        health = f"http://127.0.0.1:{port}/health"
        wait_until_up(health)
        before = requests.get(health, timeout=5).json()["Retabulated"]
        assert before is not None, "the store's own re-tabulation is on record"
        deadline = time.monotonic() + LEAD_SECONDS + WAIT_SECONDS
        after = before
        while after["At"] == before["At"] and time.monotonic() < deadline:
            time.sleep(1)
            after = requests.get(health, timeout=5).json()["Retabulated"]
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    text = log.read_text()
    assert after["At"] != before["At"], f"no scheduled run; server log:\n{text}"
    assert f"daily at {due:%H:%M:%S} America/New_York" in text
    return after, text


def test_serve_retabulates_the_levels_in_season_at_its_time(demo_api: ApiServer,
                                                            tmp_path: Path) -> None:
    if not demo_api.database_url.startswith("sqlite:///"):
        pytest.skip("the demo store is not a SQLite file")
    store = tmp_path / "store.db"
    _copy(demo_api.database_url, store)
    due = _due()
    # the simulation is of the job's own day, even when the session's demo store was built
    # before a midnight (a store built the day before is the next test's case)
    engine = make_engine(f"sqlite:///{store}")
    with engine.begin() as conn:
        build = simulator.last_build(conn)
        assert build is not None, "the demo store records how it was built"
        upsert(conn, schema.store_info, [{"key": simulator.BUILD_KEY, "value": orjson.dumps(
            {**build, "Day": due.date().isoformat()}).decode()}])
    in_season = scheduler.levels_in_season(engine, due.date())
    engine.dispose()
    ran, _ = _serve_until_the_job_ran(store, tmp_path, due)
    assert in_season and ran["Levels"] == in_season


def test_serve_brings_a_simulation_built_yesterday_up_to_today(tmp_path: Path) -> None:
    """A demo left running overnight: its simulated levels are rebuilt for the new day, the way
    they were built, and every level is re-tabulated."""
    store = tmp_path / "store.db"
    engine = make_engine(f"sqlite:///{store}")
    init_store(engine)
    yesterday = dt.datetime.now(dt.UTC).replace(tzinfo=None) - dt.timedelta(days=1)
    simulator.run(engine, seed=7, size="small", levels="NBA,MLB,FC", now=yesterday)
    retabulate.run(engine)
    engine.dispose()
    ran, log = _serve_until_the_job_ran(store, tmp_path)
    engine = make_engine(f"sqlite:///{store}")
    with engine.connect() as conn:
        build = simulator.last_build(conn)
    engine.dispose()
    assert build is not None
    today = clock.today()
    assert build["Day"] == today.isoformat(), log
    assert (build["Seed"], build["Size"], build["Levels"]) == (7, "small", ["NBA", "MLB", "FC"])
    assert sorted(ran["Levels"]) == ["FC", "MLB", "NBA"], "every level is re-tabulated"


def test_the_time_of_day_is_checked() -> None:
    assert scheduler.run_at("03:00") == (3, 0, 0)
    assert scheduler.run_at("23:59:30") == (23, 59, 30)
    for bad in ("25:00", "3", "03:60", "noon"):
        with pytest.raises(UserError, match="not a time of day"):
            scheduler.run_at(bad)


def test_a_nightly_rebuild_keeps_the_seasons_the_demo_was_built_with() -> None:
    build = {"Seed": 7, "Size": "full", "Levels": ["MLB"], "SkipReal": False, "Seasons": 2}
    assert scheduler.demo_args(build) == ["demo", "--seed", "7", "--size", "full",
                                          "--levels", "MLB", "--seasons", "2"]
    assert "--seasons" not in scheduler.demo_args({**build, "Seasons": None})
