"""Outcomes read right: draws are draws, odds-less levels say so, chances in percent, no IDs, no echo."""
from __future__ import annotations

import json

import pandas as pd

from components import analysis
from services import api
from tests.dashboard._apptest import assert_clean, figures, open_page
from tests.dashboard.conftest import ApiServer


def _config(at: object, index: int = 0) -> dict[str, dict[str, object]]:
    config: dict[str, dict[str, object]] = json.loads(at.dataframe[index].proto.columns)  # type: ignore[attr-defined]
    return config


def test_a_draw_counts_half_never_a_home_loss() -> None:
    table = analysis.calibration(pd.Series([0.55, 0.55, 0.55, 0.55]), pd.Series([1.0, 0.5, 0.5, 0.0]))
    row = table.iloc[0]
    assert row["observed"] == 0.5 and row["draws"] == 2 and row["games"] == 4


def test_soccer_draws_are_labelled_and_counted(dashboard_env: ApiServer) -> None:
    games = open_page("games", {"level": "FC", "tab": "Games", "chart": "true"})
    assert_clean(games)
    names = {trace.get("name") for trace in figures(games)[0]["data"]}
    assert "Draw" in names and "Tie" not in names
    forecasts = open_page("forecasts", {"level": "FC", "tab": "Calibration", "bins_table": "true"})
    assert_clean(forecasts)
    table = forecasts.dataframe[0].value
    assert table["Draws"].sum() > 0
    assert _config(forecasts)["Observed"]["type_config"]["format"] == "percent"


def test_a_season_without_odds_has_no_market_tab(dashboard_env: ApiServer) -> None:
    newest = api.season_ids("WBB", with_games=True)[0]
    at = open_page("forecasts", {"level": "WBB", "fc_seasons": [str(newest)]})
    assert_clean(at)
    assert "ELO vs market" not in [t.label for t in at.tabs]
    assert any("no money lines held for WBB" in c.value for c in at.caption)


def test_upsets_give_chances_in_percent_without_ids(dashboard_env: ApiServer) -> None:
    at = open_page("forecasts", {"level": "MLB", "tab": "Biggest upsets"})
    assert_clean(at)
    config = _config(at)
    assert config["Winner ELO prob"]["type_config"]["format"] == "percent"
    assert config["ID"]["hidden"] is True


def test_leaders_caption_says_the_stat_once_and_hides_ids(dashboard_env: ApiServer) -> None:
    at = open_page("leaders", {"level": "MLB", "stat": "HR"})
    assert_clean(at)
    caption = at.caption[0].value
    assert caption.lower().count("home runs") == 1, caption
    config = _config(at)
    assert config["Player_ID"]["hidden"] is True and config["Team_ID"]["hidden"] is True
