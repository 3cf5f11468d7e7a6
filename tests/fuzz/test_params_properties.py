"""Property tests for the parameter converters (server/http/parse.py, docs/api/index.md):
whatever the text, a converter returns its type or raises the API's own ``BadParameter``."""
from __future__ import annotations

import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st

from server.errors import BadParameter
from server.http.parse import (CONVERTERS, MAX_LIMIT, day_range, page_window, to_date, to_limit,
                                to_number)

ANY_TEXT = st.one_of(
    st.text(max_size=60),
    st.integers(-10**30, 10**30).map(str),
    st.dates().map(lambda d: d.strftime("%Y%m%d")),
    st.dates().map(lambda d: d.strftime("%m/%d/%Y")),
    st.dates().map(lambda d: d.strftime("%B %d, %Y")),
    st.sampled_from(["", " ", "\x00", "=", "==today", "postseason", "PlayIn, regular", "regular,",
                     "1e9", "NaN", "0x10", "+5", "-0", "٣",
                     "２０２４-０１-０１", "2024-02-30", "9999-12-31", "0000-01-01"]),
)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(sorted(CONVERTERS)), ANY_TEXT)
def test_converters_return_or_raise_bad_parameter(kind: str, raw: str) -> None:
    try:
        value = CONVERTERS[kind]("p", raw)
    except BadParameter as error:
        assert error.parameter == "p" and error.status == 400 and error.message
        return
    expected = {"number": int, "positive": int, "date": dt.date, "limit": str, "search": str,
                "string": str, "ref": (int, str), "state": str, "seasontype": tuple,
                "phase": tuple}[kind]
    assert isinstance(value, expected)  # type: ignore[arg-type]


@given(st.dates())
def test_iso_and_compact_dates_always_work(day: dt.date) -> None:
    assert to_date("date", day.isoformat()) == day
    if day.year >= 1000:
        assert to_date("date", day.strftime("%Y%m%d")) == day


@given(st.dates(min_value=dt.date(1000, 1, 1)))
def test_best_effort_forms_read_month_first(day: dt.date) -> None:
    for text in (day.strftime("%m/%d/%Y"), day.strftime("%Y/%m/%d"), day.strftime("%B %d, %Y"),
                 day.strftime("%d %b %Y")):
        assert to_date("date", text) == day


@given(st.text(alphabet=st.characters(codec="ascii"), max_size=20))
def test_limit_with_or_without_equals_is_the_same(value: str) -> None:
    assert to_limit("limit", "=" + value) == to_limit("limit", value)


@given(st.integers(-(2**63) + 1, 2**63 - 1))
def test_numbers_in_64_bits_round_trip(n: int) -> None:
    assert to_number("team", str(n)) == n


@given(st.integers(2**63, 10**30))
def test_numbers_beyond_64_bits_are_refused(n: int) -> None:
    for text in (str(n), str(-n)):
        try:
            to_number("team", text)
        except BadParameter:
            continue
        raise AssertionError(f"{text} accepted")


@settings(max_examples=300)
@given(st.one_of(st.none(), ANY_TEXT), st.one_of(st.none(), ANY_TEXT))
def test_max_and_page(raw_max: str | None, raw_page: str | None) -> None:
    warnings: list[str] = []
    try:
        size, page = page_window(raw_max, raw_page, warnings)
    except BadParameter as error:
        assert error.parameter in ("max", "page")
        return
    assert 1 <= size <= MAX_LIMIT and page >= 1
    if raw_max is not None and int(raw_max.strip()) > MAX_LIMIT:
        assert warnings  # a clamp is never silent


@given(st.dictionaries(st.sampled_from(["date", "start", "end"]), st.dates(), max_size=3),
       st.one_of(st.none(), st.integers(-5, 10**6)))
def test_day_range_is_ordered_or_refused(values: dict[str, dt.date], last: int | None) -> None:
    given_values: dict[str, object] = dict(values)
    if last is not None:
        given_values["last"] = last
    try:
        lo, hi = day_range(given_values, [])
    except BadParameter as error:
        assert error.parameter in ("end", "last")
        return
    if lo is not None and hi is not None:
        assert lo <= hi
