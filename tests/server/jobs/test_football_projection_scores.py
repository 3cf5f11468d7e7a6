"""Football's season projections on the real leagues: the last day's projection is the official
final table (deductions and tiebreakers), each league hands out exactly its declared places, and
the projections beat the points-per-game pace (``evaluate --projections --level FC``)."""
from __future__ import annotations

from collections.abc import Iterator

import pandas as pd
import pytest
import sqlalchemy as sa

from server.catalog.football.places import places_for
from server.jobs import football_projection_scores as scoring
from server.jobs import projections
from server.store import schema
from server.store.engine import make_engine
from tests.demo_api import ApiServer

pytestmark = [pytest.mark.realdata, pytest.mark.slow, pytest.mark.timeout(1800)]


@pytest.fixture(scope="module")
def real_engine(real_store: ApiServer) -> Iterator[sa.Engine]:
    engine = make_engine(real_store.database_url)
    yield engine
    engine.dispose()


def _named(conn: sa.Connection, rows: pd.DataFrame) -> pd.DataFrame:
    t = schema.teams.c
    names = dict(conn.execute(sa.select(t.id, t.name).where(t.level == "FC")).all())
    return rows.assign(name=rows["team_id"].map(names))


@pytest.mark.parametrize("season,champion,relegated", [
    (2023, "Manchester City FC", {"Leicester City FC", "Leeds United FC", "Southampton FC"}),
    # Everton (-8) and Nottingham Forest (-4) stay up only with their deductions counted as
    # the official table does: Luton, Burnley and Sheffield United go down
    (2024, "Manchester City FC", {"Luton Town FC", "Burnley FC", "Sheffield United FC"}),
])
def test_the_last_day_projects_the_official_premier_league_table(
        real_engine: sa.Engine, season: int, champion: str, relegated: set[str]) -> None:
    with real_engine.connect() as conn:
        last = projections.game_days(conn, "FC", season)[-1]
        rows = _named(conn, projections.project_days(conn, "FC", season, [last], 100))
    sl = rows.dropna(subset=["relegation_prob"])
    epl = rows[rows["name"].isin(relegated | {champion, "Arsenal FC", "Everton FC"})]
    assert epl.loc[epl["name"] == champion, "title_prob"].tolist() == [1.0]
    assert set(epl.loc[epl["relegation_prob"] == 1.0, "name"]) == relegated
    assert set(sl.loc[sl["relegation_prob"] == 1.0, "name"]) >= relegated


def test_every_league_hands_out_its_declared_places(real_engine: sa.Engine) -> None:
    """The newest projected day (the real store projects football's newest days): in every
    league one title, and each declared place kind's chances add up to its number of places."""
    p, sl = schema.projections.c, schema.sublevels.c
    with real_engine.connect() as conn:
        season, day = conn.execute(sa.select(p.season, p.date).where(p.level == "FC")
                                   .order_by(p.date.desc()).limit(1)).one()
        rows = pd.DataFrame(conn.execute(
            sa.select(sl.abbrev, p.title_prob, p.champions_league_prob, p.relegation_prob,
                      p.promotion_playoff_prob)
            .join_from(schema.projections, schema.sublevels, sl.id == p.sublevel_id)
            .where(p.level == "FC", p.season == season, p.date == day)).all(),
            columns=["league", "title", "cl", "relegation", "promotion_playoff"])
    by_league = rows.groupby("league")
    assert by_league["title"].sum().round(6).eq(1.0).all()
    checked = 0
    for code, clubs, column, kind in (("en.1", 20, "cl", "champions_league"),
                                      ("en.1", 20, "relegation", "relegation"),
                                      ("en.2", 24, "promotion_playoff", "promotion_playoff"),
                                      ("de.1", 18, "relegation", "relegation")):
        declared = places_for(code, season)
        assert declared is not None
        count = sum(len(pl.positions(clubs)) for pl in declared.places if pl.kind == kind)
        league = rows[rows["league"] == code.replace(".", "").upper()]
        assert len(league) == clubs
        assert league[column].sum() == pytest.approx(count), (code, kind)
        checked += 1
    assert checked == 4
    assert rows.loc[rows["league"] == "SCO1", "relegation"].isna().all(), \
        "a league without declared places has no relegation odds"


def test_projections_beat_the_points_per_game_pace(real_engine: sa.Engine) -> None:
    """Every finished league season with declared places (2021-22 to 2024-25), as of a quarter,
    half and three quarters of its matches: lower final-position RPS and title and relegation
    Brier than the pace, at each of the three days (docs/football.md has the figures)."""
    with real_engine.connect() as conn:
        rows = scoring.scores(conn, sims=300)
    summary = scoring.summary(rows)
    assert summary["leagues"].min() >= 30
    assert (summary["rps"] < summary["rps_pace"]).all(), summary
    assert (summary["title"] < summary["title_pace"]).all(), summary
    assert (summary["relegation"] < summary["relegation_pace"]).all(), summary
