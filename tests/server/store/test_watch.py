"""The store's change signal: a new generation after a writer marks a change, in this process or
another; the same one after commits that change nothing served (``last_used``, ``ANALYZE``)."""
from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import sqlalchemy as sa

from server.store import schema
from server.store.engine import analyze, make_engine
from server.store.init import init_store
from server.store import watch as watch_module
from server.store.watch import (EPOCH_KEY, LISTENER_NAME, StoreWatch, generation_of,
                                mark_changed)
from tests.pg import fresh_database


def _store(path: Path) -> sa.Engine:
    engine = make_engine(f"sqlite:///{path}")
    init_store(engine)
    return engine


def test_generation_follows_marked_changes(tmp_path: Path) -> None:
    engine = _store(tmp_path / "watched.db")
    watch = StoreWatch(engine)
    first = watch.generation()
    assert first is not None and watch.generation() == first
    with engine.begin() as conn:  # this process, another connection
        conn.execute(schema.store_info.insert().values(key="a", value="1"))
        mark_changed(conn)
    second = watch.generation()
    assert second != first and watch.generation() == second
    with sqlite3.connect(tmp_path / "watched.db") as other:  # as another process would
        other.execute("UPDATE store_info SET value = 'x' WHERE key = 'epoch'")
    assert watch.generation() not in (first, second)


def test_commits_that_change_nothing_served_keep_the_generation(tmp_path: Path) -> None:
    engine = _store(tmp_path / "quiet.db")
    watch = StoreWatch(engine)
    first = watch.generation()
    with engine.begin() as conn:
        conn.execute(schema.store_info.insert().values(key="last_used_like", value="1"))
    analyze(engine)
    assert watch.generation() == first


def test_every_thread_agrees(tmp_path: Path) -> None:
    engine = _store(tmp_path / "threads.db")
    watch = StoreWatch(engine)
    main = watch.generation()
    seen: list[int | None] = []
    thread = threading.Thread(target=lambda: seen.append(watch.generation()))
    thread.start()
    thread.join()
    assert seen == [main]  # a new thread's first look finds the same epoch
    with engine.begin() as conn:
        mark_changed(conn)
    thread = threading.Thread(target=lambda: seen.append(watch.generation()))
    thread.start()
    thread.join()
    assert seen[1] is not None and seen[1] != main and watch.generation() == seen[1]


def test_no_signal_without_a_file() -> None:
    assert StoreWatch(make_engine("sqlite://")).generation() is None
    postgres = make_engine("postgresql://nobody@127.0.0.1:1/none")  # never connected
    assert StoreWatch(postgres).generation() is None


def _until(condition: Callable[[], bool], seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True


@pytest.mark.postgres
def test_postgres_generation_follows_announced_changes_only() -> None:
    """PostgreSQL: a committed ``mark_changed`` reaches the listener within milliseconds; a
    rolled-back one and a commit without it move nothing; every process derives the same number
    from the same epoch."""
    with fresh_database("sports_watch") as url:
        engine = make_engine(url)
        init_store(engine)
        watch = StoreWatch(engine)
        assert _until(lambda: watch.generation() is not None), "listener never connected"
        first = watch.generation()
        with engine.begin() as conn:
            conn.execute(schema.store_info.insert().values(key="last_used_like", value="1"))
        with pytest.raises(RuntimeError), engine.begin() as conn:
            mark_changed(conn)
            raise RuntimeError("rolled back")
        time.sleep(0.2)
        assert watch.generation() == first
        with engine.begin() as conn:
            mark_changed(conn)
        assert _until(lambda: watch.generation() != first, 2.0), "change not announced"
        with engine.connect() as conn:
            epoch = conn.execute(sa.select(schema.store_info.c.value)
                                 .where(schema.store_info.c.key == EPOCH_KEY)).scalar()
        assert watch.generation() == generation_of(epoch)
        engine.dispose()


@pytest.mark.postgres
def test_postgres_listener_lets_go_when_unasked_and_comes_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """No listening connection is kept for an engine nobody asks (a dropped test database, a
    discarded engine); the next question connects again and still sees every change."""
    monkeypatch.setattr(watch_module, "IDLE_STOP", 0.5)
    monkeypatch.setattr(watch_module, "HEARTBEAT", 0.1)
    with fresh_database("sports_watch") as url:
        engine = make_engine(url)
        init_store(engine)

        def listening() -> int:
            with engine.connect() as conn:
                return int(conn.execute(sa.text(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                    "AND application_name = :name"), {"name": LISTENER_NAME}).scalar() or 0)

        watch = StoreWatch(engine)
        assert _until(lambda: watch.generation() is not None), "listener never connected"
        first = watch.generation()
        assert listening() == 1
        assert _until(lambda: listening() == 0, 5.0), "the unasked listener kept its connection"
        with engine.begin() as conn:
            mark_changed(conn)
        assert _until(lambda: watch.generation() not in (None, first), 5.0)
        engine.dispose()
