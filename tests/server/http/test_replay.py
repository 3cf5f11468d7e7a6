"""A repeated address is answered from its cached body: the same bytes and headers, the key still
checked and counted, and nothing stale once the store has changed."""
from __future__ import annotations

import time
from collections.abc import Callable

import pytest
import sqlalchemy as sa

from server import keys
from server.store import schema
from server.store.loader import loading
from tests.conftest import MiniStore
from tests.demo_api import ApiServer

HEADERS = ("content-type", "content-length", "etag", "cache-control")


@pytest.mark.parametrize("fmt", ("json", "xml", "php"))
def test_repeat_is_the_same_answer(api: ApiServer, fmt: str) -> None:
    query = {"season": 2024, "max": 5, "format": fmt}
    first, again = api.send("/v1/games/MLB/", query), api.send("/v1/games/MLB/", query)
    assert first.status_code == again.status_code == 200
    assert again.content == first.content
    assert [again.headers[h] for h in HEADERS] == [first.headers[h] for h in HEADERS]
    kept = api.send("/v1/games/MLB/", query, headers={"If-None-Match": first.headers["etag"]})
    assert kept.status_code == 304 and kept.content == b""
    assert kept.headers["etag"] == first.headers["etag"]


def test_repeat_counts_against_the_rate(api: ApiServer, mini_store: MiniStore) -> None:
    key = keys.issue(mini_store.engine, None, 3, "repeats")
    statuses = [api.send("/v1/seasons/MLB/", {"format": "xml"}, key=key) for _ in range(4)]
    assert [r.status_code for r in statuses] == [200, 200, 200, 429]
    refused = statuses[-1]
    assert refused.headers["content-type"].startswith("application/xml")
    assert b"<Code>rate_limited</Code>" in refused.content
    assert 1 <= int(refused.headers["retry-after"]) <= 60


def test_repeat_answers_only_its_own_key(api: ApiServer, mini_store: MiniStore) -> None:
    scoped = keys.issue(mini_store.engine, "FC", 100, "fc only")
    assert api.send("/v1/teams/MLB/").status_code == 200
    assert api.send("/v1/teams/MLB/").status_code == 200  # kept for the key that asked
    refused = api.send("/v1/teams/MLB/", key=scoped)
    assert refused.status_code == 403 and refused.json()["error"]["Code"] == "level_forbidden"


CHANGE_SERVED_WITHIN_PG = 1.0  # seconds


def test_a_store_change_is_served_at_once(api: ApiServer, mini_store: MiniStore) -> None:
    team = mini_store.facts["mlb_teams"][0]
    t = schema.teams.c

    def names() -> list[str]:
        return [r["Name"] for r in api.send("/v1/teams/MLB/").json()["teams"]]

    def rename(name: str) -> str:
        with loading(mini_store.engine, "test") as loader:  # as every ingest writes
            before = loader.conn.execute(sa.select(t.name).where(t.id == team)).scalar_one()
            loader.conn.execute(schema.teams.update().where(t.id == team).values(name=name))
        return str(before)

    def served_within(seconds: float, wanted: Callable[[list[str]], bool]) -> list[str]:
        """The names once ``wanted`` holds, asked until ``seconds`` have passed."""
        deadline = time.monotonic() + seconds
        shown = names()
        while not wanted(shown) and time.monotonic() < deadline:
            time.sleep(0.02)
            shown = names()
        return shown

    # the promise (README, "Cached answers"): on SQLite the very next request; on PostgreSQL, whose
    # announcement of a commit reaches each worker asynchronously, within a second
    within = 0.0 if mini_store.url.startswith("sqlite") else CHANGE_SERVED_WITHIN_PG
    old = names()
    assert old == names()  # kept and answered again
    before = rename("Renamed Club")
    try:
        shown = served_within(within, lambda n: "Renamed Club" in n)
        assert "Renamed Club" in shown and before not in shown, shown
    finally:
        rename(before)
    assert served_within(within, lambda n: n == old) == old
