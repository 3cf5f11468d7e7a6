"""In-season margin model: it waits for enough games, ranks teams, restarts each season, and
blends into the Elo forecast without touching the ratings."""
from __future__ import annotations

import numpy as np
import pandas as pd

from server.models import elo, margins
from tests.server.models.test_elo import NBA_PLAIN, _games


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
    p = margins.margin_win_exp(g)
    first = int(np.flatnonzero(~np.isnan(p))[0])
    assert first == margins.MARGIN_MIN_GAMES  # silent until 30 earlier games (2 per day)
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
    p = margins.margin_win_exp(both)
    assert np.isnan(p[len(g):len(g) + margins.MARGIN_MIN_GAMES]).all()  # no carry-over
    plain = elo.run_elo(both, NBA_PLAIN)
    blended = elo.run_elo(both, elo.with_overrides(NBA_PLAIN, margin_weight=0.4))
    # ratings (the Elo's own updates) are untouched; only the forecast moves
    assert np.allclose(plain["helo_after"], blended["helo_after"])
    assert np.allclose(blended["helo_win_exp"] + blended["velo_win_exp"], 1.0)
    moved = ~np.isclose(plain["helo_win_exp"], blended["helo_win_exp"])
    assert moved.any() and not moved[:margins.MARGIN_MIN_GAMES].any()
    exp = elo.win_expectation(blended["helo_before"] - blended["velo_before"]
                              + blended["elo_adjust"])
    assert np.allclose(exp, blended["helo_win_exp"])  # elo_adjust carries the blend

