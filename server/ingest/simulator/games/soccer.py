"""Soccer: goals, cards and substitutions by the minute.

Goals are Poisson (team strength, home advantage), which gives about a quarter of league games
drawn. A knockout game level after 90 minutes plays extra time and then penalties; the shootout
decides the winner but, as in the real game, adds nothing to the score.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from server.catalog.simulated import SOCCER, SPORTS
from server.ingest.simulator.games import GameIn, GameOut, Play, PlayerLine, clean

class _Event(NamedTuple):
    """Something at a match minute, before it is a play."""

    minute: float
    side: int
    kind: str  # "goal", "yellow", "red", "sub"
    player: int  # the scorer, the booked player, or the substitute coming on
    other: int  # the goal's assist or the player going off (-1: none)


_CODES = ("MIN", "G", "A", "SH", "SOT", "FC", "YC", "RC", "OFF", "COR", "SV", "GA", "CS")
_IDX = {c: k for k, c in enumerate(_CODES)}
# attacking weight of the eleven starters: GK, 4 DF, 3 MF, 3 FW
_ATTACK = np.array([0.0, 0.25, 0.3, 0.3, 0.25, 0.8, 0.9, 0.8, 1.6, 1.8, 1.5])


ET_START = 95.0  # event minute where extra time begins: regulation's events end by 94 (90+4)


def _period_clock(m: float) -> tuple[int, str]:
    """Period and match clock of an event at simulated minute ``m``: halves 1 and 2 with up to
    five minutes of stoppage (90+1' .. 90+5'), then extra time's two halves of 15 minutes
    (periods 3 and 4, 91' .. 120')."""
    if m < ET_START:
        return (1 if m < 45 else 2), (f"{int(m) + 1}'" if m < 90 else f"90+{int(m) - 89}'")
    extra = m - ET_START
    return (3 if extra < 15 else 4), f"{91 + int(extra)}'"


class _Squads:
    """Each side's starting eleven, bench and substitutions: who is on the pitch at a minute and
    how long each starter plays."""

    def __init__(self, g: GameIn) -> None:
        self.xi = [list(g.rosters[side][:11]) for side in (0, 1)]
        self.bench = [list(g.rosters[side][12:21]) for side in (0, 1)]
        self.minutes = [[90] * 11 for _ in (0, 1)]  # each starter's minute off (90: the whole game)
        self.sub_in: list[list[tuple[int, int]]] = [[], []]  # (player, minute on)

    def substitute(self, rng: np.random.Generator, events: list[_Event]) -> None:
        """Each side brings on three to five substitutes for outfield starters in the second half,
        appending their events."""
        for side in (0, 1):
            n_subs = int(rng.integers(3, 6))
            outs = rng.choice(np.arange(1, 11), n_subs, replace=False).tolist()
            mins = np.sort(rng.integers(46, 89, n_subs)).tolist()
            for j, (k, m) in enumerate(zip(outs, mins)):
                pid = self.bench[side][j]
                self.minutes[side][k] = m
                self.sub_in[side].append((pid, m))
                events.append(_Event(m + 0.5, side, "sub", pid, self.xi[side][k]))

    def on_pitch(self, side: int, k: int, minute: float) -> int:
        """Who plays starter ``k``'s position at a minute: the starter until his minute off, then
        his substitute."""
        if minute < self.minutes[side][k]:
            return self.xi[side][k]
        idx = [x for x, (_, m) in enumerate(self.sub_in[side]) if m == self.minutes[side][k]]
        return self.sub_in[side][idx[0]][0] if idx else self.xi[side][k]

    def players(self, side: int) -> list[int]:
        """Everyone who plays for the side: the eleven, then the substitutes in order on."""
        return self.xi[side] + [p for p, _ in self.sub_in[side]]


def simulate(g: GameIn, rng: np.random.Generator) -> GameOut:
    """Play one game from its own generator; the same generator gives the same game."""
    squads = _Squads(g)
    events: list[_Event] = []
    squads.substitute(rng, events)
    p_att = _ATTACK / _ATTACK.sum()
    stats: dict[int, list[int]] = {}
    for side in (0, 1):
        for pid in squads.players(side):
            stats[pid] = [0] * len(_CODES)
    _regulation_events(g, rng, squads, p_att, events)
    events.sort(key=lambda e: e.minute)
    full_time, overtime, pens_winner = _extra_time(g, rng, squads, p_att, events)
    cut_min = g.cut * 90 if g.cut < 1 else None
    if cut_min is not None:
        events = [e for e in events if e.minute < cut_min]
    plays, score = _plays(g, events, stats)
    played = (cut_min if cut_min is not None else full_time)
    _team_stats(g, rng, squads, stats, score, played, played / full_time)
    lines = _box_lines(g, squads, stats, score, cut_min)
    if cut_min is not None:
        status = "HT" if 45 <= cut_min < 47 else f"{int(cut_min) + 1}'"
        winner = None
        periods = 1 if cut_min < 45 else 2
        overtime = None
    else:
        status = "Final"
        periods = 2 if full_time == 90 else 4
        if score[0] != score[1]:
            winner = 0 if score[0] > score[1] else 1
        else:
            winner = pens_winner
    ls = {name: [sum(1 for p in plays if p.side == side and p.scoring and p.period == h)
                 for h in range(1, periods + 1)]
          for side, name in ((0, "visitor"), (1, "home"))}
    return GameOut(score, periods, overtime, status, plays, lines, ls, winner)


def _regulation_events(g: GameIn, rng: np.random.Generator, squads: _Squads, p_att: np.ndarray,
                       events: list[_Event]) -> None:
    """Each side's goals (a Poisson count from the strength gap and home advantage, scorer and
    assist by attacking weight), yellow cards and the odd red card in the 90 minutes and stoppage,
    appended to ``events``."""
    rules = SPORTS["soccer"]
    for side in (0, 1):
        lam = SOCCER["goals"] * g.plan.scoring * np.exp(0.16 * (g.strength[side] - g.strength[1 - side])
                                                        + (rules.home_edge if side == 1 else -0.06))
        n = rng.poisson(lam)
        for m in np.sort(rng.uniform(1, 94, n)).tolist():
            k = int(rng.choice(11, p=p_att))
            a = int(rng.choice(11, p=p_att)) if rng.random() < 0.72 else -1
            if a == k:
                a = -1
            events.append(_Event(m, side, "goal", squads.on_pitch(side, k, m),
                                 squads.on_pitch(side, a, m) if a >= 0 else -1))
        for m in rng.uniform(5, 94, rng.poisson(1.9)).tolist():
            k = int(rng.integers(1, 11))
            events.append(_Event(m, side, "yellow", squads.on_pitch(side, k, m), -1))
        if rng.random() < 0.04:
            m = float(rng.uniform(30, 90))
            events.append(_Event(m, side, "red", squads.on_pitch(side, int(rng.integers(1, 11)), m), -1))


def _goals(events: list[_Event]) -> list[int]:
    """Each side's goals among the events."""
    return [sum(1 for e in events if e.kind == "goal" and e.side == s) for s in (0, 1)]


