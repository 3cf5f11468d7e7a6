"""Hockey: goals, penalties and saved shots placed on the game clock.

Goals arrive as Poisson processes (team strength and home ice), penalties open power plays
(a goal against a short-handed team is a power-play goal), a tie after regulation goes to
overtime and then, where the league has one, a shootout whose deciding goal is a scoring play.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from server.catalog.simulated import HOCKEY, SPORTS
from server.ingest.simulator.games import GameIn, GameOut, Play, PlayerLine, clean, ordinal

_CODES = ("TOI", "G", "A", "PTS", "SOG", "PIM", "PPG", "SHG", "GWG", "PM", "HIT", "BLK", "SA", "GA",
          "SV", "W", "L", "SHO")
_IDX = {c: k for k, c in enumerate(_CODES)}
_SKATERS = 18  # 12 forwards and 6 defence dress
_SHOOT = np.array([1.5, 1.3, 1.3] * 2 + [1.0] * 6 + [0.45] * 6)
_TOI = np.array([19, 18, 18, 17, 16, 16, 14, 13, 13, 11, 10, 10, 24, 23, 21, 20, 18, 16], dtype=float)
# Goal strength: even, on the power play, short-handed.
_EVEN, _POWER_PLAY, _SHORT_HANDED = 0, 1, 2


class _Event(NamedTuple):
    """Something on the game clock, before it is a play."""

    t: float  # seconds of game time (shootout: after overtime)
    side: int
    kind: str  # "pen", "goal", "so" (the shootout's deciding goal), "shot"
    skater: int  # index into the side's dressed skaters: penalised, scorer or shooter
    other: int  # a goal's first assist, -1 for none; a penalty's infraction (_PENALTIES index)
    second_assist: int  # -1 for none
    strength: int  # a goal's: _EVEN, _POWER_PLAY or _SHORT_HANDED


_PENALTIES = ("tripping", "hooking", "slashing", "holding", "interference", "roughing",
              "high-sticking", "cross-checking")


def simulate(g: GameIn, rng: np.random.Generator) -> GameOut:
    """Play one game from its own generator; the same generator gives the same game."""
    rules = SPORTS["hockey"]
    reg = rules.periods * rules.period_minutes * 60
    dressed, goalies = _dress(g, rng)
    stat = [np.zeros((_SKATERS + 1, len(_CODES)), dtype=np.int64) for _ in (0, 1)]
    shoot_p = _SHOOT / _SHOOT.sum()
    events, pens = _penalties(rng, reg, stat)
    events += _regulation_goals(g, rng, reg, shoot_p, pens)
    events.sort(key=lambda e: e.t)
    ot = _overtime(g, rng, reg, shoot_p, pens, events)
    events.sort(key=lambda e: e.t)
    duration_sec = max(reg, max((e.t for e in events), default=0.0))
    cut_sec = g.cut * reg if g.cut < 1 else None
    if cut_sec is not None:
        events = [e for e in events if e.t < cut_sec]
    frac = 1.0 if cut_sec is None else g.cut
    play_end = cut_sec if cut_sec is not None else \
        (reg + rules.ot_minutes * 60 if ot == "SO" else duration_sec)
    events += _saved_shots(rng, events, frac, play_end, shoot_p)
    events.sort(key=lambda e: e.t)
    final_score = [sum(1 for e in events if e.kind in ("goal", "so") and e.side == s) for s in (0, 1)]
    winner = None if final_score[0] == final_score[1] or cut_sec is not None else \
        (0 if final_score[0] > final_score[1] else 1)
    plays, score = _plays(g, events, reg, dressed, goalies, stat, final_score, winner)
    played = (cut_sec if cut_sec is not None else duration_sec) / 60
    lines = _box_lines(g, rng, stat, dressed, goalies, score, winner, frac, played)
    if cut_sec is not None:
        p_no, clock = _clock(cut_sec, reg, "goal")
        status = f"{ordinal(p_no)} {clock.lstrip('0') if not clock.startswith('00') else clock[1:]}"
        period_out, ot = p_no, None
    else:
        status = "Final"
        period_out = 5 if ot == "SO" else max(3, _clock(duration_sec - 1, reg, "goal")[0])
    return GameOut(score, period_out, ot, status, plays, lines, _line_score(plays, period_out), winner)


def _dress(g: GameIn, rng: np.random.Generator) -> tuple[list[list[int]], list[int]]:
    """Each side's 18 dressed skaters (sometimes a seventh defenceman for the twelfth forward) and
    its goalie (the starter most nights, the backup otherwise)."""
    dressed = []
    goalies = []
    for side in (0, 1):
        roster = g.rosters[side]
        skaters = list(roster[:12]) + list(roster[12:18])
        if rng.random() < 0.3:
            skaters[11] = roster[18 + int(rng.integers(2))]  # extra defenceman dresses
        dressed.append(skaters)
        goalies.append(roster[20] if rng.random() < 0.78 else roster[21])
    return dressed, goalies


def _penalties(rng: np.random.Generator, reg: float, stat: list[np.ndarray],
               ) -> tuple[list[_Event], list[list[tuple[float, int]]]]:
    """Each side's minor penalties in regulation (their minutes go on the box score), drawn before
    the goals: they decide which goals are power-play goals. Returns the events and, per side, the
    penalties' (time, skater)."""
    events: list[_Event] = []
    pens: list[list[tuple[float, int]]] = [[], []]
    for side in (0, 1):
        n = rng.poisson(HOCKEY["pen"])
        for t, who in zip(np.sort(rng.uniform(0, reg, n)).tolist(), rng.integers(0, _SKATERS, n).tolist()):
            pens[side].append((t, who))
            stat[side][who][_IDX["PIM"]] += 2
            events.append(_Event(t, side, "pen", who, int(rng.integers(len(_PENALTIES))), 0, _EVEN))
    return events, pens


