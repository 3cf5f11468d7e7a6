"""Parameter converters: what a client may write and what it gets back for bad input."""
from __future__ import annotations

import datetime as dt

import pytest

from server.errors import BadParameter
from server.catalog.clock import today
from server.http.parse import day_range, page_window, to_date, to_limit, to_number


@pytest.mark.parametrize("raw", ["2024-07-04", "20240704", "2024/07/04", "07/04/2024",
                                 "July 4, 2024", "4 Jul 2024", " 2024-07-04 "])
def test_dates_best_effort(raw: str) -> None:
    assert to_date("date", raw) == dt.date(2024, 7, 4)


@pytest.mark.parametrize("raw", ["2024-13-45", "tomorrow", "", "7/4", "20241345", "x" * 300])
def test_unreadable_dates_are_400(raw: str) -> None:
    with pytest.raises(BadParameter) as caught:
        to_date("start", raw)
    assert caught.value.parameter == "start"


def test_limit_with_or_without_equals() -> None:
    assert to_limit("limit", "=today") == to_limit("limit", "today") == "today"
    assert to_limit("limit", "==InProgress") == "inprogress"


@pytest.mark.parametrize("raw", ["abc", "1.5", "", "99999999999999999999", "1e3"])
def test_numbers_reject_non_numbers(raw: str) -> None:
    with pytest.raises(BadParameter):
        to_number("team", raw)


def test_max_and_page_rules() -> None:
    warnings: list[str] = []
    assert page_window(None, None, warnings) == (100, 1)
    assert page_window("5000", "3", warnings) == (1000, 3) and warnings
    for bad in ("0", "-1", "x"):
        with pytest.raises(BadParameter):
            page_window(bad, None, [])
        with pytest.raises(BadParameter):
            page_window(None, bad, [])


def test_day_range_rules() -> None:
    warnings: list[str] = []
    d = dt.date(2024, 7, 4)
    assert day_range({"date": d, "start": dt.date(2024, 1, 1)}, warnings) == (d, d)
    assert warnings
    now = today()
    assert day_range({"last": 7}, []) == (now - dt.timedelta(days=6), now)
    with pytest.raises(BadParameter):
        day_range({"start": d, "end": dt.date(2024, 7, 1)}, [])
