"""Splits served from the pass's own store (SQLite, then PostgreSQL: ``make test`` runs
tests/server/http on both), asked as a client would: a player's and a team's season divided by
home and away, by month and by phase is the game lines it divides, summed, and its rates are the
part's own (the real-data splits are tests/server/endpoints/test_splits.py)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.conftest import MiniStore
from tests.demo_api import ApiServer

SEASON = 2024
CODES = ("R", "H", "HR", "AB")


def _get(api: ApiServer, endpoint: str, **params: Any) -> dict[str, Any]:
    response = api.send(f"/v1/{endpoint}/MLB/", {"season": SEASON, **params})
    assert response.status_code == 200, response.text
    doc: dict[str, Any] = response.json()
    return doc


def _game_lines(api: ApiServer, endpoint: str, who: dict[str, int]) -> list[dict[str, Any]]:
    lines: list[dict[str, Any]] = []
    page = 1
    while True:
        doc = _get(api, endpoint, max=1000, page=page, **who)
        lines += doc[endpoint]
        if page >= doc["meta"]["Total_Pages"]:
            return lines
        page += 1


def _summed(lines: list[dict[str, Any]]) -> dict[str, Any]:
    return {"G": len(lines), **{code: sum(line[code] or 0 for line in lines) for code in CODES}}


PARTS: dict[str, Callable[[dict[str, Any]], str]] = {
    "homeaway": lambda line: {"Y": "home", "N": "away"}[line["Home"]],
    "month": lambda line: str(line["GameDay"])[:7],
    "phase": lambda line: "regular",  # the store's MLB 2024 games are all regular-season games
}


@pytest.mark.parametrize("split", list(PARTS))
@pytest.mark.parametrize("endpoint,who", [("playerperfs", "player"), ("teamperfs", "team")])
def test_a_split_is_the_game_lines_it_divides_summed(api: ApiServer, mini_store: MiniStore, endpoint: str,
                                                      who: str, split: str) -> None:
    entity = mini_store.facts["players"][0] if who == "player" else mini_store.facts["mlb_teams"][0]
    lines = _game_lines(api, endpoint, {who: entity})
    assert len(lines) >= 5, "a season of games to divide"
    parts = _get(api, endpoint, split=split, **{who: entity})[endpoint]
    place = PARTS[split]
    expected = sorted({place(line) for line in lines}, key=lambda v: (v != "home", v))
    assert [p["Value"] for p in parts] == expected, "each part once, in the split's order"
    for part in parts:
        mine = [line for line in lines if place(line) == part["Value"]]
        assert {k: part[k] for k in ("G", *CODES)} == _summed(mine), (split, part["Value"])
        assert part["Split"] == split and part["Season"] == SEASON
        assert part["AVG"] == (round(part["H"] / part["AB"], 4) if part["AB"] else None), "the part's own rate"
    assert sum(p["G"] for p in parts) == len(lines), "the parts add up to the season"
