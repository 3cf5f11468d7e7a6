"""The projections job on a synthetic store: history and nightly runs, replacement of the
snapshots it computes, and a failed run leaving the table as it was."""
from __future__ import annotations

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


def test_a_failed_run_leaves_the_table_as_it_was(store: tuple[sa.Engine, object]) -> None:
    engine, _ = store
    retabulate.run(engine, ["MLB"])
    projections.run(engine, ["MLB"], history=True, today=dt.date(2030, 1, 1))
    before = _rows(engine)
    assert before
    with pytest.raises(UserError):  # computed MLB first, then met a bad level: nothing written
        projections.run(engine, ["MLB", "NOPE"], season=2023, today=dt.date(2030, 1, 1))
    assert _rows(engine) == before
