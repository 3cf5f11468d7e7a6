"""The dashboard's AppTest and browser tests run against the session's real demo API
(``demo_api`` in tests/conftest.py). An API already running may be reused instead: set
DASHBOARD_TEST_API_URL and DASHBOARD_TEST_API_KEY."""
from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import free_port
from tests.demo_api import ApiServer

__all__ = ["ApiServer", "free_port", "point_services_at"]


@pytest.fixture(scope="session")
def api_server(request: pytest.FixtureRequest) -> ApiServer:
    if os.environ.get("DASHBOARD_TEST_API_URL") and os.environ.get("DASHBOARD_TEST_API_KEY"):
        return ApiServer(os.environ["DASHBOARD_TEST_API_URL"], os.environ["DASHBOARD_TEST_API_KEY"], "")
    demo: ApiServer = request.getfixturevalue("demo_api")
    return demo


def point_services_at(server: ApiServer, monkeypatch: pytest.MonkeyPatch) -> ApiServer:
    """Point the dashboard's services at ``server`` (the environment wins over secrets.toml)."""
    from services import clear_cache

    monkeypatch.setenv("SPORTS_API_URL", server.url)
    monkeypatch.setenv("SPORTS_API_KEY", server.key)
    clear_cache()
    return server


@pytest.fixture()
def dashboard_env(api_server: ApiServer, monkeypatch: pytest.MonkeyPatch) -> ApiServer:
    """The dashboard's services pointed at the test API."""
    return point_services_at(api_server, monkeypatch)


@contextmanager
def dashboard_over(server: ApiServer) -> Iterator[str]:
    """The dashboard served over ``server``'s API, for browser tests (skipped without chromium)."""
    from tests.dashboard._streamlit import CHROMIUM, streamlit_server

    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is absent: apt-get install -y chromium")
    env = {"SPORTS_API_URL": server.url, "SPORTS_API_KEY": server.key}
    with streamlit_server("app.py", free_port(), env) as url:
        yield url


@contextmanager
def chromium_browser() -> Iterator[Any]:
    """Debian's chromium driven by playwright."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    from tests.dashboard._streamlit import CHROMIUM, CHROMIUM_ARGS

    with playwright_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def dashboard(api_server: ApiServer) -> Iterator[str]:
    """The dashboard served over the demo API, for the browser tests of one module."""
    with dashboard_over(api_server) as url:
        yield url


@pytest.fixture(scope="module")
def browser(dashboard: str) -> Iterator[Any]:
    """Debian's chromium, open while the module's tests run."""
    with chromium_browser() as chromium:
        yield chromium


@pytest.fixture(scope="session")
def beacon() -> Iterator[Any]:
    """A local HTTP server counting the requests a page makes to it (``tests.fixtures.hostile``)."""
    from tests.fixtures.hostile import Beacon

    server = Beacon()
    yield server
    server.close()


@pytest.fixture(scope="session")
def hostile_api(beacon: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ApiServer]:
    """A store of hostile names (``tests.fixtures.hostile``) loaded through the generic feed,
    served by ``python -m server serve``."""
    from tests.demo_api import serve
    from tests.fixtures import hostile

    folder = tmp_path_factory.mktemp("hostile-store")
    store = folder / "sports.db"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{store}"}
    env.pop("REDIS_URL", None)
    key = hostile.build_store(folder, beacon.url, env)
    with serve(store, env, free_port()) as url:
        yield ApiServer(url=url, key=key, database_url=env["DATABASE_URL"])
