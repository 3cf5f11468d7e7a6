"""Simulated levels read for everyone: soccer's records are W-D-L wherever a record is written,
and "a draw counts half" is said only where the games shown hold draws."""
from __future__ import annotations

import json

from services import api
from tests.dashboard._apptest import assert_clean, figures, open_page
from tests.dashboard.conftest import ApiServer


def _grid(at: object, column: str) -> object:
    return next(g for g in at.dataframe if column in g.value.columns)  # type: ignore[attr-defined]


def test_soccer_records_read_wins_draws_losses(dashboard_env: ApiServer) -> None:
    projected = api.projections("FC").frame
    drawn = projected[(projected["T"] > 0) & (projected["T"] != projected["L"])].iloc[0]  # the order shows
    at = open_page("projections", {"level": "FC"})
    assert_clean(at)
    grid = _grid(at, "Record").value  # type: ignore[attr-defined]
    shown = grid[grid["Team"] == drawn["Team"]].iloc[0]
    assert shown["Record"] == f"{int(drawn['W'])}-{int(drawn['T'])}-{int(drawn['L'])}", (shown["Record"], drawn)
    table = open_page("standings", {"level": "FC"})
    assert_clean(table)
    standings = _grid(table, "W")
    columns = [c for c in standings.value.columns if c in ("W", "T", "L")]  # type: ignore[attr-defined]
    assert columns == ["W", "T", "L"], columns
    config = json.loads(standings.proto.columns)  # type: ignore[attr-defined]
    assert config["T"]["label"] == "D", config.get("T")
    nba = open_page("standings", {"level": "NBA"})
    assert [c for c in _grid(nba, "W").value.columns if c in ("W", "L")] == ["W", "L"]  # type: ignore[attr-defined]


def test_a_draw_counts_half_only_where_draws_are(dashboard_env: ApiServer) -> None:
    said = {}
    for level in ("MLB", "FC"):
        at = open_page("forecasts", {"level": level})
        assert_clean(at)
        calibration = next(f for f in figures(at) if "Calibration" in json.dumps(f["layout"].get("title")))
        said[level] = calibration["layout"]["yaxis"]["title"]["text"]
    assert "draw" not in said["MLB"], said
    assert "a draw counts half" in said["FC"], said