def _regulation_goals(g: GameIn, rng: np.random.Generator, reg: float, shoot_p: np.ndarray,
                      pens: list[list[tuple[float, int]]]) -> list[_Event]:
    """Each side's goals in regulation: a Poisson count from the strength gap and home ice, placed
    uniformly on the clock."""
    rules = SPORTS["hockey"]
    events = []
    for side in (0, 1):
        lam = HOCKEY["goals"] * g.plan.scoring * np.exp(0.09 * (g.strength[side] - g.strength[1 - side])
                                                        + (rules.home_edge if side == 1 else 0.0))
        n = rng.poisson(lam)
        for t in np.sort(rng.uniform(0, reg, n)).tolist():
            events.append(_goal(rng, t, side, shoot_p, pens))
    return events


def _overtime(g: GameIn, rng: np.random.Generator, reg: float, shoot_p: np.ndarray,
              pens: list[list[tuple[float, int]]], events: list[_Event]) -> str | None:
    """Settle a tie after regulation, appending the deciding goal to ``events``; returns the
    overtime mark ("OT", "2OT", ..., "SO") or None when regulation decided it.

    A playoff game plays 20-minute sudden-death periods until a goal. A regular-season game plays
    one short overtime; if nobody scores, a league without ties goes to a shootout, and a league
    with ties leaves it level ("OT")."""
    score = [sum(1 for e in events if e.kind == "goal" and e.side == s) for s in (0, 1)]
    if score[0] != score[1]:
        return None
    rules = SPORTS["hockey"]
    if g.playoff:
        t = reg
        period = 3
        while True:
            period += 1
            wait = rng.exponential(20 * 60 / (2 * HOCKEY["goals"] / 3))
            if wait < 20 * 60:
                side = int(rng.random() < 0.5 + 0.05 * np.tanh(g.strength[1] - g.strength[0]))
                events.append(_goal(rng, t + wait, side, shoot_p, pens))
                return "OT" if period == 4 else f"{period - 3}OT"
            t += 20 * 60
    ot_len = rules.ot_minutes * 60
    if rng.random() < 0.58:
        side = int(rng.random() < 0.5 + 0.05 * np.tanh(g.strength[1] - g.strength[0]))
        events.append(_goal(rng, reg + rng.uniform(0, ot_len), side, shoot_p, pens))
        return "OT"
    if not g.plan.ties:
        side = int(rng.random() < 0.5)
        events.append(_Event(reg + ot_len + 1, side, "so", int(rng.choice(_SKATERS, p=shoot_p)), -1,
                             -1, _EVEN))
        return "SO"
    return "OT"


