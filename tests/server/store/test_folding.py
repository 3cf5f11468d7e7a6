"""A name search compares folded names in SQL: SQLite and PostgreSQL fold a name as the Python
function does (``server.catalog.names.fold``), so ``acuña`` finds the same players on either."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from server.catalog.names import fold
from server.store import schema
from server.store.engine import make_engine
from server.store.folding import folded
from server.store.init import init_store
from tests.pg import fresh_database

NAMES = ("Ronald Acuña", "RONALD ACUÑA", "Carter Martínez", "Paul O'Neill", "Paul O’Neill",
         "Zoë Ødegaard", "Łukasz Dvořák", "Ken Griffey Jr.", "José Ramírez", "Ichiro Suzuki")


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[sa.Engine]:
    if request.param == "sqlite":
        eng = make_engine(f"sqlite:///{tmp_path / 'fold.db'}")
        init_store(eng)
        yield eng
        eng.dispose()
        return
    with fresh_database("sports_fold") as url:
        eng = make_engine(url)
        init_store(eng)
        yield eng
        eng.dispose()


def test_the_store_folds_names_as_the_search_does(engine: sa.Engine) -> None:
    with engine.begin() as conn:
        conn.execute(schema.players.insert(), [
            {"id": i, "name": name, "source": "feed:test"} for i, name in enumerate(NAMES)])
        stored = dict(conn.execute(sa.select(schema.players.c.name, folded(schema.players.c.name))
                                   ).tuples().all())
        acuna = conn.execute(sa.select(schema.players.c.id)
                             .where(folded(schema.players.c.name) == fold("ronald acuna"))
                             ).scalars().all()
    assert stored == {name: fold(name) for name in NAMES}
    assert sorted(acuna) == [0, 1]
