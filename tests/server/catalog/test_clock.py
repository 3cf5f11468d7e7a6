"""The service's day is New York's calendar day, daylight saving included, and can be pinned."""
from __future__ import annotations

import datetime as dt

import pytest

from server.catalog import clock
from server.errors import UserError


@pytest.mark.parametrize(("instant", "day"), [
    # summer (EDT, UTC-4): 03:30 UTC is still the previous evening in New York
    (dt.datetime(2024, 7, 5, 3, 30), dt.date(2024, 7, 4)),
    # summer: 04:30 UTC is already the next day (a fixed UTC-5 would still say the 4th)
    (dt.datetime(2024, 7, 5, 4, 30), dt.date(2024, 7, 5)),
    # winter (EST, UTC-5): 04:30 UTC is still the previous day
    (dt.datetime(2024, 1, 5, 4, 30), dt.date(2024, 1, 4)),
    (dt.datetime(2024, 1, 5, 5, 30, tzinfo=dt.UTC), dt.date(2024, 1, 5)),
])
def test_service_day_follows_new_york_with_daylight_saving(instant: dt.datetime,
                                                           day: dt.date) -> None:
    assert clock.service_day(instant) == day


def test_sports_now_pins_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(clock.PIN_VARIABLE, "2024-07-05T03:30:00Z")
    assert clock.today() == dt.date(2024, 7, 4)
    assert clock.utc_now() == dt.datetime(2024, 7, 5, 3, 30)
    monkeypatch.setenv(clock.PIN_VARIABLE, "yesterday")
    with pytest.raises(UserError, match="SPORTS_NOW"):
        clock.now()
