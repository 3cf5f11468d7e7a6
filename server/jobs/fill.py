"""The background fill: what a first build leaves for the service to load while it already serves.

A fresh store's slow parts (a season of play by play, Lahman, the simulated levels, the
re-tabulation of what they add, every past season's projections) take minutes; ``make run``
serves after the fast part (``scripts.run``) and writes the rest here as a plan of ``Step``\\ s,
``python -m server`` commands in order. ``python -m server serve`` runs the pending steps one at
a time in a child process each (``Filler``), so the work's memory and CPU stay out of the
workers, and records each step done in the store when its command succeeds.

Every step is a command that is whole or not at all (an ingest commits a season at a time,
re-tabulation a level at a time, projections at the end) and idempotent, so a fill stopped
anywhere (Ctrl+C, a kill, a crash) leaves the store consistent, and the next start runs the
step it was on again and goes on. A step that fails stops the fill (``/health`` names the step,
the log has the command's last line); the next start tries again.

While a level has a step pending its seasons are not whole (no ratings yet, no projections):
``store_info`` holds ``loading:LEVEL`` with the notice for it ("MLB 2021-2023 loading, 2 of 3
seasons"), which ``seasons`` serves as each season's ``Loading`` and ``/health`` as ``Fill``.
Those rows and the plan change in one transaction with ``mark_changed``, so no cached answer
outlives them. One instance fills a store at a time (a lock beside a SQLite file, an advisory
lock on PostgreSQL); another waits for the next start.
"""
from __future__ import annotations

import ctypes
import fcntl
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

import orjson
import sqlalchemy as sa

from server.store import loading, schema
from server.store.loader import upsert
from server.store.watch import mark_changed

FILL_KEY = "fill"  # store_info: the plan and what of it is done
LOADING = loading.PREFIX  # store_info: ``loading:MLB`` -> the level's notice while not whole
LOCK_ID = int.from_bytes(b"sprtfill", "big")  # PostgreSQL advisory lock of the filling instance
PARENT_ENV = "SPORTS_FILL_PARENT"  # a step's server: the step ends with it (``die_with_parent``)
PR_SET_PDEATHSIG = 1  # prctl(2): the signal a child gets when the thread that started it ends
STOP_GRACE = 10.0  # seconds a stopped step's command has to roll back before it is killed
ROOT = Path(__file__).resolve().parents[2]  # where ``python -m server`` runs
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Step:
    """One command of the fill. ``what`` names the part it belongs to (steps sharing it are one
    part: "MLB 2021-2023", a season each) and ``unit`` what a step of it is ("seasons"), so the
    notice counts them; ``doing`` is the part's verb ("loading", "being computed"); ``levels``
    are the levels whose seasons are not whole until the step is done."""

    args: tuple[str, ...]
    levels: tuple[str, ...]
    what: str
    doing: str = "loading"
    unit: str = ""

    def as_json(self) -> dict[str, Any]:
        return {"Args": list(self.args), "Levels": list(self.levels), "What": self.what,
                "Doing": self.doing, "Unit": self.unit, "Done": False}


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def read(conn: sa.Connection) -> dict[str, Any] | None:
    """The store's fill plan with each step's ``Done``; None when none was ever planned."""
    value = conn.execute(sa.select(schema.store_info.c.value)
                         .where(schema.store_info.c.key == FILL_KEY)).scalar()
    found = orjson.loads(value) if value else None
    return found if isinstance(found, dict) else None


def pending(plan: dict[str, Any] | None) -> list[dict[str, Any]]:
    return [] if plan is None else [s for s in plan.get("Steps", []) if not s.get("Done")]


def notice(plan: dict[str, Any], step: dict[str, Any]) -> str:
    """What the step's part is doing, counted in its unit: "MLB 2021-2023 loading, 2 of 3
    seasons" (two done), or "MLB ratings, forecasts and stat tables being computed"."""
    part = [s for s in plan["Steps"] if s["What"] == step["What"]]
    text = f"{step['What']} {step['Doing']}"
    if step.get("Unit") and len(part) > 1:
        text += f", {sum(1 for s in part if s.get('Done'))} of {len(part)} {step['Unit']}"
    return text


def level_notices(plan: dict[str, Any] | None) -> dict[str, str]:
    """Each level with a step pending -> the notice of its first pending step."""
    out: dict[str, str] = {}
    for step in pending(plan):
        for level in step["Levels"]:
            out.setdefault(level, notice(plan or {}, step))
    return out


def report(plan: dict[str, Any] | None) -> dict[str, Any] | None:
    """``/health``'s ``Fill``: None for a store never filled in the background."""
    if plan is None:
        return None
    steps, left = plan.get("Steps", []), pending(plan)
    return {"State": "loading" if left else "done", "Steps": len(steps),
            "StepsDone": len(steps) - len(left),
            "Now": notice(plan, left[0]) if left else None,
            "Levels": level_notices(plan), "Started": plan.get("Started"),
            "Finished": plan.get("Finished"), "Failure": plan.get("Failure")}


def _write(conn: sa.Connection, plan: dict[str, Any]) -> None:
    """The plan and the levels' notices, replaced together (the caller's transaction)."""
    info = schema.store_info
    conn.execute(info.delete().where(info.c.key.startswith(LOADING)))
    rows = [{"key": FILL_KEY, "value": orjson.dumps(plan).decode()}]
    rows += [{"key": LOADING + level, "value": text}
             for level, text in level_notices(plan).items()]
    upsert(conn, info, rows)
    mark_changed(conn)