def _saved_shots(rng: np.random.Generator, events: list[_Event], frac: float, play_end: float,
                 shoot_p: np.ndarray) -> list[_Event]:
    """Shots on goal that were saved, on the clock like the goals: each team's shots (its goals
    included, at least three more than its goals) make its skaters' SOG and the other goalie's
    saves. ``frac`` scales the count for a game in progress."""
    shots = []
    for side in (0, 1):
        n_goals = sum(1 for e in events if e.side == side and e.kind in ("goal", "so"))
        extra = max(int(rng.poisson(HOCKEY["sog"] * frac)), n_goals + 3) - n_goals
        shooters = rng.choice(_SKATERS, extra, p=shoot_p).tolist()
        for t, k in zip(rng.uniform(0, play_end, extra).tolist(), shooters):
            shots.append(_Event(t, side, "shot", k, -1, -1, _EVEN))
    return shots


def _plays(g: GameIn, events: list[_Event], reg: float, dressed: list[list[int]], goalies: list[int],
           stat: list[np.ndarray], final_score: list[int], winner: int | None,
           ) -> tuple[list[Play], list[int]]:
    """The play-by-play of the events in time order, crediting goals, assists, shots and the
    game-winning goal on the box score; returns the plays and the score."""
    plays: list[Play] = []
    run = [0, 0]
    people = g.people
    for t, side, kind, a, b, c, strength in events:  # a: the skater; b, c: assists (b: infraction)
        p_no, clock = _clock(t, reg, kind)
        team = dressed[side]
        if kind == "pen":
            who = people[team[a]].name
            plays.append(Play(p_no, None, clock, side, team[a], None, "penalty",
                              f"{who} 2 minutes for {_PENALTIES[b]}", False, 0, "penalty"))
            continue
        if kind == "shot":
            stat[side][a][_IDX["SOG"]] += 1
            plays.append(Play(p_no, None, clock, side, team[a], None, "shot",
                              f"{people[team[a]].name} shot on goal, saved by "
                              f"{people[goalies[1 - side]].name}", False, 0, "shot|saved"))
            continue
        run[side] += 1
        st = stat[side]
        st[a][_IDX["G"]] += 1
        st[a][_IDX["SOG"]] += 1
        # The game-winner: the winner's goal that puts it one ahead of the loser's final total.
        game_winner = winner == side and run[side] == final_score[1 - side] + 1
        plays.append(_goal_play(g, p_no, clock, side, team, kind, a, b, c, strength, st, game_winner))
    return plays, run


def _goal_play(g: GameIn, p_no: int, clock: str, side: int, team: list[int], kind: str, a: int, b: int,
               c: int, strength: int, st: np.ndarray, game_winner: bool) -> Play:
    """A goal's (or the shootout winner's) play: its text and tags, and the assists, special-teams
    goal and game-winner credited on the side's box score ``st``."""
    people = g.people
    scorer = team[a]
    text = f"{people[scorer].name} scores"
    if kind == "so":
        text = f"{people[scorer].name} scores the shootout winner"
        tags = "goal|shootout"
    else:
        assists = [x for x in (b, c) if x >= 0]
        for x in assists:
            st[x][_IDX["A"]] += 1
        if assists:
            text += " (" + ", ".join(people[team[x]].name for x in assists) + ")"
        else:
            text += " (unassisted)"
        tags = "goal"
        if strength == _POWER_PLAY:
            st[a][_IDX["PPG"]] += 1
            text += ", power-play goal"
            tags += "|power-play"
        elif strength == _SHORT_HANDED:
            st[a][_IDX["SHG"]] += 1
            text += ", short-handed goal"
            tags += "|short-handed"
        if game_winner:
            st[a][_IDX["GWG"]] += 1
    return Play(p_no, None, clock, side, scorer, None,
                "goal" if kind == "goal" else "shootout_goal", text, True, 1, tags)


