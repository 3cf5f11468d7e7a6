"""A real API on loopback over a small simulated store, for the dashboard's AppTest and browser tests.

The store is built once per session with the operator's own commands (contract section 7):
``init``, ``demo --size small --seed 7``, ``retabulate``, ``keys issue``, then ``serve``. An API
already running may be reused instead: set DASHBOARD_TEST_API_URL and DASHBOARD_TEST_API_KEY.
"""
from __future__ import annotations

import os
import socket
from collections.abc import Iterator

import pytest

from tests.dashboard._api import ApiServer, CommandFailed, CommandUnavailable, build_store, missing_commands, serve

__all__ = ["ApiServer", "free_port"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="session")
def api_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ApiServer]:
    if os.environ.get("DASHBOARD_TEST_API_URL") and os.environ.get("DASHBOARD_TEST_API_KEY"):
        yield ApiServer(os.environ["DASHBOARD_TEST_API_URL"], os.environ["DASHBOARD_TEST_API_KEY"], "")
        return
    missing = missing_commands()
    if missing:
        pytest.skip(f"dashboard tests need `python -m server {', '.join(missing)}`, not available yet")
    store = tmp_path_factory.mktemp("dashboard-store") / "sports.db"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{store}"}
    try:
        key = build_store(store, env)
        with serve(store, env, free_port()) as url:
            yield ApiServer(url=url, key=key, database_url=env["DATABASE_URL"])
    except CommandUnavailable as err:
        pytest.skip(str(err))
    except CommandFailed as err:
        pytest.fail(str(err))


@pytest.fixture()
def dashboard_env(api_server: ApiServer, monkeypatch: pytest.MonkeyPatch) -> ApiServer:
    """Point the dashboard at the test API (the environment wins over secrets.toml)."""
    from services import clear_cache

    monkeypatch.setenv("SPORTS_API_URL", api_server.url)
    monkeypatch.setenv("SPORTS_API_KEY", api_server.key)
    clear_cache()
    return api_server
