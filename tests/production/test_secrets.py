"""Secrets and what an outsider can see (issue 28, part 4), through the real CLI and server.

A store made by the previous version (its keys and the secret inside the store file) keeps its
keys working while the secret moves out to a 0600 file; every file the service makes is 0600;
``keys list`` shows at most two characters of a key; a key never reaches the access log however
its parameter name is spelt; links in documents never come from the ``Host`` header.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import http.client
import re
import stat
import time
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
import sqlalchemy as sa

from scripts.run import write_secrets
from server.store import schema
from tests.production._harness import cli, issue_key, serving
from tests.production.conftest import mini_store_at, wants_postgres

pytestmark = pytest.mark.skipif(
    wants_postgres(), reason="files beside a SQLite store; the log and links are checked in the SQLite pass")

OLD_SECRET = "9f" * 32
OLD_KEY = "Abcd-EFgh12"


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _siblings(store: Path) -> list[Path]:
    return sorted(p for p in store.parent.iterdir() if p.name.startswith(store.stem))


def test_store_of_the_previous_layout_moves_its_secret_out_and_keeps_its_keys(
        tmp_path: Path) -> None:
    with mini_store_at(tmp_path, postgres=False) as store:
        path = Path(str(store.engine.url.database))
        with store.engine.begin() as conn:  # as the previous version kept them
            conn.execute(schema.store_info.insert().values(key="key_secret", value=OLD_SECRET))
            conn.execute(schema.api_keys.insert().values(
                key_hash=hmac.new(OLD_SECRET.encode(), OLD_KEY.encode(),
                                  hashlib.sha256).hexdigest(),
                hint=OLD_KEY[-3:], label="issued before", levels="*", rate=1000,
                created=dt.datetime(2025, 1, 1)))
        path.chmod(0o644)
        listing = cli(store.url, "keys", "list")
        assert "issued before" in listing and OLD_KEY[-3:] not in listing
        assert re.search(r"\.\.\.\S{1,2}\s*$", listing.splitlines()[-1]), listing
        with serving(store.url, tmp_path / "server.log") as server:
            answer = httpx.get(server.base_url + "/v1/teams/MLB/", params={"key": OLD_KEY},
                               timeout=30)
            assert answer.status_code == 200, answer.text[:300]
        with sa.create_engine(f"sqlite:///{path}").connect() as conn:
            kept = conn.execute(sa.select(schema.store_info.c.key)).scalars().all()
        assert "key_secret" not in kept
        secret = path.with_name(path.stem + ".key-secret")
        assert secret.read_text().strip() == OLD_SECRET and _mode(secret) == 0o600
        # the key still works once the secret lives only in its file
        cli(store.url, "keys", "revoke", OLD_KEY)


def test_every_file_of_a_new_store_is_private(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'data' / 'sports.db'}"
    cli(url, "init")
    key = issue_key(url)
    with serving(url, tmp_path / "server.log") as server:
        assert httpx.get(server.base_url + "/v1/teams/MLB/", params={"key": key},
                         timeout=30).status_code in (200, 406, 404, 400)
        files = _siblings(tmp_path / "data" / "sports.db")
        names = {p.name for p in files}
        assert {"sports.db", "sports.keys.db", "sports.key-secret"} <= names, names
        assert {p.name: _mode(p) for p in files} == {p.name: 0o600 for p in files}
    secrets_toml = tmp_path / ".streamlit" / "secrets.toml"
    secrets_toml.parent.mkdir()
    secrets_toml.write_text("old")
    secrets_toml.chmod(0o644)
    write_secrets(secrets_toml, "http://127.0.0.1:8765", key)
    assert _mode(secrets_toml) == 0o600 and key in secrets_toml.read_text()


@pytest.fixture(scope="module")
def mini(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    with mini_store_at(tmp_path_factory.mktemp("secrets"), postgres=False) as store:
        yield store


ENCODED_NAMES = ("k%65y", "%6Bey", "ke%79", "%6B%65%79", "KEY", "%E2%84%AAey")


def test_key_never_logged_however_its_name_is_spelt(mini, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    key = issue_key(mini.url)
    with serving(mini.url, tmp_path / "server.log") as server:
        with httpx.Client(base_url=server.base_url, timeout=30) as client:
            served = client.get(f"/v1/teams/MLB/?k%65y={key}")
            assert served.status_code == 200  # the service reads it as the key
            for name in ENCODED_NAMES:
                for path in ("/v1/teams/MLB/", "/v1/nothing/MLB/", "/natstat/v1/teams/MLB/"):
                    client.get(f"{path}?{name}={key}&max=1")
        time.sleep(0.5)  # the access log flushed
        log = server.log()
    assert log.count("GET /v1/teams/MLB/?") >= len(ENCODED_NAMES), log[-2000:]
    assert key not in log and key.replace("-", "%2D") not in log


def _raw(base: str, target: str, host: str) -> str:
    parts = urlsplit(base)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=30)
    try:
        conn.request("GET", target, headers={"Host": host})
        return conn.getresponse().read().decode()
    finally:
        conn.close()


def test_links_never_come_from_the_host_header(mini, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    key = issue_key(mini.url)
    paths = ("/v1/games/MLB/?max=1&format=json", "/natstat/v1/games/MLB/?max=1&format=json",
             "/v1/games/MLB/?max=1&format=xml")
    with serving(mini.url, tmp_path / "bound.log") as server:
        for path in paths:
            body = _raw(server.base_url, f"{path}&key={key}", "evil.example")
            assert "page=2" in body and "evil.example" not in body, body[:400]
            assert server.base_url + path.split("?")[0] in body.replace("\\/", "/")
    with serving(mini.url, tmp_path / "public.log",
                 SPORTS_PUBLIC_URL="https://api.example.org") as server:
        for path in paths:
            body = _raw(server.base_url, f"{path}&key={key}", "evil.example")
            assert "evil.example" not in body
            assert "https://api.example.org" + path.split("?")[0] in body.replace("\\/", "/")