def _extra_time(g: GameIn, rng: np.random.Generator, squads: _Squads, p_att: np.ndarray,
                events: list[_Event]) -> tuple[int, str | None, int | None]:
    """A knockout game level after regulation plays 30 minutes of extra time (its goals appended to
    ``events``, starters still on play 120 minutes) and, still level, penalties. Returns the full
    time in minutes, the overtime mark ("AET", "PEN" or None) and the shootout's winner."""
    if not (g.playoff and _goals(events)[0] == _goals(events)[1]):
        return 90, None, None
    overtime = "AET"
    pens_winner = None
    for side in (0, 1):  # extra time runs on after regulation's stoppage (see ET_START)
        for m in np.sort(rng.uniform(ET_START, ET_START + 30, rng.poisson(0.3))).tolist():
            k = int(rng.choice(11, p=p_att))
            events.append(_Event(m, side, "goal", squads.on_pitch(side, k, m), -1))
    events.sort(key=lambda e: e.minute)
    goals = _goals(events)
    if goals[0] == goals[1]:
        overtime = "PEN"
        pens_winner = int(rng.random() < 0.5)
    for side in (0, 1):
        squads.minutes[side] = [m if m < 90 else 120 for m in squads.minutes[side]]
    return 120, overtime, pens_winner


def _plays(g: GameIn, events: list[_Event], stats: dict[int, list[int]]) -> tuple[list[Play], list[int]]:
    """The play-by-play of the events in minute order, crediting goals, assists and cards on the
    box score; returns the plays and the score."""
    people = g.people
    score = [0, 0]
    plays: list[Play] = []
    for m, side, kind, pid, helper in events:
        period, clock = _period_clock(m)
        name = people[pid].name
        if kind == "goal":
            score[side] += 1
            st = stats.setdefault(pid, [0] * len(_CODES))
            st[_IDX["G"]] += 1
            st[_IDX["SH"]] += 1
            st[_IDX["SOT"]] += 1
            text = f"Goal! {name} scores"
            if helper >= 0:
                stats.setdefault(helper, [0] * len(_CODES))[_IDX["A"]] += 1
                text += f", assisted by {people[helper].name}"
            plays.append(Play(period, None, clock, side, pid, None, "goal", text, True, 1, "goal"))
        elif kind in ("yellow", "red"):
            stats.setdefault(pid, [0] * len(_CODES))[_IDX["YC" if kind == "yellow" else "RC"]] += 1
            stats[pid][_IDX["FC"]] += 1
            plays.append(Play(period, None, clock, side, pid, None, f"{kind}_card",
                              f"{name} shown a {kind} card", False, 0, "card"))
        else:
            plays.append(Play(period, None, clock, side, pid, None, "substitution",
                              f"Substitution: {name} replaces {people[helper].name}", False, 0, "sub"))
    return plays, score


