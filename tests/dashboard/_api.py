"""Build a small simulated store and serve it on loopback, with the operator's own commands."""
from __future__ import annotations

import importlib.util
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[2]
SEED = "7"
STARTUP_SECONDS = 60
# the modules behind the commands used here (server/cli.py imports them only when they run)
COMMAND_MODULES = {
    "init": "server.store.init", "demo": "server.ingest.simulator", "retabulate": "server.jobs.retabulate",
    "keys issue": "server.keys", "serve": "server.http.serve",
}


class CommandUnavailable(RuntimeError):
    """A ``python -m server`` command is not written yet."""


class CommandFailed(RuntimeError):
    """A ``python -m server`` command exited non-zero."""


@dataclass(frozen=True)
class ApiServer:
    url: str
    key: str
    database_url: str


def missing_commands() -> list[str]:
    missing = []
    for command, module in COMMAND_MODULES.items():
        try:
            found = importlib.util.find_spec(module) is not None
        except ModuleNotFoundError:
            found = False
        if not found:
            missing.append(command)
    return missing


def run_server_command(args: list[str], env: dict[str, str]) -> str:
    done = subprocess.run([sys.executable, "-m", "server", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=900, check=False)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
        if "has no attribute 'cli'" in done.stderr or "No module named" in done.stderr:
            raise CommandUnavailable(f"`python -m server {' '.join(args)}` is not available yet: {last}")
        raise CommandFailed(f"`python -m server {' '.join(args)}` failed: {last}")
    return done.stdout


def build_store(store: Path, env: dict[str, str]) -> str:
    """init + demo (small, seed 7) + retabulate; returns a freshly issued key."""
    for args in (["init"], ["demo", "--size", "small", "--seed", SEED], ["retabulate"]):
        run_server_command(args, env)
    return run_server_command(["keys", "issue", "--label", "dashboard-tests"], env).strip().splitlines()[-1].strip()


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
            [sys.executable, "-m", "server", "serve", "--host", "127.0.0.1", "--port", str(port)],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            wait_until_up(f"{url}/health")
            yield url
        finally:
            proc.terminate()
            proc.wait(timeout=10)
