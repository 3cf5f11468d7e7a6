"""/health: the store (no password), its schema version, the latest re-tabulation, and per level
the newest game and its data sources. Needs no key, so monitors can call it."""
from __future__ import annotations

from typing import TYPE_CHECKING

import orjson
import sqlalchemy as sa

from server.errors import store_fault
from server.catalog.sources import NOTICES
from server.jobs.runs import last_run
from server.store import schema as s
from server.store.engine import describe

if TYPE_CHECKING:
    from server.http.pipeline import Service


def report(service: Service) -> bytes:
    engine = service.engine
    try:
        with engine.connect() as conn:
            version = conn.execute(sa.select(s.store_info.c.value)
                                   .where(s.store_info.c.key == "schema_version")).scalar()
            retabulated = last_run(conn)
            newest = dict(conn.execute(sa.select(s.games.c.level, sa.func.max(s.games.c.game_day))
                                       .group_by(s.games.c.level)).all())
            sources: dict[str, list[str]] = {}
            for level, source in conn.execute(sa.select(s.seasons.c.level, s.seasons.c.source)
                                              .distinct()):
                sources.setdefault(level, []).append(source)
    except sa.exc.SQLAlchemyError as exc:
        raise (store_fault(exc) or exc) from exc
    levels, held = [], set()
    for code in service.facts.level_codes():
        day = newest.get(code)
        levels.append({"Level": code, "NewestGame": str(day)[:10] if day else None,
                       "Sources": sorted(sources.get(code, []))})
        held.update(sources.get(code, []))
    return orjson.dumps({"Status": "ok", "Store": describe(engine),
                         "Dialect": engine.dialect.name,
                         "SchemaVersion": int(version) if version is not None else None,
                         "Retabulated": retabulated,
                         "Levels": levels,
                         "Notices": {name: NOTICES[name] for name in sorted(held) if name in NOTICES}})
