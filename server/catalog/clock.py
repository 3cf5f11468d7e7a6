"""The service's clock: the one definition of "now" and of "today".

The service's day is the calendar day in America/New_York, daylight saving included (docs/api/index.md:
``last`` counts days there; docs/api/reference.md: the nightly re-tabulation runs at about 3 am Eastern).
The server, the simulator, the scheduler and the dashboard all ask this module, so they agree on
the day at every hour of the year (a fixed UTC-5 is an hour off from March to November).

``SPORTS_NOW`` (an ISO 8601 instant such as ``2024-07-04T16:00:00Z``; no zone means UTC) pins the
clock, so a test, a benchmark or a recorded sample of documents sees the same day however long it
runs and whenever it is run.
"""
from __future__ import annotations

import datetime as dt
import os
from functools import lru_cache
from zoneinfo import ZoneInfo

from server.errors import UserError

SERVICE_TZ = ZoneInfo("America/New_York")
PIN_VARIABLE = "SPORTS_NOW"


@lru_cache(maxsize=8)
def _pinned(text: str) -> dt.datetime:
    try:
        instant = dt.datetime.fromisoformat(text.strip())
    except ValueError:
        raise UserError(f"{PIN_VARIABLE} '{text}' is not an ISO 8601 instant "
                        "(e.g. 2024-07-04T16:00:00Z)") from None
    return instant.replace(tzinfo=dt.UTC) if instant.tzinfo is None else instant.astimezone(dt.UTC)


def now() -> dt.datetime:
    """The current instant in UTC, timezone-aware (``SPORTS_NOW`` when set)."""
    pinned = os.environ.get(PIN_VARIABLE)
    return _pinned(pinned) if pinned else dt.datetime.now(dt.UTC)


def utc_now() -> dt.datetime:
    """The current instant as a naive UTC datetime, the store's form for instants."""
    return now().replace(tzinfo=None, microsecond=0)


def service_day(instant: dt.datetime) -> dt.date:
    """The service's day at an instant; a naive instant is read as UTC."""
    if instant.tzinfo is None:
        instant = instant.replace(tzinfo=dt.UTC)
    return instant.astimezone(SERVICE_TZ).date()


def today() -> dt.date:
    """Today in the service's time zone (not the machine's)."""
    return service_day(now())
