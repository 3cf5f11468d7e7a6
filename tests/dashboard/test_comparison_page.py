"""Forecasts vs outcomes over the real store: FiveThirtyEight's Elo and RAPTOR beside ours on NBA
2022-23, every figure the page shows equal to the one computed here from the API's own records,
the source credited, a sentence saying where ours loses, a calibration chart per season, and a
tooltip on every column."""
from __future__ import annotations

import json
import math
from typing import Any

import pytest

from tests.dashboard._apptest import _decoded, assert_clean, figures, open_page, titles
from tests.dashboard.conftest import ApiServer, point_services_at

pytestmark = [pytest.mark.realdata, pytest.mark.slow, pytest.mark.timeout(1800)]

FIELDS = {"Ours (ELO)": ("elo", "HELOWinExp"), "FiveThirtyEight Elo": ("comparison", "FiveThirtyEightElo"),
          "FiveThirtyEight RAPTOR": ("comparison", "FiveThirtyEightRAPTOR")}


@pytest.fixture()
def real_dashboard(real_api: ApiServer, monkeypatch: pytest.MonkeyPatch) -> ApiServer:
    return point_services_at(real_api, monkeypatch)


def _records(server: ApiServer) -> list[dict[str, Any]]:
    """NBA 2022-23's regular-season forecast records with a result, as the API serves them."""
    out: list[dict[str, Any]] = []
    for page in (1, 2):
        served = server.get_json("/v2/forecasts/NBA/", season=2023, phase="regular", max=1000, page=page)
        out += [r for r in served["forecasts"] if r["GameStatus"].startswith("Final")]
    return out


def _scores(records: list[dict[str, Any]], where: tuple[str, str]) -> tuple[int, float, float]:
    pairs = [(r[where[0]][where[1]], 1.0 if r["ScoreHome"] > r["ScoreVis"] else 0.0) for r in records]
    brier = sum((p - y) ** 2 for p, y in pairs) / len(pairs)
    loss = -sum(y * math.log(p) + (1 - y) * math.log(1 - p) for p, y in pairs) / len(pairs)
    return len(pairs), brier, loss


def test_nba_2022_23_beside_fivethirtyeight(real_dashboard: ApiServer) -> None:
    expected = {name: _scores(_records(real_dashboard), where) for name, where in FIELDS.items()}
    at = open_page("forecasts", {"level": "NBA", "fc_seasons": "2023", "scores_table": "true"})
    assert_clean(at)
    (table,) = [t for t in at.dataframe if "Forecaster" in t.value.columns]
    shown = table.value.set_index("Forecaster")
    assert list(shown.index) == list(FIELDS)
    for name, (games, brier, loss) in expected.items():
        assert int(shown.loc[name, "Games"]) == games == 1230
        assert shown.loc[name, "Brier"] == pytest.approx(brier, abs=1e-9), name
        assert shown.loc[name, "Log loss"] == pytest.approx(loss, abs=1e-9), name
    ours, elo, raptor = (f"{expected[n][1]:.4f}" for n in FIELDS)
    said = " ".join(m.value for m in at.markdown)
    assert f"ours ({ours}) loses to FiveThirtyEight RAPTOR ({raptor})" in said
    assert f"beats FiveThirtyEight Elo ({elo})" in said
    assert "**2022-23** (1,230 games)" in said, "the season as the API names it, as the chart's title does"
    assert set(table.value["Season"]) == {"2022-23"}
    captions = " ".join(c.value for c in at.caption)
    assert "FiveThirtyEight (ABC News), CC BY 4.0" in captions
    assert "Simulation winner" in captions
    config = json.loads(table.proto.columns)
    assert all(config[c].get("help") for c in table.value.columns), config
    title = "NBA 2022-23: calibration, ours beside FiveThirtyEight Elo, FiveThirtyEight RAPTOR"
    assert title in titles(at)
    chart = figures(at)[titles(at).index(title)]
    drawn = {t["name"]: t for t in chart["data"] if t["name"] in FIELDS}
    assert set(drawn) == set(FIELDS)
    for trace in drawn.values():
        assert sum(_decoded(trace["customdata"])) == 1230, "each line's bins hold every game"

