"""A small simulated store, built once per session at a fixed build clock."""
from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from server.ingest.simulator import run
from server.store.engine import make_engine
from server.store.init import init_store

# Late November: basketball, hockey and football are in season; baseball is not.
BUILD_NOW = dt.datetime(2026, 11, 22, 6, 0)
SEED = 2026


def build_store(path: Path, **kwargs: object) -> sa.Engine:
    engine = make_engine(f"sqlite:///{path}")
    init_store(engine)
    run(engine, seed=SEED, size=str(kwargs.pop("size", "small")), now=BUILD_NOW, **kwargs)  # type: ignore[arg-type]
    return engine


@pytest.fixture(scope="session")
def small_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[sa.Engine]:
    engine = build_store(tmp_path_factory.mktemp("sim") / "small.db")
    yield engine
    engine.dispose()
