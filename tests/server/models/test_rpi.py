"""RPI: a hand-computed three-team example (NCAA weighting) and the series shape."""
from __future__ import annotations

import pandas as pd
import pytest

from server.models import rpi


def _games() -> pd.DataFrame:
    # A beats B at home, A beats C on the road, B beats C at home (one date each).
    return pd.DataFrame({
        "season": 2024, "date": ["2024-01-01", "2024-01-02", "2024-01-03"],
        "home": [1, 3, 2], "visitor": [2, 1, 3], "score_home": [70, 60, 65],
        "score_vis": [60, 70, 50], "neutral": False})


def test_hand_computed_final_snapshot() -> None:
    # WP: A (0.6 + 1.4) / 2.0 = 1; B 0.6 / (0.6 + 0.6) = 0.5; C 0 / (1.4 + 0.6) = 0.
    # OWP: every team 0.5 (one opponent 1-0 and one 0-1 without it); OOWP 0.5.
    s = rpi.rpi_series(_games())
    last = s[s["date"] == "2024-01-03"].set_index("team_id")
    assert last.loc[1, "wp"] == pytest.approx(1.0)
    assert last.loc[2, "wp"] == pytest.approx(0.5)
    assert last.loc[3, "wp"] == pytest.approx(0.0)
    assert list(last["owp"]) == pytest.approx([0.5, 0.5, 0.5])
    assert list(last["oowp"]) == pytest.approx([0.5, 0.5, 0.5])
    assert last.loc[1, "rpi"] == pytest.approx(0.625)
    assert last.loc[2, "rpi"] == pytest.approx(0.5)
    assert last.loc[3, "rpi"] == pytest.approx(0.375)
    assert list(last.sort_values("rank").index) == [1, 2, 3]
    assert (last.loc[1, "wins"], last.loc[1, "losses"], last.loc[3, "losses"]) == (2, 0, 2)


def test_one_snapshot_per_date_and_only_teams_that_played() -> None:
    s = rpi.rpi_series(_games())
    assert sorted(s["date"].unique()) == ["2024-01-01", "2024-01-02", "2024-01-03"]
    assert set(s[s["date"] == "2024-01-01"]["team_id"]) == {1, 2}


def test_road_win_weighs_more_than_home_win() -> None:
    g = pd.DataFrame({"season": 2024, "date": ["d1", "d1"], "home": [1, 4], "visitor": [2, 3],
                      "score_home": [70, 60], "score_vis": [60, 70], "neutral": False})
    s = rpi.rpi_series(g).set_index("team_id")
    assert s.loc[1, "wp"] == s.loc[3, "wp"] == 1.0  # one win each: WP is 1 either way
    assert s.loc[2, "wp"] == s.loc[4, "wp"] == 0.0
