"""Season projections play what each league will play, from the real store: the matches the
files list without a result and those they do not list at all (a double round robin; a split
season's group rounds, drawn in each simulated season from its own table and with the points
halved where the league halves them), agreeing with the tables' clinch marks
(docs/football.md, "Season projections")."""
from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import numpy as np
import pandas as pd
import pytest
import sqlalchemy as sa

from server.jobs import football_tables, projections
from server.store import schema
from server.store.engine import make_engine
from tests.demo_api import ApiServer

pytestmark = [pytest.mark.realdata, pytest.mark.slow, pytest.mark.timeout(1800)]
SIMS = 300


@pytest.fixture(scope="module")
def real_engine(real_store: ApiServer) -> Iterator[sa.Engine]:
    engine = make_engine(real_store.database_url)
    yield engine
    engine.dispose()


def _projected(engine: sa.Engine, season: int, day: dt.date) -> pd.DataFrame:
    """Every club's projection of ``day`` with its league's name (``league``) and its
    projected matches (``games``)."""
    with engine.connect() as conn:
        rows = projections.project_days(conn, "FC", season, [day], SIMS)
        sl = schema.sublevels.c
        names = dict(conn.execute(sa.select(sl.id, sl.name).where(sl.level == "FC")).all())
    return rows.assign(league=rows["sublevel_id"].map(names),
                       games=rows["proj_wins"] + rows["proj_losses"] + rows["proj_ties"])


@pytest.fixture(scope="module")
def season_2026(real_engine: sa.Engine) -> pd.DataFrame:
    """2025-26 as of its last day with results in the files (9 March 2026)."""
    return _projected(real_engine, 2026, dt.date(2026, 3, 9))


@pytest.mark.parametrize(("league", "matches"), [
    ("Premier League", 38),  # one match postponed in the files: still played
    ("Bundesliga", 34), ("EFL League One", 46), ("Serie B", 38),
    ("Austrian Bundesliga", 32), ("Scottish Premiership", 38),  # 22 + 10, 33 + 5
])
def test_every_club_plays_its_whole_schedule(season_2026: pd.DataFrame, league: str,
                                             matches: int) -> None:
    clubs = season_2026[season_2026["league"] == league]
    assert len(clubs)
    assert clubs["games"].round(9).tolist() == [matches] * len(clubs)


def test_belgium_plays_its_play_offs(season_2026: pd.DataFrame) -> None:
    """30 rounds, then 10 more for the twelve clubs of the two upper groups and 6 for the
    four of the relegation group: in every simulated season, 12 clubs play 40 and 4 play 36."""
    clubs = season_2026[season_2026["league"] == "Belgian First Division A"]
    assert len(clubs) == 16
    assert clubs["games"].sum() == pytest.approx(12 * 40 + 4 * 36)
    assert clubs["games"].between(36, 40).all()


def test_the_halving_before_the_split(season_2026: pd.DataFrame) -> None:
    """Austria's points are halved at the split: a club's projected points are half its
    first-phase points (rounded down) and its group's, well under three a win and one a
    draw of its whole season."""
    clubs = season_2026[season_2026["league"] == "Austrian Bundesliga"]
    whole = 3 * clubs["proj_wins"] + clubs["proj_ties"]
    assert (whole - clubs["proj_points"]).sum() > 100  # 12 clubs x 22 matches, ~1.4 a match


def test_a_projection_before_the_split_plays_it(real_engine: sa.Engine) -> None:
    """Austria 2022-23 on 5 March 2023, two rounds before the split: Salzburg, on 51 points
    from 20 matches, ended the season with 49 (55 halved to 27, and 22 in the groups). A
    projection that kept the points whole would give it about 75."""
    rows = _projected(real_engine, 2023, dt.date(2023, 3, 5))
    austria = rows[rows["league"] == "Austrian Bundesliga"]
    salzburg = austria.sort_values("points").iloc[-1]
    assert salzburg["points"] == 51
    assert 43 <= salzburg["proj_points"] <= 55
    assert austria["games"].round(9).tolist() == [32] * 12


def test_no_champion_that_can_still_be_caught(season_2026: pd.DataFrame) -> None:
    """No 2025-26 title is decided (the tables mark none): PSV, 19 points clear with 8 to
    play, win almost every simulated season, yet their title chance stays short of 1."""
    assert season_2026["title_prob"].max() <= 0.999
    eredivisie = season_2026[season_2026["league"] == "Eredivisie"]
    assert eredivisie["title_prob"].max() > 0.95


def test_listed_matches_beyond_the_round_robin_are_played(real_engine: sa.Engine) -> None:
    """Greece's 2024-25 play-off groups are not declared, and its file lists them: its
    clubs play them (the relegation group's 36 matches: 26 rounds and 10 more), and Egypt,
    whose schedule is its file's, plays the 25 matches it lists."""
    rows = _projected(real_engine, 2025, dt.date(2025, 3, 16))
    assert rows[rows["league"] == "Super League Greece"]["games"].max() == pytest.approx(36)
    egypt = rows[rows["league"] == "Egyptian Premier League"]
    assert egypt["games"].round(9).tolist() == [25] * len(egypt)


def test_scotlands_group_meetings_at_home_as_the_spfl_sets_them(real_engine: sa.Engine) -> None:
    """Scotland 2024-25 with its 33 rounds played and its groups' 30 matches taken out of the
    file, as if it did not list them: the projection's own fixtures give each meeting to the
    club that hosted fewer of the pair's three earlier meetings, then to the one with fewer
    home matches: 28 of the 30 home sides the SPFL set (16 by places alone)."""
    g, sl = schema.games.c, schema.sublevels.c
    with real_engine.connect() as conn:
        rows = conn.execute(
            sa.select(g.home_id, g.visitor_id, g.score_home, g.score_vis, g.info)
            .join(schema.sublevels, sl.id == g.sublevel_id)
            .where(g.level == "FC", g.season == 2025, sl.abbrev == "SCO1",
                   g.phase == "regular").order_by(g.game_day, g.game_no, g.id)).all()
        ids = np.unique([r[0] for r in rows] + [r[1] for r in rows])
        at = {int(t): k for k, t in enumerate(ids)}
        first = [r for r in rows if "," not in r[4]["round"]]
        groups = {(at[r[0]], at[r[1]]) for r in rows if "," in r[4]["round"]}
        home, visitor = (np.array([at[r[k]] for r in first]) for k in (0, 1))
        score_home, score_vis = (np.array([r[k] for r in first]) for k in (2, 3))
        table = football_tables.setup(conn, "FC", 2025, ids)
    state = football_tables.state_at(np.full(len(ids), 1500.0), home, visitor, score_home,
                                     score_vis,
                                     np.ones(len(first), dtype=bool),
                                     np.zeros(len(first), dtype=bool), ids, table)
    fixtures = set(zip(state.home.tolist(), state.visitor.tolist(), strict=True))
    assert (len(first), len(fixtures), len(groups)) == (198, 30, 30)
    assert len(fixtures & groups) == 28
