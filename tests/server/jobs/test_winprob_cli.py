"""``python -m server evaluate --winprob LEVEL``: asked what it cannot answer, a clear error line
and status 1, never a traceback; on the simulated baseball levels, a report."""
from __future__ import annotations

import os
import subprocess
import sys
from itertools import pairwise

import pytest
import sqlalchemy as sa

from server.jobs import winprob_scores
from server.models import metrics
from server.store import schema
from server.store.engine import make_engine
from tests.conftest import MiniStore
from tests.demo_api import ROOT, ApiServer


def _evaluate(store: MiniStore, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": store.url}
    return subprocess.run([sys.executable, "-m", "server", "evaluate", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300, check=False)


@pytest.mark.parametrize(("args", "message"), [
    # the mini store's NBA games have no play-by-play
    (("--winprob", "NBA"), "NBA has no play-by-play in the store"),
    (("--winprob", "XYZ"), "unknown level 'XYZ'"),
    # the mini store's MLB plays were written without the base-out state
    (("--winprob", "mlb"), "no MLB plays hold the base-out state"),
])
def test_unanswerable_questions_get_one_line(mini_store: MiniStore, args: tuple[str, ...],
                                             message: str) -> None:
    done = _evaluate(mini_store, *args)
    assert done.returncode == 1
    assert done.stderr.startswith("error: ") and message in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_simulated_baseball_plays_carry_the_state_the_model_learns_from(
        demo_api: ApiServer) -> None:
    """Every simulated baseball play holds its outs and runners; a half inning ends on its third
    out unless the game ended in it; ``evaluate --winprob`` scores a simulated level."""
    engine = make_engine(demo_api.database_url)
    try:
        with engine.connect() as conn:
            p, g = schema.plays.c, schema.games.c
            rows = conn.execute(
                sa.select(g.level, p.game_id, p.period, p.half, p.outs, p.bases)
                .join_from(schema.plays, schema.games, g.id == p.game_id)
                .where(g.level.in_(("MiLB", "KBO", "NPB", "CBB")))
                .order_by(p.game_id, p.seq)).all()
    finally:
        engine.dispose()
    assert {r.level for r in rows} == {"MiLB", "KBO", "NPB", "CBB"}
    assert all(r.outs is not None and 0 <= r.outs <= 3 and 0 <= r.bases <= 7 for r in rows)
    # the last play of each half inning that another half followed in the same game
    ended = [a for a, b in pairwise(rows)
             if a.game_id == b.game_id and (a.period, a.half) != (b.period, b.half)]
    assert len(ended) > 1000 and all(a.outs == 3 and a.bases == 0 for a in ended)
    env = {**os.environ, "DATABASE_URL": demo_api.database_url}
    done = subprocess.run([sys.executable, "-m", "server", "evaluate", "--winprob", "MiLB"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert "MiLB" in done.stdout and "log loss" in done.stdout and "learnt from" in done.stdout


@pytest.mark.parametrize(("level", "model", "figures"), [
    ("NHL", "model (time left, lead, power play, ELO prior)", "log loss"),
    ("FC", "model (time left, lead, ELO prior)", "three-way log loss"),
    ("MBB", "model (time left, lead, ball, ELO prior)", "log loss")])
def test_the_clock_sports_are_scored_on_their_simulated_seasons(
        demo_api: ApiServer, level: str, model: str, figures: str) -> None:
    env = {**os.environ, "DATABASE_URL": demo_api.database_url}
    done = subprocess.run([sys.executable, "-m", "server", "evaluate", "--winprob", level],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"{level} ") and "every play of" in lines[0]
    assert lines[1].startswith("learnt: ")
    assert lines[2].startswith(model) and figures in lines[2]
    baseline = next(line for line in lines if line.startswith("baseline (time left, lead)"))
    assert figures in baseline


def test_basketball_reads_the_ball_and_beats_its_baseline(demo_api: ApiServer) -> None:
    """On a simulated basketball level, fit on earlier seasons and scored on the newest: the
    ball is worth points to the side that has it, reading it scores better than the same model
    without it, and the model beats the baseline that knows the time left and the lead."""
    engine = make_engine(demo_api.database_url)
    try:
        with engine.connect() as conn:
            ev = winprob_scores.evaluate(conn, "NBA")
    finally:
        engine.dispose()
    assert ev.plain_p is not None and "the ball worth" in ev.learnt
    worth = float(ev.learnt.split("the ball worth ")[1].split()[0])
    assert worth > 0
    y = ev.outcome
    model, plain, base = (metrics.log_loss(p, y) for p in (ev.model_p, ev.plain_p, ev.baseline_p))
    assert model < plain and model < base
    assert metrics.brier(ev.model_p, y) < metrics.brier(ev.baseline_p, y)
