"""The demo is a living product at every level: every endpoint, at every level it serves, finds
records in the small simulated store (playbyplay with a filter, stats with a stat code)."""
from __future__ import annotations

from typing import Any

import httpx
import pytest

from server.endpoints.registry import ENDPOINTS, served_levels
from tests.demo_api import ApiServer

WALK = [(ep.name, level) for ep in ENDPOINTS for level in served_levels(ep)]
EXTRA: dict[str, dict[str, str]] = {
    "playbyplay": {"start": "1900-01-01"},  # a filter is required; this one keeps everything
    "pitch": {"start": "1900-01-01"},
}


def _path(api: ApiServer, name: str, level: str, kind: str | None = None) -> str:
    version = next(ep.version for ep in ENDPOINTS if ep.name == name)
    return f"{api.url}/{version}/{name}/{level}/" + (f"{kind}/" if kind else "")


def _player_stat(client: httpx.Client, api: ApiServer, level: str) -> str:
    rows = client.get(_path(api, "glossary", level, "stats"), params={"key": api.key}).json()
    return str(next(r["Code"] for r in rows["glossary"] if r["Type"] == "player"))


@pytest.fixture(scope="module")
def client() -> Any:
    with httpx.Client(timeout=60) as c:
        yield c


@pytest.mark.parametrize(("name", "level"), WALK, ids=[f"{n}-{lv}" for n, lv in WALK])
def test_endpoint_finds_records_at_every_level_it_serves(
        name: str, level: str, demo_api: ApiServer, client: httpx.Client) -> None:
    params = {"key": demo_api.key, "max": "5", **EXTRA.get(name, {})}
    kind = None
    if name == "glossary":
        kind = "levels"
    elif name == "stats":
        kind, params["stat"] = "player", _player_stat(client, demo_api, level)
    elif name == "winprob":  # one game's line: the level's newest play names its game
        plays = client.get(_path(demo_api, "playbyplay", level),
                           params={"key": demo_api.key, "max": "1", "start": "1900-01-01"}).json()
        params["game"] = plays["playbyplay"][0]["game"]["Game_ID"]
    response = client.get(_path(demo_api, name, level, kind), params=params)
    assert response.status_code == 200, response.text
    doc = response.json()
    assert doc["meta"]["Total_Results"] > 0 and doc[name], f"{name} at {level} has no records"
