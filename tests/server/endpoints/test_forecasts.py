"""The forecasts endpoint serves the comparison forecasters' chances beside ours, asked of the real
store (``real_api``) as a client would: every scored NBA 2022-23 game's FiveThirtyEight Elo and RAPTOR
chances are the results file's, in JSON, XML, PHP and the NatStat dialect; a level no
comparison forecaster covers has no ``comparison`` member."""
from __future__ import annotations

import csv
import xml.etree.ElementTree as ET

import pytest

from server.ingest.fivethirtyeight import NBA_TEAMS
from tests.demo_api import ApiServer
from tests.server.models import realdata

pytestmark = [pytest.mark.realdata, pytest.mark.slow, pytest.mark.timeout(1800)]


def test_every_nba_game_carries_the_files_chances(real_api: ApiServer) -> None:
    with realdata.NBA.open(encoding="utf-8-sig", newline="") as fh:
        published = {(r["date"], NBA_TEAMS[r["team1"]]): (float(r["elo_prob1"]), float(r["raptor_prob1"]))
                     for r in csv.DictReader(fh) if r["score1"].strip()}
    served: dict[tuple[str, str], tuple[float, float]] = {}
    for page in (1, 2):
        doc = real_api.get("/v2/forecasts/NBA/", season=2023, max=1000, page=page).json()
        for r in doc["forecasts"]:
            served[(r["GameDay"], r["Home"])] = (r["comparison"]["FiveThirtyEightElo"],
                                                 r["comparison"]["FiveThirtyEightRAPTOR"])
        assert any("FiveThirtyEight" in n for n in doc["meta"]["Notices"]), "the source is credited"
    assert set(served) == set(published), "every game with a result (ours forecasts no other)"
    for game, (elo, raptor) in published.items():
        assert served[game] == (pytest.approx(elo, abs=5e-5), pytest.approx(raptor, abs=5e-5)), game


def test_the_other_formats_and_levels(real_api: ApiServer) -> None:
    doc = real_api.get("/v2/forecasts/NBA/", season=2023, max=1).json()
    record = doc["forecasts"][0]
    elo = record["comparison"]["FiveThirtyEightElo"]
    assert "NeilPaineElo" not in record["comparison"], "only the level's own forecasters"
    xml = ET.fromstring(real_api.get("/v2/forecasts/NBA/", season=2023, max=1, format="xml").content)
    assert float(xml.findtext(".//forecast/comparison/FiveThirtyEightElo") or "nan") == elo
    php = real_api.get("/v2/forecasts/NBA/", season=2023, max=1, format="php").text
    assert f's:18:"FiveThirtyEightElo";d:{elo}' in php
    natstat = real_api.get("/natstat/v2/forecasts/NBA/", season=2023, max=1).json()
    (keyed,) = natstat["forecasts"].values()
    assert keyed["comparison"]["FiveThirtyEightElo"] == str(elo)
    wnba = real_api.get("/v2/forecasts/WNBA/", season=2024, max=1).json()["forecasts"][0]
    assert set(wnba["comparison"]) == {"NeilPaineElo"} and 0 < wnba["comparison"]["NeilPaineElo"] < 1
    mlb = real_api.get("/v2/forecasts/MLB/", season=2023, max=1).json()["forecasts"][0]
    assert "comparison" not in mlb
