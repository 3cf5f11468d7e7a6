"""The key gate's rate counters: in memory by default, shared through Redis when configured."""
from __future__ import annotations

import uuid

import pytest
from limits.storage import MemoryStorage

from server.http.auth import KeyGate, rate_storage
from server.errors import LevelForbidden, RateLimited
from server.keys import KeyGrant
from tests.conftest import MiniStore


def _exhaust(gate: KeyGate, name: str) -> RateLimited:
    grant = KeyGrant(1, None, 3)
    for _ in range(3):
        gate.admit(grant, name, "MLB")
    with pytest.raises(RateLimited) as caught:
        gate.admit(grant, name, "MLB")
    return caught.value


def test_memory_storage_by_default(mini_store: MiniStore, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REDIS_URL", raising=False)
    gate = KeyGate(mini_store.engine)
    assert isinstance(gate.storage, MemoryStorage)
    error = _exhaust(gate, "digest-a")
    assert 1 <= int(error.headers["Retry-After"]) <= 60
    with pytest.raises(LevelForbidden):
        gate.admit(KeyGrant(2, frozenset({"FC"}), 10), "digest-b", "MLB")


@pytest.mark.redis
def test_redis_storage_is_shared_between_gates(mini_store: MiniStore) -> None:
    url = "redis://127.0.0.1:6379/15"
    storage = rate_storage(url)
    if not storage.check():
        pytest.skip("Redis not reachable at 127.0.0.1:6379; Redis rate-limit test skipped")
    name = uuid.uuid4().hex
    first, second = KeyGate(mini_store.engine, storage), KeyGate(mini_store.engine,
                                                                 rate_storage(url))
    grant = KeyGrant(1, None, 3)
    for gate in (first, second, first):
        gate.admit(grant, name, "MLB")
    with pytest.raises(RateLimited):
        second.admit(grant, name, "MLB")
