"""Moving a store: every row arrives, a failed copy leaves the target as it was."""
from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from server import keys
from server.errors import UserError
from server.ingest.feed import load_feed
from server.store import schema
from server.store.copy import copy_store
from server.store.engine import make_engine
from server.store.init import init_store
from tests.fixtures.digest import typed_rows as _dump
from tests.pg import fresh_database
from tests.server.ingest.test_feed import BUNDLE, _write


@pytest.fixture()
def source(tmp_path: Path) -> sa.Engine:
    eng = make_engine(f"sqlite:///{tmp_path / 'src.db'}")
    init_store(eng)
    load_feed(eng, _write(tmp_path / "bundle", BUNDLE))
    return eng


def test_copy_to_another_sqlite_file_is_row_for_row(source: sa.Engine, tmp_path: Path) -> None:
    target = make_engine(f"sqlite:///{tmp_path / 'dst.db'}")
    counts = copy_store(source, target, progress=False)
    assert counts["games"] == 2
    assert _dump(target) == _dump(source)
    with target.connect() as conn:  # the planner's statistics, as after any bulk write
        assert conn.execute(sa.text("SELECT count(*) FROM sqlite_stat1 WHERE tbl = 'games'")).scalar()


def _without_secret(dump: dict[str, list[tuple[object, ...]]]) -> dict[str, list[tuple[object, ...]]]:
    return {**dump, "store_info": [r for r in dump["store_info"] if r[0] != "key_secret"]}


def _with_keys(source: sa.Engine) -> dict[str, list[tuple[object, ...]]]:
    """The source's rows, its keys read where a SQLite store keeps them (its keys file)."""
    with keys.key_store(source).connect() as conn:
        held = sorted(map(tuple, conn.execute(sa.select(schema.api_keys))), key=repr)
    return {**_dump(source), "api_keys": held}


@pytest.mark.postgres
def test_copy_to_postgresql_is_row_for_row(source: sa.Engine) -> None:
    key = keys.issue(source, None, 100, "issued on SQLite")
    with fresh_database() as url:
        target = make_engine(url)
        copy_store(source, target, progress=False)
        assert _without_secret(_dump(target)) == _with_keys(source)
        with target.connect() as conn:  # the key issued on SQLite verifies on the copy
            assert keys.lookup(conn, keys.key_hash(keys.server_secret(target), key)) is not None
        with target.connect() as conn:  # served at once, its first queries are planned with stats
            analyzed = conn.execute(sa.text(
                "SELECT last_analyze FROM pg_stat_user_tables WHERE relname = 'games'")).scalar()
        assert analyzed is not None
        copy_store(source, target, progress=False)  # a second copy replaces, never duplicates
        assert _without_secret(_dump(target)) == _with_keys(source)
        target.dispose()


def test_copy_onto_itself_is_refused(source: sa.Engine) -> None:
    with pytest.raises(UserError):
        copy_store(source, make_engine(str(source.url)), progress=False)


@pytest.mark.postgres
def test_a_failed_copy_leaves_the_target_as_it_was(source: sa.Engine) -> None:
    with fresh_database() as url:
        target = make_engine(url)
        copy_store(source, target, progress=False)
        before = _dump(target)
        with source.begin() as conn:  # SQLite keeps a 3-letter nation; PostgreSQL's VARCHAR(2) refuses it
            conn.execute(schema.venues.insert().values(id=999, name="Far Field", nation="USA"))
        with pytest.raises(sa.exc.DataError):
            copy_store(source, target, progress=False)
        assert _dump(target) == before
        target.dispose()
