"""The PostgreSQL pool: a request's reads run in autocommit and keep psycopg's prepared
statements; a connection is pinged only when it may be dead, and a dead one is replaced; pages
of plays and pitches are planned in their written join order."""
from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from server.store import engine as engine_module
from server.store.engine import make_engine, reader
from tests.pg import ADMIN_URL, fresh_database

PREPARED = sa.text("SELECT count(*) FROM pg_prepared_statements")


@pytest.fixture
def postgres() -> Iterator[sa.Engine]:
    """A store engine on a fresh database, one pooled connection, so every checkout is it."""
    with fresh_database("sports_engine") as url:
        engine = make_engine(url, pool_size=1)
        try:
            yield engine
        finally:
            engine.dispose()


def _backend(conn: sa.Connection) -> int:
    return int(conn.execute(sa.text("SELECT pg_backend_pid()")).scalar_one())


def _count_pings(engine: sa.Engine, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Pings of the request path's engine (``reader``: an engine of its own on PostgreSQL)."""
    engine = reader(engine)
    pings: list[int] = []
    real = engine.dialect.do_ping

    def counted(dbapi_conn: object) -> bool:
        pings.append(1)
        return real(dbapi_conn)

    monkeypatch.setattr(engine.dialect, "do_ping", counted)
    return pings


def test_sqlite_reads_as_before(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'plain.db'}")
    assert reader(engine) is engine


@pytest.mark.postgres
def test_reads_keep_prepared_statements_between_checkouts(postgres: sa.Engine) -> None:
    """psycopg prepares a statement on its fifth run on a connection and forgets every one at a
    ROLLBACK, which ends each checkout of a transaction: through ``reader`` none is sent."""
    query = sa.text("SELECT count(*) FROM pg_class WHERE relpages >= :n")
    for n in range(6):
        with reader(postgres).connect() as conn:
            conn.execute(query, {"n": n}).scalar_one()
    with reader(postgres).connect() as conn:
        assert conn.execute(PREPARED).scalar_one() >= 1
    for n in range(6):  # the same through a transaction: each checkout ends in ROLLBACK
        with postgres.connect() as conn:
            conn.execute(query, {"n": n}).scalar_one()
    with postgres.connect() as conn:
        assert conn.execute(PREPARED).scalar_one() == 0


@pytest.mark.postgres
def test_busy_connection_is_not_pinged_an_idle_one_is(
        postgres: sa.Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    pings = _count_pings(postgres, monkeypatch)
    for _ in range(3):
        with reader(postgres).connect() as conn:
            conn.execute(sa.text("SELECT 1"))
    assert pings == []
    monkeypatch.setattr(engine_module, "PING_AFTER_IDLE", 0.05)
    time.sleep(0.1)
    with reader(postgres).connect() as conn:
        conn.execute(sa.text("SELECT 1"))
    assert pings == [1]


@pytest.mark.postgres
def test_connection_ended_by_the_server_is_replaced_at_checkout(
        postgres: sa.Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server ends the pooled session (as a restart or an idle timeout would): the socket has
    its goodbye waiting, so the checkout pings, fails and hands out a new connection, and the
    request never sees the dead one."""
    pings = _count_pings(postgres, monkeypatch)
    with reader(postgres).connect() as conn:
        first = _backend(conn)
    admin = sa.create_engine(ADMIN_URL, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            assert conn.execute(sa.text("SELECT pg_terminate_backend(:pid)"),
                                {"pid": first}).scalar_one()
            deadline = time.monotonic() + 10
            while conn.execute(sa.text("SELECT count(*) FROM pg_stat_activity WHERE pid = :pid"),
                               {"pid": first}).scalar_one():
                assert time.monotonic() < deadline, "the backend did not end"
                time.sleep(0.02)
    finally:
        admin.dispose()
    with reader(postgres).connect() as conn:
        assert _backend(conn) != first
    assert pings == [1]


@pytest.mark.postgres
def test_request_path_reads_stop_at_the_query_limit(postgres: sa.Engine) -> None:
    """The reader's sessions carry ``statement_timeout``: PostgreSQL stops a statement at the
    query limit and the request path answers ``query_too_expensive``; the session goes on, and
    writers (``engine`` itself: ingests, the nightly job) have no limit."""
    from server.errors import QueryTooExpensive
    from server.store.engine import QUERY_LIMIT_MS, time_limited

    slow = sa.text("SELECT pg_sleep(:s)")
    started = time.monotonic()
    with reader(postgres).connect() as conn:
        with pytest.raises(QueryTooExpensive), time_limited(conn):
            conn.execute(slow, {"s": QUERY_LIMIT_MS / 1000 + 5})
        assert time.monotonic() - started < QUERY_LIMIT_MS / 1000 + 2
        assert conn.execute(sa.text("SELECT 1")).scalar_one() == 1
    with postgres.connect() as conn:
        assert conn.execute(sa.text("SHOW statement_timeout")).scalar_one() == "0"


@pytest.mark.postgres
def test_play_and_pitch_pages_are_planned_in_their_written_join_order() -> None:
    """A page of pitches or of play-by-play is planned with its joins in the written order
    (``join_collapse_limit`` 1: 13 and 11 tables, whose every order PostgreSQL searched, 67-158
    ms planning the real store's play-by-play page); every other statement, before, between
    and after them on the same session, with PostgreSQL's own search (its default, 8)."""
    from server.catalog.levels import find_level
    from server.endpoints import query
    from server.endpoints.registry import find_endpoint
    from server.http.parse import parse
    from tests.fixtures import minidata

    with fresh_database("sports_joins") as url:
        engine = make_engine(url, pool_size=1)
        try:
            minidata.build(engine)
            read = reader(engine)
            seen: list[tuple[str, str]] = []

            def note(_conn: object, cursor: object, statement: str, *_args: object) -> None:
                if statement.startswith("SELECT") and " LIMIT " in statement:
                    setting = cursor.connection.execute(  # type: ignore[attr-defined]
                        "SELECT current_setting('join_collapse_limit')").fetchone()[0]
                    table = statement.split("\nFROM ", 1)[1].split()[0]
                    seen.append((table, setting))

            sa.event.listen(read, "after_cursor_execute", note)
            level = find_level("MLB")
            assert level is not None
            asked = (("games", ""), ("pitch", ""), ("games", ""), ("playbyplay", "2024"),
                     ("pitch", "2024"), ("teams", ""))
            with read.connect() as conn:
                for name, season in asked:
                    ep = find_endpoint(name)
                    assert ep is not None
                    found, _ = query.run(conn, ep, parse(ep, level, None, [("season", season)]
                                                         if season else [], "http://x"))
                    assert found, name
            sa.event.remove(read, "after_cursor_execute", note)
        finally:
            engine.dispose()
    assert seen == [("games", "8"), ("pitches", "1"), ("games", "8"), ("plays", "1"),
                    ("pitches", "1"), ("team_seasons", "8")]
