"""Real games' plays and pitches as a stranger reads them from the API (``real_api``: Retrosheet
2021-2023). Two games of Toronto at the Angels, whose event file lines are quoted where a test
reads them (../shared/data/retrosheet/events/2023/2023ANA.EVA):

* ANA202304080 (2023-04-08): a single fielded in center, an error on a single, strikeouts after
  a pickoff throw and after a pickoff throw and a balk;
* ANA202304090 (2023-04-09): ten innings, a strikeout after the catcher's pickoff throw.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Any

import httpx
import pytest

from server.catalog.names import SUFFIXES

from tests.demo_api import ApiServer

pytestmark = [pytest.mark.realdata, pytest.mark.slow]


def _list(api: ApiServer, endpoint: str, **params: object) -> list[dict[str, Any]]:
    response = httpx.get(f"{api.url}/v1/{endpoint}/MLB/", params={"key": api.key, "max": 1000, **params},
                         timeout=120)
    assert response.status_code == 200, response.text
    doc = response.json()
    assert "Next_Page" not in doc["meta"], "one page holds a game"
    found: list[dict[str, Any]] = doc[endpoint]
    return found


def _game(api: ApiServer, day: str) -> dict[str, Any]:
    """Toronto's game at the Angels that day, found as a stranger would: by date and teams."""
    games = [g for g in _list(api, "games", date=day)
             if "Blue Jays" in g["Visitor"] and "Angels" in g["Home"]]
    assert len(games) == 1, games
    return games[0]


def _plate_appearances(pitches: list[dict[str, Any]]) -> dict[int, list[dict[str, Any]]]:
    """The game's pitches and throws by the play that ended their plate appearance, in order."""
    by_play: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for row in sorted(pitches, key=lambda p: p["ID"]):
        by_play[row["Play_ID"]].append(row)
    return by_play


def _play(plays: list[dict[str, Any]], inning: str, name: str) -> dict[str, Any]:
    found = [p for p in plays if p["game"]["Inning"] == inning and p["primary"]["Name"]
             and name in p["primary"]["Name"] and p["Tags"] != "substitution"]
    assert found, f"no play of {name} in the {inning}"
    return found[0]


@pytest.mark.parametrize("day", ["2023-04-08", "2023-04-09"])
def test_every_plate_appearance_of_a_real_game_names_its_outcome(real_api: ApiServer, day: str) -> None:
    game = _game(real_api, day)
    pitches = _list(real_api, "pitch", game=game["ID"])
    plays = {p["ID"]: p for p in _list(real_api, "playbyplay", game=game["ID"])}
    assert len(pitches) > 250
    blank = [p for p in pitches if not p["Outcome"]]
    assert blank == [], f"{len(blank)} of {len(pitches)} pitches without their plate appearance's outcome"
    for play_id, rows in _plate_appearances(pitches).items():
        assert {r["Outcome"] for r in rows} == {plays[play_id]["Explanation"]}, rows
    with_markers = [p for p in plays.values() if any(c in (p["game"]["Sequence"] or "") for c in ".>*+123")]
    assert len(with_markers) >= 20, "the games hold the sequences that matched nothing before"


def test_a_strikeout_after_a_pickoff_throw_and_a_balk_lists_them_as_non_pitches(real_api: ApiServer) -> None:
    # play,5,0,guerv002,22,*BCBF1S,K
    # play,6,0,espis001,12,CFB1N,BK.1-2
    # play,6,0,espis001,12,CFB1N.S,K
    game = _game(real_api, "2023-04-08")
    appearances = _plate_appearances(_list(real_api, "pitch", game=game["ID"]))
    seen = {}
    for rows in appearances.values():  # by surname: Vladimir Guerrero Jr. is a Guerrero
        surname = next(w for w in reversed(rows[0]["Batter"].split()) if w not in SUFFIXES)
        seen[(rows[0]["Inning"], surname)] = rows
    guerrero = seen[(5, "Guerrero")]
    assert [(r["Code"], r["Pitch"], r["Balls"], r["Strikes"]) for r in guerrero] == [
        ("B", "Y", 0, 0), ("C", "Y", 1, 0), ("B", "Y", 1, 1), ("F", "Y", 2, 1), ("1", "N", 2, 2), ("S", "Y", 2, 2)]
    assert guerrero[4]["Result"] == "Pickoff throw to first"
    assert guerrero[0]["Result"] == "Ball, blocked by the catcher"
    assert guerrero[-1]["Outcome"] == "Guerrero struck out swinging"
    espinal = seen[(6, "Espinal")]
    assert [(r["Code"], r["Pitch"]) for r in espinal] == [
        ("C", "Y"), ("F", "Y"), ("B", "Y"), ("1", "N"), ("N", "N"), ("S", "Y")]
    assert [r["Number"] for r in espinal] == [1, 2, 3, 4, 5, 6], "one appearance across the balk"
    assert {r["Outcome"] for r in espinal} == {"Espinal struck out swinging"}


def test_a_catchers_pickoff_throw_is_a_non_pitch(real_api: ApiServer) -> None:
    # play,5,0,jansd001,22,BBC+1FS,K
    game = _game(real_api, "2023-04-09")
    jansen = [rows for rows in _plate_appearances(_list(real_api, "pitch", game=game["ID"])).values()
              if rows[0]["Inning"] == 5 and rows[0]["Batter"].endswith("Jansen")]
    assert len(jansen) == 1
    assert [(r["Code"], r["Pitch"]) for r in jansen[0]] == [
        ("B", "Y"), ("B", "Y"), ("C", "Y"), ("+1", "N"), ("F", "Y"), ("S", "Y")]
    assert jansen[0][3]["Result"] == "Catcher's pickoff throw to first"
    assert jansen[0][-1]["Outcome"] == "Jansen struck out swinging"


def test_a_single_to_center_and_an_error_read_as_they_happened(real_api: ApiServer) -> None:
    # play,3,0,sprig001,00,X,S8/G6M            (the center fielder fielded it)
    # play,3,1,urshg001,21,BFBX,S6/G4.B-3(E6)  (the shortstop's error sent Urshela to third)
    game = _game(real_api, "2023-04-08")
    plays = _list(real_api, "playbyplay", game=game["ID"])
    assert _play(plays, "Top 3", "Springer")["Explanation"] == "Springer singled to center field"
    urshela = _play(plays, "Bottom 3", "Urshela")
    assert urshela["Explanation"] == "Urshela singled to shortstop and went to third on an error by the shortstop"
    assert "error" in urshela["Tags"].split("|")


def test_ten_innings_read_as_ten_innings(real_api: ApiServer) -> None:
    # info,innings,9 ... play,10,1,ohtas001,00,.CSX,43/G34 (the last out, in the 10th)
    game = _game(real_api, "2023-04-09")
    assert game["GameStatus"] == "Final (10 innings)"
    assert game["Overtime"] == "1", "Overtime stays the number of extra innings (spec)"
    plays = _list(real_api, "playbyplay", game=game["ID"])
    assert {"Top 10", "Bottom 10"} <= {p["game"]["Inning"] for p in plays}
