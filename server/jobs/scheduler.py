"""The nightly re-tabulation: 03:00 America/New_York, levels in season only (contract 5).

``start_scheduler(engine)`` starts an APScheduler ``BackgroundScheduler`` with one cron job; the
HTTP app calls it on startup and ``shutdown()`` on exit. A level is in season when it has games
within ``IN_SEASON_DAYS`` of today (either side), so the job is idle in the off-season.
"""
from __future__ import annotations

import datetime as dt
import logging
from zoneinfo import ZoneInfo

import sqlalchemy as sa
from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.triggers.cron import CronTrigger

from server.jobs import retabulate
from server.store import schema

TIMEZONE = ZoneInfo("America/New_York")
RUN_HOUR, RUN_MINUTE = 3, 0
IN_SEASON_DAYS = 7
JOB_ID = "nightly-retabulate"
log = logging.getLogger(__name__)


def levels_in_season(engine: sa.Engine, today: dt.date | None = None) -> list[str]:
    """Levels with at least one game dated within IN_SEASON_DAYS of ``today`` (Eastern)."""
    today = today or dt.datetime.now(TIMEZONE).date()
    lo, hi = today - dt.timedelta(days=IN_SEASON_DAYS), today + dt.timedelta(days=IN_SEASON_DAYS)
    g = schema.games.c
    with engine.connect() as conn:
        rows = conn.execute(sa.select(g.level).where(g.game_day.between(lo, hi)).distinct()).all()
    return sorted(r[0] for r in rows)


def nightly(engine: sa.Engine) -> dict[str, dict[str, float]]:
    """The job: re-tabulate the levels in season (nothing when none is)."""
    levels = levels_in_season(engine)
    if not levels:
        log.info("nightly re-tabulation: no level in season")
        return {}
    report = retabulate.run(engine, levels)
    log.info("nightly re-tabulation: %s", {k: round(v["seconds"], 2) for k, v in report.items()})
    return report


def start_scheduler(engine: sa.Engine) -> BackgroundScheduler:
    """Start and return the background scheduler running ``nightly`` at 03:00 Eastern."""
    scheduler = BackgroundScheduler(timezone=TIMEZONE)
    scheduler.add_job(nightly, CronTrigger(hour=RUN_HOUR, minute=RUN_MINUTE, timezone=TIMEZONE),
                      args=[engine], id=JOB_ID, max_instances=1, coalesce=True,
                      misfire_grace_time=3600, replace_existing=True)
    scheduler.start()
    return scheduler
