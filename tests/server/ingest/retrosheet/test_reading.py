"""Pitch sequences and plays read right, on real Retrosheet lines (../shared/data/retrosheet,
quoted with their game): every pitch and throw in its place, each plate appearance's outcome
named, the ball's fielder for where it went, every error with its fielder.

Pure: the lines are replayed by ``play_game`` with a name for each player; no store, no data
files (the lines are quoted here, as Retrosheet wrote them)."""
from __future__ import annotations

import pytest

from server.catalog.pitches import decode
from server.ingest.retrosheet.events import parse_event
from server.ingest.retrosheet.explain import describe
from server.ingest.retrosheet.game import GameResult, play_game

NAMES = {"guerv002": "Guerrero", "espis001": "Espinal", "jansd001": "Jansen", "sprig001": "Springer",
         "urshg001": "Urshela", "rengl001": "Rengifo", "chapm001": "Chapman", "bichb001": "Bichette",
         "ozunm001": "Ozuna", "olsom001": "Olson", "rilea001": "Riley", "ohopl001": "O'Hoppe"}


def _entries(sequence: str) -> list[tuple[str, bool, str]]:
    return [(e.code, e.pitch, f"{e.balls}-{e.strikes}") for e in decode(sequence)]


def test_a_strikeout_with_a_pickoff_throw() -> None:
    # ANA202304080 (Toronto at the Angels, 2023-04-08), top of the 5th:
    #   play,5,0,guerv002,22,*BCBF1S,K
    assert _entries("*BCBF1S") == [("B", True, "0-0"), ("C", True, "1-0"), ("B", True, "1-1"),
                                   ("F", True, "2-1"), ("1", False, "2-2"), ("S", True, "2-2")]
    assert decode("*BCBF1S")[0].result == "Ball, blocked by the catcher"
    assert decode("*BCBF1S")[4].result == "Pickoff throw to first"
    assert [e.thrown for e in decode("*BCBF1S")].count(True) == 5, "a pickoff is no pitch"


def test_a_catchers_pickoff_throw_is_one_entry() -> None:
    # ANA202304090 (Toronto at the Angels, 2023-04-09), top of the 5th:
    #   play,5,0,jansd001,22,BBC+1FS,K
    assert _entries("BBC+1FS") == [("B", True, "0-0"), ("B", True, "1-0"), ("C", True, "2-0"),
                                   ("+1", False, "2-1"), ("F", True, "2-1"), ("S", True, "2-2")]
    assert decode("BBC+1FS")[3].result == "Catcher's pickoff throw to first"


def test_a_runner_going_and_markers_fold_into_their_pitch() -> None:
    # ANA202304090, bottom of the 10th: play,10,1,wardt002,32,*BC1*BF*B>B,W.1-2
    entries = decode("*BC1*BF*B>B")
    assert [e.code for e in entries] == ["B", "C", "1", "B", "F", "B", "B"]
    assert entries[-1].result == "Ball, runner going" and entries[-2].result == "Ball, blocked by the catcher"
    assert [e.result for e in decode("CBF.*S")][-1] == "Swinging strike, blocked by the catcher"


def test_an_unknown_symbol_is_named() -> None:
    with pytest.raises(ValueError, match="'Z'"):
        decode("BZX")


def _game(*plays: str) -> GameResult:
    """A game of these play records after two lineups that hold every batter named."""
    starts = [["start", pid, NAMES[pid], "0", str(k % 9 + 1), str(k % 9 + 1)] for k, pid in enumerate(NAMES)]
    records = [["info", "visteam", "TOR"], ["info", "hometeam", "ANA"], *starts,
               ["start", "pitch001", "Pitcher", "1", "0", "1"]]
    records += [line.split(",") for line in plays]
    return play_game("ANA202304080", records, {}, {**NAMES, "pitch001": "Pitcher"})


def test_a_plate_appearance_cut_by_a_balk_is_one_appearance_with_one_outcome() -> None:
    # ANA202304080, top of the 6th: a pickoff throw, a balk, then the strikeout
    #   play,6,0,espis001,12,CFB1N,BK.1-2
    #   play,6,0,espis001,12,CFB1N.S,K
    game = _game("play,6,0,guerv002,00,X,S7/G15+", "play,6,0,espis001,12,CFB1N,BK.1-2",
                 "play,6,0,espis001,12,CFB1N.S,K")
    rows = [p for p in game.pitches if p.batter == "espis001"]
    assert [(p.code, p.number) for p in rows] == [("C", 1), ("F", 2), ("B", 3), ("1", 4), ("N", 5), ("S", 6)]
    strikeout = game.plays[-1]
    assert {p.play_seq for p in rows} == {strikeout.seq}, "every entry names the play that ended it"
    assert strikeout.explanation == "Espinal struck out swinging"
    assert game.plays[-2].explanation == "Balk, Guerrero to second"
    assert game.lines["pitch001"]["PIT"] == 1 + 4, "the throw and the balk are not pitches"


def test_a_single_fielded_in_center_reads_center_field() -> None:
    # ANA202304080, top of the 3rd: play,3,0,sprig001,00,X,S8/G6M (a grounder up the middle,
    # fielded by the center fielder)
    game = _game("play,3,0,sprig001,00,X,S8/G6M")
    assert game.plays[0].explanation == "Springer singled to center field"


