"""A background fill whose step fails: the API keeps answering, ``/health`` names the step that
failed (never its paths: it needs no key), the server's log has the command's own last line,
and the fill stays to do for the next start."""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import httpx

from server.jobs import fill
from server.store.engine import make_engine
from server.store.init import init_store
from tests.conftest import free_port, server_env, stop_server

ROOT = Path(__file__).resolve().parents[3]


def test_a_failed_step_is_reported_and_left_to_do(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'sports.db'}"
    engine = make_engine(url)
    init_store(engine)
    missing = tmp_path / "no-such-folder"
    fill.plan_fill(engine, [fill.Step(("ingest", "retrosheet", str(missing)), ("MLB",),
                                      "MLB 2030", unit="seasons")])
    port = free_port()
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "server", "serve", "--port", str(port)], cwd=ROOT,
            env=server_env(url), stdout=out, stderr=subprocess.STDOUT)
    try:
        report = None
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and not (report and report["Failure"]):
            try:
                report = httpx.get(f"http://127.0.0.1:{port}/health", timeout=5).json()["Fill"]
            except httpx.TransportError:
                pass
            time.sleep(0.2)
        assert report is not None and report["Failure"] is not None, "no failure reported"
        assert report["Failure"].startswith("step 1 (MLB 2030 loading) failed")
        assert str(tmp_path) not in report["Failure"]
        assert (report["State"], report["StepsDone"], report["Levels"]) == (
            "loading", 0, {"MLB": "MLB 2030 loading"})
        assert f"fill | error: no such file or folder: {missing}" in log.read_text()
    finally:
        stop_server(process)
    with engine.connect() as conn:
        assert len(fill.pending(fill.read(conn))) == 1  # the next start tries it again
    engine.dispose()
