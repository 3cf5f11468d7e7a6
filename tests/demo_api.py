"""The small demo store, built and served with the operator's own commands (docs/operations.md):
``init``, ``demo --size small --seed 7``, ``retabulate``, ``projections`` (completed seasons,
then the newest days), ``keys issue``, then ``serve``."""
from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import requests

ROOT = Path(__file__).resolve().parents[1]
SEED = "7"
STARTUP_SECONDS = 60
class CommandFailed(RuntimeError):
    """A ``python -m server`` command exited non-zero."""


@dataclass(frozen=True)
class ApiServer:
    """A store served on loopback (``url``; empty while only built) and a key it issued."""

    url: str
    key: str
    database_url: str

    def send(self, path: str, params: dict[str, Any] | None = None, *,
             headers: dict[str, str] | None = None, key: str | None = None) -> httpx.Response:
        """``GET path`` as a client sends it, whatever the answer: tests of errors, headers and
        keys read the status themselves. ``key`` replaces this key in the query (``""`` sends
        none); a ``path`` with its own query string or a whole link is sent as written. The one
        place the tests speak HTTP to a served store. Two minutes: a season of real plays can
        take that with the other suites running."""
        query = {} if key == "" else {"key": self.key if key is None else key}
        query.update(params or {})
        address = path if path.startswith("http") else f"{self.url}{path}"
        return httpx.get(address, params=query or None, headers=headers, timeout=120)

    def get(self, path: str, *, expect: int = 200, keyed: bool = True, **params: Any) -> httpx.Response:
        """``GET path`` with this key and ``params``, as a client asks; the status must be
        ``expect`` (the body in the failure), so tests differ only in what they ask.
        ``keyed=False`` sends no key in the query: a v3 address carries it in its path, and
        ``/health`` needs none."""
        return self._checked(self.send(path, params, key=None if keyed else ""), expect)

    def follow(self, link: str, *, expect: int = 200) -> httpx.Response:
        """``GET`` a link the API gave (``Next_Page``, v3's ``page-next``) as it is: it carries
        its whole query, the key included."""
        return self._checked(self.send(link, key=""), expect)

    @staticmethod
    def _checked(response: httpx.Response, expect: int) -> httpx.Response:
        assert response.status_code == expect, response.text
        return response

    def get_json(self, path: str, *, expect: int = 200, keyed: bool = True, **params: Any) -> Any:
        """The JSON document ``get`` answers."""
        return self.get(path, expect=expect, keyed=keyed, **params).json()


def run_server_command(args: list[str], env: dict[str, str]) -> str:
    done = subprocess.run([sys.executable, "-m", "server", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=900, check=False)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
        raise CommandFailed(f"`python -m server {' '.join(args)}` failed: {last}")
    return done.stdout


TEST_RATE = "100000"  # requests per minute


def build_store(env: dict[str, str]) -> str:
    """init + demo (small, seed 7) + retabulate + projections into the store ``env``'s
    DATABASE_URL names; returns a freshly issued key."""
    for args in (["init"], ["demo", "--size", "small", "--seed", SEED], ["retabulate"],
                 ["projections", "--history"], ["projections"]):
        run_server_command(args, env)
    # the suites render hundreds of pages a minute, each a dozen requests: far above an analyst's
    # rate, which the key tests check with keys of their own
    issued = run_server_command(["keys", "issue", "--label", "dashboard-tests", "--rate", TEST_RATE], env)
    return issued.strip().splitlines()[-1].strip()


def build_once(folder: Path, build: Callable[[dict[str, str]], str]) -> tuple[str, str]:
    """The SQLite store in ``folder`` as (database URL, key), filled by ``build`` (which returns
    a key) for the first process to ask; the others, pytest-xdist's other worker included, wait
    on its lock until it is whole and then share it. A build that failed left no key, so the
    next to ask builds again and reports the failing command."""
    folder.mkdir(parents=True, exist_ok=True)
    store, key_file = folder / "sports.db", folder / "key"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{store}"}
    env.pop("REDIS_URL", None)
    with (folder / "build.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not key_file.exists():
            key_file.write_text(build(env))
    return env["DATABASE_URL"], key_file.read_text()


def run_folder(tmp_path_factory: pytest.TempPathFactory, name: str) -> Path:
    """``name`` in the test run's own temporary folder: the one pytest-xdist's workers share
    (each worker's base folder is a child of it), or the session's without xdist."""
    base = tmp_path_factory.getbasetemp()
    return (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / name


def wait_until_up(url: str, seconds: float = STARTUP_SECONDS) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if requests.get(url, timeout=1).status_code < 500:
                return
        except requests.RequestException:
            time.sleep(0.2)
    raise CommandFailed(f"{url} did not answer within {seconds} s")


@contextmanager
def serve(store: Path, env: dict[str, str], port: int) -> Iterator[str]:
    with open(store.with_suffix(".log"), "w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "server", "serve", "--host", "127.0.0.1", "--port", str(port),
             "--no-scheduler"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            wait_until_up(f"{url}/health")
            yield url
        finally:
            proc.terminate()
            proc.wait(timeout=10)
