"""Real processes for the production tests: stores, servers with any environment, the CLI.

``tests.conftest.start_server`` drops ``REDIS_URL`` on purpose (the shared tests stay in process);
these tests need it, and several workers, so they start ``python -m server serve`` themselves.
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 30.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def env_for(url: str, **extra: str) -> dict[str, str]:
    """The child's environment: this store, no Redis unless asked for, no stray secret."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "SPORTS_KEY_SECRET")}
    env.update({"DATABASE_URL": url, "PYTHONUNBUFFERED": "1", **extra})
    return env


def cli(url: str, *args: str, **env: str) -> str:
    """Run ``python -m server ARGS`` to completion; its stdout (fails loudly on a non-zero exit)."""
    done = subprocess.run([sys.executable, "-m", "server", *args], cwd=ROOT, env=env_for(url, **env),
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, f"server {' '.join(args)} failed: {done.stderr[-2000:]}"
    return done.stdout


def issue_key(url: str, rate: int = 1_000_000, levels: str | None = None) -> str:
    args = ["keys", "issue", "--rate", str(rate), "--label", "production-tests"]
    if levels:
        args += ["--levels", levels]
    return cli(url, *args).strip()


@dataclass
class Server:
    base_url: str
    process: subprocess.Popen[bytes]
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


@contextmanager
def serving(url: str, log_path: Path, workers: int = 1, **env: str) -> Iterator[Server]:
    """``python -m server serve`` in its own process group until the block ends."""
    port = free_port()
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "server", "serve", "--host", "127.0.0.1", "--port", str(port),
             "--workers", str(workers), "--no-scheduler"],
            cwd=ROOT, env=env_for(url, **env), stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True)
    server = Server(f"http://127.0.0.1:{port}", process, log_path)
    try:
        _wait_ready(server, workers)
        yield server
    finally:
        _stop(process)


def _wait_ready(server: Server, workers: int) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"server exited early:\n{server.log()[-3000:]}")
        try:
            httpx.get(server.base_url + "/health", timeout=2)
        except httpx.TransportError:
            time.sleep(0.1)
            continue
        # With several workers, wait until each has logged its start-up.
        if server.log().count("Application startup complete") >= workers:
            return
        time.sleep(0.1)
    raise RuntimeError(f"server not ready within {START_SECONDS} s:\n{server.log()[-3000:]}")


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(5)
