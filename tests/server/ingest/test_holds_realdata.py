"""Holds on the real Retrosheet seasons: credited by the rule, never beside the win, the save
or a start, and named in the box score as Baseball-Reference prints them ("H: Cano (12)")."""
from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
import requests
import sqlalchemy as sa

from server.store.engine import make_engine
from tests.demo_api import ApiServer

pytestmark = pytest.mark.realdata


@pytest.fixture(scope="module")
def store(real_store: ApiServer) -> Iterator[sa.Engine]:
    engine = make_engine(real_store.database_url)
    yield engine
    engine.dispose()


def _holders(engine: sa.Engine) -> list[sa.Row]:
    with engine.connect() as conn:
        return list(conn.execute(sa.text(
            "SELECT game_id, player_id, stats FROM player_lines WHERE level = 'MLB' "
            "AND season = 2023 AND stats LIKE '%\"HLD\"%' ORDER BY game_id")))


def test_a_hold_goes_to_a_reliever_who_got_an_out_and_no_decision(store: sa.Engine) -> None:
    rows = _holders(store)
    assert 2000 < len(rows) < 3500  # 30 teams, some 60 to 110 holds each
    for _, _, stats in rows:
        line = stats if isinstance(stats, dict) else json.loads(stats)
        assert line["HLD"] == 1 and line.get("OUTS", 0) >= 1, line
        assert not line.get("W") and not line.get("SV") and not line.get("GS"), line


def test_the_box_score_names_the_holds_with_the_season_count(store: sa.Engine,
                                                             real_api: ApiServer) -> None:
    game_id = _holders(store)[-1].game_id
    box = requests.get(f"{real_api.url}/v2/boxscores/MLB/", timeout=60,
                       params={"key": real_api.key, "id": game_id}).json()["boxscores"][0]
    held = [d for d in box["decisions"] if d["Decision"] == "H"]
    assert held and all(d["Holds"] >= 1 for d in held)
    letters = [d["Decision"] for d in box["decisions"]]
    assert letters[:2] == ["W", "L"] and letters[-len(held):] == ["H"] * len(held)
