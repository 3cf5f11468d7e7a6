"""Re-tabulation on PostgreSQL: same rows as SQLite, and readers see old or new, never partial."""
from __future__ import annotations

import threading

import pytest

from server.jobs import retabulate
from server.store import schema
from tests.pg import fresh_database
from tests.server.jobs.synthetic import build_store
from tests.server.jobs.test_retabulate import _add_round, _counts

pytestmark = pytest.mark.postgres


def test_rebuild_on_postgres_is_atomic_for_readers(monkeypatch) -> None:
    with fresh_database() as url:
        engine = build_store(url, levels=("MLB", "MBB"))
        try:
            report = retabulate.run(engine)
            assert all(report[lv]["forecasts"] > 0 for lv in ("MLB", "MBB"))
            assert report["MBB"]["rpi"] > 0
            before = _counts(engine)
            _add_round(engine)
            seen: list[tuple[int, ...]] = []
            stop = threading.Event()

            def read() -> None:
                while not stop.is_set():
                    seen.append(_counts(engine))

            reader = threading.Thread(target=read)
            monkeypatch.setenv(retabulate.SLEEP_HOOK, "0.5")
            reader.start()
            try:
                retabulate.run(engine, ["MLB"])
            finally:
                stop.set()
                reader.join()
            after = _counts(engine)
            assert after != before and len(seen) > 5
            assert set(seen) <= {before, after}
            assert len(schema.DERIVED_TABLES) == len(after)
        finally:
            engine.dispose()
