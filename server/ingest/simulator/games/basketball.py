"""Basketball, possession by possession (drawn in bulk with numpy).

Each team's possessions end in a turnover, a trip to the line or a shot (two or three, made or
missed, with offensive rebounds giving a second look). Made baskets and free-throw trips are the
scoring plays; every player's points come from them, so the lines add up to the score.
"""
from __future__ import annotations

import numpy as np

from server.ingest.simulator.games import GameIn, GameOut, Play, clean, ordinal
from server.ingest.simulator.rules import BASKETBALL, SPORTS

_CODES = ("MIN", "PTS", "FGM", "FGA", "3PM", "3PA", "FTM", "FTA", "OREB", "DREB", "REB", "AST",
          "STL", "BLK", "TOV", "PF", "PM")
_IDX = {c: k for k, c in enumerate(_CODES)}
_TOV, _STL, _FTA, _FTM, _PF, _FGA, _3PA, _FGM, _3PM, _AST, _BLK, _OREB, _DREB = (
    _IDX[c] for c in ("TOV", "STL", "FTA", "FTM", "PF", "FGA", "3PA", "FGM", "3PM", "AST", "BLK",
                      "OREB", "DREB"))
_USAGE = np.array([1.25, 1.2, 1.1, 1.0, 0.95, 0.75, 0.7, 0.6, 0.55, 0.45, 0.35])
_MINUTES = np.array([34, 33, 32, 31, 29, 22, 20, 16, 12, 7, 4], dtype=float)
_REB = {"PG": 0.5, "SG": 0.6, "SF": 0.9, "PF": 1.3, "C": 1.6, "G": 0.55, "F": 1.1}


def _period_name(period: int, periods: int) -> str:
    if period > periods:
        return "OT" if period == periods + 1 else f"{period - periods}OT"
    if periods == 2:
        return "1st half" if period == 1 else "2nd half"
    return f"{ordinal(period)} quarter"


