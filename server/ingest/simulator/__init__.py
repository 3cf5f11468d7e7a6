"""The demo: a deterministic multi-sport league simulator for every level (``python -m server demo``).

Everything it writes is marked ``simulated`` and goes through the loader in one transaction, so a
build is all-or-nothing, and a re-run with the same seed (and the same day) changes no row.
``run`` is the function other code and the tests call; ``cli`` is the command.
"""
from __future__ import annotations

import datetime as dt
import sys
import time
from collections.abc import Callable
from typing import Any

import orjson
import sqlalchemy as sa
from tqdm import tqdm

from server.catalog import clock
from server.catalog.levels import ALL_CODES, find_level
from server.catalog.simulated import PLANS
from server.errors import UserError
from server.ingest.simulator import parallel, writer
from server.ingest.simulator.build import LevelBuild
from server.ingest.simulator.ids import IdBook
from server.ingest.simulator.level_rows import level_counts, write_level
from server.store import schema
from server.store.init import init_store
from server.store.loader import loading, upsert

SIZES = ("small", "full")
BUILD_KEY = "simulated"  # store_info: how the simulated levels were built (``last_build``)

def parse_levels(levels: str | list[str] | None) -> list[str]:
    """Canonical level codes from a comma list (case-insensitive); all levels when empty."""
    if not levels:
        return list(ALL_CODES)
    items = levels.split(",") if isinstance(levels, str) else list(levels)
    out = []
    for item in items:
        if not item.strip():
            continue
        lv = find_level(item)
        if lv is None:
            raise UserError(f"unknown level code '{item.strip()}'; known levels: {', '.join(ALL_CODES)}")
        if lv.code not in out:
            out.append(lv.code)
    if not out:
        raise UserError("no level codes given to --levels")
    return out


def _real_levels(conn: sa.Connection) -> set[str]:
    s = schema.seasons.c
    return {r[0] for r in conn.execute(sa.select(s.level).where(s.source != writer.SOURCE).distinct())}


def run(engine: sa.Engine, seed: int = 2026, size: str = "full", levels: str | list[str] | None = None,
        skip_real: bool = False, now: dt.datetime | None = None, progress: bool = False,
        workers: int | None = None, seasons: int | None = None) -> dict[str, dict[str, int]]:
    """Build the simulated store; returns counts per level (games, plays, pitches, ...).

    ``seasons``: how many of each level's newest seasons, the current one included (default:
    the size's, 4 full and 2 small); fewer build faster (a check of one season's realism needs
    no four).

    ``now`` is the build clock (naive UTC; default: the real time): it decides the current
    seasons and which of today's games are over, under way or still to come. The same seed and
    clock give the same rows. With a SQLite file store, levels are simulated by ``workers``
    processes (default 2) into scratch files and copied into the store in one transaction.
    """
    if size not in SIZES:
        raise UserError(f"unknown size '{size}'; use small or full")
    if seasons is not None and seasons < 1:
        raise UserError(f"--seasons must be 1 or more, not {seasons}")
    codes = parse_levels(levels)
    now = (now or clock.utc_now()).replace(microsecond=0)
    with engine.connect() as conn:
        if skip_real:
            real = _real_levels(conn)
            codes = [c for c in codes if c not in real]
        book = IdBook.snapshot(conn, codes)
    n_workers = 2 if workers is None else workers
    path = engine.url.database if engine.dialect.name == "sqlite" else None
    build = {"Seed": seed, "Size": size, "Levels": None if levels is None else parse_levels(levels),
             "SkipReal": skip_real, "Day": clock.service_day(now).isoformat(),
             "Clock": now.isoformat(), **({"Seasons": seasons} if seasons else {})}
    if n_workers > 1 and path and path != ":memory:" and len(codes) > 1:
        counts = parallel.build(engine, codes, book, seed, size, now, n_workers, progress, seasons)
    else:
        counts = _build_here(engine, codes, book, seed, size, now, progress, seasons)
    with engine.begin() as conn:
        upsert(conn, schema.store_info, [{"key": BUILD_KEY, "value": orjson.dumps(build).decode()}])
    return counts


def last_build(conn: sa.Connection) -> dict[str, Any] | None:
    """How the store's simulated levels were last built (seed, size, levels, skip_real) and for
    which service day; None when the store holds no simulation. ``python -m server serve``
    rebuilds them the same way once the day has moved on (``server.jobs.scheduler``)."""
    value = conn.execute(sa.select(schema.store_info.c.value)
                         .where(schema.store_info.c.key == BUILD_KEY)).scalar()
    found = orjson.loads(value) if value else None
    return found if isinstance(found, dict) else None


def _build_here(engine: sa.Engine, codes: list[str], book: IdBook, seed: int, size: str,
                now: dt.datetime, progress: bool, seasons: int | None = None
                ) -> dict[str, dict[str, int]]:
    """Every level in this process, into the store in one transaction."""
    counts: dict[str, dict[str, int]] = {}
    with loading(engine, writer.SOURCE) as loader:
        bar = tqdm(codes, desc="demo", unit="level", file=sys.stderr, disable=not progress)
        for code in bar:
            bar.set_postfix_str(code)
            t0 = time.perf_counter()
            build = LevelBuild(PLANS[code], seed, size, now, book.ids, seasons)
            build.run()
            writer.wipe_level(loader.conn, code)
            write_level(loader, build, book.take_new())
            counts[code] = level_counts(build, t0)
    return counts


def cli(args: Any, engine_factory: Callable[[], sa.Engine]) -> int:
    """``python -m server demo``: init the store, build, print one summary line per level."""
    engine = engine_factory()
    codes = parse_levels(getattr(args, "levels", None))
    init_store(engine)
    t0 = time.perf_counter()
    counts = run(engine, seed=args.seed, size=args.size, levels=codes,
                 skip_real=bool(getattr(args, "skip_real", False)), progress=True,
                 seasons=getattr(args, "seasons", None))
    for code, c in counts.items():
        print(f"{code}: {c['games']} games, {c['plays']} plays, {c['pitches']} pitches, "
              f"{c['ms'] / 1000:.1f} s", file=sys.stderr)
    copy_ms = max((c.get("copy_ms", 0) for c in counts.values()), default=0)
    if copy_ms:
        print(f"copied into the store in {copy_ms / 1000:.1f} s", file=sys.stderr)
    print(f"demo ({args.size}, seed {args.seed}): {len(counts)} levels in "
          f"{time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return 0
