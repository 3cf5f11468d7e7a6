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
# What our model achieves with the season before in the data (asserted, with a little room for
# float noise): NBA 2022-23 and NHL 2022-23 rated after 2021-22, MLB after 2021. MLB through the
# store (starters' game scores and lineups from Retrosheet's lines, seeds from Lahman) is
# asserted in tests/server/jobs/test_realdata_store.py; the game logs read here name the
# starters but hold no lines, so MLB here is the plain Elo (Lahman's 2019-2020 records as the
# 2021 priors).
ACHIEVED = {"NBA": 0.2285, "NHL": 0.2348}
PLAIN = {"MLB2022": 0.2403, "MLB2023": 0.2437}
# Before the prior seasons were in the data: MLB 2022 from Lahman's 2020 records (two seasons
# old), NHL 2022-23 from scratch (docs/elo-tuning.md)
COLD_START = {"MLB2022": 0.2409, "NHL": 0.2368}
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
    """2021 starts from Lahman's records (2020 is one season before it); 2022 and 2023 carry
    the ratings of the season before. The real 2021 beats the two-season-old records that
    2022 started from before it was in the data."""
    games = realdata.mlb()
    priors = realdata.mlb_priors(realdata.mlb_team_codes())  # Lahman 2019+2020, pooled
    age = realdata.mlb_prior_age(priors)
    assert set(age.values()) == {1}
    for season in (2022, 2023):
        s = _score(games, elo.SPORT_ELO["baseball"], priors, season, age)
        _report(f"MLB{season}", s)
        assert s["count"] == 2430
        assert s["brier"] < PLAIN[f"MLB{season}"] + SLACK
        assert s["brier"] < s["baseline"]
        if season == 2022:
            assert s["brier"] < COLD_START["MLB2022"] - 0.0004


def test_nba_after_the_season_before_beats_fivethirtyeight() -> None:
    s = _score(realdata.nba(), elo.SPORT_ELO["basketball"], season=2023)
    _report("NBA", s)
    assert s["count"] == 1230
    assert s["brier"] < ACHIEVED["NBA"] + SLACK
    assert s["brier"] < TARGET["NBA"]


def test_nhl_after_the_season_before_beats_fivethirtyeight() -> None:
    """NHL 2022-23 rated after 2021-22 (whose last 66 games were never scored in the snapshot:
    they move no rating). Rated from scratch it scored 0.2368, 0.0011 short of 538."""
    s = _score(realdata.nhl(), elo.SPORT_ELO["hockey"], season=2023)
    _report("NHL", s)
    assert s["count"] == 1312
    assert s["brier"] < ACHIEVED["NHL"] + SLACK
    assert s["brier"] < TARGET["NHL"] < COLD_START["NHL"]
    cold = _score(realdata.nhl((realdata.NHL,)), elo.SPORT_ELO["hockey"])
    assert cold["brier"] == pytest.approx(COLD_START["NHL"], abs=SLACK)
