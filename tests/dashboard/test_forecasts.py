"""Forecasts page: calibration with counts, scores over time, ELO vs market, lines, upsets."""
from __future__ import annotations

import re

from services import api
from tests.dashboard._apptest import assert_clean, figures, open_page, titles


def _seasons() -> list[int]:
    return api.season_ids("MLB", with_games=True)[:2]


def test_calibration_and_scores_for_seasons_in_the_url(dashboard_env: object) -> None:
    seasons = _seasons()
    at = open_page("forecasts", {"level": "MLB", "fc_seasons": [str(s) for s in seasons]})
    assert_clean(at)
    assert at.multiselect(key="fc_seasons").value == seasons
    shown = titles(at)
    scope = f"MLB {min(seasons)}-{max(seasons)}"  # every season drawn, named in every title
    assert shown == [f"{scope}: calibration of ELO vs observed home wins"], "one chart a tab"
    over_time = open_page("forecasts", {"level": "MLB", "fc_seasons": [str(s) for s in seasons],
                                        "tab": "Scores over time"})
    assert titles(over_time) == [f"{scope}: Brier score and log loss by month (lower is better)"]
    calibration = figures(at)[0]
    markers = [t for t in calibration["data"] if t.get("name") == "ELO"]
    assert markers and markers[0]["text"], "each bin is labelled with its number of games"
    labels = {m.label for m in at.metric}
    assert {"ELO Brier", "Baseline Brier", "ELO log loss", "Baseline log loss"} <= labels
    months = figures(over_time)[0]["layout"]["xaxis2"]
    assert months["type"] == "category", "months without games leave no line across the gap"


def test_lines_by_season_tab(dashboard_env: object) -> None:
    seasons = _seasons()
    at = open_page("forecasts", {"level": "MLB", "fc_seasons": [str(s) for s in seasons], "tab": "Lines by season"})
    assert_clean(at)
    assert titles(at) == [f"MLB {min(seasons)}-{max(seasons)}: lines called correctly, by season"]
    table = at.dataframe[0].value
    assert {"Money line", "Spread", "Simulation winner", "Over/under"} <= set(table["Line"])
    assert table["Correct"].between(0, 1).all()
    assert figures(at)[0]["layout"]["xaxis"]["type"] == "category"
    # each bar reads its chance as the table's column does: 56.5%, one decimal
    labels = [label for trace in figures(at)[0]["data"] for label in trace["text"]]
    assert labels and all(re.fullmatch(r"\d{1,3}\.\d%", label) for label in labels), labels
    correct = {f"{v:.1%}" for v in table["Correct"]}
    assert set(labels) <= correct, (labels, correct)


def test_elo_vs_market_and_upsets(dashboard_env: object) -> None:
    at = open_page("forecasts", {"level": "MLB", "tab": "ELO vs market"})
    assert_clean(at)
    newest = _seasons()  # the page opens on the two newest seasons
    assert titles(at) == [f"MLB {min(newest)}-{max(newest)}: ELO home-win probability vs money-line implied probability"]
    upsets = open_page("forecasts", {"level": "MLB", "tab": "Biggest upsets"})
    assert_clean(upsets)
    table = upsets.dataframe[0].value
    assert (table["Winner ELO prob"] < 0.5).all()


def _games_scored(at: object) -> int:
    return int(next(m.value for m in at.metric if m.label == "Games scored").replace(",", ""))  # type: ignore[attr-defined]


def test_regular_season_by_default_and_the_postseason_apart(dashboard_env: object) -> None:
    opened = open_page("forecasts", {"level": "MLB"})
    assert_clean(opened)
    assert opened.selectbox(key="fc_phase").value == "Regular season"
    counts = {}
    for phase in ("Regular season", "Postseason", "Both"):
        at = open_page("forecasts", {"level": "MLB", "fc_phase": phase})
        assert_clean(at)
        counts[phase] = _games_scored(at)
    assert counts["Regular season"] == _games_scored(opened)
    assert counts["Postseason"] > 0 and counts["Regular season"] + counts["Postseason"] == counts["Both"]


def test_a_games_phase_is_its_records_and_a_choice_asks_the_api_for_its_phases() -> None:
    import pandas as pd

    from components import phases

    games = pd.DataFrame({"GameDay": ["2022-10-19", "2023-04-11", "2023-04-16"],
                          "Phase": ["regular", "playin", "postseason"]})
    marked = phases.mark(games)
    assert list(marked["Phase"]) == ["Regular season", "Play-in", "Postseason"]
    assert list(phases.rows_in(marked, "Postseason")["GameDay"]) == ["2023-04-11", "2023-04-16"]
    assert list(phases.rows_in(marked, "Regular season")["GameDay"]) == ["2022-10-19"]
    assert phases.asked("Postseason") == "playin,postseason"
    assert phases.asked("Regular season") == "regular" and phases.asked("Both") is None


def test_wilson_interval_known_values() -> None:
    from components import analysis

    low, high = analysis.wilson_interval(5, 10)
    assert round(low, 4) == 0.2366 and round(high, 4) == 0.7634  # Wilson (1927), z = 1.96
    assert analysis.wilson_interval(0, 10)[0] == 0.0
    assert abs(analysis.wilson_interval(10, 10)[1] - 1.0) < 1e-9


def test_calibration_bands_games_per_month_and_offseason_gaps(dashboard_env: object) -> None:
    seasons = _seasons()
    link = {"level": "MLB", "fc_seasons": [str(s) for s in seasons], "fc_phase": "Both"}
    at = open_page("forecasts", link)
    assert_clean(at)
    (calibration,) = figures(at)
    (scores,) = figures(open_page("forecasts", {**link, "tab": "Scores over time"}))
    band = next(t for t in calibration["data"] if t.get("name") == "ELO")["error_y"]
    assert band["type"] == "data" and "arrayminus" in band
    games = next(t for t in scores["data"] if t.get("name") == "Games")
    months = list(games["x"])
    assert any("…" in m for m in months), "the off-season between two seasons is a gap"
    assert [m for m in months if "…" not in m] == sorted(m for m in months if "…" not in m)
