"""Plain-English explanations and tags for parsed Retrosheet events.

``describe`` turns ``S8.2-H;1-3`` into "Betts singled to center field, Freeman scored, Smith to
third". Names are what the caller passes (last names read best in a play-by-play).

Where a ball went is the fielder who played it (``S8/G4M``: the center fielder fielded a grounder
up the middle, so "to center field"), else the hit location's zone (``HR/F78``: left-center);
every error the record charges is named with its fielder ("to second on a throwing error by the
center fielder").
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from server.catalog.pitches import Entry
from server.ingest.retrosheet.events import Advance, Event

FIELDER = {1: "pitcher", 2: "catcher", 3: "first base", 4: "second base", 5: "third base",
           6: "shortstop", 7: "left field", 8: "center field", 9: "right field"}
FIELDER_PLAYER = {1: "pitcher", 2: "catcher", 3: "first baseman", 4: "second baseman",
                  5: "third baseman", 6: "shortstop", 7: "left fielder", 8: "center fielder",
                  9: "right fielder"}
# Hit-location zones between two fielders (Retrosheet's location diagram); any other zone is
# named by its first fielder.
ZONE = {"78": "left-center field", "89": "right-center field"}
BASE_NAME = {1: "first", 2: "second", 3: "third", 4: "home"}
POSITION_NAME = {1: "pitcher", 2: "catcher", 3: "first base", 4: "second base", 5: "third base",
                 6: "shortstop", 7: "left field", 8: "center field", 9: "right field",
                 10: "designated hitter", 11: "pinch hitter", 12: "pinch runner"}

# How strike three came, by its pitch code (a foul tip is a swing that the catcher held).
_STRIKE_THREE = {"S": " swinging", "T": " swinging", "Q": " swinging", "C": " looking",
                 "L": " bunting foul", "M": " on a missed bunt", "O": " on a foul tip bunt"}
_VERB = {"single": "singled", "double": "doubled", "triple": "tripled", "homer": "homered"}
_OUT_VERB = {"F": "flied out", "L": "lined out", "P": "popped out", "G": "grounded out",
             "BG": "grounded out on a bunt", "BP": "popped out on a bunt", "BL": "lined out on a bunt"}


def _location(ev: Event) -> str | None:
    """Where the ball went: the first fielder who played it, else the hit location modifier's
    zone (``G4M``, ``F78``)."""
    digits = [c for c in ev.fielders if c.isdigit()]
    if digits:
        return FIELDER[int(digits[0])]
    for mod in ev.modifiers:
        m = re.match(r"^(?:B?[GLFP])?([1-9]+)", mod)
        if m:
            zone = m.group(1)
            return ZONE.get(zone[:2]) or FIELDER[int(zone[0])]
    return None


def _error_words(fielder: int | None, throwing: bool) -> str:
    kind = "a throwing error" if throwing else "an error"
    return f"{kind} by the {FIELDER_PLAYER[fielder]}" if fielder in FIELDER_PLAYER else kind


def _trajectory(ev: Event) -> str | None:
    for mod in ev.modifiers:
        m = re.match(r"^(BG|BP|BL|G|L|F|P)(?![A-Z])", mod)
        if m:
            return m.group(1)
    return None


def _batter_text(ev: Event, batter: str, last_pitch: str) -> str:
    """What the batter did; empty for a play that does not end the plate appearance."""
    k = ev.kind
    loc = _location(ev)
    if k in _VERB:
        if k == "double" and ev.text.startswith("DGR"):
            return f"{batter} hit a ground-rule double" + (f" to {loc}" if loc else "")
        return f"{batter} {_VERB[k]}" + (f" to {loc}" if loc else "")
    if k == "strikeout":
        how = _STRIKE_THREE.get(last_pitch, "")
        return f"{batter} struck out{how}"
    if k == "walk":
        return f"{batter} walked"
    if k == "ibb":
        return f"{batter} was intentionally walked"
    if k == "hbp":
        return f"{batter} was hit by a pitch"
    if k == "interference":
        return f"{batter} reached on catcher's interference"
    if k == "error":
        reached = ev.advances.get(0)
        return f"{batter} reached on " + _error_words(
            reached.error_by if reached else None, bool(reached and reached.throwing))
    if k == "fc":
        return f"{batter} reached on a fielder's choice"
    if k == "out":
        if "GDP" in ev.modifiers:
            return f"{batter} grounded into a double play"
        if "SF" in ev.modifiers:
            return f"{batter} hit a sacrifice fly" + (f" to {loc}" if loc else "")
        if "SH" in ev.modifiers:
            return f"{batter} laid down a sacrifice bunt"
        verb = _OUT_VERB.get(_trajectory(ev) or "", "made an out")
        if ev.advances.get(0) is not None and not ev.advances[0].out:
            return f"{batter} reached on a force out"
        fielders = [FIELDER[int(c)] for c in ev.fielders if c.isdigit()]
        if verb == "grounded out" and len(fielders) >= 2:
            thrower = FIELDER_PLAYER[int(next(c for c in ev.fielders if c.isdigit()))]
            return f"{batter} grounded out, {thrower} to {fielders[-1]}"
        return f"{batter} {verb}" + (f" to {fielders[0]}" if fielders else "")
    return ""


_RUNNER_TEXT = {"wild_pitch": "Wild pitch", "passed_ball": "Passed ball", "balk": "Balk",
                "pickoff": "Pickoff throw",
                "indifference": "Defensive indifference", "other_advance": "Runner advanced",
                "foul_error": "Error on a foul ball", "obstruction": "Obstruction"}


def describe(ev: Event, batter: str, moves: Sequence[tuple[str, Advance]],
             name: Callable[[str], str], entries: Sequence[Entry] = ()) -> str:
    """One sentence: what the batter (or the play) did, then what every runner did, naming each
    error; ``entries`` are the plate appearance's pitches and throws (a strikeout is swinging or
    looking by its last pitch)."""
    last_pitch = next((e.code for e in reversed(entries) if e.pitch), "")
    head = _batter_text(ev, batter, last_pitch)
    parts: list[str] = []
    stolen = {b for b in ev.sb}
    caught = {b for b in ev.cs}
    named: list[int | None] = []  # errors the sentence already names
    if ev.kind == "error" and 0 in ev.advances:
        named.append(ev.advances[0].error_by)
    if ev.kind in ("foul_error", "interference"):  # its text names the fielder
        named.extend(ev.errors)
    for runner, a in moves:
        who = batter if a.start == 0 else name(runner)
        on_error = ""
        if a.error and not (a.start == 0 and ev.kind == "error" and a.end == 1):
            on_error = " on " + _error_words(a.error_by, a.throwing)
            named.append(a.error_by)
        elif a.start == 0 and ev.kind == "strikeout" and not a.out:  # K+E2.B-1, K+WP.B-1
            if ev.errors:
                on_error = " on " + _error_words(ev.errors[0], False)
                named.append(ev.errors[0])
            else:
                on_error = " on a wild pitch" if ev.wp else " on a passed ball" if ev.pb else ""
        if a.start == 0 and head and on_error and ev.kind in _VERB and not a.out:  # S6.B-3(E6)
            head += (" and scored" if a.end == 4 else f" and went to {BASE_NAME[a.end]}") + on_error
            continue
        if a.start == 0 and not on_error and not (ev.kind == "strikeout" and not a.out):
            if head and ((ev.kind in _VERB and a.end == {"single": 1, "double": 2, "triple": 3,
                                                            "homer": 4}[ev.kind]) or
                         (a.end == 1 and not a.out) or (a.out and ev.kind in ("out", "strikeout"))):
                continue
            if ev.kind == "homer":
                continue
        if a.start in stolen and not a.out:  # SB2.1-3(E2/TH): stole second, then on to third
            further = "" if a.end == a.start + 1 else \
                f" and scored{on_error}" if a.end == 4 else f" and went to {BASE_NAME[a.end]}{on_error}"
            parts.append(f"{who} stole {BASE_NAME[a.start + 1]}{further}")
        elif a.start in caught and a.out:
            parts.append(f"{who} caught stealing {BASE_NAME[a.end]}")
        elif a.out and a.start == a.end:
            parts.append(f"{who} picked off {BASE_NAME[a.start]}")
        elif a.out:  # D9.BXH(52)(E9/TH): on to home on the error, and out there
            parts.append(f"{who} out at {BASE_NAME[a.end]}" + on_error.replace(" on ", " after ", 1))
        elif a.end == 4:
            parts.append(f"{who} scored{on_error}")
        else:
            parts.append(f"{who} to {BASE_NAME[a.end]}{on_error}")
    for fielder in ev.errors:  # errors no runner's move explains (a dropped foul, a muffed throw)
        if fielder in named:
            named.remove(fielder)
        elif None in named:
            named.remove(None)
        else:
            parts.append(f"error by the {FIELDER_PLAYER.get(fielder, 'fielder')}")
    if not head:
        extra = _RUNNER_TEXT.get(ev.kind) if ev.kind != "pickoff" or not ev.outs else None
        if ev.kind == "foul_error" and ev.errors:
            extra = f"Error by the {FIELDER_PLAYER.get(ev.errors[0], 'fielder')} on a foul ball"
        if ev.wp and ev.kind != "wild_pitch":
            extra = "Wild pitch"
        if extra:
            parts.insert(0, extra)
        if not parts:
            parts.append(ev.kind.replace("_", " ").capitalize() or ev.text)
        if parts[0].startswith("error by"):
            parts[0] = "E" + parts[0][1:]
        return ", ".join(parts)
    if ev.wp and ev.kind == "strikeout" and ev.advances[0].out:
        head += " on a wild pitch"
    return ", ".join([head] + parts)


def tags(ev: Event, runs: Sequence[tuple[str, Any, Any]], moves: Sequence[Any]) -> list[str]:
    out = [ev.kind] if ev.kind else []
    if ev.outs >= 2:
        out.append("double_play" if ev.outs == 2 else "triple_play")
    default = ev.kind != "strikeout" and "GDP" not in ev.modifiers  # as game.credit counts RBI
    if ev.batter_event and any(a.rbi is True or (a.rbi is None and default and not a.error)
                               for _r, a, _p in runs):
        out.append("rbi")
    if ev.errors:
        out.append("error")
    if runs:
        out.append("scoring")
    return out


def substitution(new: str, old: str, pos: int) -> str:
    if pos == 1:
        return f"Pitching change: {new} replaces {old}"
    if pos == 11:
        return f"Pinch hitter: {new} replaces {old}"
    if pos == 12:
        return f"Pinch runner: {new} replaces {old}"
    return f"Defensive substitution: {new} at {POSITION_NAME.get(pos, 'position')}" + (
        f", replacing {old}" if old and old != "?" else "")
