"""The ingest tests' store: each test loads its files into an empty SQLite store of its own."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from server.store.engine import make_engine
from server.store.init import init_store


@pytest.fixture()
def engine(tmp_path: Path) -> Iterator[sa.Engine]:
    """An empty store (a SQLite file in the test's folder), initialised."""
    eng = make_engine(f"sqlite:///{tmp_path / 'store.db'}")
    init_store(eng)
    yield eng
    eng.dispose()
