"""Known values of the pure transforms behind the forecast and game charts."""
from __future__ import annotations

import math

import pandas as pd
import pytest

from components import analysis


@pytest.mark.parametrize(("line", "expected"), [("+100", 0.5), ("-150", 0.6), ("+150", 0.4), ("abc", math.nan)])
def test_implied_probability(line: str, expected: float) -> None:
    got = analysis.implied_probability(line)
    assert (math.isnan(got) and math.isnan(expected)) or got == pytest.approx(expected)


def test_brier_and_log_loss_known_values() -> None:
    p, y = pd.Series([0.8, 0.3]), pd.Series([1.0, 0.0])
    assert analysis.brier(p, y) == pytest.approx((0.04 + 0.09) / 2)
    assert analysis.log_loss(p, y) == pytest.approx(-(math.log(0.8) + math.log(0.7)) / 2)
    assert math.isnan(analysis.brier(pd.Series(dtype=float), pd.Series(dtype=float)))


def test_calibration_counts_games_per_bin() -> None:
    table = analysis.calibration(pd.Series([0.05, 0.07, 0.95, 1.0]), pd.Series([0.0, 1.0, 1.0, 1.0]))
    assert table["games"].tolist() == [2, 2]
    assert table["observed"].tolist() == [0.5, 1.0]


def test_baseline_never_looks_ahead() -> None:
    # (home wins before + 1) / (games before + 2)
    assert analysis.home_rate_baseline(pd.Series([1.0, 0.0, 1.0])).tolist() == pytest.approx([0.5, 2 / 3, 0.5])


def test_over_under_is_the_simulated_total_against_the_line() -> None:
    frame = pd.DataFrame({"Season": [2024] * 4, "ml_correct": None, "spread_correct": None, "sim_correct": None,
                          "p_elo": [0.6, 0.6, 0.4, 0.5], "home_win": [1.0, 0.0, 0.0, 1.0],
                          "sim_total": [9.0, 7.0, 8.0, 10.0], "ou_line": [8.5, 8.5, 8.0, 8.5],
                          "ou_result": ["Over", "Over", "Under", "Push"]})
    table = analysis.correctness_by_season(frame)
    row = table[table["Line"] == "Over/under"].iloc[0]
    assert row["Games"] == 2 and row["Correct"] == 0.5  # a total on the line and a push are no call
    elo = table[table["Line"] == "ELO favourite"].iloc[0]
    assert elo["Games"] == 3 and elo["Correct"] == pytest.approx(2 / 3)  # a 50 % forecast is no call


def test_scores_over_time_skips_months_without_games() -> None:
    frame = pd.DataFrame({"GameDay": pd.to_datetime(["2024-09-01", "2025-04-01"]), "p_elo": [0.6, 0.4],
                          "home_win": [1.0, 0.0]})
    table = analysis.scores_over_time(frame)
    assert list(table["period"].unique()) == ["2024-09", "2024-09 … 2025-04", "2025-04"]
    gap = table[table["period"] == "2024-09 … 2025-04"]
    assert gap["value"].isna().all() and (gap["games"] == 0).all(), "the off-season breaks the line"


def test_line_score_from_detail() -> None:
    table = analysis.line_score_from_detail({"visitor": [0, 1, 2], "home": [1, 0]}, "V", "H")
    assert table["Total"].tolist() == [3, 1]
    assert table.columns.tolist() == ["Team", "1", "2", "3", "Total"]


def test_plate_appearances_sequences() -> None:
    pitches = pd.DataFrame({"ID": [1, 2, 3, 4], "Inning": [1, 1, 1, 1], "Half": ["top"] * 4,
                            "Batter": ["a", "a", "a", "b"], "Number": [1, 2, 3, 1], "Code": ["B", "+1", "X", "S"],
                            "Pitch": ["Y", "N", "Y", "Y"], "Balls": [0, 1, 1, 0], "Strikes": [0, 0, 0, 0],
                            "Outcome": ["a singled", "a singled", "a singled", None]})
    table = analysis.plate_appearances(pitches)
    assert table["Sequence"].tolist() == ["B +1 X", "S"]
    assert table["Pitches"].tolist() == [2, 1], "a catcher's pickoff throw is no pitch"
    assert table["Outcome"].tolist() == ["a singled", ""]


def test_events_join_the_running_score() -> None:
    from components import plays

    records = pd.DataFrame({"ID": [2, 1], "Explanation": ["homered", "struck out"], "ScoringPlay": ["Y", "N"],
                            "primary.Name": ["A", "B"], "pitcher.Name": ["P", "P"], "team.Team": ["T", "T"],
                            "TheCount": ["1-0", "0-2"], "game.Inning": ["Top 1", "Top 1"],
                            "game.Sequence": ["BX", "CCS"]})
    basic = pd.DataFrame({"ID": [1, 2], "Sequence": [1, 2], "Period": [1, 1], "ScoreVis": [0, 1], "ScoreHome": [0, 0]})
    table = plays.events(records, basic)
    assert table["Play"].tolist() == ["struck out", "homered"]
    assert table["Score after"].tolist() == ["0-0", "1-0"] and table["Period"].tolist() == ["Top 1", "Top 1"]
    assert plays.filter_events(table, scoring=True, player="", period=None)["ID"].tolist() == [2]
    assert plays.periods(table) == ["Top 1"]


def test_a_plays_pitches_read_without_retrosheets_markers() -> None:
    from components import plays

    # ANA202304080, top of the 6th: play,6,0,espis001,12,CFB1N.S,K
    records = pd.DataFrame({"ID": [1], "Explanation": ["Espinal struck out swinging"], "primary.Name": ["Espinal"],
                            "game.Inning": ["Top 6"], "game.Sequence": ["CFB1N.S"]})
    assert plays.events(records, pd.DataFrame())["Pitches"].tolist() == ["C F B 1 N S"]
