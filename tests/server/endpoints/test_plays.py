"""Real games' plays and pitches as a stranger reads them from the API (``real_api``: Retrosheet
2021-2023). Two games of Toronto at the Angels, whose event file lines are quoted where a test
reads them (../shared/data/retrosheet/events/2023/2023ANA.EVA):

* ANA202304080 (2023-04-08): a single fielded in center, an error on a single, strikeouts after
  a pickoff throw and after a pickoff throw and a balk;
* ANA202304090 (2023-04-09): ten innings, a strikeout after the catcher's pickoff throw.

And the box score of game 1 of the 2023 World Series (TEX202310270, Arizona at Texas, 27 October,
6-5 in 11 innings; ../shared/data/retrosheet/postseason/2023/2023WS.EVE), as Baseball-Reference
prints it: the decisions with the pitchers' postseason records, the batting order, the notes.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Any

import pytest

from server.catalog.names import SUFFIXES

from tests.demo_api import ApiServer

pytestmark = [pytest.mark.realdata, pytest.mark.slow]


def _list(api: ApiServer, endpoint: str, **params: object) -> list[dict[str, Any]]:
    doc = api.get_json(f"/v1/{endpoint}/MLB/", **{"max": 1000, **params})
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


def test_each_play_carries_the_outs_and_runners_before_it_and_the_score_after(real_api: ApiServer) -> None:
    # ANA202304090, the 10th (a 2023 regular-season game: a runner placed on second):
    #   radj,biggc002,2
    #   play,10,0,kirka001,32,....FBBFFBX,63/G6.2-3
    #   play,10,0,kierk001,01,SX,DGR/F9LD.3-H(UR)
    #   play,10,0,sprig001,12,BCFX,S9/L89.2-H
    # the 9th ended 10-10 (play,9,1,renfh001,01,.CX,D7/G5+.3-H;2-H;1-3 tied it)
    game = _game(real_api, "2023-04-09")
    plays = _list(real_api, "playbyplay", game=game["ID"])
    kirk, kiermaier, springer = (_play(plays, "Top 10", name) for name in ("Kirk", "Kiermaier", "Springer"))
    assert (kirk["OutsBefore"], kirk["RunnersBefore"]) == (0, "-2-"), "the placed runner stands on second"
    assert (kiermaier["OutsBefore"], kiermaier["RunnersBefore"]) == (1, "--3")
    assert (kiermaier["game"]["ScoreVis"], kiermaier["game"]["ScoreHome"]) == (11, 10), "the score after it"
    assert (springer["OutsBefore"], springer["RunnersBefore"]) == (1, "-2-")
    assert (springer["game"]["ScoreVis"], springer["game"]["ScoreHome"]) == (12, 10)
    first = _play(plays, "Top 1", "Springer")
    assert (first["OutsBefore"], first["RunnersBefore"]) == (0, "---"), "a game begins with nobody on"
    for play in plays:
        if play["Tags"] == "substitution":
            assert play["WPA_Batter"] is None and play["WPA_Pitcher"] is None, "a substitution credits no one"
            continue
        assert play["WPA_Batter"] == play["WPA"] is not None, "the batter is credited the play's WPA"
        assert play["WPA_Pitcher"] == (-play["WPA"] or 0.0), "the pitcher its negative"
    assert any(p["WPA"] for p in plays), "the game's plays carry their WPA"


def _box(api: ApiServer, day: str) -> dict[str, Any]:
    games = _list(api, "games", date=day)
    assert len(games) == 1, games
    box: dict[str, Any] = api.get_json("/v2/boxscores/MLB/", id=games[0]["ID"])["boxscores"][0]
    return box


def test_a_world_series_box_score_names_its_decisions(real_api: ApiServer) -> None:
    # 2023WS.EVE, TEX202310270: info,wp,leclj001 / info,lp,castm002 / info,save, (none)
    # Leclerc's postseason before it: info,save,leclj001 in 2023ALD1.EVE, twice in 2023ALCS.EVE,
    # info,lp,leclj001 once in 2023ALCS.EVE; Castro had no decision before it
    # Arizona's 6th, 7th and 8th innings: Thompson, Mantiply and Ginkel each kept a 5-3 lead
    # (holds; Sewald gave it away in the 9th: none)
    box = _box(real_api, "2023-10-27")
    arizona = "Arizona Diamondbacks"
    assert [(d["Decision"], d["Name"], d["Team"]) for d in box["decisions"]] == [
        ("W", "Jose Leclerc", "Texas Rangers"), ("L", "Miguel Castro", arizona),
        ("H", "Ryan Thompson", arizona), ("H", "Joe Mantiply", arizona),
        ("H", "Kevin Ginkel", arizona)]
    leclerc, castro = box["decisions"][:2]
    assert (leclerc["Wins"], leclerc["Losses"], leclerc["Saves"]) == (1, 1, 3), "his postseason through the game"
    assert (castro["Wins"], castro["Losses"]) == (0, 1)


def test_a_world_series_box_score_in_batting_order(real_api: ApiServer) -> None:
    # start,carrc005,"Corbin Carroll",0,1,9 ... start,perdg001,"Geraldo Perdomo",0,9,6;
    # start,gallz001,"Zac Gallen",0,0,1 (the designated hitter bats for him);
    # start,heimj001,"Jonah Heim",1,6,2, then sub,smitj007,"Josh H. Smith",1,6,12 (to run for him)
    # and sub,hedga001,"Austin Hedges",1,6,2 (to catch); sub,rivee001,"Emmanuel Rivera",0,8,5
    box = _box(real_api, "2023-10-27")
    order = {p["Name"]: p["BattingOrder"] for p in box["players"]}
    assert [order[n] for n in ("Corbin Carroll", "Ketel Marte", "Gabriel Moreno", "Christian Walker", "Tommy Pham",
                               "Lourdes Gurriel", "Alek Thomas", "Evan Longoria", "Geraldo Perdomo")] \
        == list(range(1, 10))
    assert order["Zac Gallen"] is None and order["Nathan Eovaldi"] is None
    sixth = [p["Name"] for p in box["players"] if p["Team"] == "Texas Rangers" and p["BattingOrder"] == 6]
    assert sixth == ["Jonah Heim", "Josh Smith", "Austin Hedges"], "the starter, then who took his place"
    assert order["Emmanuel Rivera"] == 8


def test_a_world_series_box_score_prints_its_notes(real_api: ApiServer) -> None:
    # 2B: play,1,1,carte001,22,CBBFFX,D8/L89XD+.1-H; play,3,1,carte001,11,CBX,D7/G5.1-3;
    #     play,5,0,martk001,21,BFBX,D8/F89XD.2-H
    # 3B: play,3,0,carrc005,02,SCX,T8/L8XD+.3-H;2-H
    # HR: play,4,0,phamt001,10,BX,HR/F7D; play,9,1,seagc001,00,X,HR/F9D.1-H;
    #     play,11,1,garca005,31,.BBSBX,HR/F9D
    # SB: Marte (play,3,0,moreg001,12,FB1F>T,K+SB2), Perdomo and Walker (play,5,0,carrc005,31,1P+1BBC>S,SB2;
    #     play,5,0,phamt001,01,.C>B,SB2), Thomas (play,6,0,perdg001,21,.F1BB>B,SB2),
    #     Garcia (play,9,1,garvm001,00,>B,SB2); no CS, no error
    box = _box(real_api, "2023-10-27")

    def read(side: str) -> dict[str, list[tuple[str, int]]]:
        return {n["Code"]: [(p["Name"], p["Count"]) for p in n["Players"]] for n in box["notes"][side]}

    assert read("visitor") == {
        "2B": [("Ketel Marte", 1)], "3B": [("Corbin Carroll", 1)], "HR": [("Tommy Pham", 1)],
        "SB": [("Ketel Marte", 1), ("Christian Walker", 1), ("Alek Thomas", 1), ("Geraldo Perdomo", 1)]}
    assert read("home") == {"2B": [("Evan Carter", 2)], "HR": [("Corey Seager", 1), ("Adolis Garcia", 1)],
                            "SB": [("Adolis Garcia", 1)]}
