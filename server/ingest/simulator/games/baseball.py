"""Baseball, plate appearance by plate appearance and pitch by pitch.

Each plate appearance draws its outcome from per-PA rates (adjusted by team strength and home
field) and a pitch sequence consistent with it (Retrosheet codes: B ball, C called strike,
S swinging strike, F foul, X in play, H hit by pitch) from pools built once from a count-by-count
model. Runners, outs, runs, RBI, pitching changes, fielding credits and the pitchers of record
follow from the plays, so the lines add up to the score.
"""
from __future__ import annotations

import numpy as np

from server.ingest.simulator.games import (GameIn, GameOut, PlatePitches, Play, PlayerLine, Uniforms,
                                           clean, ordinal)
from server.ingest.simulator.rules import BASEBALL_PA, SPORTS

_OUTCOMES = tuple(BASEBALL_PA)
_BASE_P = np.array([BASEBALL_PA[k] for k in _OUTCOMES])
_HIT_LIKE = np.array([k in ("BB", "HBP", "1B", "2B", "3B", "HR") for k in _OUTCOMES])
_FIELDS = ("left field", "center field", "right field")
_IF = ("shortstop", "second base", "third base", "first base", "pitcher")
_IF_POS = ("SS", "2B", "3B", "1B", "P")
_OF_POS = ("LF", "CF", "RF")
_RESULT = {"B": "Ball", "C": "Called strike", "S": "Swinging strike", "F": "Foul",
           "X": "In play", "H": "Hit by pitch"}
RESULTS = _RESULT


def _build_pools(n: int = 24000) -> dict[str, list[tuple[str, str, list[tuple[int, int]]]]]:
    """Pitch sequences by how the plate appearance ends: (codes, count before last, counts)."""
    rng = np.random.default_rng(20260101)
    u = rng.random(n * 16).tolist()
    i = 0
    pools: dict[str, list[tuple[str, str, list[tuple[int, int]]]]] = {"K": [], "BB": [], "HBP": [], "X": []}
    for _ in range(n):
        b = s = 0
        codes = []
        counts = []
        while True:
            r = u[i]
            i += 1
            counts.append((b, s))
            if r < 0.355:
                codes.append("B")
                b += 1
                if b == 4:
                    kind = "BB"
                    break
            elif r < 0.525:
                codes.append("C")
                s += 1
                if s == 3:
                    kind = "K"
                    break
            elif r < 0.635:
                codes.append("S")
                s += 1
                if s == 3:
                    kind = "K"
                    break
            elif r < 0.915:
                codes.append("F")
                s = min(2, s + 1)
            elif r < 0.918:
                codes.append("H")
                kind = "HBP"
                break
            else:
                codes.append("X")
                kind = "X"
                break
        last = counts[-1]
        pools[kind].append(("".join(codes), f"{last[0]}-{last[1]}", counts))
    return pools


POOLS = _build_pools()
_POOL_N = {k: len(v) for k, v in POOLS.items()}
_CODE_IDX = {c: k for k, c in enumerate(
    ("PA", "AB", "R", "H", "2B", "3B", "HR", "RBI", "BB", "IBB", "SO", "HBP", "SH", "SF", "SB", "CS",
     "GDP", "LOB", "W", "L", "SV", "GS", "OUTS", "BF", "HA", "RA", "ER", "BBA", "K", "HRA", "WP",
     "PIT", "PO", "A", "E"))}
_CODES = tuple(_CODE_IDX)
PA, AB, R, H, D2, D3, HR, RBI, BB, IBB, SO, HBP, SH, SF, SB, CS, GDP, LOB, W, L, SV, GS, OUTS, BF, \
    HA, RA, ER, BBA, K, HRA, WP, PIT, PO, A, E = range(len(_CODES))


def _rates(off: float, deff: float, home: bool, scoring: float, edge: float) -> list[float]:
    f = np.exp(0.09 * (off - deff) + (edge if home else 0.0)) * scoring
    p = np.where(_HIT_LIKE, _BASE_P * f, _BASE_P)
    p[~_HIT_LIKE] *= (1 - p[_HIT_LIKE].sum()) / p[~_HIT_LIKE].sum()
    cumulative: list[float] = np.cumsum(p).tolist()
    return cumulative


