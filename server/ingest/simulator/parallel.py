"""Simulating levels in worker processes, then copying them into the store in one transaction.

Each worker (a forked process) builds its share of the levels into a scratch SQLite file with the
store's tables but no indexes; the parent then attaches the scratch files and copies them with
``INSERT ... SELECT`` (no Python per row) inside one transaction that first wipes the levels' old
simulated rows. Level IDs come from per-level blocks (see ``ids``), so the result is the same
row for row as a one-process build. A worker's failure fails the build and leaves the store as it was.
"""
from __future__ import annotations

import datetime as dt
import multiprocessing as mp
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from tqdm import tqdm

from server.ingest.simulator import writer
from server.ingest.simulator.ids import IdBook
from server.store import schema, season_data
from server.store.engine import make_engine
from server.store.folding import refresh_search_names
from server.store.loader import Loader, pause_before_commit

# Rough cost of a level, to share them out evenly.
_COST = {"MLB": 12.0, "NBA": 4.0, "NHL": 3.0, "MiLB": 2.5, "KBO": 1.6, "NPB": 1.6, "CBB": 1.0,
         "KHL": 1.0, "FC": 1.0, "EuroBB": 0.8, "WNBA": 0.8, "GL": 0.6, "MHK": 0.6}
# Tables a level fills, parents first.
_TABLES = ("source_keys", "sublevels", "venues", "teams", "players", "officials", "seasons",
           "team_seasons", "player_seasons", "games", "plays", "pitches", "player_lines",
           "team_lines", "game_officials", "odds", "news", "transactions", "social_accounts",
           "social_posts")


def share(codes: list[str], n: int) -> list[list[str]]:
    """Levels per worker: biggest first, each to the least loaded worker."""
    loads = [0.0] * n
    out: list[list[str]] = [[] for _ in range(n)]
    for code in sorted(codes, key=lambda c: (-_COST.get(c, 0.4), codes.index(c))):
        k = loads.index(min(loads))
        out[k].append(code)
        loads[k] += _COST.get(code, 0.4)
    return [sorted(part, key=codes.index) for part in out if part]


def _scratch(path: Path) -> sa.Engine:
    engine = make_engine(f"sqlite:///{path}")
    schema.metadata.create_all(engine, tables=[schema.metadata.tables[t] for t in _TABLES])
    with engine.begin() as conn:
        for name in _TABLES:
            for index in schema.metadata.tables[name].indexes:
                index.drop(conn)
    return engine


def _work(path: str, codes: list[str], book: IdBook, seed: int, size: str, now: dt.datetime,
          queue: Any, seasons: int | None = None) -> None:
    from server.catalog.simulated import PLANS
    from server.ingest.simulator.build import LevelBuild
    from server.ingest.simulator.level_rows import level_counts, write_level
    try:
        engine = _scratch(Path(path))
        for code in codes:
            t0 = time.perf_counter()
            build = LevelBuild(PLANS[code], seed, size, now, book.ids, seasons)
            build.run()
            with engine.begin() as conn:
                write_level(Loader(conn, writer.SOURCE), build, book.take_new())
            queue.put(("level", code, level_counts(build, t0)))
            del build
        engine.dispose()
        queue.put(("done", path, None))
    except BaseException:  # noqa: BLE001 - reported to the parent, which fails the build
        # Every way out (SystemExit and KeyboardInterrupt too) must reach the parent: it
        # blocks on the queue until each worker has reported.
        queue.put(("error", path, traceback.format_exc()))


def build(engine: sa.Engine, codes: list[str], book: IdBook, seed: int, size: str, now: dt.datetime,
          workers: int, progress: bool, seasons: int | None = None) -> dict[str, dict[str, int]]:
    ctx = mp.get_context("fork")
    queue = ctx.Queue()
    tmp = Path(tempfile.mkdtemp(prefix="demo-", dir=str(Path(engine.url.database or ".").parent)))
    parts = share(codes, workers)
    paths = [str(tmp / f"part{k}.db") for k in range(len(parts))]
    procs = [ctx.Process(target=_work, args=(p, part, book, seed, size, now, queue, seasons), daemon=True)
             for p, part in zip(paths, parts)]
    bar = tqdm(total=len(codes) + 1, desc="demo", unit="level", file=sys.stderr, disable=not progress)
    try:
        for p in procs:
            p.start()
        counts = _gather(queue, len(procs), bar)
        for p in procs:
            p.join()
        _copy_timed(engine, codes, paths, counts, bar)
    finally:
        bar.close()
        for p in procs:
            if p.is_alive():
                p.terminate()
        shutil.rmtree(tmp, ignore_errors=True)
    return {code: counts[code] for code in codes}


def _gather(queue: Any, workers: int, bar: Any) -> dict[str, dict[str, int]]:
    """Each level's counts as the workers report them, until all ``workers`` are done; a
    worker's failure fails the build with its traceback."""
    counts: dict[str, dict[str, int]] = {}
    done = 0
    while done < workers:
        kind, what, payload = queue.get()
        if kind == "error":
            raise RuntimeError(f"demo worker failed:\n{payload}")
        if kind == "level":
            counts[what] = payload
            bar.set_postfix_str(what)
            bar.update(1)
        else:
            done += 1
    return counts


def _copy_timed(engine: sa.Engine, codes: list[str], paths: list[str], counts: dict[str, dict[str, int]],
                bar: Any) -> None:
    """The workers' stores copied into ``engine``'s; every level's counts say how long that took
    (``copy_ms``: one copy for them all)."""
    bar.set_postfix_str("copying into the store")
    t0 = time.perf_counter()
    _copy(engine, codes, paths)
    bar.update(1)
    copy_ms = int((time.perf_counter() - t0) * 1000)
    for c in counts.values():
        c["copy_ms"] = copy_ms


_REINDEX = ("plays", "pitches", "player_lines", "team_lines")


def _copy(engine: sa.Engine, codes: list[str], paths: list[str]) -> None:
    with engine.connect() as conn:
        conn.exec_driver_sql("PRAGMA cache_size=-262144")
        for k, p in enumerate(paths):
            conn.exec_driver_sql(f"ATTACH DATABASE ? AS part{k}", (p,))
        conn.commit()
        try:
            with conn.begin():
                for code in codes:
                    writer.wipe_level(conn, code)
                # Secondary indexes of the big tables are rebuilt once (a sort) rather than
                # updated row by row; the drop and the rebuild are part of this one transaction.
                rebuilt = [ix for name in _REINDEX for ix in schema.metadata.tables[name].indexes]
                for ix in rebuilt:
                    conn.exec_driver_sql(f'DROP INDEX IF EXISTS main."{ix.name}"')
                for name in _TABLES:
                    cols = ", ".join(f'"{c.name}"' for c in schema.metadata.tables[name].c)
                    for k in range(len(paths)):
                        conn.exec_driver_sql(
                            f'INSERT INTO main."{name}" ({cols}) SELECT {cols} FROM part{k}."{name}"')
                for ix in rebuilt:
                    ix.create(conn)
                season_data.refresh(conn, codes)  # as every ingest does before its commit
                refresh_search_names(conn)
                pause_before_commit()
        finally:
            for k in range(len(paths)):
                conn.exec_driver_sql(f"DETACH DATABASE part{k}")
            conn.commit()
