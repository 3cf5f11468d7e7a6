"""Football's goal model (server.models.football_goals): the score grid's three chances, clubs'
attack and defence learnt from earlier match days only, a promoted club's start, and the
forecast's blend with the Elo's chances."""
from __future__ import annotations

import datetime as dt
import math
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from server.models import football as fb
from server.models import football_goals as fg
from server.models.elo import SPORT_ELO, run_elo


def _poisson(k: int, lam: float) -> float:
    return float(lam ** k * math.exp(-lam) / math.factorial(k))


def test_the_score_grid_gives_three_chances_by_hand() -> None:
    """Without the low-score correction a 1.5 v 1.0 match is two Poisson counts: the draw is
    the sum of equal scores; with it 0-0 and 1-1 grow (rho < 0) at the expense of 1-0, 0-1."""
    p = fg.outcome_chances(np.array([1.5]), np.array([1.0]), rho=0.0)[0]
    draw = sum(_poisson(k, 1.5) * _poisson(k, 1.0) for k in range(11))
    home = sum(_poisson(i, 1.5) * _poisson(j, 1.0) for i in range(11) for j in range(i))
    assert p.sum() == pytest.approx(1.0)
    assert p[fb.DRAW] == pytest.approx(draw, abs=1e-6)
    assert p[fb.HOME] == pytest.approx(home, abs=1e-6)
    corrected = fg.outcome_chances(np.array([1.5]), np.array([1.0]), rho=-0.1)[0]
    assert corrected[fb.DRAW] > p[fb.DRAW]
    even = fg.outcome_chances(np.array([1.3]), np.array([1.3]))[0]
    assert even[fb.HOME] == pytest.approx(even[fb.AWAY])


