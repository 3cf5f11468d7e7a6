"""The PostgreSQL change signal, chosen by measuring (``server/store/watch.py``).

Two ways for a worker to know, per request, whether the store's served content changed:

  row:    read the content epoch (``store_info``) on every request, through the worker's pool
          (what a request would pay: pool checkout, one round trip, return);
  listen: a LISTEN connection in a thread sets a number on NOTIFY; a request reads the number.

Prints per-request cost (median, p99) of each, and for ``listen`` the delay from a writer's
commit (another process's connection) until the listener's number moved. Needs PostgreSQL on
127.0.0.1:5432 (trust); uses a scratch database it creates and drops.
Usage: .venv/bin/python bench/watch.py [--requests 20000] [--changes 200]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
import uuid
from pathlib import Path

import sqlalchemy as sa

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from server.store import schema
from server.store.engine import make_engine
from server.store.init import init_store
from server.store.watch import EPOCH_KEY, StoreWatch, mark_changed

ADMIN = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"


def _micro(samples: list[float]) -> str:
    ordered = sorted(samples)
    p99 = ordered[int(len(ordered) * 0.99)]
    return f"median {statistics.median(ordered) * 1e6:8.1f} µs, p99 {p99 * 1e6:8.1f} µs"


def per_request_row(engine: sa.Engine, n: int) -> list[float]:
    query = sa.select(schema.store_info.c.value).where(schema.store_info.c.key == EPOCH_KEY)
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        with engine.connect() as conn:
            conn.execute(query).scalar()
        out.append(time.perf_counter() - t0)
    return out


def per_request_listen(watch: StoreWatch, n: int) -> list[float]:
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        watch.generation()
        out.append(time.perf_counter() - t0)
    return out


def notify_delay(writer: sa.Engine, watch: StoreWatch, n: int) -> list[float]:
    out = []
    for _ in range(n):
        before = watch.generation()
        with writer.begin() as conn:
            mark_changed(conn)
        t0 = time.perf_counter()
        while watch.generation() == before:
            time.sleep(0)
            if time.perf_counter() - t0 > 5:
                raise SystemExit("a change was not announced within 5 s")
        out.append(time.perf_counter() - t0)
        time.sleep(0.005)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=20_000)
    parser.add_argument("--changes", type=int, default=200)
    args = parser.parse_args()
    admin = sa.create_engine(ADMIN, isolation_level="AUTOCOMMIT")
    name = f"bench_watch_{uuid.uuid4().hex[:8]}"
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    url = ADMIN.rsplit("/", 1)[0] + "/" + name
    try:
        engine = make_engine(url)
        init_store(engine)
        with engine.begin() as conn:
            mark_changed(conn)
        watch = StoreWatch(engine)
        deadline = time.monotonic() + 10
        while watch.generation() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        writer = make_engine(url)
        per_request_row(engine, 500)  # warm the pool
        row = per_request_row(engine, args.requests)
        listen = per_request_listen(watch, args.requests)
        delay = notify_delay(writer, watch, args.changes)
        print(f"row per request:     {_micro(row)}")
        print(f"listener per request:{_micro(listen)}")
        print(f"commit to listener:  {_micro(delay)}")
        writer.dispose()
        engine.dispose()
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


if __name__ == "__main__":
    main()
