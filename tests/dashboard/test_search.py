"""Search as analysts type it: no crash on any tab, accents and apostrophes folded, names ranked."""
from __future__ import annotations

import pandas as pd
import pytest

from components.search import filter_rows, fold, rank_by_name
from tests.dashboard._apptest import assert_clean, open_page
from tests.dashboard.conftest import ApiServer

ODD_SEARCHES = ("GDP", "strikeout", "O'Neil", "Zoë")


def test_fold_ignores_case_accents_and_apostrophes() -> None:
    assert fold("Zoë") == fold("ZOE") == "zoe"
    assert fold("O’Neil") == fold("O'Neil") == fold("oneil")
    assert fold(None) == fold(float("nan")) == ""


def test_filter_rows_reads_missing_cells_and_numbers() -> None:
    table = pd.DataFrame({"Code": ["GDP", "SO"], "Qualifier": [None, "3.1 PA"], "Parent_ID": [None, 2.0],
                          "Name": ["Grounded into double play", "Strikeouts"]})
    assert list(filter_rows(table, "gdp")["Code"]) == ["GDP"]
    assert list(filter_rows(table, "strikeout")["Code"]) == ["SO"]
    assert filter_rows(table, "O'Neil").empty


def test_search_ranks_exact_then_last_name_then_prefix_then_contains() -> None:
    found = pd.DataFrame({"Name": ["Bill Nicholson", "Olsonia Smith", "Matt Olson", "Olson"]})
    assert list(rank_by_name(found, "Olson")["Name"]) == ["Olson", "Matt Olson", "Olsonia Smith",
                                                           "Bill Nicholson"]


@pytest.mark.parametrize("tab", ["Levels", "Sublevels", "Stat codes", "Nations"])
def test_glossary_search_never_crashes(dashboard_env: ApiServer, tab: str) -> None:
    for text in ODD_SEARCHES:
        at = open_page("glossary", {"level": "MLB", "tab": tab, "gloss_q": text})
        assert_clean(at)


def test_stat_codes_found_by_their_description(dashboard_env: ApiServer) -> None:
    at = open_page("glossary", {"level": "MLB", "tab": "Stat codes", "gloss_q": "gdp"})
    assert_clean(at)
    assert "GDP" in set(at.dataframe[0].value["Code"])
