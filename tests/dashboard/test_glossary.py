"""Glossary page: the tab and search from the URL, chart and table."""
from __future__ import annotations

import re

from tests.dashboard._apptest import assert_clean, open_page, printed, titles
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


def test_a_stat_code_is_found_from_the_first_tab(dashboard_env: ApiServer) -> None:
    """"WPA" typed on Levels (the tab a link opens on) finds the stat code: no level matches,
    the stat codes that do are shown under the search."""
    at = open_page("glossary", {"level": "MLB", "tab": "Levels", "gloss_q": "WPA"})
    assert_clean(at)
    assert any("Found under Stat codes" in c.value for c in at.caption)
    found = at.dataframe[0].value
    assert "WPA" in set(found["Code"])


def test_each_metric_prints_its_formula(dashboard_env: ApiServer) -> None:
    at = open_page("glossary", {"level": "MLB", "tab": "Stat codes", "gloss_q": "wOBA"})
    assert_clean(at)
    table = at.dataframe[0].value
    rows = dict(zip(table["Code"], table["Description"], strict=True))
    assert "wOBA = (wBB * (BB - IBB)" in rows["wOBA"]
    assert "(wOBA - lgwOBA) / wOBAscale * PA" in rows["wRAA"]


def test_the_run_environment_tab_shows_the_24_states_and_the_constants(
        dashboard_env: ApiServer) -> None:
    # the demo's simulated MLB seasons (2025, 2026) have plays with base-out states
    at = open_page("glossary", {"level": "MLB", "tab": "Run environment", "season": "2025",
                                "chart": "true"})
    assert_clean(at)
    states, constants = at.dataframe[0].value, at.dataframe[1].value
    assert list(states["Runners"]) == ["Bases empty", "1st", "2nd", "1st and 2nd", "3rd",
                                       "1st and 3rd", "2nd and 3rd", "Bases loaded"]
    assert list(states.columns) == ["Runners", "0 outs", "1 out", "2 outs"]
    assert states["0 outs"].iloc[0] > states["2 outs"].iloc[0]
    shown = printed(at.dataframe[0])  # every cell with three decimals, as the sites print it
    assert all(re.fullmatch(r"\d\.\d{3}", str(v)) for c in ("0 outs", "1 out", "2 outs")
               for v in shown[c]), shown
    assert all(re.fullmatch(r"\d+\.\d{3}", str(v)) for v in printed(at.dataframe[1])["Value"])
    assert {"lgwOBA", "wOBAscale", "wHR", "cFIP"} <= set(constants["Constant"])
    assert titles(at) == ["MLB 2025: run expectancy by base-out state"]
    # a level without plays' base-out states has no such tab
    nba = open_page("glossary", {"level": "NBA", "tab": "Levels"})
    assert_clean(nba)
    assert "Run environment" not in [t.label for t in nba.tabs]


def test_every_term_a_page_explains_is_in_the_glossary(dashboard_env: ApiServer) -> None:
    """"simulation winner" was only a tooltip on Forecasts: the Terms tab lists it, and a search
    from the first tab finds it there."""
    at = open_page("glossary", {"level": "NBA", "tab": "Terms"})
    assert_clean(at)
    terms = at.dataframe[0].value
    assert {"Simulation winner", "Favoured", "WPA (a play's)", "Run expectancy", "Park factor",
            "RunDiff"} <= set(terms["Term"])
    found = open_page("glossary", {"level": "NBA", "tab": "Levels", "gloss_q": "simulation winner"})
    assert_clean(found)
    assert any("Found under Terms" in c.value for c in found.caption)
