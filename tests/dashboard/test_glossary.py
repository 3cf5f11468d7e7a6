"""Glossary page: kind and search from the URL, chart and table."""
from __future__ import annotations

from tests.dashboard._apptest import assert_clean, open_page, titles
from tests.dashboard.conftest import ApiServer


def test_search_levels(dashboard_env: ApiServer) -> None:
    at = open_page("glossary", {"glossary": "levels", "gloss_q": "basketball"})
    assert_clean(at)
    assert at.text_input(key="gloss_q").value == "basketball"
    table = at.dataframe[0].value
    assert len(table) and (table["Sport"] == "basketball").all()
    assert titles(at) == ["Levels by sport"]


def test_stat_codes(dashboard_env: ApiServer) -> None:
    at = open_page("glossary", {"level": "MLB", "glossary": "stats"})
    assert_clean(at)
    assert len(at.dataframe[0].value) > 0
