"""The nightly job: the levels in season, the job registered at 03:00, and one run per night
however many instances schedule it: the store picks the leader (``scheduler.leading``); a night
taken is not run again, the next night is run normally."""
from __future__ import annotations

import datetime as dt

import pytest
import sqlalchemy as sa

from server.catalog import clock
from server.jobs import scheduler
from server.store.engine import make_engine
from server.store.init import init_store
from tests.pg import fresh_database

NIGHT = dt.date(2026, 11, 24)


def test_levels_in_season_window(store) -> None:
    engine, _ = store
    # synthetic seasons start on April 1st of 2023 and 2024
    assert scheduler.levels_in_season(engine, dt.date(2024, 3, 26)) == ["FC", "MBB", "MLB", "NHL"]
    assert scheduler.levels_in_season(engine, dt.date(2024, 3, 20)) == []
    assert scheduler.levels_in_season(engine, dt.date(2030, 1, 1)) == []


def test_start_scheduler_registers_the_nightly_job(store) -> None:
    engine, _ = store
    sched = scheduler.start_scheduler(engine)
    try:
        job = sched.get_job(scheduler.JOB_ID)
        nxt = job.next_run_time.astimezone(clock.SERVICE_TZ)
        assert (nxt.hour, nxt.minute) == (3, 0)
    finally:
        sched.shutdown(wait=False)
    assert scheduler.nightly(engine) == {}  # today: no synthetic level is in season


def _leads(engine: sa.Engine, night: dt.date) -> bool:
    with scheduler.leading(engine, night) as lead:
        return lead


def test_a_night_is_led_once_and_the_next_night_again(new_store: sa.Engine) -> None:
    assert _leads(new_store, NIGHT) is True
    assert _leads(new_store, NIGHT) is False  # a second instance firing late: skipped
    assert _leads(new_store, NIGHT - dt.timedelta(days=1)) is False  # never backwards
    assert _leads(new_store, NIGHT + dt.timedelta(days=1)) is True


def test_run_night_skips_on_the_instance_that_did_not_lead(new_store: sa.Engine) -> None:
    assert scheduler.run_night(new_store, NIGHT) == {}  # ran: no level in season in an empty store
    assert scheduler.run_night(new_store, NIGHT) is None


@pytest.mark.postgres
def test_postgres_job_in_progress_holds_the_lock() -> None:
    """While a leader runs (its lock held on its own connection), another instance cannot lead,
    even for a night nobody claimed; the lock goes with the leader's block (or its death)."""
    with fresh_database("sports_lead") as url:
        engine, other = make_engine(url), make_engine(url)
        init_store(engine)
        try:
            with scheduler.leading(engine, NIGHT) as lead:
                assert lead is True
                assert _leads(other, NIGHT + dt.timedelta(days=1)) is False
            assert _leads(other, NIGHT + dt.timedelta(days=1)) is True
        finally:
            other.dispose()
            engine.dispose()
