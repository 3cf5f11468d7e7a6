"""The store's change signal: a new generation after a writer marks a change, in this process or
another; the same one after commits that change nothing served (``last_used``, ``ANALYZE``)."""
from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import sqlalchemy as sa

from server.store import schema
from server.store.engine import analyze, make_engine
from server.store.init import init_store
from server.store.watch import StoreWatch, mark_changed


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
