"""Plain-English explanations and tags for parsed Retrosheet events.

``describe`` turns ``S8.2-H;1-3`` into "Betts singled to center field, Freeman scored, Smith to
third". Names are what the caller passes (last names read best in a play-by-play).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from server.ingest.retrosheet.events import Event

FIELDER = {1: "pitcher", 2: "catcher", 3: "first base", 4: "second base", 5: "third base",
           6: "shortstop", 7: "left field", 8: "center field", 9: "right field"}
BASE_NAME = {1: "first", 2: "second", 3: "third", 4: "home"}
POSITION_NAME = {1: "pitcher", 2: "catcher", 3: "first base", 4: "second base", 5: "third base",
                 6: "shortstop", 7: "left field", 8: "center field", 9: "right field",
                 10: "designated hitter", 11: "pinch hitter", 12: "pinch runner"}

_VERB = {"single": "singled", "double": "doubled", "triple": "tripled", "homer": "homered"}
_OUT_VERB = {"F": "flied out", "L": "lined out", "P": "popped out", "G": "grounded out",
             "BG": "grounded out on a bunt", "BP": "popped out on a bunt", "BL": "lined out on a bunt"}


def _location(ev: Event) -> str | None:
    """Where the ball went: the hit location modifier, else the first fielder."""
    for mod in ev.modifiers:
        m = re.match(r"^(?:B?[GLFP])?([1-9])", mod)
        if m and re.match(r"^(?:B?[GLFP])?\d", mod):
            return FIELDER[int(m.group(1))]
    digits = [c for c in ev.fielders if c.isdigit()]
    return FIELDER[int(digits[0])] if digits else None


def _trajectory(ev: Event) -> str | None:
    for mod in ev.modifiers:
        m = re.match(r"^(BG|BP|BL|G|L|F|P)(?![A-Z])", mod)
        if m:
            return m.group(1)
    return None


def _batter_text(ev: Event, batter: str, last_pitch: str) -> str:
    k = ev.kind
    loc = _location(ev)
    if k in _VERB:
        if k == "double" and ev.text.startswith("DGR"):
            return f"{batter} hit a ground-rule double" + (f" to {loc}" if loc else "")
        return f"{batter} {_VERB[k]}" + (f" to {loc}" if loc else "")
    if k == "strikeout":
        how = {"S": " swinging", "C": " looking"}.get(last_pitch, "")
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
        return f"{batter} reached on an error by the {FIELDER.get(ev.errors[0], 'fielder')}" \
            if ev.errors else f"{batter} reached on an error"
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
            return f"{batter} grounded out, {fielders[0]} to {fielders[-1]}"
        return f"{batter} {verb}" + (f" to {fielders[0]}" if fielders else "")
    return ""


_RUNNER_TEXT = {"wild_pitch": "Wild pitch", "passed_ball": "Passed ball", "balk": "Balk",
                "indifference": "Defensive indifference", "other_advance": "Runner advanced",
                "foul_error": "Error on a foul ball", "obstruction": "Obstruction"}


def describe(ev: Event, batter: str, moves: Sequence[tuple[str, Any]],
             name: Callable[[str], str], pitch_seq: str = "") -> str:
    """One sentence: what the batter (or the play) did, then what every runner did."""
    head = _batter_text(ev, batter, pitch_seq[-1:] if pitch_seq else "")
    parts: list[str] = []
    stolen = {b for b in ev.sb}
    caught = {b for b in ev.cs}
    for runner, a in moves:
        who = batter if a.start == 0 else name(runner)
        if a.start == 0:
            if head and ((ev.kind in _VERB and a.end == {"single": 1, "double": 2, "triple": 3,
                                                            "homer": 4}[ev.kind]) or
                         (a.end == 1 and not a.out) or (a.out and ev.kind in ("out", "strikeout"))):
                continue
            if ev.kind == "homer":
                continue
        if a.start in stolen and not a.out:
            parts.append(f"{who} stole {BASE_NAME[a.end]}")
        elif a.start in caught and a.out:
            parts.append(f"{who} caught stealing {BASE_NAME[a.end]}")
        elif a.out and a.start == a.end:
            parts.append(f"{who} picked off {BASE_NAME[a.start]}")
        elif a.out:
            parts.append(f"{who} out at {BASE_NAME[a.end]}")
        elif a.end == 4:
            parts.append(f"{who} scored")
        else:
            parts.append(f"{who} to {BASE_NAME[a.end]}")
    if not head:
        extra = _RUNNER_TEXT.get(ev.kind)
        if ev.wp and ev.kind != "wild_pitch":
            extra = "Wild pitch"
        if extra:
            parts.insert(0, extra)
        if not parts:
            parts.append(ev.kind.replace("_", " ").capitalize() or ev.text)
        return ", ".join(parts)
    if ev.wp and ev.kind == "strikeout":
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