def plan_fill(engine: sa.Engine, steps: Sequence[Step]) -> None:
    """Record ``steps`` as the store's fill, all pending (a plan before it is replaced)."""
    with engine.begin() as conn:
        _write(conn, {"Started": _now(), "Finished": None, "Failure": None,
                      "Steps": [s.as_json() for s in steps]})


def _finish_step(engine: sa.Engine, index: int, seconds: float) -> dict[str, Any]:
    with engine.begin() as conn:
        plan = read(conn) or {"Steps": []}
        plan["Steps"][index].update(Done=True, Seconds=round(seconds, 1))
        plan["Failure"] = None
        if not pending(plan):
            plan["Finished"] = _now()
        _write(conn, plan)
    return plan


def _fail(engine: sa.Engine, text: str) -> None:
    with engine.begin() as conn:
        plan = read(conn)
        if plan is not None:
            plan["Failure"] = text
            _write(conn, plan)


def child_url(url: sa.URL) -> sa.URL:
    """The store's URL for a child process: a relative SQLite path made absolute."""
    if url.get_backend_name() == "sqlite" and url.database and url.database != ":memory:":
        return url.set(database=str(Path(url.database).resolve()))
    return url


@contextmanager
def _fill_lock(engine: sa.Engine) -> Iterator[bool]:
    """True inside the block for the one process filling this store."""
    if engine.dialect.name == "postgresql":
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            if not conn.execute(sa.select(sa.func.pg_try_advisory_lock(LOCK_ID))).scalar():
                yield False
                return
            try:
                yield True
            finally:
                conn.execute(sa.select(sa.func.pg_advisory_unlock(LOCK_ID)))
        return
    path = child_url(engine.url).database
    if not path or path == ":memory:":
        yield True
        return
    with open(f"{path}.fill-lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        yield True


def die_with_parent() -> None:
    """Called first thing by a step's command (``server.cli``, when ``PARENT_ENV`` names its
    server): SIGINT when the server goes, however it goes (uvicorn ends on SIGTERM by raising it
    again, past any ``finally``; a kill -9; a crash), so a step never outlives its server and
    commits after it: it rolls back, and the next start runs it again. Linux only (prctl)."""
    parent = os.environ.pop(PARENT_ENV, "")
    if not parent or not sys.platform.startswith("linux"):
        return
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGINT)
    if os.getppid() != int(parent):  # gone before the line above
        raise KeyboardInterrupt


class Filler:
    """Runs a store's pending steps in a daemon thread; ``stop`` interrupts the running command
    (SIGINT: it rolls back and exits) and waits for it."""

    def __init__(self, engine: sa.Engine, out: TextIO | None = None) -> None:
        self.engine = engine
        self.out = out or sys.stderr
        self._stop = threading.Event()
        self._child: subprocess.Popen[str] | None = None
        self._lock = threading.Lock()
        self.thread = threading.Thread(target=self._run, name="fill", daemon=True)

    def start(self) -> Filler:
        self.thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        with self._lock:
            child = self._child
        if child is not None and child.poll() is None:
            child.send_signal(signal.SIGINT)
            try:
                child.wait(STOP_GRACE)
            except subprocess.TimeoutExpired:
                child.kill()
        self.thread.join(STOP_GRACE)

    def _run(self) -> None:
        try:
            with _fill_lock(self.engine) as mine:
                if not mine:  # said where the steps are said (the log's config may come later)
                    print("fill: another process is filling this store; this one serves it",
                          file=self.out, flush=True)
                    return
                self._steps()
        except Exception as exc:  # noqa: BLE001 - a fill that cannot go on must not stop serving
            log.error("fill stopped: %s", exc)

    def _steps(self) -> None:
        env = {**os.environ, "TQDM_DISABLE": "1",  # progress bars: one line a step instead
               PARENT_ENV: str(os.getpid()),
               "DATABASE_URL": child_url(self.engine.url).render_as_string(hide_password=False)}
        while not self._stop.is_set():
            with self.engine.connect() as conn:
                plan = read(conn)
            left = pending(plan)
            if plan is None or not left:
                return
            step = left[0]
            index = plan["Steps"].index(step)
            print(f"fill: {notice(plan, step)} (step {index + 1} of {len(plan['Steps'])}: "
                  f"python -m server {' '.join(step['Args'])})", file=self.out, flush=True)
            t0 = time.monotonic()
            with self._lock:
                if self._stop.is_set():
                    return
                child = self._child = subprocess.Popen(
                    [sys.executable, "-m", "server", *step["Args"]], cwd=ROOT, env=env,
                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            last = ""
            assert child.stderr is not None
            for line in child.stderr:  # the command's own lines, in the server's log
                if line.strip():
                    last = line.strip()
                    print(f"  fill | {last}", file=self.out, flush=True)
            code = child.wait()
            if self._stop.is_set():
                return
            if code != 0:
                last = last or f"exit {code}"
                # /health needs no key: it says which step, the log says why (paths and all)
                _fail(self.engine, f"step {index + 1} ({notice(plan, step)}) failed; the "
                      "server's log has its last line; the next start tries it again")
                log.error("fill stopped at step %d: %s", index + 1, last)
                print(f"fill stopped: {last} (the next start tries again)", file=self.out,
                      flush=True)
                return
            plan = _finish_step(self.engine, index, time.monotonic() - t0)
            if not pending(plan):
                print(f"fill: done, {len(plan['Steps'])} steps", file=self.out, flush=True)


def start(engine: sa.Engine) -> Filler | None:
    """A ``Filler`` running, when the store has a fill with steps left; else None."""
    with engine.connect() as conn:
        left = pending(read(conn))
    return Filler(engine).start() if left else None
