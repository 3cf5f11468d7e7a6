"""Forecasts page: calibration with counts, scores over time, ELO vs market, lines, upsets."""
from __future__ import annotations

from services import api
from tests.dashboard._apptest import assert_clean, figures, open_page, titles
from tests.dashboard.conftest import ApiServer


def test_forecast_charts_for_seasons_in_the_url(dashboard_env: ApiServer) -> None:
    seasons = sorted(api.seasons("MLB")["ID"].astype(int), reverse=True)[:2]
    at = open_page("forecasts", {"level": "MLB", "fc_seasons": [str(s) for s in seasons]})
    assert_clean(at)
    assert at.multiselect(key="fc_seasons").value == seasons
    shown = titles(at)
    assert any(t.startswith("Calibration") for t in shown)
    assert any(t.startswith("Brier score") for t in shown)
    calibration = next(f for f in figures(at) if f["layout"]["title"]["text"].startswith("Calibration"))
    markers = [t for t in calibration["data"] if t.get("name") == "ELO"]
    assert markers and markers[0]["text"], "each bin is labelled with its number of games"
    assert at.metric, "Brier and log loss metrics"
