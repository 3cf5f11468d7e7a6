"""Retrosheet's pitch codes, and the one decoder of a pitch sequence.

Every baseball source writes its pitches in these codes (Retrosheet's event files, the
simulator), the ingest stores one row per entry, the pitch endpoint tells pitches from throws by
them and the dashboard reads a sequence back with the same decoder, so a code means the same thing
everywhere. The codes and markers are Retrosheet's (https://www.retrosheet.org/eventfile.htm, the
``play`` record's pitches field); ``A`` and ``V`` are the pitch clock's automatic strike and ball.

A sequence holds more than pitches: ``1``/``2``/``3`` are pickoff throws to that base, ``+``
says the throw that follows is the catcher's, ``N`` is no pitch (a balk or interference), ``*``
says the catcher blocked the next pitch, ``>`` that a runner went on it, and ``.`` marks where a
play not involving the batter happened (the next play record repeats the sequence so far).
"""
from __future__ import annotations

from dataclasses import dataclass

# code -> (result, kind). kind: "B" ball, "S" strike, "F" foul (a strike below two strikes),
# "X" ends the appearance, "U" unknown.
PITCH_CODES: dict[str, tuple[str, str]] = {
    "B": ("Ball", "B"),
    "I": ("Intentional ball", "B"),
    "P": ("Pitchout", "B"),
    "V": ("Automatic ball", "B"),
    "C": ("Called strike", "S"),
    "S": ("Swinging strike", "S"),
    "K": ("Strike", "S"),
    "M": ("Missed bunt attempt", "S"),
    "Q": ("Swinging strike on pitchout", "S"),
    "T": ("Foul tip", "S"),
    "O": ("Foul tip on bunt", "S"),
    "L": ("Foul bunt", "S"),
    "A": ("Automatic strike", "S"),
    "F": ("Foul", "F"),
    "R": ("Foul on pitchout", "F"),
    "X": ("In play", "X"),
    "Y": ("In play on pitchout", "X"),
    "H": ("Hit by pitch", "X"),
    "U": ("Unknown pitch", "U"),
}
BASE_WORDS = {"1": "first", "2": "second", "3": "third"}
# Entries that are not pitches to the batter: they never change the count.
THROWS: dict[str, str] = {
    **{base: f"Pickoff throw to {word}" for base, word in BASE_WORDS.items()},
    **{f"+{base}": f"Catcher's pickoff throw to {word}" for base, word in BASE_WORDS.items()},
}
NO_PITCH = {"N": "No pitch (balk or interference)"}
NOT_PITCHES = frozenset(THROWS) | frozenset(NO_PITCH)
# Pitches the pitcher did not throw (the pitch clock's automatic ball and strike): they change
# the count but not the pitch count.
NOT_THROWN = frozenset("AV")
BLOCKED, RUNNER_GOING, CATCHER_THROWS, PLAY_MARK = "*", ">", "+", "."


@dataclass(frozen=True)
class Entry:
    """One entry of a sequence: a pitch, a pickoff throw or a no-pitch, with the count before it."""

    code: str  # "B", "X", "1" (pickoff throw to first), "+2" (the catcher's throw to second), "N"
    result: str  # "Ball", "Swinging strike, blocked by the catcher", "Pickoff throw to first"
    balls: int
    strikes: int

    @property
    def pitch(self) -> bool:
        """A pitch to the batter (automatic balls and strikes too: they count)."""
        return self.code not in NOT_PITCHES

    @property
    def thrown(self) -> bool:
        """Counts in the pitcher's pitch count."""
        return self.pitch and self.code not in NOT_THROWN


def decode(sequence: str) -> list[Entry]:
    """Every entry of a pitch sequence in order, the count before each, markers folded into the
    entry they describe: ``decode("B1*S>X")`` is a ball, a pickoff throw to first, a swinging
    strike blocked by the catcher and a ball in play with the runner going. A symbol Retrosheet
    does not define is a ``ValueError`` naming it."""
    out: list[Entry] = []
    balls = strikes = 0
    notes: list[str] = []
    catcher = False
    for symbol in sequence:
        if symbol == PLAY_MARK:
            continue
        if symbol == BLOCKED:
            notes.append("blocked by the catcher")
        elif symbol == RUNNER_GOING:
            notes.append("runner going")
        elif symbol == CATCHER_THROWS:
            catcher = True
        elif symbol in BASE_WORDS:
            code = f"+{symbol}" if catcher else symbol
            out.append(Entry(code, THROWS[code], balls, strikes))
            catcher = False
        elif symbol in NO_PITCH:
            out.append(Entry(symbol, NO_PITCH[symbol], balls, strikes))
        elif symbol in PITCH_CODES:
            result, kind = PITCH_CODES[symbol]
            out.append(Entry(symbol, ", ".join([result, *notes]), balls, strikes))
            notes = []
            if kind == "B":
                balls = min(balls + 1, 3)
            elif kind == "S":
                strikes = min(strikes + 1, 2)
            elif kind == "F" and strikes < 2:
                strikes += 1
        else:
            raise ValueError(f"unknown pitch symbol {symbol!r} in {sequence!r}")
    return out
