"""The nightly job: 03:00 America/New_York, simulated levels brought up to the new day, then
the levels in season re-tabulated (docs/api/index.md).

``python -m server serve`` starts one ``BackgroundScheduler`` with this cron job for the life of
the server (in the parent process, however many workers answer requests) and shuts it down on
exit. Every instance on a store may run it: the store picks one per night (``leading``), and the
others skip that night. ``serve --no-scheduler`` opts an instance out.
``SPORTS_RETABULATE_AT`` moves the time (HH:MM or HH:MM:SS, still America/New_York). A level is
in season when it has games within ``IN_SEASON_DAYS`` of today (either side), so the job is idle
in the off-season. Each run is recorded (``server.jobs.runs``) and shown by ``/health``.
"""
from __future__ import annotations

import datetime as dt
import logging
import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql
from sqlalchemy.dialects import sqlite as sqlite_dialect
from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.triggers.cron import CronTrigger

from server.catalog import clock
from server.errors import UserError
from server.jobs import projections, retabulate
from server.jobs.fill import child_url
from server.store import schema

RUN_AT_ENV, RUN_AT_DEFAULT = "SPORTS_RETABULATE_AT", "03:00"
IN_SEASON_DAYS = 7
JOB_ID = "nightly-retabulate"
CLAIM_KEY = "nightly_claimed"  # store_info: the latest night an instance took the job for
LOCK_ID = int.from_bytes(b"sprtnite", "big")  # PostgreSQL advisory lock held by the running job
ROOT = Path(__file__).resolve().parents[2]  # where ``python -m server`` runs
log = logging.getLogger(__name__)


def run_at(text: str | None = None) -> tuple[int, int, int]:
    """(hour, minute, second) of the nightly run, from ``SPORTS_RETABULATE_AT`` by default."""
    raw = (os.environ.get(RUN_AT_ENV) or RUN_AT_DEFAULT) if text is None else text
    m = re.fullmatch(r"(\d{1,2}):(\d{2})(?::(\d{2}))?", raw.strip())
    if not m or int(m[1]) > 23 or int(m[2]) > 59 or int(m[3] or 0) > 59:
        raise UserError(f"{RUN_AT_ENV} '{raw}' is not a time of day (HH:MM or HH:MM:SS, "
                        "America/New_York)")
    return int(m[1]), int(m[2]), int(m[3] or 0)


def levels_in_season(engine: sa.Engine, today: dt.date | None = None) -> list[str]:
    """Levels with at least one game dated within IN_SEASON_DAYS of ``today`` (Eastern)."""
    today = today or clock.today()
    lo, hi = today - dt.timedelta(days=IN_SEASON_DAYS), today + dt.timedelta(days=IN_SEASON_DAYS)
    g = schema.games.c
    with engine.connect() as conn:
        rows = conn.execute(sa.select(g.level).where(g.game_day.between(lo, hi)).distinct()).all()
    return sorted(r[0] for r in rows)


def refresh_simulation(engine: sa.Engine, today: dt.date | None = None) -> bool:
    """Rebuild the simulated levels for today when they were built for an earlier day, the way
    they were built (seed, size, levels: ``simulator.last_build``), so yesterday's games are
    over and today's are on the schedule. A child process runs ``python -m server demo``, so a
    full build's memory and CPU stay out of the server. True when it rebuilt; a failure is
    logged and the store keeps yesterday's levels (the build writes in one transaction)."""
    from server.ingest.simulator import last_build  # the simulator: only here

    today = today or clock.today()
    with engine.connect() as conn:
        build = last_build(conn)
    if build is None or str(build.get("Day", "")) >= today.isoformat():
        return False
    args = [sys.executable, "-m", "server", *demo_args(build)]
    env = {**os.environ, "DATABASE_URL": child_url(engine.url).render_as_string(
        hide_password=False)}
    done = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
        log.error("simulated levels not brought up to %s: %s", today, last)
        return False
    log.info("simulated levels brought up to %s (built for %s)", today, build.get("Day"))
    return True


