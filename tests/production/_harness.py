"""Real processes for the production tests: stores, servers with any environment, the CLI.

``tests.conftest.start_server`` drops ``REDIS_URL`` on purpose (the shared tests stay in process);
these tests need it, and several workers, so they start ``python -m server serve`` themselves.
"""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

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
def serving(url: str, log_path: Path, workers: int = 1, scheduler: bool = False,
            **env: str) -> Iterator[Server]:
    """``python -m server serve`` in its own process group until the block ends (without its
    nightly scheduler unless ``scheduler``)."""
    port = free_port()
    opt_out = [] if scheduler else ["--no-scheduler"]
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "server", "serve", "--host", "127.0.0.1", "--port", str(port),
             "--workers", str(workers), *opt_out],
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


class RedisProcess:
    """A Redis of the test's own on a spare port (the machine's own stays up), no persistence:
    stopped, it forgets everything, as a crashed cache would."""

    def __init__(self, log_path: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("redis-server not installed; Redis outage tests skipped")
        self.binary = binary
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.log_path = log_path
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                 "--appendonly", "no", "--daemonize", "no"],
                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.02)
        raise RuntimeError(f"redis-server did not start:\n{self.log_path.read_text()[-2000:]}")

    def kill(self) -> None:
        """As a crash: SIGKILL, every connection cut at once."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(5)
        self.process = None


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(5)


class FreezableProxy:
    """A TCP proxy on a spare loopback port in front of ``host:port`` that can stop forwarding
    while every socket stays open: the host is alive, its TCP stack accepts and acknowledges,
    nothing answers (a stalled PostgreSQL behind a proxy, a network that drops the traffic).
    ``freeze`` holds every byte in both directions and every new connection; ``thaw`` lets
    them through again. A thread per direction of each connection; ``close`` ends them all."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.port = free_port()
        self._open = threading.Event()  # set while forwarding
        self._open.set()
        self._closed = threading.Event()
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._listener = socket.create_server(("127.0.0.1", self.port), backlog=256)
        threading.Thread(target=self._accept, daemon=True).start()

    def freeze(self) -> None:
        self._open.clear()

    def thaw(self) -> None:
        self._open.set()

    def _held(self, sock: socket.socket) -> socket.socket:
        with self._lock:
            self._sockets.append(sock)
        return sock

    def _accept(self) -> None:
        while not self._closed.is_set():
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            threading.Thread(target=self._connect, args=(self._held(client),),
                             daemon=True).start()

    def _connect(self, client: socket.socket) -> None:
        self._wait_open()
        try:
            upstream = self._held(socket.create_connection(self.target, timeout=10))
            upstream.settimeout(None)
        except OSError:
            client.close()
            return
        threading.Thread(target=self._pump, args=(client, upstream), daemon=True).start()
        self._pump(upstream, client)

    def _wait_open(self) -> None:
        while not self._open.wait(0.05):
            if self._closed.is_set():
                return

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                self._wait_open()  # frozen: the bytes wait here, the sockets stay open
                sink.sendall(data)
        except OSError:
            pass
        for sock in (source, sink):
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def close(self) -> None:
        self._closed.set()
        self._open.set()
        self._listener.close()
        with self._lock:
            for sock in self._sockets:
                sock.close()


def until(test: Callable[[], bool], seconds: float) -> float:
    """Seconds until ``test()`` held (polled every 50 ms); fails when ``seconds`` pass first."""
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        if test():
            return time.monotonic() - start
        time.sleep(0.05)
    raise AssertionError(f"not within {seconds} s")
