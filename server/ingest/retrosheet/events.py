"""A pure parser for Retrosheet event strings.

``parse_event("S7/L.2-H;1-3")`` returns an :class:`Event`: what the batter did, which runners
moved where, who was out, and the errors, putouts and assists the fielders earned. It knows
nothing about the game state; :mod:`server.ingest.retrosheet.game` applies events to the bases.

Grammar (https://www.retrosheet.org/eventfile.htm): ``BASIC[+BASIC2]/MOD/MOD.ADV;ADV``, where an
advance is ``F-T`` (safe) or ``FXT`` (out unless a parenthesised group holds an error) followed by
groups such as ``(E5)``, ``(UR)``, ``(NR)``/``(NORBI)``, ``(RBI)``, ``(TUR)`` or a fielding
sequence ``(64)``. Pitch sequences are decoded by :mod:`server.catalog.pitches`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

BASES = {"B": 0, "1": 1, "2": 2, "3": 3, "H": 4}


@dataclass
class Advance:
    start: int  # 0 batter, 1..3 bases
    end: int  # 1..3 bases, 4 home
    out: bool = False
    error: bool = False  # reached or advanced on an error
    error_by: int | None = None  # the fielding position charged with it, when the record says
    throwing: bool = False  # the error was a throw (``E6/TH``)
    rbi: bool | None = None  # explicit (RBI) / (NR); None = default rule
    unearned: bool = False  # (UR) / (TUR)
    explicit: bool = True


@dataclass
class Event:
    text: str
    kind: str  # single, double, triple, homer, walk, ibb, hbp, strikeout, out, error, fc, ...
    batter_event: bool  # ends the plate appearance
    fielders: str = ""  # fielder positions credited in the basic play, e.g. "7" or "63"
    modifiers: list[str] = field(default_factory=list)
    advances: dict[int, Advance] = field(default_factory=dict)  # by start base
    errors: list[int] = field(default_factory=list)  # fielding positions charged
    putouts: list[int] = field(default_factory=list)
    assists: list[int] = field(default_factory=list)
    sb: list[int] = field(default_factory=list)  # starting bases of stolen bases
    cs: list[int] = field(default_factory=list)  # starting bases of caught stealing
    wp: bool = False
    pb: bool = False
    bk: bool = False

    @property
    def outs(self) -> int:
        return sum(1 for a in self.advances.values() if a.out)

    def has(self, modifier: str) -> bool:
        return any(m == modifier or m.startswith(modifier) for m in self.modifiers)


HIT_KINDS = {"S": "single", "D": "double", "T": "triple", "H": "homer", "HR": "homer",
             "DGR": "double"}

_RUNNER_GROUP = re.compile(r"\(([B123])\)")
_PAREN = re.compile(r"\(([^)]*)\)")


def _split_top(text: str, sep: str) -> list[str]:
    """Split on ``sep`` outside parentheses."""
    parts: list[str] = []
    cur: list[str] = []
    depth = 0
    for c in text:
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        if c == sep and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(c)
    parts.append("".join(cur))
    return parts


def _credit(ev: Event, seq: str, out: bool) -> None:
    """Credit a fielding sequence such as ``64`` or ``2E6``: assists then a putout or error."""
    if "E" in seq:
        before, _, after = seq.partition("E")
        ev.assists.extend(int(c) for c in before if c.isdigit())
        if after[:1].isdigit():
            ev.errors.append(int(after[0]))
        return
    digits = [int(c) for c in seq if c.isdigit()]
    if not digits:
        return
    if out:
        ev.putouts.append(digits[-1])
        # every fielder who handled the ball before the putout assists (in a rundown the
        # fielder making the putout may have thrown earlier too)
        ev.assists.extend(dict.fromkeys(digits[:-1]))


def _set(ev: Event, adv: Advance, explicit: bool = False) -> None:
    cur = ev.advances.get(adv.start)
    if cur is None or explicit or not cur.explicit:
        adv.explicit = explicit
        ev.advances[adv.start] = adv


def _parse_outs(ev: Event, basic: str) -> None:
    """Fielded outs: ``8``, ``63``, ``54(1)``, ``64(1)3``, ``8(B)84(2)``, ``3E1``."""
    if "E" in basic:  # e.g. 3E1: the batter reached on a throwing error
        ev.kind = "error"
        _credit(ev, basic, False)
        _set(ev, Advance(0, 1, error=True, error_by=ev.errors[-1] if ev.errors else None))
        return
    pos = 0
    batter_out = True
    thrower = ""  # in 64(1)3 the second baseman's relay to first is an assist too
    for m in re.finditer(r"(\d*)(?:\(([B123])\))?", basic):
        if not m.group(0):
            continue
        digits, runner = m.group(1), m.group(2)
        if runner is None:
            if digits:
                _credit(ev, thrower + digits, True)
                _set(ev, Advance(0, 1, out=True))
            continue
        start = BASES[runner]
        if digits:
            _credit(ev, thrower + digits, True)
            thrower = digits[-1]
        _set(ev, Advance(start, start + 1 if start else 1, out=True))
        pos = m.end()
    if pos and pos == len(basic):  # every group names its runner: the batter reached
        batter_out = False
    if not batter_out and 0 not in ev.advances:
        _set(ev, Advance(0, 1))
    ev.kind = "out"


def _parse_basic(ev: Event, basic: str) -> None:
    m = re.match(r"^(DGR|HR|H|S|D|T)(\d*)$", basic)
    if m and not basic.startswith("HP"):
        ev.kind = HIT_KINDS[m.group(1)]
        ev.batter_event = True
        ev.fielders = m.group(2)
        ev.advances[0] = Advance(0, {"single": 1, "double": 2, "triple": 3, "homer": 4}[ev.kind],
                                 explicit=False)
        return
    if basic.startswith("HP"):
        ev.kind, ev.batter_event = "hbp", True
        ev.advances[0] = Advance(0, 1, explicit=False)
        return
    if basic[:1].isdigit():
        ev.batter_event = True
        _parse_outs(ev, basic)
        ev.fielders = re.sub(r"\([B123]\)|\D", "", basic)  # not the runners put out: 64(1)3
        return
    for code, kind in (("IW", "ibb"), ("I", "ibb"), ("W", "walk")):
        if basic.startswith(code) and not basic.startswith("WP"):
            ev.kind, ev.batter_event = kind, True
            ev.advances[0] = Advance(0, 1, explicit=False)
            return
    if basic.startswith("K"):
        ev.kind, ev.batter_event = "strikeout", True
        seq = basic[1:] or "2"
        _credit(ev, seq, True)
        ev.advances[0] = Advance(0, 1, out=True, explicit=False)
        return
    if basic.startswith("FLE"):
        ev.kind = "foul_error"
        ev.errors.append(int(basic[3]))
        return
    if basic.startswith("FC"):
        ev.kind, ev.batter_event = "fc", True
        ev.fielders = basic[2:]
        ev.advances[0] = Advance(0, 1, explicit=False)
        return
    if basic.startswith("E"):
        ev.kind, ev.batter_event = "error", True
        ev.fielders = basic[1:]
        ev.errors.append(int(basic[1]))
        ev.advances[0] = Advance(0, 1, error=True, error_by=ev.errors[-1], explicit=False)
        return
    if basic == "C" or basic.startswith("C/"):
        ev.kind, ev.batter_event = "interference", True
        ev.advances[0] = Advance(0, 1, explicit=False)
        return
    _parse_runner_play(ev, basic)


def _parse_runner_play(ev: Event, basic: str) -> None:
    """Plays that do not end the plate appearance: SB, CS, PO, POCS, WP, PB, BK, DI, OA, NP."""
    for part in basic.split(";"):
        m = re.match(r"^(SB|CS|POCS|PO)([123H])(?:\((.*)\))?$", part)
        if m:
            kind, base, seq = m.group(1), m.group(2), m.group(3) or ""
            if kind == "SB":
                start = BASES[base] - 1
                ev.kind = ev.kind or "sb"
                ev.sb.append(start)
                _set(ev, Advance(start, BASES[base]))
                continue
            if kind == "PO":
                start = BASES[base]
                safe = "E" in seq
                _credit(ev, seq, not safe)
                ev.kind = ev.kind or "pickoff"
                if not safe:
                    _set(ev, Advance(start, start, out=True))
                continue
            start = BASES[base] - 1
            safe = "E" in seq
            _credit(ev, seq, not safe)
            ev.kind = ev.kind or ("pickoff_cs" if kind == "POCS" else "cs")
            if safe:
                _set(ev, Advance(start, BASES[base], error=True,
                                 error_by=ev.errors[-1] if ev.errors else None,
                                 throwing="/TH" in seq))
            else:
                ev.cs.append(start)
                _set(ev, Advance(start, BASES[base], out=True))
            continue
        code = part.rstrip("#!?")
        if re.fullmatch(r"E\d", code):  # K+E2: the catcher dropped the third strike
            ev.errors.append(int(code[1]))
            continue
        simple = {"WP": "wild_pitch", "PB": "passed_ball", "BK": "balk", "DI": "indifference",
                  "OA": "other_advance", "NP": "no_play", "OBS": "obstruction"}
        if code in simple:
            ev.kind = ev.kind or simple[code]
            ev.wp |= code == "WP"
            ev.pb |= code == "PB"
            ev.bk |= code == "BK"
            continue
        raise ValueError(f"unknown event {ev.text!r}")


def _parse_advance(ev: Event, text: str) -> None:
    m = re.match(r"^([B123])([-X])([123H])(.*)$", text)
    if not m:
        raise ValueError(f"bad advance {text!r} in {ev.text!r}")
    start, end = BASES[m.group(1)], BASES[m.group(3)]
    adv = Advance(start, end, out=m.group(2) == "X")
    groups = _PAREN.findall(m.group(4))
    # a separate putout sequence, e.g. BXH(52)(E9/TH), means the out stood despite the error
    putout_group = any(g.split("/")[0].isdigit() for g in groups)
    for group in groups:
        g = group.split("/")[0]
        if g in ("UR", "TUR"):
            adv.unearned = True
        elif g in ("NR", "NORBI"):
            adv.rbi = False
        elif g == "RBI":
            adv.rbi = True
        elif "E" in g and (charged := re.search(r"E(\d)", g)):
            adv.error = True
            adv.error_by = int(charged.group(1))
            adv.throwing = "/TH" in group
            _credit(ev, g, False)
            if adv.out and (not putout_group or g[0].isdigit()):  # the error negated the out
                adv.out = False
        elif g and g[0].isdigit():
            _credit(ev, g, adv.out)
    _set(ev, adv, explicit=True)


def parse_event(text: str) -> Event:
    """Parse one ``play`` record's event field."""
    text = text.strip()
    main, _, adv_text = text.partition(".")
    parts = _split_top(main, "/")
    basic, mods = parts[0].rstrip("#!?"), [p.rstrip("#!?") for p in parts[1:] if p]
    ev = Event(text=text, kind="", batter_event=False, modifiers=mods)
    first, plus, second = basic.partition("+")
    if first.startswith(("K", "W", "IW", "I")) and plus and not first.startswith("WP"):
        _parse_basic(ev, first)
        kind = ev.kind
        ev.kind = ""
        _parse_runner_play(ev, second)
        ev.kind = kind
    else:
        _parse_basic(ev, basic)
    if ev.kind == "error" and 0 in ev.advances:
        ev.advances[0].throwing = any(m.startswith("TH") for m in mods)
    if ev.kind == "interference":
        for mod in mods:
            if re.fullmatch(r"E\d", mod):
                ev.errors.append(int(mod[1]))
    for a in (adv_text.split(";") if adv_text else []):
        if a:
            _parse_advance(ev, a)
    if ev.kind == "strikeout" and ev.advances[0].explicit and ev.putouts:
        # K+WP.B-1: the batter reached; K.BX1(23): the putout is the advance's
        ev.putouts.pop(0)
    ev.assists = list(dict.fromkeys(ev.assists))  # at most one assist per fielder per play
    return ev
