"""/health: the store's kind (never its address: no path, user, host or database: a monitor
needs no more, and a page anyone may call must not map the deployment), its schema version,
the latest re-tabulation, and per level the newest game and its data sources. Needs no key, so
monitors can call it.

``Parts`` gives each part the service leans on with its state, so a monitor can tell what is
wrong: ``Store`` (``ok``; its change signal on PostgreSQL, ``live`` or ``lost``), ``Redis``
(``off`` without ``REDIS_URL``, ``ok``, or ``down`` since when: asked at each call while it
answers, and while it is down only when the breaker's back-off lets one caller try it) and ``Retabulation`` (``ok`` within ``LATE_AFTER`` of the latest run, ``late`` after,
``never``). Only the store is essential: its fault answers 503. Redis down answers 200 with
``Status: degraded`` (limits per worker, results cached per worker); a late job changes no
answer the service gives, so it shows in its part only.

``Fill`` is the background fill a first build left (``server.jobs.fill``), null for a store
built whole: ``State`` (``loading`` or ``done``), ``Steps`` and ``StepsDone``, ``Now`` (what it is
doing: "MLB 2021-2023 loading, 2 of 3 seasons"), ``Levels`` (each level not yet whole -> its
notice; its seasons carry the same as ``Loading`` in ``seasons``), ``Started``, ``Finished`` and
``Failure`` (which step failed; its own last line goes to the server's log, never here: paths;
the next start tries it again).
"""
from __future__ import annotations

import datetime as dt
import time
from typing import TYPE_CHECKING, Any

import orjson
import sqlalchemy as sa

from server.errors import store_fault
from server.catalog.sources import NOTICES
from server.catalog.phases import NO_RESULT
from server.jobs import fill
from server.jobs.runs import last_run
from server.store import schema as s

if TYPE_CHECKING:
    from server.http.pipeline import Service

LATE_AFTER = dt.timedelta(hours=26)
REDIS_RECHECK = 1.0  # seconds between /health's own questions to a Redis that is down
_last_asked: dict[int, float] = {}  # breaker -> when /health last asked its Redis (monotonic)  # a nightly job, plus slack for its own run time


def _redis_part(service: Service) -> dict[str, Any]:
    breaker = service.gate.breaker
    if breaker is None:
        return {"State": "off"}
    # While Redis is down, /health asks it only when the breaker lets a request try it or
    # ``REDIS_RECHECK`` seconds after /health last did, and otherwise answers from the breaker:
    # a frozen Redis costs one socket timeout a second at most, not one every call, and a Redis
    # back is seen within a second even by a worker whose back-off has not run out.
    now = time.monotonic()
    due = now - _last_asked.get(id(breaker), 0.0) >= REDIS_RECHECK
    if breaker.allows() or due:
        _last_asked[id(breaker)] = now
        state = breaker.ping()
    else:
        state = breaker.state()
    part: dict[str, Any] = {"State": state.state}  # never its address: a public page
    if state.down_since is not None:
        part["DownSince"] = dt.datetime.fromtimestamp(state.down_since, dt.UTC).isoformat(
            timespec="seconds")
        part["Failure"] = state.failure
    return part


def _retabulation_part(run: dict[str, Any] | None) -> dict[str, Any]:
    if run is None:
        return {"State": "never"}
    try:
        at = dt.datetime.fromisoformat(str(run.get("At")))
    except ValueError:
        return {"State": "late", "At": run.get("At")}
    late = dt.datetime.now(dt.UTC) - at > LATE_AFTER
    return {"State": "late" if late else "ok", "At": run.get("At")}


def _store_part(service: Service) -> dict[str, Any]:
    part: dict[str, Any] = {"State": "ok", "Dialect": service.engine.dialect.name}
    listening = service.gate.watch.listening()
    if listening is not None:
        part["ChangeSignal"] = "live" if listening else "lost"
    return part


def report(service: Service) -> bytes:
    engine = service.engine
    # which file a SQLite store's path names is looked at first (``StoreWatch``), so /health
    # sees a store file replaced, deleted or back without another request asking
    service.gate.watch.generation()
    try:
        with service.reader.connect() as conn:
            version = conn.execute(sa.select(s.store_info.c.value)
                                   .where(s.store_info.c.key == "schema_version")).scalar()
            retabulated = last_run(conn)
            filling = fill.report(fill.read(conn))
            # a listed game the source has no result for is no newest game (catalog.phases)
            newest = dict(conn.execute(sa.select(s.games.c.level, sa.func.max(s.games.c.game_day))
                                       .where(s.games.c.state != NO_RESULT)
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
    parts = {"Store": _store_part(service), "Redis": _redis_part(service),
             "Retabulation": _retabulation_part(retabulated)}
    degraded = parts["Redis"]["State"] == "down"
    return orjson.dumps({"Status": "degraded" if degraded else "ok", "Parts": parts,
                         "Store": engine.dialect.name,  # its kind: never its address
                         "Dialect": engine.dialect.name,
                         "SchemaVersion": int(version) if version is not None else None,
                         "Retabulated": retabulated,
                         "Fill": filling,
                         "Levels": levels,
                         "Notices": {name: NOTICES[name] for name in sorted(held) if name in NOTICES}})
