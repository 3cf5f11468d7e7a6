"""Starting pitchers: game score, the rolling book (relative to the league) and its seeds."""
from __future__ import annotations

import pandas as pd
import pytest

from server.models import elo, pitchers


def test_game_score_known_value() -> None:
    # 9-inning shutout, 10 K, 2 BB, 3 H: 47.4 + 1.5 x 27 + 10 - 4 - 6 = 87.9
    assert pitchers.game_score(27, 10, 2, 3, 0, 0) == pytest.approx(87.9)
    assert pitchers.game_score(9, 1, 3, 6, 5, 2) == pytest.approx(47.4 + 13.5 + 1 - 6 - 12 - 15 - 8)


def test_book_moves_only_after_a_start_and_against_the_league() -> None:
    book = pitchers.PitcherBook(points=4.7, alpha=0.1, team_alpha=0.05, debut=-3.0)
    assert book.adjustment("ace", 1) == pytest.approx(4.7 * -3.0)  # a newcomer, team at 0
    assert book.adjustment(None, 1) == 0.0
    book.record("ace", 1, 90.0)  # 40 over the league's 50: ace -3 + 0.1 x 43 = 1.3, team 2
    assert book.adjustment("ace", 1) == pytest.approx(4.7 * (1.3 - 2.0))
    assert book.adjustment("other", 1) == pytest.approx(4.7 * (-3.0 - 2.0))
    assert book.league == pytest.approx(50.4)  # 50 + 0.01 x 40
    book.record("bum", 2, 50.4)  # exactly the league: his newcomer -3 moves to -2.7
    assert book.adjustment("bum", 2) == pytest.approx(4.7 * -2.7)


def test_book_seed_counts_starts_through_the_rolling_weight() -> None:
    book = pitchers.PitcherBook(points=4.7, alpha=0.1, team_alpha=0.05, debut=-3.0)
    book.seed({"ace": (10.0, 2.0)})  # two starts 10 over the league: (1 - 0.9^2) x 10 = 1.9
    assert book.adjustment("ace", 1) == pytest.approx(4.7 * 1.9)


def test_pitcher_seeds_known_values() -> None:
    cols = ["player_id", "season", "GS", "BF", "OUTS", "K", "BBA", "HA", "RA", "HRA"]
    seasons = pd.DataFrame([
        # a: two 20-batter starts: 1.5 x 36 + 10 - 4 - 12 - 6 = 42 per 40 BF -> 47.4 + 21 = 68.4
        ("a", 2020, 1, 20, 18, 5, 1, 3, 1, 0),
        ("a", 2020, 1, 20, 18, 5, 1, 3, 1, 0),  # a second stint: summed
        # b: one start and relief, 60 BF: -9.5 per 60 BF x 24 (capped) -> 47.4 - 3.8 = 43.6
        ("b", 2020, 1, 60, 45, 5, 5, 15, 10, 3),
        ("c", 2020, 0, 30, 20, 5, 1, 5, 2, 1),  # a reliever: no seed
        ("b", 2017, 30, 700, 540, 150, 40, 150, 60, 20),  # his third latest season: ignored
        ("b", 2018, 1, 20, 18, 5, 1, 3, 1, 0),
        ("d", 2018, 1, 20, 18, 5, 1, 3, 1, 0),  # alone in 2018: the league, deviation 0
        ("b", 2019, 0, 10, 6, 1, 1, 2, 1, 0),  # no start that season
    ], columns=cols)
    seeds = pitchers.pitcher_seeds(seasons)
    league = (68.4 * 2 + 43.6) / 3
    assert seeds["a"] == pytest.approx((68.4 - league, 2.0))
    # b: 2020 (1 start) and 2018 (1 start, the league: b and d alike, 68.4 each)
    assert seeds["b"] == pytest.approx(((43.6 - league + 0.0) / 2, 2.0))
    assert seeds["d"] == pytest.approx((0.0, 1.0))
    assert "c" not in seeds


def test_run_elo_uses_game_scores_from_earlier_starts() -> None:
    p = elo.with_overrides(elo.SPORT_ELO["baseball"], gs_points=4.7, gs_alpha=0.1,
                           gs_team_alpha=0.1, gs_debut=0.0, early_boost=0.0)
    g = pd.DataFrame({"game_id": [1, 2], "season": 2022, "date": ["2022-04-07", "2022-04-12"],
                      "home": [1, 1], "visitor": [2, 2], "score_home": [5, 3],
                      "score_vis": [0, 2], "neutral": False, "playoff": False,
                      "home_sp": ["ace", "ace"], "vis_sp": ["bum", "bum"],
                      "home_sp_gs": [90.0, 60.0], "vis_sp_gs": [20.0, 40.0]})
    res = elo.run_elo(g, p)
    assert res.iloc[0].elo_adjust == pytest.approx(p.home)
    # ace +40 -> 4 and team 4; bum 20 - 50.4 -> -3.04 and team -3.04: with equal weights they
    # cancel against their teams
    assert res.iloc[1].elo_adjust == pytest.approx(p.home)
    q = elo.with_overrides(p, gs_team_alpha=0.0)  # team baselines stay at the league
    res = elo.run_elo(g, q)
    assert res.iloc[1].elo_adjust == pytest.approx(p.home + 4.7 * 4.0 + 4.7 * 3.04)
    seeded = elo.run_elo(g, p, pitcher_priors={"ace": (10.0, 1.0)})  # 0.1 x 10 = 1 point
    assert seeded.iloc[0].elo_adjust == pytest.approx(p.home + 4.7)
    no_scores = elo.run_elo(g.drop(columns=["home_sp_gs", "vis_sp_gs"]), q)
    assert no_scores.iloc[1].elo_adjust == pytest.approx(p.home)  # no game scores: no book
