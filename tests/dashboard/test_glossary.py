"""Glossary page: the tab and search from the URL, chart and table."""
from __future__ import annotations

from tests.dashboard._apptest import assert_clean, open_page, titles
from tests.dashboard.conftest import ApiServer


def test_search_levels(dashboard_env: ApiServer) -> None:
    at = open_page("glossary", {"tab": "Levels", "gloss_q": "basketball", "chart": "true"})
    assert_clean(at)
    assert at.text_input(key="gloss_q").value == "basketball"
    table = at.dataframe[0].value
    assert len(table) and (table["Sport"] == "basketball").all()
    assert titles(at) == ["Levels by sport"]


def test_stat_codes(dashboard_env: ApiServer) -> None:
    codes = open_page("glossary", {"level": "MLB", "tab": "Stat codes"})
    assert codes.dataframe and not titles(codes), "the entries first, their chart a click below"
    at = open_page("glossary", {"level": "MLB", "tab": "Stat codes", "chart": "true"})
    assert_clean(at)
    table = at.dataframe[0].value
    assert {"HR", "AVG"} <= set(table["Code"])
    assert titles(at) == ["MLB: stat codes by type"]


def test_nothing_found_says_so(dashboard_env: ApiServer) -> None:
    at = open_page("glossary", {"tab": "Nations", "gloss_q": "zzzzzzzz"})
    assert_clean(at)
    assert any("Nothing matches" in i.value for i in at.info)


def test_a_code_search_finds_the_code_first(dashboard_env: ApiServer) -> None:
    """Typed into the search box as an analyst would: "era" lists the ERA before the codes
    whose names merely contain the letters (average, career...)."""
    at = open_page("glossary", {"level": "MLB", "tab": "Stat codes"})
    at.text_input(key="gloss_q").input("era").run()
    assert_clean(at)
    table = at.dataframe[0].value
    assert len(table) > 1, "other codes contain 'era' too"
    assert table["Code"].iloc[0] == "ERA"
    at.text_input(key="gloss_q").input("h").run()
    first = at.dataframe[0].value["Code"].iloc[0]
    assert first == "H", first
