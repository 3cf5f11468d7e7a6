"""Stores for the production tests: SQLite by default, PostgreSQL when
``SPORTS_TEST_DATABASE=postgres`` (the same switch as the shared fixtures)."""
from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from server.store.engine import make_engine
from tests.fixtures import minidata
from tests.pg import fresh_database


@dataclass
class Store:
    url: str
    engine: sa.Engine
    facts: dict[str, Any]

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name


def wants_postgres() -> bool:
    return os.environ.get("SPORTS_TEST_DATABASE", "").lower() in ("postgres", "postgresql")


@contextmanager
def mini_store_at(folder: Path, postgres: bool) -> Iterator[Store]:
    """The shared fixture data (tests.fixtures.minidata) in a store of its own."""
    if postgres:
        with fresh_database("sports_prod") as url:
            engine = make_engine(url)
            try:
                yield Store(url, engine, minidata.build(engine))
            finally:
                engine.dispose()
    else:
        url = f"sqlite:///{folder / 'sports.db'}"
        engine = make_engine(url)
        try:
            yield Store(url, engine, minidata.build(engine))
        finally:
            engine.dispose()


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    """A store of this module's own (tests here break, kill and revoke things)."""
    with mini_store_at(tmp_path_factory.mktemp("prodstore"), wants_postgres()) as s:
        yield s
