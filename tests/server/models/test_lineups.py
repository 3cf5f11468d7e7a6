"""Batting lineups: wOBA terms, seeds from season totals, and the per-game adjustment."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from server.models import lineups
from server.models.lineups import LEAGUE_WOBA, PA_PER_SLOT, WOBA_SCALE


def test_woba_terms_known_values() -> None:
    # a single, a home run, a walk and two outs: .69 + .88 + 2.03 = 3.6 over 5 PA
    lines = pd.DataFrame({"AB": [4], "H": [2], "HR": [1], "BB": [1]})
    num, den = lineups.woba_terms(lines)
    assert num[0] == pytest.approx(3.6) and den[0] == 5.0
    lines = pd.DataFrame({"AB": [3], "H": [1], "2B": [1], "BB": [2], "IBB": [1], "HBP": [1],
                          "SF": [1]})
    num, den = lineups.woba_terms(lines)  # intentional walks count for neither
    assert num[0] == pytest.approx(0.69 + 0.72 + 1.25) and den[0] == 3 + 1 + 1 + 1


def test_batter_seeds_against_each_seasons_league() -> None:
    seasons = pd.DataFrame([
        ("a", 2020, 4, 2, 1, 1), ("b", 2020, 5, 0, 0, 0),  # league 3.6 / 10 = .360
        ("a", 2019, 5, 0, 0, 0), ("a", 2018, 4, 2, 1, 1),
    ], columns=["player_id", "season", "AB", "H", "HR", "BB"])
    seeds = lineups.batter_seeds(seasons)
    assert seeds["a"] == pytest.approx((3.6 - 0.36 * 5 + 0.0, 10.0))  # 2020 and 2019 (alone)
    assert seeds["b"] == pytest.approx((-1.8, 5.0))
    assert lineups.batter_seeds(seasons, last=1)["a"] == pytest.approx((1.8, 5.0))


def test_lineup_adjustments_hand_computed() -> None:
    params = lineups.LineupParams(points=70.0, prior_pa=100.0, debut=0.0, team_alpha=0.5)
    games = pd.DataFrame({"game_id": [1, 2, 3], "season": 2022, "home": [1, 1, 1],
                          "visitor": [2, 2, 2],
                          "date": pd.to_datetime(["2022-04-07", "2022-04-08", "2022-04-09"])})
    lines = pd.DataFrame({"game_id": [1, 1, 2, 2], "player_id": ["a", "b", "a", "b"],
                          "home": [True, False, True, False], "AB": [4, 0, 4, 0]})
    adj = lineups.lineup_adjustments(games, lines, params, {"a": (10.0, 100.0)})
    runs = PA_PER_SLOT / WOBA_SCALE  # runs a game per wOBA point of one slot
    a1 = 10.0 / 200.0  # a's estimate: (10 + 0) / (100 + 100)
    assert adj[1] == pytest.approx(70.0 * a1 * runs)
    # after game 1: a went 0 for 4 against the league's .315; his team's usual value is half
    # of game 1's
    a2 = (10.0 - LEAGUE_WOBA * 4) / 204.0
    assert adj[2] == pytest.approx(70.0 * (a2 * runs - 0.5 * a1 * runs))
    assert adj[3] == 0.0  # no lines: no adjustment
    assert lineups.lineup_adjustments(games, lines.iloc[:0], params).eq(0.0).all()


def test_lineup_adjustments_are_antisymmetric_and_only_use_earlier_games() -> None:
    params = lineups.SPORT_LINEUP["baseball"]
    rng = np.random.default_rng(3)
    games = pd.DataFrame({"game_id": np.arange(1, 41), "season": 2022,
                          "date": pd.date_range("2022-04-07", periods=40),
                          "home": np.tile([1, 2], 20), "visitor": np.tile([2, 1], 20)})
    rows = []
    for gid, h in zip(games["game_id"], games["home"]):
        for team in (1, 2):
            for slot in range(9):
                rows.append((gid, f"p{team}{slot}", team == h, 4, int(rng.integers(0, 3))))
    lines = pd.DataFrame(rows, columns=["game_id", "player_id", "home", "AB", "H"])
    adj = lineups.lineup_adjustments(games, lines, params)
    assert adj.iloc[0] == 0.0  # nobody has history: both lineups at the debut value
    # changing game 40's own lines changes nothing up to and including game 40
    later = lines.assign(H=np.where(lines["game_id"] == 40, 0, lines["H"]))
    assert np.allclose(adj, lineups.lineup_adjustments(games, later, params))
    # swapping the sides flips the sign
    swapped = games.assign(home=games["visitor"], visitor=games["home"])
    flipped = lines.assign(home=~lines["home"])
    assert np.allclose(adj, -lineups.lineup_adjustments(swapped, flipped, params))
