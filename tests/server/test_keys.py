"""Keys through the operator's CLI: issue, list, revoke; only a keyed hash is stored."""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

from server import keys
from server.store import schema
from server.store.engine import make_engine
from tests.conftest import ROOT, MiniStore, server_env
from tests.demo_api import ApiServer


def run_cli(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "server", "keys", *args], cwd=ROOT,
                          env=server_env(url), capture_output=True, text=True, timeout=60,
                          check=False)


@pytest.fixture()
def empty_store(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'keys.db'}"


def test_issue_prints_the_key_alone(empty_store: str) -> None:
    done = run_cli(empty_store, "issue", "--levels", "mlb,FC", "--rate", "60", "--label", "ops")
    assert done.returncode == 0, done.stderr
    key = done.stdout.strip()
    assert done.stdout == key + "\n" and keys.KEY_PATTERN.match(key)
    engine = make_engine(empty_store)
    with keys.key_store(engine).connect() as conn:
        row = conn.execute(sa.select(schema.api_keys)).mappings().one()
        dump = " ".join(str(v) for v in row.values())
    assert key not in dump and row["levels"] == "MLB,FC" and row["rate"] == 60
    assert len(row["key_hash"]) == 64 and row["hint"] == key[-2:]


def test_list_never_shows_keys(empty_store: str) -> None:
    issued = [run_cli(empty_store, "issue", "--label", f"k{n}").stdout.strip() for n in range(2)]
    done = run_cli(empty_store, "list")
    assert done.returncode == 0
    assert "k0" in done.stdout and "k1" in done.stdout and "600" in done.stdout
    assert all(key not in done.stdout for key in issued)


def test_bad_input_is_one_clear_line(empty_store: str) -> None:
    done = run_cli(empty_store, "issue", "--levels", "MLB,NOPE")
    assert done.returncode == 1 and done.stderr.strip().count("\n") == 0
    assert "NOPE" in done.stderr and "Traceback" not in done.stderr
    done = run_cli(empty_store, "revoke", "AAAA-BBBBBB")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    done = run_cli(empty_store, "revoke", "not-a-key")
    assert done.returncode == 1 and "Traceback" not in done.stderr


def test_revocation_takes_effect_at_once(api: ApiServer, mini_store: MiniStore) -> None:
    done = run_cli(mini_store.url, "issue", "--label", "short-lived")
    key = done.stdout.strip()
    for _ in range(3):  # the second and third are answered from the cached body
        assert api.send("/v1/teams/MLB/", key=key).status_code == 200
    assert run_cli(mini_store.url, "revoke", key).returncode == 0
    for path in ("/v1/teams/MLB/", "/v1/games/MLB/"):  # a cached body, and a fresh query
        response = api.send(path, key=key)
        assert response.status_code == 401 and response.json()["error"]["Code"] == "key_invalid"
    assert run_cli(mini_store.url, "revoke", key).returncode == 1  # already revoked


def test_last_used_is_recorded(api: ApiServer, mini_store: MiniStore) -> None:
    key = keys.issue(mini_store.engine, None, 100, "used")
    assert api.send("/v1/teams/MLB/", key=key).status_code == 200
    deadline = time.monotonic() + 10  # recorded off the request path, within moments
    while True:
        rows = {r["label"]: r for r in keys.list_keys(mini_store.engine)}
        if rows["used"]["last_used"] is not None or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert rows["used"]["last_used"] is not None


def test_secret_from_environment(monkeypatch: pytest.MonkeyPatch, empty_store: str) -> None:
    engine = make_engine(empty_store)
    monkeypatch.setenv("SPORTS_KEY_SECRET", "s3cret")
    key = keys.issue(engine)
    with keys.key_store(engine).connect() as conn:
        stored = conn.execute(sa.select(schema.api_keys.c.key_hash)).scalar()
        secret_rows = conn.execute(sa.select(schema.store_info.c.key)).scalars().all()
    assert stored == keys.key_hash(b"s3cret", key) and "key_secret" not in secret_rows
    assert not list(Path(str(engine.url.database)).parent.glob("*secret*"))
