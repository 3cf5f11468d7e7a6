"""Simulated names in another script read for everyone: a KBO team or player is served under its
Hangul name followed by its Latin form ("서울 베어스 (Seoul Bears)", "김하성 (Ha-seong Kim)"), and
the Latin form finds it (docs/api/index.md)."""
from __future__ import annotations

import re


from tests.demo_api import ApiServer

HANGUL = re.compile(r"[\uac00-\ud7a3]")
LATIN_FORM = re.compile(r"^[^(]+ \(([A-Za-z][A-Za-z .-]*)\)$")


def _latin(name: str) -> str:
    found = LATIN_FORM.match(name)
    assert found, f"{name!r} carries no Latin form"
    return found.group(1)


def test_hangul_teams_carry_their_latin_form_and_are_found_by_it(demo_api: ApiServer) -> None:
    teams = demo_api.get_json("/v1/teams/KBO/", max=100)["teams"]
    korean = [t["Name"] for t in teams if HANGUL.search(t["Name"])]
    assert len(korean) == len(teams) > 0
    for name in korean:
        latin = _latin(name)
        found = demo_api.get_json("/v1/teams/KBO/", search=latin.lower())["teams"]
        assert name in [t["Name"] for t in found], latin


def test_hangul_players_carry_their_latin_form_and_are_found_by_its_surname(demo_api: ApiServer) -> None:
    players = demo_api.get_json("/v1/players/KBO/", max=50)["players"]
    korean = [p for p in players if HANGUL.search(p["Name"])]
    assert len(korean) == len(players) > 0
    latin = _latin(korean[0]["Name"])
    whole = demo_api.get_json("/v1/players/KBO/", name=latin)["players"]
    assert korean[0]["ID"] in [p["ID"] for p in whole]
    surname = latin.split()[-1]
    by_surname = demo_api.get_json("/v1/players/KBO/", name=surname, max=1000)["players"]
    assert korean[0]["ID"] in [p["ID"] for p in by_surname]
    assert all(_latin(p["Name"]).split()[-1] == surname for p in by_surname)
