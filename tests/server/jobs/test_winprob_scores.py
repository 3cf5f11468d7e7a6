"""The in-game win probability scored honestly on real games: learnt from MLB 2021-2022 in the
real-data store (Retrosheet's plays with their base-out states, the stored ELO forecasts as
priors), scored on every plate appearance of MLB 2023, regular season and postseason, against
the inning/half/lead table of the same two seasons."""
from __future__ import annotations

import numpy as np
import pytest

from server.errors import UserError
from server.jobs import winprob_scores
from server.models import metrics
from server.models import winprob as wp
from server.store.engine import make_engine
from tests.demo_api import ApiServer
from tests.server.models import realdata

pytestmark = [
    pytest.mark.realdata,
    pytest.mark.skipif(not realdata.available(), reason="../shared/data is absent"),
]

# MLB 2023 in Retrosheet: 2,430 regular-season and 41 postseason games
GAMES_2023 = 2430 + 41


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_mlb_2023_beats_the_inning_half_lead_baseline_and_is_calibrated(
        real_store: ApiServer) -> None:
    engine = make_engine(real_store.database_url)
    try:
        with engine.connect() as conn:
            ev = winprob_scores.evaluate(conn, "MLB")
    finally:
        engine.dispose()
    print(winprob_scores.render(ev))
    assert (ev.season, ev.fit_seasons, ev.games) == (2023, (2021, 2022), GAMES_2023)
    # every plate appearance: about 76 a game
    assert 180_000 < len(ev.outcome) < 195_000
    assert not np.isnan(ev.model_p).any() and ((ev.model_p >= 0) & (ev.model_p <= 1)).all()
    model = metrics.summary(ev.model_p, ev.outcome)
    base = metrics.summary(ev.baseline_p, ev.outcome)
    assert model["log_loss"] < base["log_loss"]
    assert model["brier"] < base["brier"]
    cal = metrics.calibration(ev.model_p, ev.outcome)
    held = cal[cal["count"] >= winprob_scores.CALIBRATION_MIN_COUNT]
    assert len(held) == 10  # every bin holds thousands of plate appearances
    gap = (held["observed"] - held["mean_predicted"]).abs()
    assert (gap <= winprob_scores.CALIBRATION_TOLERANCE).all(), held
    assert winprob_scores.calibration_misses(ev.model_p, ev.outcome) == []
    # the run expectancy it learnt is MLB's: about half a run an inning with the bases empty
    assert ev.model is not None and 0.45 < ev.model.run_expectancy()[0] < 0.55
    # known states with what MLB 2021-2022 taught it (an even matchup, MLB's 2023 rules)
    table = wp.win_table(ev.model, wp.Rules(9, automatic_runner=True))

    def chance(prior: float, inning: int, bottom: bool, outs: int, bases: int, lead: int) -> float:
        return float(wp.home_win_probability(
            table, wp.strength_for(table, np.array([prior])), np.array([inning]),
            np.array([bottom]), np.array([outs]), np.array([bases]), np.array([lead]))[0])

    assert chance(0.5, 9, True, 2, 7, 0) > 0.6  # bottom 9th, tied, bases loaded, two out
    assert chance(0.5, 9, False, 0, 0, 10) > 0.999  # a 10-run lead in the 9th
    assert chance(0.58, 1, False, 0, 0, 0) == pytest.approx(0.58, abs=1e-3)  # the ELO prior


def test_the_real_nba_and_nhl_seasons_have_no_play_by_play(real_store: ApiServer) -> None:
    """The results files carry scores only: nothing to learn an in-game model from."""
    engine = make_engine(real_store.database_url)
    try:
        with engine.connect() as conn:
            for level in ("NBA", "NHL"):
                with pytest.raises(UserError, match=f"{level} has no play-by-play"):
                    winprob_scores.evaluate(conn, level)
    finally:
        engine.dispose()