def _box_lines(g: GameIn, rng: np.random.Generator, stat: list[np.ndarray], dressed: list[list[int]],
               goalies: list[int], score: list[int], winner: int | None, frac: float,
               played: float) -> list[PlayerLine]:
    """Finish the box score and turn it into player lines: hits, blocks and ice time for the
    skaters (``played`` minutes, ``frac`` of a game), the goalies' shots, saves and decision, and a
    plus-minus leaning with the margin."""
    for side in (0, 1):
        st = stat[side]
        st[:_SKATERS, _IDX["HIT"]] = rng.poisson(1.2 * frac, _SKATERS)
        st[:_SKATERS, _IDX["BLK"]] = rng.poisson(0.75 * frac, _SKATERS)
        toi = _TOI / _TOI.sum() * played * 5
        st[:_SKATERS, _IDX["TOI"]] = np.round(toi).astype(np.int64)
        st[_SKATERS, _IDX["TOI"]] = round(played)
        st[:, _IDX["PTS"]] = st[:, _IDX["G"]] + st[:, _IDX["A"]]
    for side in (0, 1):
        gk = stat[side][_SKATERS]
        sa = int(stat[1 - side][:, _IDX["SOG"]].sum())
        ga = score[1 - side]
        gk[_IDX["SA"]] = sa
        gk[_IDX["GA"]] = ga
        gk[_IDX["SV"]] = sa - ga
        if winner is not None:
            gk[_IDX["W" if winner == side else "L"]] = 1
            gk[_IDX["SHO"]] = int(ga == 0)
        margin = score[side] - score[1 - side]
        stat[side][:_SKATERS, _IDX["PM"]] = np.clip(np.round(rng.normal(margin * 0.3, 1.0, _SKATERS)), -4, 4)
    lines: list[PlayerLine] = []
    for side in (0, 1):
        for k, pid in enumerate(dressed[side] + [goalies[side]]):
            vals = clean(dict(zip(_CODES, stat[side][k].tolist())))
            lines.append(PlayerLine(pid, side, k < 6 or k == _SKATERS,
                                    "G" if k == _SKATERS else g.people[pid].position, vals or {"TOI": 0}))
    return lines


def _line_score(plays: list[Play], period_out: int) -> dict[str, list[int]]:
    """Each side's goals by period (at least three; overtime periods and the shootout after)."""
    line_score: dict[str, list[int]] = {"visitor": [], "home": []}
    for side, key in ((0, "visitor"), (1, "home")):
        per = [0] * max(period_out, 3)
        for p in plays:
            if p.side == side and p.scoring:
                per[min(p.period, len(per)) - 1] += 1
        line_score[key] = per
    return line_score


def _goal(rng: np.random.Generator, t: float, side: int, shoot_p: np.ndarray,
          pens: list[list[tuple[float, int]]]) -> _Event:
    """A goal at ``t``: the scorer by shooting weight, up to two assists, and its strength (a
    penalty of either side in the two minutes before)."""
    a = int(rng.choice(_SKATERS, p=shoot_p))
    r = rng.random()
    helpers = rng.choice(_SKATERS, 2, replace=False).tolist()
    helpers = [h for h in helpers if h != a]
    b = helpers[0] if r < 0.92 else -1
    c = helpers[1] if r < 0.62 and len(helpers) > 1 else -1
    strength = _EVEN
    if any(pt <= t < pt + 120 for pt, _ in pens[1 - side]):
        strength = _POWER_PLAY
    elif any(pt <= t < pt + 120 for pt, _ in pens[side]):
        strength = _SHORT_HANDED
    return _Event(t, side, "goal", a, b, c, strength)


def _clock(t: float, reg: float, kind: str) -> tuple[int, str]:
    if kind == "so":
        return 5, "00:00"
    if t < reg:
        p = int(t // 1200) + 1
        left = int(p * 1200 - t)
    else:
        p = 4 + int((t - reg) // 1200)
        left = int(1200 - (t - reg) % 1200)
    left = max(0, min(1200, left))
    return p, f"{left // 60:02d}:{left % 60:02d}"
