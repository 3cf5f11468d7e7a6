"""Shared fixtures: a small real store, an API key, and a real server on loopback.

* ``mini_store`` (session): a store filled by ``tests.fixtures.minidata`` through the real
  loader; yields its URL, engine and the IDs tests refer to. A SQLite file in a temp dir, or,
  with ``SPORTS_TEST_DATABASE=postgres``, a fresh PostgreSQL database (``make test`` runs the
  store and HTTP tests both ways).
* ``api_key`` (session): a key issued against that store (generous rate).
* ``live_server`` (session): ``python -m server serve`` in a subprocess on a free loopback port,
  its output captured to a log file (tests read it to prove keys never reach logs).
* ``api`` (session): the live server as an ``ApiServer`` with the tests' key (``send`` for any status).
* ``store_url``, ``new_store``: a store of the test's own, on SQLite and on PostgreSQL (one
  test each): its address, or that store initialised and empty.
* ``php_binary``: the php-cli path, or a skip with one clear line.
* ``rscript_binary``: Rscript with jsonlite and xml2, or a skip with one clear line.
* ``demo_api`` (session): the small simulated demo (``demo --size small --seed 7`` and
  ``retabulate``) served by ``python -m server serve``, with a key; shared by the endpoint walk
  and the dashboard tests so it is built once.
* ``real_store`` (session): every real season of ../shared/data, Lahman, ratings and projections
  (``tests.real_store``), as a SQLite URL and a key; skipped when the data is absent.
* ``real_api`` (session): ``real_store`` served by ``python -m server serve``.
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from server import keys
from server.store.engine import make_engine
from server.store.init import init_store
from tests import real_store as real
from tests.demo_api import ApiServer, build_once, build_store, run_folder, serve
from tests.fixtures import minidata
from tests.pg import fresh_database

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class MiniStore:
    url: str
    engine: sa.Engine
    facts: dict[str, Any]
    path: Path


@dataclass
class LiveServer:
    base_url: str
    log_path: Path
    process: subprocess.Popen[bytes]

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def server_env(url: str, **extra: str) -> dict[str, str]:
    env = {**os.environ, "DATABASE_URL": url, **extra}
    env.pop("REDIS_URL", None)
    return env


def start_server(url: str, log_path: Path, workers: int = 1,
                 **env: str) -> tuple[subprocess.Popen[bytes], str]:
    """Run the real CLI's serve command; wait until /health answers (any status: a server on a
    broken store still answers, with 503)."""
    port = free_port()
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "server", "serve", "--host", "127.0.0.1", "--port", str(port),
             "--workers", str(workers), "--no-scheduler"],
            cwd=ROOT, env=server_env(url, **env), stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited early:\n{log_path.read_text()}")
        try:
            httpx.get(base + "/health", timeout=1)
            return process, base
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("server did not answer /health within 30 s")


def stop_server(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


ON_POSTGRES = os.environ.get("SPORTS_TEST_DATABASE", "sqlite") == "postgres"


@pytest.fixture(scope="session")
def mini_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MiniStore]:
    path = tmp_path_factory.mktemp("ministore") / "sports.db"
    if ON_POSTGRES:
        with fresh_database("sports_mini") as url:
            engine = make_engine(url)
            facts = minidata.build(engine)
            yield MiniStore(url, engine, facts, path)
            engine.dispose()
        return
    url = f"sqlite:///{path}"
    engine = make_engine(url)
    facts = minidata.build(engine)
    yield MiniStore(url, engine, facts, path)
    engine.dispose()


@pytest.fixture(scope="session")
def api_key(mini_store: MiniStore) -> str:
    return keys.issue(mini_store.engine, None, 1_000_000, "tests")


@pytest.fixture(scope="session")
def live_server(mini_store: MiniStore, tmp_path_factory: pytest.TempPathFactory
                ) -> Iterator[LiveServer]:
    log_path = tmp_path_factory.mktemp("serverlog") / "server.log"
    process, base = start_server(mini_store.url, log_path)
    yield LiveServer(base, log_path, process)
    stop_server(process)


@pytest.fixture(scope="session")
def api(live_server: LiveServer, api_key: str, mini_store: MiniStore) -> ApiServer:
    """The mini store's live server asked with the tests' key: ``get`` for answers that must
    succeed, ``send`` for the ones a test reads the status of."""
    return ApiServer(live_server.base_url, api_key, mini_store.url)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The address of a store of the test's own, once a SQLite file and once a fresh PostgreSQL
    database (marked ``postgres``; skipped with one line when PostgreSQL is absent)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'sports.db'}"
        return
    with fresh_database("sports_own") as url:
        yield url


@pytest.fixture()
def new_store(store_url: str) -> Iterator[sa.Engine]:
    """An empty store of the test's own (``store_url``: on each database), initialised."""
    engine = make_engine(store_url)
    init_store(engine)
    yield engine
    engine.dispose()


