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


def simulate(g: GameIn, rng: np.random.Generator) -> GameOut:
    plan = g.plan
    rules = SPORTS["soccer"]
    xi = []
    bench = []
    for side in (0, 1):
        roster = g.rosters[side]
        xi.append(list(roster[:11]))
        bench.append(list(roster[12:21]))
    minutes = [[90] * 11 for _ in (0, 1)]
    sub_in: list[list[tuple[int, int]]] = [[], []]  # (player, minute on)
    events: list[_Event] = []
    full_time = 90
    for side in (0, 1):
        n_subs = int(rng.integers(3, 6))
        outs = rng.choice(np.arange(1, 11), n_subs, replace=False).tolist()
        mins = np.sort(rng.integers(46, 89, n_subs)).tolist()
        for j, (k, m) in enumerate(zip(outs, mins)):
            pid = bench[side][j]
            minutes[side][k] = m
            sub_in[side].append((pid, m))
            events.append(_Event(m + 0.5, side, "sub", pid, xi[side][k]))
    # who is on the pitch at a minute: the starter until his minute, then the substitute
    def on_pitch(side: int, k: int, minute: float) -> int:
        for pid, m in sub_in[side]:
            pass
        if minute < minutes[side][k]:
            return xi[side][k]
        idx = [x for x, (_, m) in enumerate(sub_in[side]) if m == minutes[side][k]]
        return sub_in[side][idx[0]][0] if idx else xi[side][k]

    p_att = _ATTACK / _ATTACK.sum()
    score = [0, 0]
    stats: dict[int, list[int]] = {}
    for side in (0, 1):
        for pid in xi[side] + [p for p, _ in sub_in[side]]:
            stats[pid] = [0] * len(_CODES)
    for side in (0, 1):
        lam = SOCCER["goals"] * plan.scoring * np.exp(0.16 * (g.strength[side] - g.strength[1 - side])
                                                      + (rules.home_edge if side == 1 else -0.06))
        n = rng.poisson(lam)
        for m in np.sort(rng.uniform(1, 94, n)).tolist():
            k = int(rng.choice(11, p=p_att))
            a = int(rng.choice(11, p=p_att)) if rng.random() < 0.72 else -1
            if a == k:
                a = -1
            events.append(_Event(m, side, "goal", on_pitch(side, k, m),
                                 on_pitch(side, a, m) if a >= 0 else -1))
        for m in rng.uniform(5, 94, rng.poisson(1.9)).tolist():
            k = int(rng.integers(1, 11))
            events.append(_Event(m, side, "yellow", on_pitch(side, k, m), -1))
        if rng.random() < 0.04:
            m = float(rng.uniform(30, 90))
            events.append(_Event(m, side, "red", on_pitch(side, int(rng.integers(1, 11)), m), -1))
    events.sort(key=lambda e: e.minute)
    reg_goals = [sum(1 for e in events if e.kind == "goal" and e.side == s) for s in (0, 1)]
    overtime = None
    pens_winner = None
    if g.playoff and reg_goals[0] == reg_goals[1]:
        full_time = 120
        overtime = "AET"
        for side in (0, 1):  # extra time runs on after regulation's stoppage (see ET_START)
            for m in np.sort(rng.uniform(ET_START, ET_START + 30, rng.poisson(0.3))).tolist():
                k = int(rng.choice(11, p=p_att))
                events.append(_Event(m, side, "goal", on_pitch(side, k, m), -1))
        events.sort(key=lambda e: e.minute)
        reg_goals = [sum(1 for e in events if e.kind == "goal" and e.side == s) for s in (0, 1)]
        if reg_goals[0] == reg_goals[1]:
            overtime = "PEN"
            pens_winner = int(rng.random() < 0.5)
        for side in (0, 1):
            minutes[side] = [m if m < 90 else 120 for m in minutes[side]]
    cut_min = g.cut * 90 if g.cut < 1 else None
    if cut_min is not None:
        events = [e for e in events if e.minute < cut_min]
    people = g.people
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
    played = (cut_min if cut_min is not None else full_time)
    frac = played / full_time
    lines: list[PlayerLine] = []
    for side in (0, 1):
        team_sh = max(int(rng.poisson(SOCCER["shots"] * frac * np.exp(0.1 * g.strength[side]))), score[side] + 2)
        team_sot = max(int(team_sh * SOCCER["sot"]), score[side])
        on = [(k, pid) for k, pid in enumerate(xi[side])] + [(-1, p) for p, _ in sub_in[side]]
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
        for k, pid in enumerate(xi[side]):
            st = stats[pid]
            st[_IDX["MIN"]] = int(min(minutes[side][k], played))
        for pid, m in sub_in[side]:
            stats[pid][_IDX["MIN"]] = int(max(0, played - m))
    for side in (0, 1):
        gk = stats[xi[side][0]]
        sot_against = sum(stats[p][_IDX["SOT"]] for p in xi[1 - side] + [q for q, _ in sub_in[1 - side]])
        gk[_IDX["GA"]] = score[1 - side]
        gk[_IDX["SV"]] = sot_against - score[1 - side]
        gk[_IDX["CS"]] = int(score[1 - side] == 0 and cut_min is None)
    for side in (0, 1):
        for k, pid in enumerate(xi[side]):
            lines.append(PlayerLine(pid, side, True, people[pid].position,
                                    clean(dict(zip(_CODES, stats[pid]))) or {"MIN": 0}))
        for pid, m in sub_in[side]:
            if cut_min is not None and m >= cut_min:
                continue
            lines.append(PlayerLine(pid, side, False, people[pid].position,
                                    clean(dict(zip(_CODES, stats[pid]))) or {"MIN": 0}))
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
