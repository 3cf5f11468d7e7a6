"""A name search compares folded names in SQL: SQLite and PostgreSQL fold a name as the Python
function does (``server.catalog.names.fold``), so ``acuña`` finds the same players on either."""
from __future__ import annotations


import sqlalchemy as sa

from server.catalog.names import fold
from server.store import schema
from server.store.folding import folded

NAMES = ("Ronald Acuña", "RONALD ACUÑA", "Carter Martínez", "Paul O'Neill", "Paul O’Neill",
         "Zoë Ødegaard", "Łukasz Dvořák", "Ken Griffey Jr.", "José Ramírez", "Ichiro Suzuki")


def test_the_store_folds_names_as_the_search_does(new_store: sa.Engine) -> None:
    with new_store.begin() as conn:
        conn.execute(schema.players.insert(), [
            {"id": i, "name": name, "source": "feed:test"} for i, name in enumerate(NAMES)])
        stored = dict(conn.execute(sa.select(schema.players.c.name, folded(schema.players.c.name))
                                   ).tuples().all())
        acuna = conn.execute(sa.select(schema.players.c.id)
                             .where(folded(schema.players.c.name) == fold("ronald acuna"))
                             ).scalars().all()
    assert stored == {name: fold(name) for name in NAMES}
    assert sorted(acuna) == [0, 1]
