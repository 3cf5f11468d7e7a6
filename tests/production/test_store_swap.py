"""A SQLite store replaced or deleted under a running server (issue 28, part 5): within a
second every request and /health answer 503 saying so (and what helps) (never the old file's data, and a key
revoked in the new file never answers 200), and the store serves again once its file is back."""
from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

import httpx
import pytest

from server import keys
from server.errors import STORE_REPLACED
from server.store import keystore
from server.store.engine import make_engine
from tests.production._harness import issue_key, serving
from tests.production.conftest import mini_store_at, wants_postgres

pytestmark = pytest.mark.skipif(wants_postgres(), reason="a SQLite store's file is replaced")


def _backup(source: Path, target: Path) -> None:
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)


def _until(check: object, seconds: float = 1.0) -> float | None:
    """Seconds until ``check()`` holds, None if it never did within ``seconds``."""
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        if check():  # type: ignore[operator]
            return time.monotonic() - started
        time.sleep(0.02)
    return None


def test_replaced_store_is_served_and_a_missing_one_refused(tmp_path: Path) -> None:
    with mini_store_at(tmp_path / "live", postgres=False) as store:
        path = Path(str(store.engine.url.database))
        key = issue_key(store.url)
        with serving(store.url, tmp_path / "server.log") as server, \
                httpx.Client(base_url=server.base_url, timeout=30) as client:
            def status(p: str = "/v1/teams/MLB/") -> int:
                return client.get(p, params={"key": key}).status_code

            assert status() == 200 and status() == 200  # the second from the cached body
            # a restored copy in which the key is revoked, moved over the live files
            spare = tmp_path / "spare"
            spare.mkdir()
            for name in (path.name, keystore.keys_path(path).name):
                _backup(path.parent / name, spare / name)
            os.link(keystore.secret_path(path), keystore.secret_path(spare / path.name))
            restored = make_engine(f"sqlite:///{spare / path.name}")
            assert keys.revoke(restored, key)
            keys.key_store(restored).dispose()  # its last connection checkpoints the WAL
            restored.dispose()
            for name in (path.name, keystore.keys_path(path).name):
                os.replace(spare / name, path.parent / name)
            assert _until(lambda: status() == 503) is not None, "the old file is still served"
            answer = client.get("/v1/games/MLB/", params={"key": key})
            assert answer.status_code == 503 and answer.json()["error"]["Code"] == "unavailable"
            # it says what happened and what will help: no "try again shortly", no Retry-After
            assert answer.json()["error"]["Message"] == STORE_REPLACED, answer.text
            assert "retry-after" not in answer.headers
            # each file is looked at every IDENTITY_EVERY: the keys file may be seen replaced
            # (the 503s above) a moment before the store's, so /health has its second too
            assert _until(lambda: client.get("/health").status_code == 503) is not None
            assert status() == 503
    with mini_store_at(tmp_path / "other", postgres=False) as store:
        path = Path(str(store.engine.url.database))
        with serving(store.url, tmp_path / "deleted.log") as server, \
                httpx.Client(base_url=server.base_url, timeout=30) as client:
            # the store file gone: refused, then served again once it is back
            fresh = issue_key(store.url)
            assert client.get("/v1/teams/MLB/", params={"key": fresh}).status_code == 200
            os.replace(path, tmp_path / "away.db")
            assert _until(lambda: client.get("/health").status_code == 503) is not None
            assert client.get("/v1/games/MLB/", params={"key": fresh}).status_code == 503
            os.replace(tmp_path / "away.db", path)
            assert _until(lambda: client.get("/health").status_code == 200) is not None
            assert client.get("/v1/games/MLB/", params={"key": fresh}).status_code == 200
        assert "was deleted" in server.log() and "Traceback" not in server.log()
        # a store fault is logged with its cause, not a bare type name
        assert f"store fault: OperationalError: {STORE_REPLACED}" in server.log()
    assert "was replaced" in (tmp_path / "server.log").read_text()