@pytest.fixture(scope="session")
def php_binary() -> str:
    php = shutil.which("php")
    if php is None:
        pytest.skip("php-cli not installed; php format round trip skipped")
    return php


@pytest.fixture(scope="session")
def rscript_binary() -> str:
    rscript = shutil.which("Rscript")
    has_packages = rscript is not None and subprocess.run(
        [rscript, "-e", "library(jsonlite); library(xml2)"], capture_output=True,
        check=False).returncode == 0
    if rscript is None or not has_packages:
        pytest.skip("Rscript with jsonlite and xml2 not installed; the R client script skipped")
    return rscript


@pytest.fixture(scope="session")
def demo_api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ApiServer]:
    """Built once per test run (pytest-xdist's workers share the store; each serves it)."""
    database_url, key = build_once(run_folder(tmp_path_factory, "demo-store"), build_store)
    env = {**os.environ, "DATABASE_URL": database_url}
    env.pop("REDIS_URL", None)
    store = Path(database_url.removeprefix("sqlite:///"))
    with serve(store, env, free_port()) as url:
        yield ApiServer(url=url, key=key, database_url=database_url)


@pytest.fixture(scope="session")
def real_store(tmp_path_factory: pytest.TempPathFactory) -> ApiServer:
    """The real-data store (no server: ``url`` is empty until ``real_api`` serves it). A store
    already built (``tests.real_store.build``) is reused when SPORTS_TEST_REAL_DATABASE names it
    and SPORTS_TEST_REAL_KEY holds its key."""
    if os.environ.get("SPORTS_TEST_REAL_DATABASE") and os.environ.get("SPORTS_TEST_REAL_KEY"):
        return ApiServer(url="", key=os.environ["SPORTS_TEST_REAL_KEY"],
                         database_url=os.environ["SPORTS_TEST_REAL_DATABASE"])
    if not real.available():
        pytest.skip("../shared/data is absent: the real-data store is not built")
    if os.environ.get(real.FOLDER_VARIABLE):  # make test: one store for both passes
        folder = Path(os.environ[real.FOLDER_VARIABLE])
    else:  # the first pytest-xdist worker to ask builds it
        folder = run_folder(tmp_path_factory, "real-store")
    database_url, key = real.ensure(folder)
    return ApiServer(url="", key=key, database_url=database_url)


@pytest.fixture(scope="session")
def real_api(real_store: ApiServer) -> Iterator[ApiServer]:
    env = {**os.environ, "DATABASE_URL": real_store.database_url}
    env.pop("REDIS_URL", None)
    store = Path(real_store.database_url.removeprefix("sqlite:///"))
    with serve(store, env, free_port()) as url:
        yield ApiServer(url=url, key=real_store.key, database_url=real_store.database_url)


SQLITE_ONLY = frozenset({"real_store", "real_api", "demo_api"})  # stores built as SQLite files


@pytest.hookimpl(trylast=True)  # after ``-m`` and ``-k`` have deselected what this run leaves out
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Order the files for ``make test``'s two workers, which take them in this order
    (``--dist loadfile --no-loadscope-reorder``), and start the real-data store's build.

    The longest files first, so neither worker is left with one at the end: those that drive a
    browser (the longest: 2-8 minutes), then the other slow ones, then the rest, most tests
    first; the files that read the real-data store last, so that its minutes of building, begun
    in the background as soon as a test needs it (``make test`` names its folder), pass while the
    workers run everything else. ``make test`` on a 2-core machine: the SQLite pass took 886 s in
    xdist's own order (most tests first: a worker waited 244 s for the store) and 826 s in this
    one; the PostgreSQL pass, which reuses the store, 157 s against 381 s; 16.6 against 22.5 min
    in all."""
    if ON_POSTGRES:  # the PostgreSQL pass: what reads a SQLite store whatever the pass is the
        # first pass's already (the real-data and demo stores are files; about 100 tests)
        kept = [item for item in items if not SQLITE_ONLY.intersection(item.fixturenames)]
        config.hook.pytest_deselected(items=[i for i in items if i not in kept])
        items[:] = kept
    folder = os.environ.get(real.FOLDER_VARIABLE)
    if folder and real.available() and any("real_store" in item.fixturenames for item in items):
        real.start_in_background(Path(folder))
    files: dict[Path, list[pytest.Item]] = {}
    for item in items:
        files.setdefault(item.path, []).append(item)

    def order(tests: list[pytest.Item]) -> tuple[int, int]:
        def marked(name: str) -> bool:
            return any(test.get_closest_marker(name) for test in tests)
        group = (3 if any("real_store" in test.fixturenames for test in tests)
                 else 0 if marked("browser") else 1 if marked("slow") else 2)
        return group, -len(tests)

    items[:] = [item for tests in sorted(files.values(), key=order) for item in tests]
