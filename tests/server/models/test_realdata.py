"""ELO quality on real games (Brier vs FiveThirtyEight's published Elo), read straight from
../shared/data by tests/server/models/realdata.py. The asserted bounds are what the model
achieves; FiveThirtyEight's targets are printed beside them (see the module constants)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from server.models import elo, metrics
from tests.server.models import realdata

pytestmark = [
    pytest.mark.realdata,
    pytest.mark.skipif(not realdata.available(), reason="../shared/data is absent"),
]

# FiveThirtyEight's regular-season Elo Brier scores (MLB: 2,429 games of 2022, from the issue;
# NBA and NHL recomputed from their files by realdata.fivethirtyeight_brier).
TARGET = {"MLB2022": 0.2398, "NBA": 0.2297, "NHL": 0.2357}
# What our model achieves (asserted, with a little room for float noise). MLB through the store
# (starters' game scores and lineups from Retrosheet's lines, seeds from Lahman) is asserted in
# tests/server/jobs/test_realdata_store.py; the game logs read here name the starters but hold
# no lines, so MLB here is the plain Elo with Lahman's records as priors.
ACHIEVED = {"MLB2022": 0.2409, "MLB2023": 0.2421, "NBA": 0.2290, "NHL": 0.2368}
PLAIN = {"MLB2022": 0.2409, "MLB2023": 0.2436}
SLACK = 0.0002


def _score(games: pd.DataFrame, params: elo.EloParams, priors: dict[int, float] | None = None,
           season: int | None = None, prior_age: dict[int, int] | None = None
           ) -> dict[str, float]:
    res = elo.run_elo(games, params, priors, prior_age=prior_age)
    g = games.sort_values(["date", "game_id"], kind="stable").reset_index(drop=True)
    keep = (~g["playoff"]) & g["score_home"].notna()
    if season is not None:
        keep &= g["season"] == season
    y = np.where(g["score_home"] > g["score_vis"], 1.0, 0.0)[keep]
    p = res["helo_win_exp"].to_numpy()[keep]
    base = metrics.brier(np.full(len(y), y.mean()), y)  # in-sample constant: a generous baseline
    return {**metrics.summary(p, y), "baseline": base}


def _report(name: str, s: dict[str, float]) -> None:
    print(f"{name}: n={int(s['count'])} Brier {s['brier']:.4f} (target {TARGET.get(name, 'n/a')}) "
          f"log loss {s['log_loss']:.4f} accuracy {s['accuracy']:.3f} "
          f"constant baseline {s['baseline']:.4f}")


def test_fivethirtyeight_targets_match_their_files() -> None:
    assert realdata.fivethirtyeight_brier("NBA") == (1230, pytest.approx(0.2297, abs=5e-5))
    assert realdata.fivethirtyeight_brier("NHL") == (1312, pytest.approx(0.2357, abs=5e-5))


def test_mlb_plain_elo_from_game_logs() -> None:
    games = realdata.mlb()
    priors = realdata.mlb_priors(realdata.mlb_team_codes())  # Lahman 2019+2020, pooled
    age = realdata.mlb_prior_age(priors)  # 2020's record is two seasons before 2022
    for season in (2022, 2023):
        s = _score(games, elo.SPORT_ELO["baseball"], priors, season, age)
        _report(f"MLB{season}", s)
        assert s["count"] == 2430
        assert s["brier"] < PLAIN[f"MLB{season}"] + SLACK
        assert s["brier"] < s["baseline"]


def test_nba_beats_fivethirtyeight() -> None:
    s = _score(realdata.nba(), elo.SPORT_ELO["basketball"])
    _report("NBA", s)
    assert s["count"] == 1230
    assert s["brier"] < TARGET["NBA"]


def test_nhl() -> None:
    s = _score(realdata.nhl(), elo.SPORT_ELO["hockey"])
    _report("NHL", s)
    assert s["count"] == 1312
    assert s["brier"] < ACHIEVED["NHL"] + SLACK
    assert s["brier"] < s["baseline"]


def _final_win_pct(games: pd.DataFrame, season: int) -> dict[int, float]:
    """Each team's regular-season win fraction in ``season`` (for the bound below only)."""
    g = games[(games["season"] == season) & ~games["playoff"]]
    won = pd.concat([pd.Series((g["score_home"] > g["score_vis"]).to_numpy(float), g["home"]),
                     pd.Series((g["score_vis"] > g["score_home"]).to_numpy(float), g["visitor"])])
    return {int(t): float(p) for t, p in won.groupby(level=0).mean().items()}


def test_mlb_and_nhl_gaps_are_in_the_preseason_prior() -> None:
    """Where MLB 2022 and NHL 2022-23 fall short of FiveThirtyEight is the start of the season:
    the same model (for MLB the plain one, without starters and lineups), handed the one thing
    it lacks -- a rating from the season before -- beats 538. That prior here is the scored
    season's own final record (an oracle: it could never be known beforehand), reverted once,
    as last season's record would be. If these fail, the gaps are not where the docs say."""
    games = realdata.mlb()
    oracle = _final_win_pct(games, 2022)
    mlb = _score(games, elo.SPORT_ELO["baseball"], oracle, 2022, {t: 1 for t in oracle})
    _report("MLB2022", mlb)
    assert mlb["brier"] < TARGET["MLB2022"] < PLAIN["MLB2022"]
    nhl_games = realdata.nhl()
    oracle = _final_win_pct(nhl_games, 2023)
    nhl = _score(nhl_games, elo.SPORT_ELO["hockey"], oracle, prior_age={t: 1 for t in oracle})
    _report("NHL", nhl)
    assert nhl["brier"] < TARGET["NHL"] < ACHIEVED["NHL"]
