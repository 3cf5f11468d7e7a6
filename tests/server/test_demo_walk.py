"""The demo is a living product at every level: every endpoint, at every level it serves, finds
records in the small simulated store (playbyplay with a filter, stats with a stat code)."""
from __future__ import annotations

import pytest

from server.endpoints.registry import ENDPOINTS, served_levels
from tests.demo_api import ApiServer

WALK = [(ep.name, level) for ep in ENDPOINTS for level in served_levels(ep)]
EXTRA: dict[str, dict[str, str]] = {
    "playbyplay": {"start": "1900-01-01"},  # a filter is required; this one keeps everything
    "pitch": {"start": "1900-01-01"},
}


def _path(name: str, level: str, kind: str | None = None) -> str:
    version = next(ep.version for ep in ENDPOINTS if ep.name == name)
    return f"/{version}/{name}/{level}/" + (f"{kind}/" if kind else "")


def _player_stat(api: ApiServer, level: str) -> str:
    rows = api.get_json(_path("glossary", level, "stats"))
    return str(next(r["Code"] for r in rows["glossary"] if r["Type"] == "player"))


@pytest.mark.parametrize(("name", "level"), WALK, ids=[f"{n}-{lv}" for n, lv in WALK])
def test_endpoint_finds_records_at_every_level_it_serves(name: str, level: str, demo_api: ApiServer) -> None:
    params = {"max": "5", **EXTRA.get(name, {})}
    kind = None
    if name == "glossary":
        kind = "levels"
    elif name == "stats":
        kind, params["stat"] = "player", _player_stat(demo_api, level)
    elif name == "winprob":  # one game's line: the level's newest play names its game
        plays = demo_api.get_json(_path("playbyplay", level), max="1", start="1900-01-01")
        params["game"] = plays["playbyplay"][0]["game"]["Game_ID"]
    doc = demo_api.get_json(_path(name, level, kind), **params)
    assert doc["meta"]["Total_Results"] > 0 and doc[name], f"{name} at {level} has no records"
