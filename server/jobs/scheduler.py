"""The nightly re-tabulation: 03:00 America/New_York, levels in season only (contract 5).

``python -m server serve`` starts one ``BackgroundScheduler`` with this cron job for the life of
the server (in the parent process, however many workers answer requests) and shuts it down on
exit; ``serve --no-scheduler`` leaves it to another instance when several share a store.
``SPORTS_RETABULATE_AT`` moves the time (HH:MM or HH:MM:SS, still America/New_York). A level is
in season when it has games within ``IN_SEASON_DAYS`` of today (either side), so the job is idle
in the off-season. Each run is recorded by ``retabulate.last_run`` and shown by ``/health``.
"""
from __future__ import annotations

import datetime as dt
import logging
import os
import re
from zoneinfo import ZoneInfo

import sqlalchemy as sa
from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.triggers.cron import CronTrigger

from server.errors import UserError
from server.jobs import retabulate
from server.store import schema

TIMEZONE = ZoneInfo("America/New_York")
RUN_AT_ENV, RUN_AT_DEFAULT = "SPORTS_RETABULATE_AT", "03:00"
IN_SEASON_DAYS = 7
JOB_ID = "nightly-retabulate"
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
    today = today or dt.datetime.now(TIMEZONE).date()
    lo, hi = today - dt.timedelta(days=IN_SEASON_DAYS), today + dt.timedelta(days=IN_SEASON_DAYS)
    g = schema.games.c
    with engine.connect() as conn:
        rows = conn.execute(sa.select(g.level).where(g.game_day.between(lo, hi)).distinct()).all()
    return sorted(r[0] for r in rows)


def nightly(engine: sa.Engine) -> dict[str, dict[str, float]]:
    """The job: re-tabulate the levels in season (none when none is; the run is recorded
    either way, so /health shows the job is alive)."""
    levels = levels_in_season(engine)
    report = retabulate.run(engine, levels)
    log.info("nightly re-tabulation: %s", {k: round(v["seconds"], 2) for k, v in report.items()})
    return report


def start_scheduler(engine: sa.Engine) -> BackgroundScheduler:
    """Start and return the background scheduler running ``nightly`` at ``run_at()`` Eastern."""
    hour, minute, second = run_at()
    scheduler = BackgroundScheduler(timezone=TIMEZONE)
    scheduler.add_job(nightly, CronTrigger(hour=hour, minute=minute, second=second,
                                           timezone=TIMEZONE),
                      args=[engine], id=JOB_ID, max_instances=1, coalesce=True,
                      misfire_grace_time=3600, replace_existing=True)
    scheduler.start()
    return scheduler
