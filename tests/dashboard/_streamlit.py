"""Start the dashboard under ``streamlit run`` on a free port (browser tests and the benchmark)."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[2]
STARTUP_SECONDS = 60
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


@contextmanager
def streamlit_server(script: str, port: int, env: dict[str, str]) -> Iterator[str]:
    """``streamlit run script`` on loopback; yields its base URL, stops it afterwards."""
    streamlit = str(Path(sys.executable).with_name("streamlit"))
    proc = subprocess.Popen(
        [streamlit, "run", script, "--server.port", str(port), "--server.address", "127.0.0.1",
         "--server.headless", "true", "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
        cwd=ROOT, env={**os.environ, **env}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            try:
                if requests.get(f"{url}/_stcore/health", timeout=1).text == "ok":
                    break
            except requests.RequestException:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError(f"streamlit did not start on port {port}")
            time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # a loaded machine: shutting its sessions down took longer
            proc.kill()
            proc.wait()
