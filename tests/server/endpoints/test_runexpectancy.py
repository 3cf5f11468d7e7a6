"""MLB's run environment 2021-2023 through the API (``runexpectancy``), derived from Retrosheet's
plays in the real store, against the constants FanGraphs publishes for the same seasons.

FanGraphs' "Guts!" page, https://www.fangraphs.com/guts.aspx?type=cn (seasons 2021-2023, read
2026): league wOBA, wOBA scale, the weights of an unintentional walk, a hit by pitch, a single,
a double, a triple and a home run, runs per plate appearance and the FIP constant.

Tolerances, and why the figures differ at all: our run values are the season's plate
appearances' mean change in run expectancy (halves played to their third out, the home team's
last at-bats left out), FanGraphs' from its own run-expectancy matrix and event accounting (it
counts reaching on an error as an out too, and its matrix is smoothed), so a weight may differ by
a few hundredths and the scale with it; the league wOBA is the league's OBP without intentional
walks in both, and the FIP constant both sites' league ERA less its raw FIP, so they agree to
the third decimal but for the pitchers' plate appearances and the rounding of innings.
"""
from __future__ import annotations

from typing import Any

import pytest

from tests.demo_api import ApiServer

pytestmark = [pytest.mark.realdata, pytest.mark.timeout(900)]

# FanGraphs Guts! (source above): season -> constant -> value
FANGRAPHS: dict[int, dict[str, float]] = {
    2021: {"lgwOBA": .314, "wOBAscale": 1.209, "wBB": .692, "wHBP": .722, "w1B": .879,
           "w2B": 1.242, "w3B": 1.568, "wHR": 2.007, "RPA": .121, "cFIP": 3.170},
    2022: {"lgwOBA": .310, "wOBAscale": 1.259, "wBB": .689, "wHBP": .720, "w1B": .884,
           "w2B": 1.261, "w3B": 1.601, "wHR": 2.072, "RPA": .114, "cFIP": 3.112},
    2023: {"lgwOBA": .318, "wOBAscale": 1.204, "wBB": .696, "wHBP": .726, "w1B": .883,
           "w2B": 1.244, "w3B": 1.569, "wHR": 2.004, "RPA": .122, "cFIP": 3.255},
}
TOLERANCE = {"lgwOBA": .003, "RPA": .003, "cFIP": .03, "wOBAscale": .06, "wBB": .04,
             "wHBP": .04, "w1B": .04, "w2B": .05, "w3B": .08, "wHR": .06}
BASES = ("___", "1__", "_2_", "12_", "__3", "1_3", "_23", "123")


def _records(api: ApiServer, path: str, **params: Any) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = api.get_json(path, **params)["runexpectancy"]
    return records


@pytest.mark.parametrize("season", sorted(FANGRAPHS))
def test_constants_are_fangraphs_within_the_stated_tolerance(real_api: ApiServer,
                                                            season: int) -> None:
    states = _records(real_api, "/v2/runexpectancy/MLB/", season=season)
    assert [(r["Outs"], r["Bases"]) for r in states] == [(o, b) for o in range(3) for b in BASES]
    ours = states[0]["constants"]
    off = {name: round(ours[name] - published, 3) for name, published in FANGRAPHS[season].items()}
    print(season, off)
    assert all(abs(diff) <= TOLERANCE[name] for name, diff in off.items()), off
    # the order of the weights is the game's: a walk < a hit batter < a single < ... < a homer
    weights = [ours[w] for w in ("wBB", "wHBP", "w1B", "w2B", "w3B", "wHR")]
    assert weights == sorted(weights)


def test_the_run_expectancy_table_reads_as_the_sites_print_it(real_api: ApiServer) -> None:
    states = _records(real_api, "/v2/runexpectancy/MLB/", season=2023)
    re = {(r["Outs"], r["Bases"]): r["RunExpectancy"] for r in states}
    # FanGraphs' 2010-2015 table and Tango's: ~.48 with nobody on and nobody out, ~2.3 loaded
    assert 0.45 < re[(0, "___")] < 0.56 and 2.0 < re[(0, "123")] < 2.6
    assert 0.07 < re[(2, "___")] < 0.13
    for outs in range(3):  # more runners, more runs; more outs, fewer
        assert re[(outs, "123")] > re[(outs, "12_")] > re[(outs, "1__")] > re[(outs, "___")]
    for bases in BASES:
        assert re[(0, bases)] > re[(1, bases)] > re[(2, bases)]
    # every plate appearance of the season began in one of the states
    assert 170_000 < sum(r["Count"] for r in states) < 190_000
    parks = {p["Name"]: p["PF"] for p in states[0]["constants"]["parks"]}
    assert len(parks) == 30 and parks["Colorado Rockies"] == max(parks.values()) > 1.03
    leagues = {lg["Name"] for lg in states[0]["constants"]["leagues"]}
    assert leagues == {"American League", "National League"}


def test_every_format_and_the_dialect_serve_it(real_api: ApiServer) -> None:
    for fmt in ("json", "xml", "php"):
        answer = real_api.get("/v2/runexpectancy/MLB/", season=2022, format=fmt)
        assert "1_3" in answer.text, (fmt, answer.text[:300])
    dialect = real_api.get_json("/natstat/v4/runexpectancy/MLB/", season=2022)
    assert dialect["success"] == "1" and "1_3" in str(dialect)
    wrong = real_api.get("/v2/runexpectancy/NBA/", expect=400)
    assert "level_not_supported" in wrong.text
