"""Re-tabulation: results, atomicity for concurrent readers (on SQLite and PostgreSQL: same rows,
and readers see old or new, never partial), and a killed rebuild."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

from server.jobs import retabulate
from server.store import schema
from server.store.loader import loading
from tests.pg import fresh_database
from tests.server.jobs.synthetic import build_store

ROOT = Path(__file__).resolve().parents[3]
LEVEL = "MLB"


def _counts(engine: sa.Engine, level: str = LEVEL) -> tuple[int, ...]:
    """The level's row count in every derived table, read in ONE statement (one snapshot: the
    SQLite driver gives each autocommit SELECT its own read transaction)."""
    subs = [sa.select(sa.func.count()).select_from(t).where(t.c.level == level).scalar_subquery()
            for t in schema.DERIVED_TABLES]
    with engine.connect() as conn:
        return tuple(conn.execute(sa.select(*subs)).one())


def _snapshot(engine: sa.Engine) -> dict[str, list[tuple]]:
    with engine.connect() as conn:
        return {t.name: sorted(map(tuple, conn.execute(sa.select(t)).all()), key=repr)
                for t in schema.DERIVED_TABLES}


def _add_round(engine: sa.Engine) -> None:
    """One more final game, so the next rebuild writes different counts."""
    with engine.connect() as conn:
        g = conn.execute(sa.select(schema.games).where(schema.games.c.level == LEVEL)
                         .order_by(schema.games.c.game_day.desc())).mappings().first()
    with loading(engine, "synthetic") as ld:
        gid = ld.id("game", "extra-game")
        row = dict(g, id=gid, game_day=g["game_day"].replace(day=28))
        ld.put(schema.games, [row])


def _read_while_rebuilding(engine: sa.Engine, monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, ...]]:
    """The level's counts as a reader thread sees them, again and again, while the level is
    rebuilt with a pause between its delete and its insert."""
    seen: list[tuple[int, ...]] = []
    stop = threading.Event()

    def read() -> None:
        while not stop.is_set():
            seen.append(_counts(engine))

    reader = threading.Thread(target=read)
    monkeypatch.setenv(retabulate.SLEEP_HOOK, "0.5")  # a window between delete and insert
    reader.start()
    try:
        retabulate.run(engine, [LEVEL])
    finally:
        stop.set()
        reader.join()
    return seen


def test_run_fills_every_derived_table(store) -> None:
    engine, _ = store
    report = retabulate.run(engine)
    assert set(report) == {"MLB", "MBB", "NHL", "FC"}
    for level in report:
        elo, rpi, fc, st, *_ = _counts(engine, level)  # then the win probability tables
        assert elo == 2 * fc > 0 and st > 0
        assert (rpi > 0) == (level == "MBB")  # RPI for college levels only
    with engine.connect() as conn:
        f = schema.forecasts.c
        row = conn.execute(sa.select(f.velo_win_exp + f.helo_win_exp, f.prediction, f.vis_ml,
                                     f.ml_movement).where(f.level == "MLB")).first()
    assert row[0] == pytest.approx(1.0) and "-" in row[1] and row[2] is not None


def test_rebuild_is_idempotent(store) -> None:
    engine, _ = store
    retabulate.run(engine, ["NHL"])
    first = _snapshot(engine)
    retabulate.run(engine, ["NHL"])
    assert _snapshot(engine) == first


def test_readers_never_see_a_partial_or_empty_table(store, monkeypatch) -> None:
    engine, _ = store
    retabulate.run(engine, [LEVEL])
    before = _counts(engine)
    _add_round(engine)
    seen = _read_while_rebuilding(engine, monkeypatch)
    after = _counts(engine)
    assert after != before
    assert len(seen) > 5
    assert set(seen) <= {before, after}, set(seen) - {before, after}
    assert before in seen  # the reader did read while the rebuild ran


def test_killed_rebuild_leaves_old_tables_serving(store) -> None:
    engine, path = store
    retabulate.run(engine, [LEVEL])
    old = _snapshot(engine)
    _add_round(engine)
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{path}", **{retabulate.SLEEP_HOOK: "60"})
    proc = subprocess.Popen([sys.executable, "-m", "server", "retabulate", "--level", LEVEL],
                            cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        line = ""
        while "deleted" not in line and time.monotonic() < deadline:
            line = proc.stderr.readline()
        assert "deleted" in line, "the rebuild never reached its delete"
        assert _snapshot(engine) == old  # mid-rebuild, readers still see the old rows
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL
    engine.dispose()
    assert _snapshot(engine) == old
    retabulate.run(engine, [LEVEL])  # the store is writable again afterwards
    assert _counts(engine) != tuple(len(old[t.name]) for t in schema.DERIVED_TABLES)


def test_cli_prints_timings(store) -> None:
    _, path = store
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{path}")
    done = subprocess.run([sys.executable, "-m", "server", "retabulate", "--level", "nhl"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert "NHL:" in done.stderr and " s" in done.stderr
    bad = subprocess.run([sys.executable, "-m", "server", "retabulate", "--level", "XYZ"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
                         check=False)
    assert bad.returncode == 1 and bad.stderr.startswith("error: unknown level")


@pytest.mark.postgres
def test_rebuild_on_postgres_is_atomic_for_readers(monkeypatch) -> None:
    with fresh_database() as url:
        engine = build_store(url, levels=("MLB", "MBB"))
        try:
            report = retabulate.run(engine)
            assert all(report[lv]["forecasts"] > 0 for lv in ("MLB", "MBB"))
            assert report["MBB"]["rpi"] > 0
            before = _counts(engine)
            _add_round(engine)
            seen = _read_while_rebuilding(engine, monkeypatch)
            after = _counts(engine)
            assert after != before and len(seen) > 5
            assert set(seen) <= {before, after}
            assert len(schema.DERIVED_TABLES) == len(after)
        finally:
            engine.dispose()
