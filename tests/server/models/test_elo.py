"""ELO: known values (hand-computed) and invariants."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from server.models import elo

NBA_PLAIN = elo.EloParams(k=20.0, home=100.0, mov="basketball", revert=0.25, mean=1505.0)


def _games(rows: list[tuple]) -> pd.DataFrame:
    cols = ["game_id", "season", "date", "home", "visitor", "score_home", "score_vis", "neutral",
            "playoff"]
    return pd.DataFrame(rows, columns=cols)


@pytest.mark.parametrize(("diff", "expected"), [(0, 0.5), (400, 10 / 11), (-400, 1 / 11),
                                               (100, 0.6400649998)])
def test_win_expectation_known_values(diff: float, expected: float) -> None:
    assert elo.win_expectation(diff) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize(("family", "margin", "diff", "expected"), [
    ("basketball", 10, 0, 7.783137122 / 7.5),  # (10+3)^0.8 / 7.5
    ("basketball", 10, 100, 7.783137122 / 8.1),
    ("hockey", 1, 0, 0.8048),  # 0.6686 ln 1 + 0.8048
    ("hockey", 2, 0, 0.6686 * 0.693147181 + 0.8048),
    ("baseball", 1, 0, 1.0),  # ln 2 / ln 2
    ("baseball", 3, 0, 2.0),  # ln 4 / ln 2
    ("none", 12, 0, 1.0),
    ("basketball", 0, 0, 1.0),  # a draw
])
def test_mov_multiplier_known_values(family: str, margin: float, diff: float,
                                     expected: float) -> None:
    assert elo.mov_multiplier(family, margin, diff) == pytest.approx(expected, rel=1e-6)


def test_revert_and_prior() -> None:
    assert elo.revert(1600.0, NBA_PLAIN) == pytest.approx(1576.25)  # 1505 + 0.75 x 95
    assert elo.prior_rating(None, NBA_PLAIN) == 1505.0
    p = elo.with_overrides(NBA_PLAIN, prior_scale=400.0)
    assert elo.prior_rating(0.75, p) == pytest.approx(1505 + 0.75 * 100)
    # a record two seasons old is reverted twice: 1505 + 0.75 x 0.75 x 100
    assert elo.prior_rating(0.75, p, seasons_ago=2) == pytest.approx(1505 + 56.25)
    g = _games([(1, 2023, "2023-01-01", 1, 2, np.nan, np.nan, False, False)])
    res = elo.run_elo(g, p, priors={1: 0.75}, prior_age={1: 2})
    assert res.iloc[0].helo_before == pytest.approx(1561.25)
    assert res.iloc[0].velo_before == 1505.0  # no record: the mean


def test_one_game_block_hand_computed() -> None:
    # 1505 v 1505, home +100: We = 0.64006; home wins by 10: mult = 13^0.8 / 8.1 = 0.96088;
    # points = 20 x 0.96088 x (1 - 0.64006) = 6.91709.
    res = elo.run_elo(_games([(1, 2023, "2022-10-18", 1, 2, 110, 100, False, False)]), NBA_PLAIN)
    r = res.iloc[0]
    assert r.helo_before == r.velo_before == 1505.0
    assert r.helo_win_exp == pytest.approx(0.6400650, abs=1e-6)
    assert r.helo_win_exp + r.velo_win_exp == pytest.approx(1.0)
    assert r.elo_adjust == 100.0 and r.elo_k == 20.0
    assert r.elo_points == pytest.approx(6.917095, abs=1e-5)
    assert r.helo_after == pytest.approx(1505 + 6.917095, abs=1e-5)
    assert r.velo_change == pytest.approx(-r.helo_change)


def test_neutral_site_has_no_home_advantage() -> None:
    res = elo.run_elo(_games([(1, 2023, "2022-10-18", 1, 2, 110, 100, True, False)]), NBA_PLAIN)
    assert res.iloc[0].elo_adjust == 0.0
    assert res.iloc[0].helo_win_exp == pytest.approx(0.5)


def test_playoff_scales_difference() -> None:
    p = elo.with_overrides(NBA_PLAIN, playoff_diff=1.25)
    res = elo.run_elo(_games([(1, 2023, "2023-04-20", 1, 2, None, None, False, True)]), p)
    assert res.iloc[0].elo_adjust == pytest.approx(125.0)
    assert np.isnan(res.iloc[0].helo_after)  # not final: no update


def test_ratings_carry_and_revert_between_seasons_and_stay_zero_sum() -> None:
    rng = np.random.default_rng(1)
    rows = []
    for i in range(200):
        h, v = rng.choice(6, 2, replace=False)
        season = 2022 if i < 100 else 2023
        rows.append((i + 1, season, f"{season}-01-01", int(h), int(v), int(rng.integers(80, 120)),
                     int(rng.integers(80, 120)), False, False))
    g = _games(rows)
    res = elo.run_elo(g, NBA_PLAIN).set_index("game_id")
    # zero sum: the points exchanged cancel, so the mean rating stays 1505 within a season
    assert (res.helo_change + res.velo_change).abs().max() < 1e-9
    first_2023 = g[g.season == 2023].iloc[0]
    last_before = {}
    for r in g[g.season == 2022].itertuples():
        last_before[r.home] = res.loc[r.game_id, "helo_after"]
        last_before[r.visitor] = res.loc[r.game_id, "velo_after"]
    assert res.loc[first_2023.game_id, "helo_before"] == pytest.approx(
        elo.revert(last_before[first_2023.home], NBA_PLAIN))


def test_draw_counts_half_and_early_boost_raises_k() -> None:
    p = elo.with_overrides(NBA_PLAIN, home=0.0, early_boost=1.0, early_games=10.0)
    res = elo.run_elo(_games([(1, 2023, "2023-01-01", 1, 2, 1, 1, False, False)]), p)
    assert res.iloc[0].elo_points == pytest.approx(0.0)
    assert res.iloc[0].elo_k == pytest.approx(40.0)  # 20 x (1 + e^0)


def test_lineup_adjust_column_moves_the_forecast() -> None:
    g = _games([(1, 2023, "2023-01-01", 1, 2, 100, 90, False, False)])
    plain = elo.run_elo(g, NBA_PLAIN).iloc[0]
    moved = elo.run_elo(g.assign(lineup_adjust=[-100.0]), NBA_PLAIN).iloc[0]
    assert moved.elo_adjust == pytest.approx(0.0)  # home 100 - lineup 100
    assert moved.helo_win_exp == pytest.approx(0.5)
    assert plain.helo_win_exp > moved.helo_win_exp
    # the update uses the adjusted expectation: an even game won by 10 moves more points
    assert moved.elo_points > plain.elo_points


def test_points_exchanged_are_positive_and_changes_signed() -> None:
    res = elo.run_elo(_games([(1, 2023, "2023-01-01", 1, 2, 90, 100, False, False)]), NBA_PLAIN)
    r = res.iloc[0]
    assert r.elo_points > 0 and r.helo_change == pytest.approx(-r.elo_points)
    assert r.velo_after - r.velo_before == pytest.approx(r.elo_points)


def test_early_factor_shapes_hand_computed() -> None:
    # exp: 1 + 2 e^(-8/8) = 1.735759; kalman: 1 + 2 / (1 + 8/8) = 2; both 1 + boost at game 0.
    p = elo.with_overrides(NBA_PLAIN, early_boost=2.0, early_games=8.0)
    assert elo.early_factor(0.0, p) == pytest.approx(3.0)
    assert elo.early_factor(8.0, p) == pytest.approx(1.0 + 2.0 * math.exp(-1.0))
    k = elo.with_overrides(p, early_shape="kalman")
    assert elo.early_factor(0.0, k) == pytest.approx(3.0)
    assert elo.early_factor(8.0, k) == pytest.approx(2.0)
    assert elo.early_factor(24.0, k) == pytest.approx(1.5)  # 1 + 2 / 4
    # the Kalman shape's tail is heavier: at 24 games the exponential is ~1.0996
    assert elo.early_factor(24.0, p) == pytest.approx(1.0 + 2.0 * math.exp(-3.0))
    # in games: hockey's K is 6 x 3 = 18 at the first game and 6 x 2 = 12 once both teams have
    # played 8 (hockey uses the Kalman shape, boost 2 over 8 games)
    games = _games([(i + 1, 2023, f"2022-10-{i + 1:02d}", 1 + i % 2, 2 - i % 2, 3, 2, False,
                     False) for i in range(9)])
    res = elo.run_elo(games, elo.with_overrides(elo.SPORT_ELO["hockey"], margin_weight=0.0))
    assert res["elo_k"].iloc[0] == pytest.approx(18.0)
    assert res["elo_k"].iloc[8] == pytest.approx(12.0)


def test_elo_block_columns_are_the_forecast_records() -> None:
    """The endpoints and the re-tabulation read these names from the forecasts table."""
    from server.store import schema

    assert elo.ELO_COLUMNS == ("velo_before", "helo_before", "velo_after", "helo_after", "elo_k",
                               "elo_adjust", "elo_points", "velo_change", "helo_change",
                               "velo_win_exp", "helo_win_exp")
    assert set(elo.ELO_COLUMNS) <= set(schema.forecasts.c.keys())
    res = elo.run_elo(_games([(1, 2023, "2022-10-18", 1, 2, 110, 100, False, False)]), NBA_PLAIN)
    assert list(res.columns) == ["game_id", *elo.ELO_COLUMNS]
    assert res.iloc[0].helo_win_exp == pytest.approx(float(elo.win_expectation(100.0)))