def _team_stats(g: GameIn, rng: np.random.Generator, squads: _Squads, stats: dict[int, list[int]],
                score: list[int], played: float, frac: float) -> None:
    """Spread each side's shots (at least its goals plus two) and shots on target over its players
    by attacking weight (a substitute weighs 0.9), then its fouls, offsides and corners evenly, and
    set everyone's minutes; ``frac`` of the game has been ``played`` minutes."""
    for side in (0, 1):
        team_sh = max(int(rng.poisson(SOCCER["shots"] * frac * np.exp(0.1 * g.strength[side]))), score[side] + 2)
        team_sot = max(int(team_sh * SOCCER["sot"]), score[side])
        on = [(k, pid) for k, pid in enumerate(squads.xi[side])] + [(-1, p) for p, _ in squads.sub_in[side]]
        weights = np.array([_ATTACK[k] + 0.05 if k >= 0 else 0.9 for k, _ in on])
        w = weights / weights.sum()
        for kind, total in (("SH", team_sh), ("SOT", team_sot)):
            already = sum(stats[p][_IDX[kind]] for _, p in on)
            for j in rng.choice(len(on), max(0, total - already), p=w).tolist():
                stats[on[j][1]][_IDX[kind]] += 1
                if kind == "SOT":
                    stats[on[j][1]][_IDX["SH"]] += 1 if stats[on[j][1]][_IDX["SH"]] < stats[on[j][1]][_IDX["SOT"]] else 0
        for kind, lam in (("FC", 11.0), ("OFF", 1.8), ("COR", 5.0)):
            for j in rng.choice(len(on), int(rng.poisson(lam * frac)), p=np.full(len(on), 1 / len(on))).tolist():
                stats[on[j][1]][_IDX[kind]] += 1
        for k, pid in enumerate(squads.xi[side]):
            stats[pid][_IDX["MIN"]] = int(min(squads.minutes[side][k], played))
        for pid, m in squads.sub_in[side]:
            stats[pid][_IDX["MIN"]] = int(max(0, played - m))


def _box_lines(g: GameIn, squads: _Squads, stats: dict[int, list[int]], score: list[int],
               cut_min: float | None) -> list[PlayerLine]:
    """The goalkeepers' saves, goals against and clean sheet (a game in progress keeps none), then
    a line for each starter and each substitute already on."""
    for side in (0, 1):
        gk = stats[squads.xi[side][0]]
        sot_against = sum(stats[p][_IDX["SOT"]] for p in squads.players(1 - side))
        gk[_IDX["GA"]] = score[1 - side]
        gk[_IDX["SV"]] = sot_against - score[1 - side]
        gk[_IDX["CS"]] = int(score[1 - side] == 0 and cut_min is None)
    people = g.people
    lines: list[PlayerLine] = []
    for side in (0, 1):
        for pid in squads.xi[side]:
            lines.append(PlayerLine(pid, side, True, people[pid].position,
                                    clean(dict(zip(_CODES, stats[pid]))) or {"MIN": 0}))
        for pid, m in squads.sub_in[side]:
            if cut_min is not None and m >= cut_min:
                continue
            lines.append(PlayerLine(pid, side, False, people[pid].position,
                                    clean(dict(zip(_CODES, stats[pid]))) or {"MIN": 0}))
    return lines