def simulate(g: GameIn, rng: np.random.Generator) -> GameOut:
    plan = g.plan
    u = Uniforms(rng)
    edge = SPORTS["baseball"].home_edge
    people = g.people
    stats: dict[int, list[int]] = {}
    order: list[list[int]] = []  # batting orders
    pos_of: dict[int, str] = {}
    defense: list[dict[str, int]] = []
    starters: list[int] = []
    bullpens: list[list[int]] = []
    for side in (0, 1):
        roster = g.rosters[side]
        lineup = list(roster[:9])
        for j, alt in ((0, 9), (1, 10), (2, 12), (3, 10), (4, 12), (5, 11), (6, 11), (7, 11), (8, 12)):
            if u() < 0.1 and roster[alt] not in lineup:
                lineup[j] = roster[alt]
        positions = ("C", "1B", "2B", "3B", "SS", "LF", "CF", "RF", "DH")
        d = {}
        for j, pid in enumerate(lineup):
            pos_of[pid] = positions[j]
            d[positions[j]] = pid
            stats[pid] = [0] * len(_CODES)
        perm = rng.permutation(9)
        order.append([lineup[k] for k in perm])
        sp = roster[13 + g.team_games[side] % 5]
        starters.append(sp)
        pen = [roster[18 + k] for k in rng.permutation(8)]
        bullpens.append(pen)
        d["P"] = sp
        defense.append(d)
        pos_of[sp] = "P"
        stats[sp] = [0] * len(_CODES)
        stats[sp][GS] = 1
    cum = [_rates(g.strength[s], g.strength[1 - s], s == 1, plan.scoring, edge) for s in (0, 1)]
    score = [0, 0]
    line_score: list[list[int]] = [[], []]
    batter_up = [0, 0]
    pitcher = [starters[0], starters[1]]  # pitcher of each side (defending for that side)
    limit = [90 + 15 * u(), 90 + 15 * u()]
    p_outs_at_entry = [0, 0]
    plays: list[Play] = []
    pitches: list[PlatePitches] = []
    want_pitches = plan.pitches
    go_ahead: list[tuple[int, int, int]] = []  # (side, its pitcher, other pitcher)
    used_pen = [0, 0]
    max_inn = plan.max_innings if not g.playoff else 0
    stop_half = 10 ** 6 if g.cut >= 1 else max(1, min(17, int(g.cut * 18)))
    half_index = 0
    status = "Final"
    walkoff = False
    inning = 0
    finished = True
    while True:
        inning += 1
        for half in (0, 1):
            if half_index >= stop_half:
                status = f"{'Top' if half == 0 else 'Bot'} {ordinal(inning)}"
                finished = False
                break
            half_index += 1
            if half == 1 and inning >= plan_innings(g) and score[1] > score[0]:
                break
            bat = half
            fld = 1 - half
            outs = 0
            bases: list[int | None] = [None, None, None]
            runs_before = score[bat]
            # Pitching change at the start of a half inning for a reliever who has done his inning.
            p = pitcher[fld]
            if p != starters[fld] and stats[p][OUTS] - p_outs_at_entry[fld] >= 3:
                _change(fld, pitcher, bullpens, used_pen, stats, limit, p_outs_at_entry, pos_of,
                        defense, u)
            if plan.ghost_runner and inning > 9:
                prev = order[bat][(batter_up[bat] - 1) % 9]
                bases[1] = prev
            while outs < 3:
                p = pitcher[fld]
                ps = stats[p]
                if ps[PIT] >= limit[fld] or (p == starters[fld] and ps[RA] >= 6):
                    _change(fld, pitcher, bullpens, used_pen, stats, limit, p_outs_at_entry, pos_of,
                            defense, u)
                    p = pitcher[fld]
                    ps = stats[p]
                # A steal attempt with a runner on first only.
                if bases[0] is not None and bases[1] is None and outs < 2 and u() < 0.045:
                    runner = bases[0]
                    rname = people[runner].last
                    if u() < 0.77:
                        bases[1], bases[0] = runner, None
                        stats[runner][SB] += 1
                        plays.append(Play(inning, "top" if half == 0 else "bottom", None, bat, runner, p,
                                      "stolen_base", f"{rname} stole second base", False, 0, "steal",
                                      None, people[p].throws, None, ""))
                    else:
                        bases[0] = None
                        outs += 1
                        stats[runner][CS] += 1
                        ps[OUTS] += 1
                        stats[defense[fld]["SS"]][PO] += 1
                        stats[defense[fld]["C"]][A] += 1
                        plays.append(Play(inning, "top" if half == 0 else "bottom", None, bat, runner, p,
                                      "caught_stealing", f"{rname} caught stealing second base", False,
                                      0, "caught-stealing", None, people[p].throws, None, ""))
                        if outs == 3:
                            break
                batter = order[bat][batter_up[bat] % 9]
                batter_up[bat] += 1
                bs = stats[batter]
                r = u()
                c = cum[bat]
                k = 0
                while k < 9 and r > c[k]:
                    k += 1
                kind = _OUTCOMES[k]
                pool_kind = kind if kind in ("K", "BB", "HBP") else "X"
                seq, count, counts = POOLS[pool_kind][u.pick(_POOL_N[pool_kind])]
                if want_pitches:
                    pitches.append(PlatePitches(len(plays), inning, half, p, batter, seq, counts))
                ps[PIT] += len(seq)
                ps[BF] += 1
                bs[PA] += 1
                b1, b2, b3 = bases
                scored: list[int] = []
                out_on = 0
                rbi = True
                bname = people[batter].last
                text = ""
                event = kind
                tags = ""
                if kind == "K":
                    out_on = 1
                    bs[SO] += 1
                    bs[AB] += 1
                    ps[K] += 1
                    stats[defense[fld]["C"]][PO] += 1
                    text = f"{bname} struck out {'swinging' if seq[-1] == 'S' else 'looking'}"
                    event, tags = "strikeout", "strikeout"
                elif kind in ("BB", "HBP"):
                    if kind == "BB":
                        bs[BB] += 1
                        ps[BBA] += 1
                        text, event, tags = f"{bname} walked", "walk", "walk"
                    else:
                        bs[HBP] += 1
                        text, event, tags = f"{bname} was hit by a pitch", "hit_by_pitch", "hbp"
                    if b1 is not None:
                        if b2 is not None:
                            if b3 is not None:
                                scored.append(b3)
                            bases = [batter, b1, b2]
                        else:
                            bases = [batter, b1, b3]
                    else:
                        bases = [batter, b2, b3]
                elif kind in ("1B", "2B", "3B", "HR", "E"):
                    field = _FIELDS[u.pick(3)]
                    if kind != "E":
                        bs[AB] += 1
                        bs[H] += 1
                        ps[HA] += 1
                    if kind == "1B" or kind == "E":
                        n3 = n2 = None
                        if b3 is not None:
                            scored.append(b3)
                        if b2 is not None:
                            if kind == "1B" and u() < 0.6:
                                scored.append(b2)
                            else:
                                n3 = b2
                        if b1 is not None:
                            if kind == "1B" and n3 is None and u() < 0.28:
                                n3 = b1
                            else:
                                n2 = b1
                        bases = [batter, n2, n3]
                        if kind == "1B":
                            text, event, tags = f"{bname} singled to {field}", "single", "hit"
                        else:
                            bs[AB] += 1
                            fpos = _IF_POS[u.pick(4)]
                            stats[defense[fld].get(fpos, pitcher[fld])][E] += 1
                            rbi = False
                            text = f"{bname} reached on an error by the {_IF[_IF_POS.index(fpos)]}"
                            event, tags = "error", "error"
                    elif kind == "2B":
                        bs[D2] += 1
                        n3 = None
                        for rr in (b3, b2):
                            if rr is not None:
                                scored.append(rr)
                        if b1 is not None:
                            if u() < 0.42:
                                scored.append(b1)
                            else:
                                n3 = b1
                        bases = [None, batter, n3]
                        text, event, tags = f"{bname} doubled to {field}", "double", "hit"
                    elif kind == "3B":
                        bs[D3] += 1
                        scored.extend(x for x in (b3, b2, b1) if x is not None)
                        bases = [None, None, batter]
                        text, event, tags = f"{bname} tripled to {field}", "triple", "hit"
                    else:
                        bs[HR] += 1
                        ps[HRA] += 1
                        scored.extend(x for x in (b3, b2, b1) if x is not None)
                        scored.append(batter)
                        bases = [None, None, None]
                        text, event, tags = f"{bname} homered to {field}", "homer", "hit|homer"
                elif kind == "GO":
                    fi = u.pick(5)
                    fpos = _IF_POS[fi]
                    fielder = defense[fld].get(fpos, pitcher[fld])
                    first = defense[fld]["1B"]
                    bs[AB] += 1
                    if b1 is not None and outs < 2 and u() < 0.45:
                        out_on = 2
                        bs[GDP] += 1
                        rbi = False
                        pivot = defense[fld]["2B" if fpos != "2B" else "SS"]
                        stats[fielder][A] += 1
                        stats[pivot][PO] += 1
                        stats[pivot][A] += 1
                        stats[first][PO] += 1
                        nb: list[int | None] = [None, None, None]
                        if outs + 2 < 3:
                            if b3 is not None:
                                scored.append(b3)
                            nb[2] = b2
                        bases = nb
                        text = f"{bname} grounded into a double play, {_IF[fi]} to {'second' if fpos != '2B' else 'short'} to first"
                        event, tags = "double_play", "out|double-play"
                    else:
                        out_on = 1
                        if fpos == "1B":
                            stats[first][PO] += 1
                        else:
                            stats[fielder][A] += 1
                            stats[first][PO] += 1
                        nb = [None, None, None]
                        if outs < 2:
                            if b1 is not None and b2 is not None and b3 is not None:
                                scored.append(b3)
                                nb = [None, b1, b2]
                            else:
                                if b3 is not None:
                                    if u() < 0.5:
                                        scored.append(b3)
                                    else:
                                        nb[2] = b3
                                if b2 is not None:
                                    if nb[2] is None:
                                        nb[2] = b2
                                    else:
                                        nb[1] = b2
                                if b1 is not None:
                                    nb[1] = b1
                        bases = nb
                        text = f"{bname} grounded out to {_IF[fi]}"
                        event, tags = "groundout", "out"
                else:  # fly out
                    fi = u.pick(5)
                    fpos = (_OF_POS + ("SS", "2B"))[fi]
                    stats[defense[fld].get(fpos, pitcher[fld])][PO] += 1
                    out_on = 1
                    if b3 is not None and outs < 2 and fi < 3 and u() < 0.55:
                        scored.append(b3)
                        bases = [b1, b2, None]
                        bs[SF] += 1
                        text = f"{bname} hit a sacrifice fly to {_FIELDS[fi]}"
                        event, tags = "sac_fly", "out|sacrifice"
                    else:
                        bs[AB] += 1
                        verb = ("flied out to", "lined out to", "popped out to")[u.pick(3)]
                        where = _FIELDS[fi] if fi < 3 else ("shortstop", "second base")[fi - 3]
                        text = f"{bname} {verb} {where}"
                        event, tags = "flyout", "out"
                outs += out_on
                ps[OUTS] += out_on
                if outs >= 3:
                    scored = []
                    lob = sum(1 for x in (b1, b2, b3) if x is not None) - (1 if out_on == 2 else 0)
                    bs[LOB] += max(0, lob)
                for rr in scored:
                    stats[rr][R] += 1
                n_runs = len(scored)
                if n_runs:
                    before_lead = score[bat] > score[fld]
                    score[bat] += n_runs
                    ps[RA] += n_runs
                    ps[ER] += n_runs if kind != "E" else 0
                    if rbi:
                        bs[RBI] += n_runs
                    names_ = [people[x].last for x in scored if x != batter]
                    if names_:
                        text += ", " + ", ".join(names_) + " scored"
                    if not before_lead and score[bat] > score[fld]:
                        go_ahead.append((bat, pitcher[bat], p))
                    tags += "|scoring"
                if outs >= 3:
                    bases = [None, None, None]
                bh = people[batter].bats
                ph = people[p].throws
                if bh == "S":
                    bh = "L" if ph == "R" else "R"
                plays.append(Play(inning, "top" if half == 0 else "bottom", None, bat, batter, p, event,
                              text, n_runs > 0, n_runs, tags, count, ph, bh, seq))
                if half == 1 and inning >= plan_innings(g) and score[1] > score[0]:
                    walkoff = True
                    break
            line_score[bat].append(score[bat] - runs_before)
            if walkoff:
                break
        if not finished or walkoff:
            break
        if inning >= plan_innings(g) and score[0] != score[1]:
            break
        if max_inn and inning >= max_inn:
            break
    winner = None
    info: dict[str, object] = {"starting_pitchers": [starters[0], starters[1]]}
    if finished and score[0] != score[1]:
        winner = 0 if score[0] > score[1] else 1
        rec = next((x for x in reversed(go_ahead) if x[0] == winner), None)
        if rec is not None:
            stats[rec[1]][W] += 1
            stats[rec[2]][L] += 1
            closer = pitcher[winner]
            if closer != rec[1] and score[winner] - score[1 - winner] <= 3:
                stats[closer][SV] += 1
    lines: list[PlayerLine] = []
    for side in (0, 1):
        seen = list(order[side])
        for pid in [starters[side]] + bullpens[side][:used_pen[side]]:
            if pid not in seen:
                seen.append(pid)
        for pid in seen:
            lines.append(PlayerLine(pid, side, pid in order[side] or pid == starters[side], pos_of.get(pid, "P"),
                          clean(dict(zip(_CODES, stats[pid])))))
    overtime = str(inning - 9) if inning > 9 and finished else None
    if not finished:
        winner = None
    return GameOut(score, inning, overtime, status, plays, lines,
                   {"visitor": line_score[0], "home": line_score[1]}, winner, pitches, info)


def plan_innings(g: GameIn) -> int:
    return 9


def _change(fld: int, pitcher: list[int], bullpens: list[list[int]], used: list[int],
            stats: dict[int, list[int]], limit: list[float], entry: list[int],
            pos_of: dict[int, str], defense: list[dict[str, int]], u: Uniforms) -> None:
    if used[fld] >= len(bullpens[fld]):
        limit[fld] += 30
        return
    new = bullpens[fld][used[fld]]
    used[fld] += 1
    pitcher[fld] = new
    stats.setdefault(new, [0] * len(_CODES))
    pos_of[new] = "P"
    defense[fld]["P"] = new
    limit[fld] = stats[new][PIT] + 15 + 20 * u()
    entry[fld] = stats[new][OUTS]
