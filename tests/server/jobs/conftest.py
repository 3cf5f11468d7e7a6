from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import sqlalchemy as sa

from server.store.engine import make_engine
from tests.server.jobs.synthetic import build_store


@pytest.fixture(scope="session")
def _template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "store.db"
    engine = build_store(path, levels=("MLB", "MBB", "NHL", "FC"))
    engine.dispose()
    return path


@pytest.fixture()
def store(_template: Path, tmp_path: Path) -> tuple[sa.Engine, Path]:
    """A fresh copy of the synthetic store (SQLite file) for one test."""
    path = tmp_path / "store.db"
    shutil.copy(_template, path)
    engine = make_engine(f"sqlite:///{path}")
    yield engine, path
    engine.dispose()
