"""ELO: known values (hand-computed) and invariants."""
from __future__ import annotations

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


def test_pitcher_adjustment_uses_only_earlier_starts() -> None:
    p = elo.with_overrides(elo.SPORT_ELO["baseball"], early_boost=0.0)
    g = _games([(1, 2022, "2022-04-07", 1, 2, 5, 0, False, False),
                (2, 2022, "2022-04-12", 1, 2, 3, 2, False, False)])
    g["home_sp"], g["vis_sp"] = ["ace", "ace"], ["bum", "bum"]
    res = elo.run_elo(g, p)
    assert res.iloc[0].elo_adjust == pytest.approx(p.home)  # no earlier starts: no adjustment
    # ace allowed 0 runs (residual -4.5), bum 5 (+0.5): (4.5 + 0.5) x scale / (1 + shrink)
    expected = p.home + p.pitcher_scale * (4.5 + 0.5) / (1 + p.pitcher_shrink)
    assert res.iloc[1].elo_adjust == pytest.approx(expected)


def test_points_exchanged_are_positive_and_changes_signed() -> None:
    res = elo.run_elo(_games([(1, 2023, "2023-01-01", 1, 2, 90, 100, False, False)]), NBA_PLAIN)
    r = res.iloc[0]
    assert r.elo_points > 0 and r.helo_change == pytest.approx(-r.elo_points)
    assert r.velo_after - r.velo_before == pytest.approx(r.elo_points)


def _round_robin(days: int, seed: int = 7) -> pd.DataFrame:
    """Four teams, two games a day; team 1 beats everyone by 3, team 4 loses to everyone by 3,
    teams 2 and 3 trade one-goal wins."""
    rng = np.random.default_rng(seed)
    rows, gid = [], 0
    pairs = [(1, 2), (3, 4), (1, 3), (2, 4), (1, 4), (2, 3)]
    strength = {1: 1.5, 2: 0.0, 3: 0.0, 4: -1.5}
    for d in range(days):
        for home, vis in (pairs[(2 * d) % 6], pairs[(2 * d + 1) % 6]):
            gid += 1
            m = strength[home] - strength[vis] + rng.choice([-1.0, 1.0])
            rows.append((gid, 2023, pd.Timestamp("2023-01-01") + pd.Timedelta(days=d), home, vis,
                         3.0 + max(m, 0.0), 3.0 + max(-m, 0.0), False, False))
    return _games(rows)


def test_margin_model_waits_then_ranks_teams() -> None:
    g = _round_robin(60)
    p = elo.margin_win_exp(g)
    first = int(np.flatnonzero(~np.isnan(p))[0])
    assert first == elo.MARGIN_MIN_GAMES  # silent until 30 earlier games (2 per day)
    assert np.all((p[first:] > 0) & (p[first:] < 1))
    late = g.index[g.index >= 100]
    strong = [i for i in late if g.at[i, "home"] == 1 and g.at[i, "visitor"] == 4]
    even = [i for i in late if g.at[i, "home"] == 2 and g.at[i, "visitor"] == 3]
    assert strong and min(p[strong]) > 0.9
    assert even and 0.2 < min(p[even]) <= max(p[even]) < 0.8


def test_margin_model_restarts_each_season_and_blends() -> None:
    g = _round_robin(40)
    g2 = g.assign(season=2024, game_id=g["game_id"] + 1000,
                  date=g["date"] + pd.Timedelta(days=365))
    both = pd.concat([g, g2], ignore_index=True)
    p = elo.margin_win_exp(both)
    assert np.isnan(p[len(g):len(g) + elo.MARGIN_MIN_GAMES]).all()  # no carry-over
    plain = elo.run_elo(both, NBA_PLAIN)
    blended = elo.run_elo(both, elo.with_overrides(NBA_PLAIN, margin_weight=0.4))
    # ratings (the Elo's own updates) are untouched; only the forecast moves
    assert np.allclose(plain["helo_after"], blended["helo_after"])
    assert np.allclose(blended["helo_win_exp"] + blended["velo_win_exp"], 1.0)
    moved = ~np.isclose(plain["helo_win_exp"], blended["helo_win_exp"])
    assert moved.any() and not moved[:elo.MARGIN_MIN_GAMES].any()
    exp = elo.win_expectation(blended["helo_before"] - blended["velo_before"]
                              + blended["elo_adjust"])
    assert np.allclose(exp, blended["helo_win_exp"])  # elo_adjust carries the blend
