"""The store's change signal: steady while nothing commits, new after any other commit."""
from __future__ import annotations

import sqlite3
import threading
from pathlib import Path


from server.store import schema
from server.store.engine import make_engine
from server.store.init import init_store
from server.store.watch import StoreWatch


def test_generation_follows_commits(tmp_path: Path) -> None:
    path = tmp_path / "watched.db"
    engine = make_engine(f"sqlite:///{path}")
    init_store(engine)
    watch = StoreWatch(engine)
    first = watch.generation()
    assert first is not None and watch.generation() == first
    with engine.begin() as conn:  # this process, another connection
        conn.execute(schema.store_info.insert().values(key="a", value="1"))
    second = watch.generation()
    assert second != first and watch.generation() == second
    with sqlite3.connect(path) as other:  # as another process would
        other.execute("UPDATE store_info SET value = '2' WHERE key = 'a'")
    assert watch.generation() not in (first, second)


def test_every_thread_sees_a_change(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'threads.db'}")
    init_store(engine)
    watch = StoreWatch(engine)
    seen: list[int | None] = []
    main = watch.generation()
    thread = threading.Thread(target=lambda: seen.append(watch.generation()))
    thread.start()
    thread.join()
    # a thread's first look counts as a change: it cannot know what happened before it
    assert seen[0] is not None and seen[0] != main
    with engine.begin() as conn:
        conn.execute(schema.store_info.insert().values(key="b", value="1"))
    assert watch.generation() != seen[0]


def test_no_signal_without_a_file() -> None:
    assert StoreWatch(make_engine("sqlite://")).generation() is None
    postgres = make_engine("postgresql://nobody@127.0.0.1:1/none")  # never connected
    assert StoreWatch(postgres).generation() is None
