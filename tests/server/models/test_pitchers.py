from __future__ import annotations

import pandas as pd
import pytest

from server.models import elo, pitchers


def test_game_score_known_value() -> None:
    # 9-inning shutout, 10 K, 2 BB, 3 H: 47.4 + 1.5 x 27 + 10 - 4 - 6 = 87.9
    assert pitchers.game_score(27, 10, 2, 3, 0, 0) == pytest.approx(87.9)
    assert pitchers.game_score(9, 1, 3, 6, 5, 2) == pytest.approx(47.4 + 13.5 + 1 - 6 - 12 - 15 - 8)


def test_gamescore_mode_moves_only_after_a_start() -> None:
    book = pitchers.PitcherBook("gamescore", points=4.7, alpha=0.1, team_alpha=0.05, shrink=0)
    assert book.adjustment("ace", 1) == 0.0
    book.record("ace", 1, 90.0)  # ace rGS 54, team rGS 52
    assert book.adjustment("ace", 1) == pytest.approx(4.7 * (54.0 - 52.0))
    assert book.adjustment("other", 1) == pytest.approx(4.7 * (50.0 - 52.0))
    assert book.adjustment(None, 1) == 0.0


def test_run_elo_uses_game_scores_when_present() -> None:
    p = elo.with_overrides(elo.SPORT_ELO["baseball"], gs_points=4.7, early_boost=0.0)
    g = pd.DataFrame({"game_id": [1, 2], "season": 2022, "date": ["2022-04-07", "2022-04-12"],
                      "home": [1, 1], "visitor": [2, 2], "score_home": [5, 3],
                      "score_vis": [0, 2], "neutral": False, "playoff": False,
                      "home_sp": ["ace", "ace"], "vis_sp": ["bum", "bum"],
                      "home_sp_gs": [90.0, 60.0], "vis_sp_gs": [20.0, 40.0]})
    res = elo.run_elo(g, p)
    assert res.iloc[0].elo_adjust == pytest.approx(p.home)
    # ace 54 v team 54 -> 0; bum 47 v team 47 -> 0: with alpha == team_alpha they cancel
    assert res.iloc[1].elo_adjust == pytest.approx(p.home)
    q = elo.with_overrides(p, gs_team_alpha=0.0)  # team baseline stays at 50
    res = elo.run_elo(g, q)
    assert res.iloc[1].elo_adjust == pytest.approx(p.home + 4.7 * (54 - 50) - 4.7 * (47 - 50))


def test_runs_mode_prior_seed() -> None:
    book = pitchers.PitcherBook("runs", points=10.0, alpha=0.1, team_alpha=0.1, shrink=6.0)
    book.seed({"ace": (-1.0, 6.0)})  # one run better than average over 6 pseudo-starts
    assert book.adjustment("ace", 1) == pytest.approx(10.0 * 6.0 / 12.0)
    book.record("ace", 1, 4.5)  # an average start
    assert book.adjustment("ace", 1) == pytest.approx(10.0 * 6.0 / 13.0)
