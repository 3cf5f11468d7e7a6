"""``python -m server serve`` runs the nightly re-tabulation itself: a server started shortly
before its time (``SPORTS_RETABULATE_AT``, moved here to a few seconds ahead) re-tabulates the
levels in season on its own, and ``/health`` shows the run."""
from __future__ import annotations

import datetime as dt
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from server.errors import UserError
from server.jobs import scheduler
from server.store.engine import make_engine
from tests.conftest import free_port
from tests.demo_api import ROOT, ApiServer, wait_until_up

LEAD_SECONDS = 10  # time to start the server before the job is due
WAIT_SECONDS = 120


def _copy(database_url: str, target: Path) -> None:
    """A consistent copy of a SQLite store another server is using (the backup API)."""
    source = sqlite3.connect(database_url.removeprefix("sqlite:///"))
    with sqlite3.connect(target) as copy:
        source.backup(copy)
    source.close()


def test_serve_retabulates_the_levels_in_season_at_its_time(demo_api: ApiServer,
                                                            tmp_path: Path) -> None:
    if not demo_api.database_url.startswith("sqlite:///"):
        pytest.skip("the demo store is not a SQLite file")
    store = tmp_path / "store.db"
    _copy(demo_api.database_url, store)
    url = f"sqlite:///{store}"
    due = dt.datetime.now(scheduler.TIMEZONE) + dt.timedelta(seconds=LEAD_SECONDS)
    env = {**os.environ, "DATABASE_URL": url, scheduler.RUN_AT_ENV: due.strftime("%H:%M:%S")}
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
        assert before is not None, "the demo build's own re-tabulation is on record"
        deadline = time.monotonic() + LEAD_SECONDS + WAIT_SECONDS
        after = before
        while after["At"] == before["At"] and time.monotonic() < deadline:
            time.sleep(1)
            after = requests.get(health, timeout=5).json()["Retabulated"]
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    assert after["At"] != before["At"], f"no scheduled run; server log:\n{log.read_text()}"
    engine = make_engine(url)
    in_season = scheduler.levels_in_season(engine)
    engine.dispose()
    assert in_season and after["Levels"] == in_season
    assert f"daily at {due:%H:%M:%S} America/New_York" in log.read_text()


def test_the_time_of_day_is_checked() -> None:
    assert scheduler.run_at("03:00") == (3, 0, 0)
    assert scheduler.run_at("23:59:30") == (23, 59, 30)
    for bad in ("25:00", "3", "03:60", "noon"):
        with pytest.raises(UserError, match="not a time of day"):
            scheduler.run_at(bad)
