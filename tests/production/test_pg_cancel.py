"""A statement really running on PostgreSQL when a request's time is up (docs/api/limits.md).

The statement here waits on a lock another session holds on ``games`` (``LOCK TABLE ... ACCESS
EXCLUSIVE``): a real statement, active in the server's session, that would run for as long as
the lock is held. The request is answered with the documented 503 in time, and the statement
ends then, on the server: the session that ran it is idle again (cancelled, not cut by the
watchdog, which would end the session) and answers the next request.
"""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa

from tests.production._harness import issue_key, serving, until
from tests.production.conftest import Store, mini_store_at

pytestmark = pytest.mark.postgres

STORE_TIMEOUT = 2.0  # the served process's SPORTS_STORE_TIMEOUT


@pytest.fixture(scope="module")
def pg_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    with mini_store_at(tmp_path_factory.mktemp("cancel"), postgres=True) as store:
        yield store


def _waiting_on_the_lock(admin: sa.Connection, database: str) -> list[int]:
    """The backends of ``database`` whose statement waits for a lock."""
    return list(admin.execute(sa.text(
        "SELECT pid FROM pg_stat_activity WHERE datname = :db AND state = 'active' "
        "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"), {"db": database}).scalars())


def _state(admin: sa.Connection, pid: int) -> str | None:
    """The backend's state (``idle``, ``active``...), None once it has ended."""
    state: str | None = admin.execute(sa.text(
        "SELECT state FROM pg_stat_activity WHERE pid = :pid"), {"pid": pid}).scalar()
    return state



@pytest.mark.parametrize(("query_ms", "status", "code", "answered_by"), [
    # the default: PostgreSQL's statement_timeout stops it at the query limit
    ("1000", 503, "query_too_expensive", 1.0 + 1.5),
    # no query limit: the request's deadline cancels it (deadline.Work.cancel)
    ("0", 503, "store_unavailable", STORE_TIMEOUT + 1.5),
], ids=["at the query limit", "at the request's deadline"])
def test_running_statement_ends_with_its_503_and_the_session_serves_again(
        pg_store: Store, tmp_path: Path, query_ms: str, status: int, code: str,
        answered_by: float) -> None:
    key = issue_key(pg_store.url)
    database = pg_store.engine.url.database or ""
    admin = sa.create_engine(pg_store.url, isolation_level="AUTOCOMMIT")
    try:
        with (serving(pg_store.url, tmp_path / "server.log", SPORTS_QUERY_MS=query_ms,
                      SPORTS_STORE_TIMEOUT=str(STORE_TIMEOUT)) as server,
              httpx.Client(base_url=server.base_url, timeout=30) as client,
              admin.connect() as watcher):
            assert client.get(f"/v1/games/MLB/?key={key}&max=3").status_code == 200
            with pg_store.engine.connect() as locker, ThreadPoolExecutor(1) as pool:
                locker.execute(sa.text("LOCK TABLE games IN ACCESS EXCLUSIVE MODE"))
                started = time.monotonic()
                asked = pool.submit(client.get, f"/v1/games/MLB/?key={key}&max=4")  # uncached
                waiting: list[int] = []

                def running() -> bool:
                    waiting.extend(_waiting_on_the_lock(watcher, database))
                    return bool(waiting)

                until(running, 1.0)
                answer = asked.result()
                elapsed = time.monotonic() - started
                assert answer.status_code == status, answer.text[:300]
                assert answer.json()["error"]["Code"] == code
                assert "Traceback" not in answer.text
                assert elapsed < answered_by, f"answered after {elapsed:.1f} s"
                # the statement ended with its answer, though the lock is still held, and
                # its session is idle: cancelled, not cut (the watchdog ends a session held
                # a second past the answer's deadline)
                until(lambda: all(_state(watcher, pid) == "idle" for pid in waiting), 0.8)
                locker.rollback()
            served = client.get(f"/v1/games/MLB/?key={key}&max=5")
            assert served.status_code == 200, served.text[:300]
            assert "Traceback" not in server.log()
    finally:
        admin.dispose()
