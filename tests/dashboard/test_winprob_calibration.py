"""Forecasts vs outcomes over the real data: the in-game win probability's calibration of MLB 2023
(the postseason chosen) as the API serves it, its Brier scores and log losses
beside the pre-game forecast's, and a level without play-by-play saying so."""
from __future__ import annotations

from typing import Any

import pytest

from tests.dashboard._apptest import _decoded, assert_clean, figures, open_page, titles
from tests.dashboard.conftest import ApiServer, point_services_at

pytestmark = [pytest.mark.realdata, pytest.mark.timeout(900)]

CHART = "MLB 2023: in-game win probability calibration (after each play)"


@pytest.fixture()
def real_dashboard(real_api: ApiServer, monkeypatch: pytest.MonkeyPatch) -> ApiServer:
    return point_services_at(real_api, monkeypatch)


def _served(api: ApiServer, **params: Any) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = api.get_json("/v2/calibration/MLB/", **params)["calibration"]
    return records


def test_forecasts_page_shows_the_in_game_calibration_served(real_dashboard: ApiServer) -> None:
    # the postseason's 41 games: the page loads their forecasts in a moment
    served = _served(real_dashboard, season=2023, phase="playin,postseason")
    at = open_page("forecasts", {"level": "MLB", "fc_seasons": "2023", "fc_phase": "Postseason", "tab": "In-game"})
    assert_clean(at)
    shown = {m.label: m.value for m in at.metric}
    for label, forecast, score in (("In-game Brier", "ingame", "Brier"),
                                   ("Pre-game Brier", "pregame", "Brier"),
                                   ("In-game log loss", "ingame", "LogLoss"),
                                   ("Pre-game log loss", "pregame", "LogLoss")):
        first = next(r for r in served if r["Forecast"] == forecast)
        assert shown[label] == f"{first['scores'][score]:.4f}", label
    assert float(shown["In-game Brier"]) < float(shown["Pre-game Brier"])
    chart = figures(at)[titles(at).index(CHART)]
    for name, forecast in (("In-game (after each play)", "ingame"), ("Pre-game (ELO)", "pregame")):
        trace = next(t for t in chart["data"] if t.get("name") == name)
        bins = [r for r in served if r["Forecast"] == forecast and r["Count"]]
        assert _decoded(trace["x"]) == [r["Predicted"] for r in bins]
        assert _decoded(trace["y"]) == [r["Observed"] for r in bins]


def test_a_level_without_play_by_play_says_so(real_dashboard: ApiServer) -> None:
    at = open_page("forecasts", {"level": "NBA", "fc_seasons": "2023", "tab": "In-game"})
    assert_clean(at)
    assert any(i.value.startswith("No final NBA games of 2023 with a win probability line")
               for i in at.info)
    assert CHART not in titles(at)
