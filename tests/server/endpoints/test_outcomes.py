"""The outcomes endpoint on the real store: football's home, draw and away chances scored per
league, ours beside FiveThirtyEight's SPI on the same matches (SPI's figures as computed here
from its file), each outcome's calibration holding every match, and a season SPI does not
cover scored for ours alone."""
from __future__ import annotations


import pytest

from tests.demo_api import ApiServer
from tests.server.jobs.test_evaluate_comparison import OURS_RPS, _spi_scores
from tests.server.models import realdata

pytestmark = [
    pytest.mark.realdata,
    pytest.mark.skipif(not realdata.available(), reason="../shared/data is absent"),
]


def test_spi_and_ours_per_league_on_the_same_matches(real_api: ApiServer) -> None:
    response = real_api.get("/v2/outcomes/FC/", season=2023)
    records = response.json()["outcomes"]
    overall = {r["Forecaster"]: r for r in records if r["League"] == "All"}
    assert set(overall) == {"elo", "fte_spi"}
    count, rps, log_loss, brier = _spi_scores(2023)
    spi, ours = overall["fte_spi"], overall["elo"]
    assert spi["Count"] == ours["Count"] == count
    assert (spi["RPS"], spi["LogLoss"], spi["Brier"]) == pytest.approx((rps, log_loss, brier),
                                                                       abs=6e-5)
    assert ours["RPS"] == pytest.approx(OURS_RPS[2023][0], abs=OURS_RPS[2023][1])
    leagues = [r for r in records if r["League"] != "All" and r["Forecaster"] == "elo"]
    assert len(leagues) == 10 and sum(r["Count"] for r in leagues) == count
    for r in records:
        assert r["Against"] == "fte_spi"
        for outcome in ("home", "draw", "away"):
            bins = [b for b in r["calibration"] if b["Outcome"] == outcome]
            assert len(bins) == 10 and sum(b["Count"] for b in bins) == r["Count"], (r["League"], outcome)


def test_a_season_spi_did_not_cover_scores_ours_alone(real_api: ApiServer) -> None:
    response = real_api.get("/v2/outcomes/FC/", season=2025)
    records = response.json()["outcomes"]
    assert records and {r["Forecaster"] for r in records} == {"elo"}
    assert all(r["Against"] is None for r in records)


def test_a_level_without_draws_is_not_served(real_api: ApiServer) -> None:
    response = real_api.get("/v2/outcomes/NBA/", expect=400, season=2023)
    assert response.json()["error"]["Message"] == "outcomes does not serve level 'NBA'; it serves FC"