def simulate(g: GameIn, rng: np.random.Generator) -> GameOut:
    plan = g.plan
    rules = SPORTS["basketball"]
    periods = plan.periods or rules.periods
    pmin = plan.period_minutes or rules.period_minutes
    game_min = periods * pmin
    poss_rate = BASKETBALL["poss"] / 48.0 * (1.0 if pmin >= 12 else 0.96)
    dress = rules.dress
    teams = []
    for side in (0, 1):
        roster = g.rosters[side]
        active = list(roster[:dress])
        if rng.random() < 0.3:  # a rest day or injury: the last bench player dresses instead
            k = int(rng.integers(5, dress))
            active[k] = roster[dress + int(rng.integers(len(roster) - dress))]
        teams.append(active)
    arrs = [np.zeros((dress, len(_CODES)), dtype=np.int64) for _ in (0, 1)]
    events: list[tuple[float, int, int, int, int, int, int]] = []
    # per event: (game seconds, side, kind 1 shot / 2 free throws, points, shooter, assister, FTA)
    usage = _USAGE[:dress] / _USAGE[:dress].sum()
    reb_p = usage[::-1] / usage.sum()
    score = [0, 0]
    ot = 0
    t0, t1 = 0.0, game_min * 60
    period = periods
    while True:
        for side in (0, 1):
            f = np.exp(0.035 * (g.strength[side] - g.strength[1 - side])
                       + (rules.home_edge if side == 1 else 0.0)) * plan.scoring ** 0.5
            score[side] += _segment(rng, side, t0, t1, poss_rate, f, dress, usage, reb_p, arrs, events)
        if score[0] != score[1]:
            break
        if ot >= 6:  # a last-second basket ends a marathon
            side = int(rng.integers(2))
            events.append((t1 - 1, side, 1, 2, 0, -1, 0))
            arrs[side][0, _FGM] += 1
            arrs[side][0, _FGA] += 1
            score[side] += 2
            break
        ot += 1
        period += 1
        t0, t1 = t1, t1 + rules.ot_minutes * 60
    total_sec = t1
    by_period: list[list[int]] = [[0] * period, [0] * period]  # points per period, per side
    for e in events:
        p_no = int(e[0] // (pmin * 60)) + 1 if e[0] < game_min * 60 else \
            periods + 1 + int((e[0] - game_min * 60) // (rules.ot_minutes * 60))
        by_period[e[1]][min(p_no, period) - 1] += e[3]
    for side in (0, 1):
        arrs[side][:, _PF] += np.bincount(rng.integers(0, dress, int(rng.poisson(9))), minlength=dress)
    events.sort(key=lambda e: (e[0], e[1]))
    if g.cut < 1:
        cut_sec = g.cut * game_min * 60
        events = [e for e in events if e[0] < cut_sec]
    plays: list[Play] = []
    run = [0, 0]
    names = g.people
    for tsec, side, kind, pts, s, ast, fta in events:
        p_no = int(min(tsec // (pmin * 60), periods - 1)) + 1 if tsec < game_min * 60 else \
            periods + 1 + int((tsec - game_min * 60) // (rules.ot_minutes * 60))
        p_start = (p_no - 1) * pmin * 60 if p_no <= periods else \
            game_min * 60 + (p_no - periods - 1) * rules.ot_minutes * 60
        p_len = (pmin if p_no <= periods else rules.ot_minutes) * 60
        left = max(0, int(p_start + p_len - tsec))
        clock = f"{left // 60:02d}:{left % 60:02d}"
        shooter = teams[side][s]
        run[side] += pts
        who = names[shooter].name
        if kind == 1:
            text = f"{who} made a {'three-point' if pts == 3 else 'two-point'} {'jumper' if pts == 3 else ('layup' if fta % 2 == 0 and s % 2 else 'jump shot')}"
            if ast >= 0:
                text += f" (assist: {names[teams[side][ast]].name})"
            tags = "3pt|made" if pts == 3 else "2pt|made"
        else:
            text = f"{who} made {pts} of {fta} free throws"
            tags = "ft|made"
        plays.append((p_no, None, clock, side, shooter, None, "shot" if kind == 1 else "free_throw",
                      text, True, pts, tags, None, None, None, None))
    if g.cut < 1:
        # The box score so far: recount points from the kept plays, scale the rest by time.
        frac = g.cut
        for side in (0, 1):
            keep = np.zeros((dress, len(_CODES)), dtype=np.int64)
            for e in events:
                if e[1] == side:
                    row = keep[e[4]]
                    if e[2] == 1:
                        row[_IDX["PTS"]] += e[3]
                        row[_IDX["FGM"]] += 1
                        row[_IDX["FGA"]] += 1
                        if e[3] == 3:
                            row[_IDX["3PM"]] += 1
                            row[_IDX["3PA"]] += 1
                    else:
                        row[_IDX["PTS"]] += e[3]
                        row[_IDX["FTM"]] += e[3]
                        row[_IDX["FTA"]] += e[6]
            full = arrs[side]
            for c in ("FGA", "3PA", "OREB", "DREB", "AST", "STL", "BLK", "TOV", "PF"):
                k = _IDX[c]
                keep[:, k] = np.maximum(keep[:, k], np.floor(full[:, k] * frac).astype(np.int64))
            keep[:, _IDX["3PA"]] = np.minimum(keep[:, _IDX["3PA"]], keep[:, _IDX["FGA"]])
            keep[:, _IDX["3PA"]] = np.maximum(keep[:, _IDX["3PA"]], keep[:, _IDX["3PM"]])
            arrs[side] = keep
        score = [sum(p[9] for p in plays if p[3] == side) for side in (0, 1)]
        elapsed = cut_sec or 0.0
        p_no = int(min(elapsed // (pmin * 60), periods - 1)) + 1
        left = int(p_no * pmin * 60 - elapsed)
        status = f"{'H' if periods == 2 else 'Q'}{p_no} {left // 60}:{left % 60:02d}"
        played_min = elapsed / 60
        line_score: dict[str, list[int]] = {"visitor": [], "home": []}
        period_out = p_no
        overtime = None
        winner = None
    else:
        played_min = total_sec / 60
        status = "Final"
        period_out = period
        overtime = None if ot == 0 else ("OT" if ot == 1 else f"{ot}OT")
        winner = 0 if score[0] > score[1] else 1
        line_score = {"visitor": by_period[0], "home": by_period[1]}
        for e in events:
            arrs[e[1]][e[4], _IDX["PTS"]] += e[3]
    lines = []
    margin = score[1] - score[0]
    for side in (0, 1):
        st = arrs[side]
        st[:, _IDX["REB"]] = st[:, _IDX["OREB"]] + st[:, _IDX["DREB"]]
        mins = _MINUTES[:dress] / _MINUTES[:dress].sum() * played_min * 5
        base = np.floor(mins).astype(np.int64)
        short = round(played_min * 5) - int(base.sum())
        if short > 0:
            base[np.argsort(-(mins - base), kind="stable")[:short]] += 1
        st[:, _IDX["MIN"]] = base
        sign = 1 if side == 1 else -1
        st[:, _IDX["PM"]] = np.round(sign * margin * base / max(1.0, played_min)
                                     + rng.normal(0, 4, dress)).astype(np.int64)
        for k, pid in enumerate(teams[side]):
            vals = dict(zip(_CODES, (int(x) for x in st[k])))
            if vals["MIN"] == 0 and not any(v for c, v in vals.items() if c not in ("MIN", "PM")):
                continue
            lines.append((pid, side, k < 5, names[pid].position, clean(vals) or {"MIN": 0}))
    return GameOut(score, period_out, overtime, status, plays, lines, line_score, winner)


def period_label(period: int, periods: int) -> str:
    return _period_name(period, periods)


def _segment(rng: np.random.Generator, side: int, t0: float, t1: float, rate: float, f: float,
             dress: int, usage: np.ndarray, reb_p: np.ndarray, arrs: list[np.ndarray],
             events: list[tuple[float, int, int, int, int, int, int]]) -> int:
    """One team's possessions between two game times, in bulk; returns the points scored."""
    n = int(rng.poisson(rate * (t1 - t0) / 60))
    t = np.sort(rng.uniform(t0, t1, n))
    r = rng.random((n, 9))
    shooter = rng.choice(dress, n, p=usage)
    other = (shooter + 1 + rng.integers(0, dress - 1, n)) % dress
    orebber = rng.integers(0, dress, n)
    drebber = rng.choice(dress, n, p=reb_p)
    mine, theirs = arrs[side], arrs[1 - side]
    tov = r[:, 0] < BASKETBALL["tov"]
    trip = ~tov & (r[:, 0] < BASKETBALL["tov"] + BASKETBALL["ft_trip"])
    shot = ~tov & ~trip
    three = shot & (r[:, 1] < BASKETBALL["p3a"])
    p = np.where(three, BASKETBALL["p3"], BASKETBALL["p2"]) * f
    made1 = shot & (r[:, 2] < p)
    miss1 = shot & ~made1
    oreb = miss1 & (r[:, 5] < BASKETBALL["oreb"])
    made2 = oreb & (r[:, 3] < p)
    miss_final = (miss1 & ~oreb) | (oreb & ~made2)
    fta = np.where(trip, np.where(r[:, 1] > 0.12, 2, 3), 0)
    ftm = np.where(trip, (r[:, 6] < BASKETBALL["ft"]).astype(int) + (r[:, 7] < BASKETBALL["ft"])
                   + ((fta == 3) & (r[:, 8] < BASKETBALL["ft"])), 0)
    blk = miss1 & ~three & (r[:, 4] < 0.09)
    ast1 = made1 & (r[:, 4] < 0.6)
    ast2 = made2 & (r[:, 4] < 0.6) & (other != orebber)

    def add(col: int, who: np.ndarray, mask: np.ndarray, target: np.ndarray, w: np.ndarray | None = None) -> None:
        target[:, col] += np.bincount(who[mask], weights=None if w is None else w[mask],
                                      minlength=dress).astype(np.int64)

    add(_TOV, shooter, tov, mine)
    add(_STL, other, tov & (r[:, 1] < 0.5), theirs)
    add(_FTA, shooter, trip, mine, fta)
    add(_FTM, shooter, trip, mine, ftm)
    add(_PF, other, trip, theirs)
    add(_FGA, shooter, shot, mine)
    add(_FGA, orebber, oreb, mine)
    add(_3PA, shooter, three, mine)
    add(_3PA, orebber, oreb & three, mine)
    add(_FGM, shooter, made1, mine)
    add(_FGM, orebber, made2, mine)
    add(_3PM, shooter, made1 & three, mine)
    add(_3PM, orebber, made2 & three, mine)
    add(_AST, other, ast1 | ast2, mine)
    add(_BLK, other, blk, theirs)
    add(_OREB, orebber, oreb, mine)
    add(_DREB, drebber, miss_final, theirs)
    pts = np.where(three, 3, 2)
    for j in np.flatnonzero(made1 | made2 | (trip & (ftm > 0))).tolist():
        if trip[j]:
            events.append((float(t[j]), side, 2, int(ftm[j]), int(shooter[j]), -1, int(fta[j])))
        elif made1[j]:
            events.append((float(t[j]), side, 1, int(pts[j]), int(shooter[j]),
                           int(other[j]) if ast1[j] else -1, 0))
        else:
            events.append((min(float(t[j]) + 4, t1 - 1), side, 1, int(pts[j]), int(orebber[j]),
                           int(other[j]) if ast2[j] and other[j] != orebber[j] else -1, 0))
    return int((pts * (made1 | made2)).sum() + ftm.sum())
