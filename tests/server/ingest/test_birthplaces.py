"""A player's birthplace reads one way whichever source knows him: "City, ST" for the United
States, as Lahman and Baseball-Reference print it, though Retrosheet's biofile spells the state
out (A. J. Alexy, who debuted in 2021: Baseball-Reference's "Honey Brook, PA")."""
from __future__ import annotations

import re

import pytest
import sqlalchemy as sa

from server.store.engine import make_engine
from tests.demo_api import ApiServer

pytestmark = pytest.mark.realdata


def test_a_player_known_only_to_retrosheet_is_born_as_the_sites_print_it(
        real_api: ApiServer) -> None:
    found = real_api.get_json("/v1/players/MLB/", search="A. J. Alexy")["players"]
    assert [p["Hometown"] for p in found] == ["Honey Brook, PA"]


def test_every_us_birthplace_names_its_state_by_its_postal_code(real_store: ApiServer) -> None:
    engine = make_engine(real_store.database_url)
    try:
        with engine.connect() as conn:
            towns = conn.execute(sa.text(
                "SELECT source, hometown FROM players WHERE flag = 'US' AND hometown LIKE '%, %'"
            )).all()
    finally:
        engine.dispose()
    assert {source for source, _ in towns} >= {"lahman", "retrosheet"}
    spelled_out = [(s, t) for s, t in towns if not re.search(r", [A-Z]{2}$", t)]
    assert not spelled_out, spelled_out[:10]