def test_an_error_on_a_single_is_named() -> None:
    # ANA202304080, bottom of the 3rd: play,3,1,urshg001,21,BFBX,S6/G4.B-3(E6)
    game = _game("play,3,1,urshg001,21,BFBX,S6/G4.B-3(E6)")
    assert game.plays[0].explanation == \
        "Urshela singled to shortstop and went to third on an error by the shortstop"
    assert "error" in game.plays[0].tags.split("|")


def test_a_throwing_error_after_a_single_to_center() -> None:
    # ATL202308230 (the Mets at Atlanta, 2023-08-23), bottom of the 1st, Riley on second and
    # Olson on first:  play,1,1,ozunm001,12,CF.F*BX,S8/G6M.2-H;1-3;B-2(E8/TH)
    ev = parse_event("S8/G6M.2-H;1-3;B-2(E8/TH)")
    moves = [(runner, ev.advances[base]) for runner, base in (("rilea001", 2), ("olsom001", 1), ("ozunm001", 0))]
    text = describe(ev, "Ozuna", moves, NAMES.__getitem__, decode("CF.F*BX"))
    assert text == ("Ozuna singled to center field and went to second on a throwing error by the "
                    "center fielder, Riley scored, Olson to third")


def test_a_steal_and_the_throwing_error_after_it() -> None:
    # ANA202304070 (Toronto at the Angels, 2023-04-07), bottom of the 4th, Urshela on first:
    #   play,4,1,ohopl001,22,CFBF*B>B,SB2.1-3(E2/TH)
    #   play,4,1,ohopl001,32,CFBF*B>B.B,W
    game = _game("play,4,1,urshg001,32,FBBCBB,W", "play,4,1,ohopl001,22,CFBF*B>B,SB2.1-3(E2/TH)",
                 "play,4,1,ohopl001,32,CFBF*B>B.B,W")
    assert game.plays[1].explanation == \
        "Urshela stole second and went to third on a throwing error by the catcher"
    walk = [p for p in game.pitches if p.batter == "ohopl001"]
    assert [p.code for p in walk] == ["C", "F", "B", "F", "B", "B", "B"], "the walk's pitches once each"
    assert {p.play_seq for p in walk} == {game.plays[2].seq}, "all of them end in the walk"
    assert walk[-2].result == "Ball, runner going"


def test_an_out_after_an_error_names_it() -> None:
    # BAL202209220 (2022-09-22), bottom of the 5th: play,5,1,mullc002,10,BX,D9/L9L+.BXH(52)(E9/TH)
    ev = parse_event("D9/L9L+.BXH(52)(E9/TH)")
    text = describe(ev, "Mullins", [("mullc002", ev.advances[0])], NAMES.__getitem__, decode("BX"))
    assert text == "Mullins doubled to right field, Mullins out at home after a throwing error by the right fielder"


def test_the_state_before_each_play_with_the_extra_innings_runner_placed() -> None:
    # ANA202304090 (Toronto at the Angels, 2023-04-09), the 10th: the pitching change, then the
    # runner placed on second, then the play, as the event file orders them:
    #   sub,estec001,"Carlos Estevez",1,0,1
    #   radj,biggc002,2
    #   play,10,0,kirka001,32,....FBBFFBX,63/G6.2-3
    #   play,10,0,kierk001,01,SX,DGR/F9LD.3-H(UR)
    names = {**NAMES, "kirka001": "Kirk", "kierk001": "Kiermaier", "estec001": "Estevez", "biggc002": "Biggio",
             "pitch001": "Pitcher"}
    starts = [["start", "kirka001", "Kirk", "0", "1", "2"], ["start", "kierk001", "Kiermaier", "0", "2", "8"],
              ["start", "biggc002", "Biggio", "0", "3", "4"], ["start", "pitch001", "Pitcher", "1", "0", "1"]]
    records = [["info", "visteam", "TOR"], ["info", "hometeam", "ANA"], *starts,
               ["play", "10", "0", "kirka001", "00", "", "NP"], ["sub", "estec001", "Carlos Estevez", "1", "0", "1"],
               ["radj", "biggc002", "2"], ["play", "10", "0", "kirka001", "32", "....FBBFFBX", "63/G6.2-3"],
               ["play", "10", "0", "kierk001", "01", "SX", "DGR/F9LD.3-H(UR)"]]
    game = play_game("ANA202304090", records, {}, names)
    sub, out, double = game.plays
    assert (sub.outs_before, sub.bases_before) == (0, 0b010), "the runner stands when the change is announced"
    assert (out.outs_before, out.bases_before) == (0, 0b010), "nobody out, the placed runner on second"
    assert (out.outs, out.bases) == (1, 0b100)
    assert (double.outs_before, double.bases_before) == (1, 0b100), "the state the play before left"
    assert [game.players[p]["slot"] for p in ("kirka001", "kierk001", "biggc002")] == [1, 2, 3]
    assert game.players["estec001"]["slot"] is None and game.players["pitch001"]["slot"] is None, \
        "a pitcher the designated hitter bats for has no place in the order"
