"""Known-value tests of the Retrosheet event and pitch-sequence parser (no data files needed)."""
from __future__ import annotations

import pytest

from server.catalog.pitches import decode
from server.ingest.retrosheet.events import parse_event


def _moves(text: str) -> dict[int, tuple[int, bool]]:
    return {b: (a.end, a.out) for b, a in parse_event(text).advances.items()}


@pytest.mark.parametrize("text, kind, batter_event, moves, outs", [
    ("S7/L.2-H;1-3", "single", True, {0: (1, False), 2: (4, False), 1: (3, False)}, 0),
    ("HR/F78", "homer", True, {0: (4, False)}, 0),
    ("D9/L9L+.1-H", "double", True, {0: (2, False), 1: (4, False)}, 0),
    ("DGR/L9", "double", True, {0: (2, False)}, 0),
    ("T8/F", "triple", True, {0: (3, False)}, 0),
    ("K", "strikeout", True, {0: (1, True)}, 1),
    ("K+WP.1-2", "strikeout", True, {0: (1, True), 1: (2, False)}, 1),
    ("K+WP.B-1", "strikeout", True, {0: (1, False)}, 0),
    ("K+SB2", "strikeout", True, {0: (1, True), 1: (2, False)}, 1),
    ("K+CS2(26)/DP", "strikeout", True, {0: (1, True), 1: (2, True)}, 2),
    ("E6/G", "error", True, {0: (1, False)}, 0),
    ("FC6/G.1X2(64)", "fc", True, {0: (1, False), 1: (2, True)}, 1),
    ("64(1)3/GDP/G6", "out", True, {0: (1, True), 1: (2, True)}, 2),
    ("54(1)/FO/G5.B-1", "out", True, {0: (1, False), 1: (2, True)}, 1),
    ("63/G6", "out", True, {0: (1, True)}, 1),
    ("8/F8", "out", True, {0: (1, True)}, 1),
    ("SB2", "sb", False, {1: (2, False)}, 0),
    ("SB3;SB2", "sb", False, {2: (3, False), 1: (2, False)}, 0),
    ("CS2(26)", "cs", False, {1: (2, True)}, 1),
    ("CS2(2E6).1-3", "cs", False, {1: (3, False)}, 0),
    ("PO1(13)", "pickoff", False, {1: (1, True)}, 1),
    ("PO1(E1/TH).1-3(E9)", "pickoff", False, {1: (3, False)}, 0),
    ("POCS2(14)", "pickoff_cs", False, {1: (2, True)}, 1),
    ("DI.1-2", "indifference", False, {1: (2, False)}, 0),
    ("BK.3-H", "balk", False, {3: (4, False)}, 0),
    ("WP.2-3", "wild_pitch", False, {2: (3, False)}, 0),
    ("PB.1-2", "passed_ball", False, {1: (2, False)}, 0),
    ("NP", "no_play", False, {}, 0),
    ("OA.3-H(E1/TH)(NR)", "other_advance", False, {3: (4, False)}, 0),
    ("IW", "ibb", True, {0: (1, False)}, 0),
    ("W", "walk", True, {0: (1, False)}, 0),
    ("W+WP.2-3", "walk", True, {0: (1, False), 2: (3, False)}, 0),
    ("HP", "hbp", True, {0: (1, False)}, 0),
    ("C/E2", "interference", True, {0: (1, False)}, 0),
    ("D9/L9L+.BXH(52)(E9/TH)", "double", True, {0: (4, True)}, 1),
    ("S8/G.3XH(8E2)", "single", True, {0: (1, False), 3: (4, False)}, 0),
    ("FLE5/P", "foul_error", False, {}, 0),
])
def test_parse_event(text: str, kind: str, batter_event: bool,
                     moves: dict[int, tuple[int, bool]], outs: int) -> None:
    ev = parse_event(text)
    assert ev.kind == kind
    assert ev.batter_event is batter_event
    assert _moves(text) == moves
    assert ev.outs == outs


@pytest.mark.parametrize("text, errors", [
    ("E6/G", [6]), ("C/E2", [2]), ("S7/L.2-H(E7)", [7]), ("CS2(2E6)", [6]),
    ("E5/G56.B-2(E5/TH)", [5, 5]), ("FLE9/F", [9]), ("S8", []), ("D9/L9L+.BXH(52)(E9/TH)", [9]),
])
def test_errors(text: str, errors: list[int]) -> None:
    assert parse_event(text).errors == errors


def test_rbi_flags_and_unearned() -> None:
    ev = parse_event("S9/L.3-H(NR)(UR);2-H(RBI)")
    assert ev.advances[3].rbi is False and ev.advances[3].unearned
    assert ev.advances[2].rbi is True


def test_modifiers_and_putouts() -> None:
    ev = parse_event("64(1)3/GDP/G6")
    assert "GDP" in ev.modifiers
    assert ev.putouts == [4, 3] and ev.assists == [6, 4]  # the relay to first is an assist
    assert parse_event("K").putouts == [2]
    assert parse_event("K23").putouts == [3] and parse_event("K23").assists == [2]


def test_unknown_event_is_an_error() -> None:
    with pytest.raises(ValueError):
        parse_event("ZZ9")


def test_entries_of_a_sequence() -> None:
    assert [e.code for e in decode("BC1>F*B.+2FX")] == ["B", "C", "1", "F", "B", "+2", "F", "X"]
    assert [(e.code, e.pitch) for e in decode("NBS")] == [("N", False), ("B", True), ("S", True)]


def test_counts_before_each_pitch() -> None:
    ps = decode("BCFFBX")
    assert [(p.balls, p.strikes) for p in ps] == [(0, 0), (1, 0), (1, 1), (1, 2), (1, 2), (2, 2)]
    assert [p.result for p in ps] == ["Ball", "Called strike", "Foul", "Foul", "Ball", "In play"]
    assert decode("SST")[-1].strikes == 2  # a foul tip with two strikes is strike three
