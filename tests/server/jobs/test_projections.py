"""The projections job on a synthetic store: history and nightly runs, replacement of the
snapshots it computes, and a failed run leaving the table as it was."""
from __future__ import annotations

import argparse
import datetime as dt

import pytest
import sqlalchemy as sa

from server.errors import UserError
from server.jobs import projections, retabulate
from server.store import schema


def _rows(engine: sa.Engine) -> list[tuple[object, ...]]:
    p = schema.projections.c
    with engine.connect() as conn:
        return [tuple(r) for r in conn.execute(
            sa.select(p.level, p.season, p.date, p.team_id, p.proj_wins, p.sims)
            .order_by(p.level, p.season, p.date, p.team_id))]


def test_history_then_nightly(store: tuple[sa.Engine, object]) -> None:
    engine, _ = store
    retabulate.run(engine, ["MLB", "FC"])
    projections.run(engine, ["MLB", "FC"], history=True, today=dt.date(2030, 1, 1))
    rows = _rows(engine)
    with engine.connect() as conn:
        days = {(lv, s): projections.game_days(conn, lv, s)
                for lv in ("MLB", "FC") for s in (2023, 2024)}
    for (lv, s), expected in days.items():
        got = sorted({r[2] for r in rows if r[0] == lv and r[1] == s})
        assert got == expected, (lv, s)  # one snapshot per day with games
    assert {r[5] for r in rows} == {projections.HISTORY_SIMS}
    # a second history run finds nothing left to do and changes nothing
    projections.run(engine, ["MLB", "FC"], history=True, today=dt.date(2030, 1, 1))
    assert _rows(engine) == rows
    # nightly: the newest day again, with the full count of simulations, the rest kept
    projections.run(engine, ["MLB"], today=dt.date(2030, 1, 1))
    after = _rows(engine)
    newest = days[("MLB", 2024)][-1]
    renewed = [r for r in after if r[0] == "MLB" and r[2] == newest]
    assert renewed and {r[5] for r in renewed} == {projections.N_SIMS}
    assert [r for r in after if r[2] != newest] == [r for r in rows if r[2] != newest]


def test_sims_sets_the_seasons_simulated_a_snapshot(store: tuple[sa.Engine, object]) -> None:
    """``projections --sims N`` simulates N seasons a snapshot (and records it); under 100 it
    refuses, before any work."""
    engine, _ = store
    retabulate.run(engine, ["MLB"])

    def args(sims: int) -> argparse.Namespace:
        return argparse.Namespace(level="MLB", history=True, season=None, sims=sims)

    with pytest.raises(UserError, match="at least 100"):
        projections.cli(args(50), lambda: engine)
    assert _rows(engine) == []
    assert projections.cli(args(300), lambda: engine) == 0
    assert {r[5] for r in _rows(engine)} == {300}


def test_a_failed_run_leaves_the_table_as_it_was(store: tuple[sa.Engine, object]) -> None:
    engine, _ = store
    retabulate.run(engine, ["MLB"])
    projections.run(engine, ["MLB"], history=True, today=dt.date(2030, 1, 1))
    before = _rows(engine)
    assert before
    with pytest.raises(UserError):  # computed MLB first, then met a bad level: nothing written
        projections.run(engine, ["MLB", "NOPE"], season=2023, today=dt.date(2030, 1, 1))
    assert _rows(engine) == before


def test_history_replays_a_past_season_whose_data_stops_early(
        store: tuple[sa.Engine, object], monkeypatch: pytest.MonkeyPatch) -> None:
    """A results file whose last games were never played (NHL 2021-22's) leaves a past season
    with games that have no result: the history projects it as of each day it has, as it does
    a finished season, and leaves the season in progress to the nightly run."""
    engine, _ = store
    monkeypatch.setenv("SPORTS_NOW", "2024-04-10T16:00:00Z")  # the day the first run sees
    g = schema.games.c
    with engine.begin() as conn:
        last = projections.game_days(conn, "NHL", 2023)[-1]
        conn.execute(schema.games.update().where(g.level == "NHL", g.season == 2023,
                                                 g.game_day == last)
                     .values(state="scheduled", score_home=None, score_vis=None))
        conn.execute(schema.games.update().where(g.level == "NHL", g.season == 2024,
                                                 g.game_day >= dt.date(2024, 4, 10))
                     .values(state="scheduled", score_home=None, score_vis=None))
        days_2023 = projections.game_days(conn, "NHL", 2023)
        days_2024 = projections.game_days(conn, "NHL", 2024)
    retabulate.run(engine, ["NHL"])
    projections.run(engine, ["NHL"], history=True, today=dt.date(2024, 4, 10))
    rows = _rows(engine)
    assert sorted({r[2] for r in rows if r[1] == 2023}) == days_2023
    assert not [r for r in rows if r[1] == 2024], "the season in progress is the nightly's"
    # a day later in the year the 2024 season is over too, with its last games never played
    projections.run(engine, ["NHL"], history=True, today=dt.date(2024, 12, 1))
    rows = _rows(engine)
    assert sorted({r[2] for r in rows if r[1] == 2024}) == days_2024
    with engine.connect() as conn:
        left = conn.execute(sa.select(sa.func.count()).select_from(schema.games).where(
            g.level == "NHL", g.season == 2024, g.state == "scheduled")).scalar_one()
    assert left > 0
    newest = [r for r in rows if r[1] == 2024 and r[2] == days_2024[-1]]
    assert newest and all(r[4] > 0 for r in newest)


def test_history_fills_the_days_a_nightly_left_out(store: tuple[sa.Engine, object]) -> None:
    """A season the nightly watched only on its last days is filled in by the history, not
    skipped for having some snapshots; the nightly's days keep their own simulations."""
    engine, _ = store
    retabulate.run(engine, ["MLB"])
    with engine.connect() as conn:
        days = projections.game_days(conn, "MLB", 2024)
    projections.run(engine, ["MLB"], today=days[-1])
    nightly = sorted({r[2] for r in _rows(engine) if r[1] == 2024})
    assert nightly == days[-projections.CATCH_UP_DAYS:]
    projections.run(engine, ["MLB"], history=True, today=dt.date(2030, 1, 1))
    rows = [r for r in _rows(engine) if r[1] == 2024]
    assert sorted({r[2] for r in rows}) == days
    assert {r[5] for r in rows if r[2] in nightly} == {projections.N_SIMS}
    assert {r[5] for r in rows if r[2] not in nightly} == {projections.HISTORY_SIMS}