def _league(seasons: int, rng: np.random.Generator, strength: np.ndarray) -> pd.DataFrame:
    """A double round robin per season, one round a week, goals Poisson from ``strength``
    (log rate, attack and defence alike) and a home advantage of 0.3."""
    n = len(strength)
    rows = []
    day = pd.Timestamp("2021-08-01")
    for s in range(seasons):
        pairs = [(h, v) for h in range(n) for v in range(n) if h != v]
        rng.shuffle(pairs)
        for k in range(0, len(pairs), n // 2):
            for h, v in pairs[k:k + n // 2]:
                lh = math.exp(0.1 + 0.3 + strength[h] - strength[v])
                lv = math.exp(0.1 + strength[v] - strength[h])
                rows.append((len(rows) + 1, 2022 + s, day, h + 1, v + 1, float(rng.poisson(lh)),
                             float(rng.poisson(lv))))
            day += pd.Timedelta(days=7)
    df = pd.DataFrame(rows, columns=["game_id", "season", "date", "home", "visitor",
                                     "score_home", "score_vis"])
    return df.assign(neutral=False, playoff=False, sublevel_id=100)


def test_clubs_are_learnt_from_their_goals_and_the_home_side_scores_more() -> None:
    rng = np.random.default_rng(3)
    strength = np.linspace(-0.4, 0.4, 10)
    games = _league(3, rng, strength)
    lam = fg.rates(games, {100: 1}).set_index("game_id")
    last = games[games["season"] == 2024]
    fitted = last.join(lam, on="game_id")
    # the strongest club at home is expected to outscore the weakest by far, after two seasons
    top = fitted[(fitted["home"] == 10) & (fitted["visitor"] == 1)].iloc[0]
    assert top["lambda_home"] > 2.5 * top["lambda_vis"]
    log_ratio = np.log(fitted["lambda_home"] / fitted["lambda_vis"])
    truth = 0.3 + 2 * (strength[fitted["home"] - 1] - strength[fitted["visitor"] - 1])
    assert np.corrcoef(log_ratio, truth)[0, 1] > 0.95
    assert float(np.mean(log_ratio - truth)) == pytest.approx(0.0, abs=0.12)  # home advantage


def test_a_match_day_is_forecast_from_earlier_days_only() -> None:
    """Changing a result moves no forecast of its own day or before, only the later ones."""
    games = _league(1, np.random.default_rng(5), np.linspace(-0.3, 0.3, 6))
    day = games["date"].iloc[len(games) // 2]
    changed = games.copy()
    at = changed.index[changed["date"] == day][0]
    changed.loc[at, ["score_home", "score_vis"]] = [9.0, 0.0]
    before = fg.rates(games, {100: 1}).set_index("game_id")
    after = fg.rates(changed, {100: 1}).set_index("game_id")
    upto = games.loc[games["date"] <= day, "game_id"]
    later = games.loc[games["date"] > day, "game_id"]
    assert np.allclose(before.loc[upto], after.loc[upto])
    assert not np.allclose(before.loc[later], after.loc[later])


def test_a_club_new_to_a_league_already_here_starts_below_its_clubs() -> None:
    """A league's first season here: its clubs are its clubs. A club that joins it a season
    later came up from a division the files do not hold: a promoted club, below the middle."""
    games = pd.DataFrame({
        "game_id": [1, 2, 3, 4], "season": [2022, 2022, 2023, 2023],
        "date": pd.to_datetime(["2021-08-01", "2021-08-01", "2022-08-01", "2022-08-01"]),
        "home": [10, 30, 10, 50], "visitor": [20, 40, 60, 30], "score_home": [1.0, 2.0, 1.0, 0.0],
        "score_vis": [1.0, 2.0, 1.0, 0.0], "neutral": False, "playoff": False,
        "sublevel_id": [100, 200, 100, 200]})
    debuts = fb.club_debuts(games, {100: 1, 200: 2})
    assert debuts == {10: (0, False), 20: (0, False), 30: (1, False), 40: (1, False),
                      60: (0, True), 50: (1, True)}
    params = SPORT_ELO["soccer"]
    first = fb.first_ratings(games, {100: 1, 200: 2}, params)
    assert first[60] == params.mean - params.promoted_gap < first[20]
    assert first[50] == params.mean - params.tier_gap - params.promoted_gap
    lam = fg.rates(games, {100: 1, 200: 2}).set_index("game_id")
    # club 60 (promoted) visits club 10: the home side is expected to score more than at a
    # first-season rival's ground
    assert lam.loc[3, "lambda_home"] > lam.loc[3, "lambda_vis"] * math.exp(fg.GOALS.home_prior)


def test_the_forecast_blends_the_goals_into_clubs_chances_and_leaves_nations_to_elo() -> None:
    games = _league(1, np.random.default_rng(9), np.linspace(-0.3, 0.3, 6))
    nations = pd.DataFrame({"game_id": [9001], "season": [2022], "date": [games["date"].max()],
                            "home": [501], "visitor": [502], "score_home": [np.nan],
                            "score_vis": [np.nan], "neutral": [True], "playoff": [False],
                            "sublevel_id": [900]})
    both = pd.concat([games, nations], ignore_index=True)
    elo = run_elo(both, SPORT_ELO["soccer"])
    alone = fb.forecast_columns(elo).set_index("game_id")
    mixed = fg.forecast_columns(both, elo, {100: 1}, national=[900]).set_index("game_id")
    cols = ["elo_home_prob", "elo_draw_prob", "elo_vis_prob"]
    assert np.allclose(mixed[cols].sum(axis=1), 1.0)
    assert mixed.loc[9001, cols].tolist() == pytest.approx(alone.loc[9001, cols].tolist())
    lam = fg.rates(games, {100: 1}).set_index("game_id")
    goals = fg.outcome_chances(lam["lambda_home"].to_numpy(), lam["lambda_vis"].to_numpy())
    w = fg.GOALS.blend
    expected = w * goals + (1 - w) * alone.loc[lam.index, cols].to_numpy()
    assert np.allclose(mixed.loc[lam.index, cols].to_numpy(), expected)
    elo_only = fg.forecast_columns(both, elo, {100: 1}, [900], replace(fg.GOALS, blend=0.0))
    assert np.allclose(elo_only.set_index("game_id")[cols], alone[cols])


def _fits_equal(a: fg.Fits, b: fg.Fits) -> bool:
    return a.by_day.keys() == b.by_day.keys() and all(
        np.array_equal(a.by_day[d].attack, b.by_day[d].attack)
        and np.array_equal(a.by_day[d].defence, b.by_day[d].defence)
        and np.array_equal(a.by_day[d].home, b.by_day[d].home)
        and a.by_day[d].base == b.by_day[d].base for d in a.by_day)


def test_a_fit_resumed_from_yesterdays_walk_is_the_fit_of_a_fresh_walk() -> None:
    """The nightly projection: yesterday's walk fitted the goal model up to its day; today's
    games are yesterday's and one more match day of results, and today's fit resumes from
    yesterday's checkpoint: the same numbers as a walk from the first match. A result of an
    earlier day corrected since is a different input: its fit is walked afresh."""
    games = _league(2, np.random.default_rng(7), np.linspace(-0.3, 0.3, 8))
    days = sorted(games["date"].dt.date.unique())
    yesterday, today = days[20], days[21]

    def as_played(day: dt.date) -> pd.DataFrame:
        out = games.copy()
        out.loc[out["date"].dt.date > day, ["score_home", "score_vis"]] = np.nan
        return out

    fg._CHECKPOINTS.clear()
    fresh = fg.as_of(as_played(today), {100: 1}, [today])
    fg._CHECKPOINTS.clear()
    fg.as_of(as_played(yesterday), {100: 1}, [yesterday])
    assert fg._CHECKPOINTS  # yesterday's walk left where it stopped
    resumed = fg.as_of(as_played(today), {100: 1}, [today])
    assert _fits_equal(resumed, fresh)
    corrected = as_played(today)
    corrected.loc[corrected["date"].dt.date == days[3], "score_home"] += 5
    fg._CHECKPOINTS.clear()
    walked = fg.as_of(corrected, {100: 1}, [today])
    fg.as_of(as_played(yesterday), {100: 1}, [yesterday])
    assert _fits_equal(fg.as_of(corrected, {100: 1}, [today]), walked)
    assert not _fits_equal(walked, fresh)