def demo_args(build: dict[str, Any]) -> list[str]:
    """The ``python -m server`` arguments that build the simulated levels again as ``build``
    (``simulator.last_build``) was built: its seed, size, levels and seasons."""
    args = ["demo", "--seed", str(build["Seed"]), "--size", str(build["Size"])]
    if build.get("Levels"):
        args += ["--levels", ",".join(build["Levels"])]
    if build.get("SkipReal"):
        args.append("--skip-real")
    if build.get("Seasons"):
        args += ["--seasons", str(build["Seasons"])]
    return args


def nightly(engine: sa.Engine) -> dict[str, dict[str, float]]:
    """The job: bring simulated levels up to today, then re-tabulate the levels in season
    (none when none is; the run is recorded either way, so /health shows the job is alive)."""
    # a rebuilt simulation changes every simulated level: all are re-tabulated then
    levels = None if refresh_simulation(engine) else levels_in_season(engine)
    report = retabulate.run(engine, levels)
    log.info("nightly re-tabulation: %s", {k: round(v["seconds"], 2) for k, v in report.items()})
    # the season projections of the same levels, as of their newest day with games (own
    # transaction: a failure here leaves the new ratings in place and the old projections)
    seconds = projections.run(engine, list(report))
    log.info("nightly projections: %s", {k: round(v, 2) for k, v in seconds.items()})
    return report


def _claim(engine: sa.Engine, night: dt.date) -> bool:
    """Take ``night``'s job unless an instance already did: one conditional upsert, atomic on
    both stores (SQLite: under the file's write lock; PostgreSQL: a second writer waits on the
    row, then finds it taken). The claim outlives its instance on purpose: a job that dies is
    not run again that night (its write rolled back, the store is as before), and the next night
    claims afresh."""
    info = schema.store_info
    stmt = (postgresql.insert(info) if engine.dialect.name == "postgresql"
            else sqlite_dialect.insert(info)).values(key=CLAIM_KEY, value=night.isoformat())
    stmt = stmt.on_conflict_do_update(index_elements=["key"], set_={"value": stmt.excluded.value},
                                      where=info.c.value < stmt.excluded.value)
    with engine.begin() as conn:  # a row comes back only when inserted or updated
        return conn.execute(stmt.returning(info.c.key)).first() is not None


@contextmanager
def leading(engine: sa.Engine, night: dt.date) -> Iterator[bool]:
    """True inside the block for the one instance that runs ``night``'s job, False for every
    other. On PostgreSQL the leader also holds an advisory lock on a connection of its own for
    the whole job: no two jobs overlap even when one outlasts a day, and a leader that dies
    drops the lock with its connection. On SQLite the claim's write lock is the explicit
    lock (re-tabulation then holds the file's write lock for its run)."""
    if engine.dialect.name != "postgresql":
        yield _claim(engine, night)
        return
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        if not conn.execute(sa.select(sa.func.pg_try_advisory_lock(LOCK_ID))).scalar():
            yield False
            return
        try:
            yield _claim(engine, night)
        finally:
            conn.execute(sa.select(sa.func.pg_advisory_unlock(LOCK_ID)))


def run_night(engine: sa.Engine, night: dt.date | None = None
              ) -> dict[str, dict[str, float]] | None:
    """The scheduled entry: ``nightly`` on the one instance the store picks for ``night``
    (today on the wall clock in New York: the cron's own day, whatever ``SPORTS_NOW`` says);
    None on the others."""
    night = night or dt.datetime.now(clock.SERVICE_TZ).date()
    with leading(engine, night) as lead:
        if not lead:
            log.info("nightly job of %s: another instance has it; skipped here", night)
            return None
        log.info("nightly job of %s: running here (%s, pid %d)", night, socket.gethostname(),
                 os.getpid())
        return nightly(engine)


def start_scheduler(engine: sa.Engine) -> BackgroundScheduler:
    """Start and return the background scheduler running ``run_night`` at ``run_at()``
    Eastern."""
    hour, minute, second = run_at()
    scheduler = BackgroundScheduler(timezone=clock.SERVICE_TZ)
    scheduler.add_job(run_night, CronTrigger(hour=hour, minute=minute, second=second,
                                           timezone=clock.SERVICE_TZ),
                      args=[engine], id=JOB_ID, max_instances=1, coalesce=True,
                      misfire_grace_time=3600, replace_existing=True)
    scheduler.start()
    return scheduler
