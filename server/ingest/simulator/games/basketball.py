"""Basketball, possession by possession (drawn in bulk with numpy).

The ball alternates between the teams; a possession ends in a turnover, a trip to the line or a
shot (two or three, made or missed, with offensive rebounds giving a second look). Five players
a side are on the floor, in stints (``_Floor``), and only they act. Every possession becomes
events (shots made and missed, free throws, rebounds, turnovers, fouls) and the player lines are
counted from those events and stints (minutes, plus-minus), so the play-by-play, the lines and
the score agree by construction.
"""
from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from server.catalog.simulated import BASKETBALL, SPORTS
from server.ingest.simulator.games import GameIn, GameOut, Play, PlayerLine, clean, new_play, ordinal

_CODES = ("MIN", "PTS", "FGM", "FGA", "3PM", "3PA", "FTM", "FTA", "OREB", "DREB", "REB", "AST",
          "STL", "BLK", "TOV", "PF", "PM")
_IDX = {c: k for k, c in enumerate(_CODES)}
_TOV, _STL, _FTA, _FTM, _PF, _FGA, _3PA, _FGM, _3PM, _AST, _BLK, _OREB, _DREB = (
    _IDX[c] for c in ("TOV", "STL", "FTA", "FTM", "PF", "FGA", "3PA", "FGM", "3PM", "AST", "BLK",
                      "OREB", "DREB"))
_USAGE = np.array([1.25, 1.2, 1.1, 1.0, 0.95, 0.75, 0.7, 0.6, 0.55, 0.45, 0.35])
_MINUTES = np.array([34, 33, 32, 31, 29, 22, 20, 16, 12, 7, 4], dtype=float)
_STINT = 240.0  # mean seconds of game clock between a team's substitutions


def _period_name(period: int, periods: int) -> str:
    if period > periods:
        return "OT" if period == periods + 1 else f"{period - periods}OT"
    if periods == 2:
        return "1st half" if period == 1 else "2nd half"
    return f"{ordinal(period)} quarter"


class _Format(NamedTuple):
    """The game's clock: regulation periods and their length, and the overtime period's (seconds)."""

    periods: int
    period_sec: float
    ot_sec: float

    @property
    def reg_sec(self) -> float:
        return self.periods * self.period_sec


def simulate(g: GameIn, rng: np.random.Generator) -> GameOut:
    """Play one game from its own generator; the same generator gives the same game."""
    rules = SPORTS["basketball"]
    periods = g.plan.periods or rules.periods
    pmin = g.plan.period_minutes or rules.period_minutes
    fmt = _Format(periods, pmin * 60, rules.ot_minutes * 60)
    dress = rules.dress
    teams = _dress(g, rng, dress)
    usage = _USAGE[:dress] / _USAGE[:dress].sum()
    reb_p = usage[::-1] / usage.sum()
    segs, ot, total_sec = _play_to_a_winner(g, rng, fmt)
    ps, floors, ev = _possessions(rng, segs, fmt, total_sec, dress, usage, reb_p)
    game_min = periods * pmin
    cut_sec = g.cut * game_min * 60 if g.cut < 1 else total_sec
    if g.cut < 1:
        keep = ev["d"] < cut_sec
        ev = {k: v[keep] for k, v in ev.items()}
    p_no, left = _period_clock(ev["d"], fmt)
    arrs = _lines(ev, dress)
    plays = _plays(ev, p_no, left, teams, g)
    assert len(plays) < 1000, "play IDs are the game ID * 1000 + the sequence"
    score = [int(ev["pts"][ev["side"] == side].sum()) for side in (0, 1)]
    state = _in_progress(fmt, cut_sec) if g.cut < 1 else _final(ev, p_no, fmt, ot, total_sec, score)
    lines = _box_lines(g, ps, ev, arrs, floors, teams, state.played_min)
    return GameOut(score, state.period, state.overtime, state.status, plays, lines, state.line_score,
                   state.winner)


class _State(NamedTuple):
    """Where a game stands: in progress (``g.cut`` below 1: the period and the clock left in its
    status) or final."""

    status: str
    period: int
    overtime: str | None
    winner: int | None
    line_score: dict[str, list[int]]
    played_min: float


def _in_progress(fmt: _Format, elapsed: float) -> _State:
    """A game stopped ``elapsed`` seconds in: its period and the time left in it (no line score
    or winner yet)."""
    period = int(min(elapsed // fmt.period_sec, fmt.periods - 1)) + 1
    rest = int(period * fmt.period_sec - elapsed)
    status = f"{'H' if fmt.periods == 2 else 'Q'}{period} {rest // 60}:{rest % 60:02d}"
    return _State(status, period, None, None, {"visitor": [], "home": []}, elapsed / 60)


def _final(ev: dict[str, np.ndarray], p_no: np.ndarray, fmt: _Format, ot: int, total_sec: float,
           score: list[int]) -> _State:
    """A finished game: its overtimes, winner and each side's points period by period."""
    period = fmt.periods + ot
    overtime = None if ot == 0 else ("OT" if ot == 1 else f"{ot}OT")
    by_side = [np.bincount(p_no[ev["side"] == side] - 1, weights=ev["pts"][ev["side"] == side],
                           minlength=period)[:period].astype(np.int64).tolist() for side in (0, 1)]
    return _State("Final", period, overtime, 0 if score[0] > score[1] else 1,
                  {"visitor": by_side[0], "home": by_side[1]}, total_sec / 60)


def _dress(g: GameIn, rng: np.random.Generator, dress: int) -> list[list[int]]:
    """Each side's dressed players: the first ``dress`` of the roster, one of the bench sometimes
    swapped for a player further down."""
    teams = []
    for side in (0, 1):
        roster = g.rosters[side]
        active = list(roster[:dress])
        if rng.random() < 0.3:  # a rest day or injury: the last bench player dresses instead
            k = int(rng.integers(5, dress))
            active[k] = roster[dress + int(rng.integers(len(roster) - dress))]
        teams.append(active)
    return teams


def _play_to_a_winner(g: GameIn, rng: np.random.Generator, fmt: _Format,
                      ) -> tuple[list[dict[str, np.ndarray]], int, float]:
    """Possessions through regulation, then overtime periods until the score differs (after six,
    a buzzer-beater settles it). Returns the segments of possessions, the overtime periods played
    and the game's length in seconds."""
    rules = SPORTS["basketball"]
    poss_rate = BASKETBALL["poss"] / 48.0 * (1.0 if fmt.period_sec >= 12 * 60 else 0.96)
    f = np.array([np.exp(0.035 * (g.strength[side] - g.strength[1 - side])
                         + (rules.home_edge if side == 1 else 0.0)) * g.plan.scoring ** 0.5
                  for side in (0, 1)])
    segs: list[dict[str, np.ndarray]] = []
    score = [0, 0]
    ot = 0
    t0, t1 = 0.0, fmt.reg_sec
    while True:
        seg = _segment(rng, int(rng.integers(2)), t0, t1, poss_rate, f)
        for side in (0, 1):
            score[side] += int(seg["pts"][seg["side"] == side].sum())
        segs.append(seg)
        if score[0] != score[1]:
            break
        if ot >= 6:  # a last-second basket ends a marathon
            side = int(rng.integers(2))
            segs.append(_buzzer(side, t1))
            score[side] += 2
            break
        ot += 1
        t0, t1 = t1, t1 + fmt.ot_sec
    return segs, ot, t1


def _possessions(rng: np.random.Generator, segs: list[dict[str, np.ndarray]], fmt: _Format,
                 total_sec: float, dress: int, usage: np.ndarray, reb_p: np.ndarray,
                 ) -> tuple[dict[str, np.ndarray], list[_Floor], dict[str, np.ndarray]]:
    """Add each side's non-shooting fouls (anywhere in the game) to the possessions, draw the
    stints on the floor (changes at dead balls), cast the players in each possession, and turn
    them into events with the substitutions. Returns the possessions, the floors and the events."""
    for side in (0, 1):
        n_pf = int(rng.poisson(9))
        segs.append(_fouls(side, rng.uniform(0.0, total_sec, n_pf)))
    ps = {k: np.concatenate([s[k] for s in segs]) for k in segs[0]}
    dead = np.sort(ps["t"][~ps["pf"]])
    floors = [_Floor.draw(rng, total_sec, fmt.reg_sec, fmt.period_sec, fmt.ot_sec, dress, dead)
              for _ in (0, 1)]
    _cast(rng, ps, floors, usage, reb_p)
    return ps, floors, _substitutions(_events(ps), floors)


def _period_clock(d: np.ndarray, fmt: _Format) -> tuple[np.ndarray, np.ndarray]:
    """Each event's period (regulation's, then overtime's) and the seconds left in it."""
    periods, period_sec, reg_sec, ot_sec = fmt.periods, fmt.period_sec, fmt.reg_sec, fmt.ot_sec
    in_ot = d >= reg_sec
    p_no = np.where(in_ot, periods + 1 + ((d - reg_sec) // ot_sec).astype(np.int64),
                    np.minimum(d // period_sec, periods - 1).astype(np.int64) + 1)
    p_end = np.where(in_ot, reg_sec + (p_no - periods) * ot_sec, p_no * period_sec)
    left = np.maximum(0, (p_end - d).astype(np.int64))
    return p_no, left


def _box_lines(g: GameIn, ps: dict[str, np.ndarray], ev: dict[str, np.ndarray], arrs: list[np.ndarray],
               floors: list[_Floor], teams: list[list[int]], played_min: float) -> list[PlayerLine]:
    """Finish the counted lines (rebounds, minutes summing to five players' time, plus-minus of the
    points scored while each was on the floor) and keep every player who played."""
    lines: list[PlayerLine] = []
    names = g.people
    scoring = ev["pts"] > 0
    at = ps["t"][ev["poss"][scoring]]  # points count for the ten on the floor for the possession
    signed = np.where(ev["side"][scoring] == 1, 1, -1) * ev["pts"][scoring]
    for side in (0, 1):
        st = arrs[side]
        st[:, _IDX["REB"]] = st[:, _IDX["OREB"]] + st[:, _IDX["DREB"]]
        seconds = floors[side].seconds(played_min * 60)
        mins = seconds / 60.0
        base = np.floor(mins).astype(np.int64)
        short = round(played_min * 5) - int(base.sum())
        if short > 0:
            base[np.argsort(-(mins - base), kind="stable")[:short]] += 1
        st[:, _IDX["MIN"]] = base
        sign = 1 if side == 1 else -1
        st[:, _IDX["PM"]] = sign * (signed @ floors[side].on(at)).astype(np.int64)
        for k, pid in enumerate(teams[side]):
            vals = dict(zip(_CODES, st[k].tolist()))
            if seconds[k] == 0 and not any(vals.values()):  # dressed, never on the floor
                continue
            lines.append(PlayerLine(pid, side, k < 5, names[pid].position, clean(vals) or {"MIN": 0}))
    return lines


def period_label(period: int, periods: int) -> str:
    return _period_name(period, periods)


# Events of a possession, in their order: a shooting foul, its free throws (one event each) and a
# team rebound after a missed last free throw; a turnover; a shot, its rebound, the put-back
# and its rebound; a foul away from the ball.
_K_FOUL, _K_FT, _K_FT_REB, _K_TOV, _K_SHOT, _K_REB, _K_PUT, _K_PUT_REB, _K_PF = 0, 1, 4, 5, 6, 7, 8, 9, 10
_K_SUB = -1  # a substitution: before anything else at its moment
_OFFSET = {_K_REB: 1.0, _K_PUT: 4.0, _K_PUT_REB: 5.0}  # seconds after the possession's first event
_BOOL = ("tov", "stl", "trip", "ft1", "ft2", "ft3", "shot", "three", "made1", "oreb", "made2", "blk",
         "ast1", "ast2", "pf")
_INT = ("side", "shooter", "mate", "opp", "orebber", "drebber", "fta")
_POSS_MIN, _POSS_SHAPE = 4.0, 3.0  # shortest possession (s) and the gamma's shape beyond it


def _segment(rng: np.random.Generator, first: int, t0: float, t1: float, rate: float,
             f: np.ndarray) -> dict[str, np.ndarray]:
    """Both teams' possessions between two game times, in bulk: one array entry per possession.

    The ball alternates from ``first`` (the side that wins the tip): a possession ends in a
    basket, a trip to the line, a turnover or a defensive rebound, and an offensive rebound is a
    second look within it. Possessions last ``_POSS_MIN`` seconds plus a gamma draw, so their mean
    gives each team ``rate`` possessions a minute and few outlast the shot clock. ``f``: each
    side's shooting factor. Who does what is cast afterwards (``_cast``), among those on the
    floor."""
    mean = 60.0 / (2.0 * rate)
    most = int(2.0 * rate * (t1 - t0) / 60.0 * 1.3) + 8
    gaps = _POSS_MIN + rng.gamma(_POSS_SHAPE, (mean - _POSS_MIN) / _POSS_SHAPE, most)
    t = t0 + np.concatenate(([0.0], np.cumsum(gaps[:-1])))
    t = t[t < t1]
    n = len(t)
    side = (first + np.arange(n)) % 2
    r = rng.random((n, 9))
    tov = r[:, 0] < BASKETBALL["tov"]
    trip = ~tov & (r[:, 0] < BASKETBALL["tov"] + BASKETBALL["ft_trip"])
    shot = ~tov & ~trip
    three = shot & (r[:, 1] < BASKETBALL["p3a"])
    p = np.where(three, BASKETBALL["p3"], BASKETBALL["p2"]) * f[side]
    made1 = shot & (r[:, 2] < p)
    miss1 = shot & ~made1
    oreb = miss1 & (r[:, 5] < BASKETBALL["oreb"])
    made2 = oreb & (r[:, 3] < p)
    fta = np.where(trip, np.where(r[:, 1] > 0.12, 2, 3), 0)
    ft1 = trip & (r[:, 6] < BASKETBALL["ft"])
    ft2 = trip & (r[:, 7] < BASKETBALL["ft"])
    ft3 = trip & (fta == 3) & (r[:, 8] < BASKETBALL["ft"])
    pts = np.where(three, 3, 2) * (made1 | made2) + ft1 + ft2 + ft3
    out = _blank(n, 0, t, t1)
    out.update({"side": side, "fta": fta, "pts": pts, "tov": tov, "stl": tov & (r[:, 1] < 0.5),
                "trip": trip, "ft1": ft1, "ft2": ft2, "ft3": ft3, "shot": shot, "three": three,
                "made1": made1, "oreb": oreb, "made2": made2,
                "blk": miss1 & ~three & (r[:, 4] < 0.09), "ast1": made1 & (r[:, 4] < 0.6),
                "ast2": made2 & (r[:, 4] < 0.6)})
    return out


class _Floor:
    """Who of a team's dressed players is on the floor when: five at a time, in stints that
    change at every period's start and about every ``_STINT`` seconds between. The starters
    open the game and the second half; other stints draw five by the players' minute shares
    (weighted sampling without replacement), so the regulars play the most."""

    def __init__(self, starts: np.ndarray, fives: np.ndarray) -> None:
        self.starts = starts  # stint start times (s), ascending, the first at 0
        self.fives = fives  # stints x dressed players: on the floor

    @classmethod
    def draw(cls, rng: np.random.Generator, end: float, regulation: float, period: float,
             ot: float, dress: int, dead: np.ndarray) -> _Floor:
        """``dead``: the possessions' start times, sorted: a substitution waits for the next one
        to begin (a dead ball), at a period's start too, so it never interrupts a possession."""
        changes = np.concatenate((np.arange(period, regulation, period),
                                  np.arange(regulation, end, ot),
                                  rng.uniform(0.0, end, int(rng.poisson(end / _STINT)))))
        if len(dead) == 0:
            return cls(np.zeros(1), (np.arange(dress) < 5)[None, :])
        snapped = dead[np.minimum(np.searchsorted(dead, changes), len(dead) - 1)]
        half = dead[min(int(np.searchsorted(dead, regulation / 2.0)), len(dead) - 1)]
        starts = np.unique(np.concatenate(([0.0], snapped[snapped > 0.0])))
        keys = rng.random((len(starts), dress)) ** (1.0 / _MINUTES[:dress])
        top = np.argsort(-keys, axis=1, kind="stable")[:, :5]
        fives = np.zeros((len(starts), dress), dtype=bool)
        np.put_along_axis(fives, top, True, axis=1)
        fives[(starts == 0.0) | (starts == half)] = np.arange(dress) < 5  # the starters open each half
        return cls(starts, fives)

    def on(self, t: np.ndarray) -> np.ndarray:
        """len(t) x dressed players: on the floor at each time."""
        return self.fives[np.searchsorted(self.starts, t, "right") - 1]

    def seconds(self, until: float) -> np.ndarray:
        """Seconds each dressed player has been on the floor up to game time ``until``."""
        edges = np.clip(np.append(self.starts, np.inf), 0.0, until)
        seconds: np.ndarray = np.diff(edges) @ self.fives
        return seconds


def _pick(rng: np.random.Generator, allowed: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Per row, one column among the allowed ones, with probability proportional to ``weights``
    (the least of exponential clocks run at those rates)."""
    clocks = rng.exponential(size=allowed.shape) / weights
    first: np.ndarray = np.argmin(np.where(allowed, clocks, np.inf), axis=1)
    return first


def _cast(rng: np.random.Generator, ps: dict[str, np.ndarray], floors: list[_Floor],
          usage: np.ndarray, reb_p: np.ndarray) -> None:
    """Who does what in every possession, among the ten on the floor at its start: the shooter
    (or a foul's fouler, a turnover's loser) by usage, a teammate for the assist, a defender for
    the steal, the block or the shooting foul, and the rebounders."""
    t, side = ps["t"], ps["side"]
    on = [floor.on(t) for floor in floors]
    attack = np.where((side == 0)[:, None], on[0], on[1])
    defence = np.where((side == 0)[:, None], on[1], on[0])
    even = np.ones(len(usage))
    ps["shooter"] = _pick(rng, attack, usage)
    ps["mate"] = _pick(rng, attack & (np.arange(len(usage)) != ps["shooter"][:, None]), even)
    ps["orebber"] = _pick(rng, attack, even)
    ps["opp"] = _pick(rng, defence, even)
    ps["drebber"] = _pick(rng, defence, reb_p)
    ps["ast2"] = ps["ast2"] & (ps["mate"] != ps["orebber"])


def _blank(n: int, side: int, t: np.ndarray, end: float) -> dict[str, np.ndarray]:
    out = {k: np.zeros(n, dtype=bool) for k in _BOOL}
    out.update({k: np.zeros(n, dtype=np.int64) for k in _INT})
    out["side"][:] = side
    out["t"] = np.asarray(t, dtype=float)
    out["end"] = np.full(n, end)
    out["pts"] = np.zeros(n, dtype=np.int64)
    return out


def _buzzer(side: int, t1: float) -> dict[str, np.ndarray]:
    """The last-second two that ends a sixth overtime."""
    out = _blank(1, side, np.array([t1 - 0.001]), t1)
    out["shot"][0] = out["made1"][0] = True
    out["pts"][0] = 2
    return out


def _fouls(side: int, t: np.ndarray) -> dict[str, np.ndarray]:
    """Fouls away from the ball, committed by ``side`` (the fouler is cast as the row's
    shooter)."""
    out = _blank(len(t), side, t, float("inf"))
    out["pf"][:] = True
    return out


def _events(ps: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Every event of the game in time order, as parallel arrays.

    Per event: time ``d``, ``side`` of the primary player, ``who`` (-1: the team), ``kind``,
    ``pts``, ``made``, ``three``, ``helper`` (the assister, -1), ``opp`` (on the other side:
    the stealer or the blocker, -1) and ``off`` (the player a substitute replaces, -1; see
    ``_substitutions``)."""
    ev = _event_rows(ps)
    ev["d"] = _event_times(ps, ev["poss"], ev["kind"])
    order = np.lexsort((ev["kind"], ev["poss"], ev["d"]))
    return {k: v[order] for k, v in ev.items()}


def _event_rows(ps: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The events each possession gives rise to (its foul and free throws, turnover, shot,
    rebound, put-back, foul away from the ball), one group of rows per kind of event, untimed:
    a whole kind is read off the possession arrays at once, not possession by possession."""
    idx = np.arange(len(ps["t"]))
    cols: dict[str, list[np.ndarray]] = {k: [] for k in ("kind", "poss", "side", "who", "pts", "made",
                                                          "three", "helper", "opp", "fta", "off")}
    for g_kind, mask, *vals in _event_groups(ps):
        sel = np.flatnonzero(mask)
        cols["kind"].append(np.full(len(sel), g_kind))
        cols["poss"].append(idx[sel])
        cols["fta"].append(ps["fta"][sel])
        cols["off"].append(np.full(len(sel), -1))
        for key, arr in zip(("side", "who", "pts", "made", "three", "helper", "opp"), vals):
            # a per-possession array, or one value for the whole group (np.broadcast_to did
            # the same at several microseconds a call, 77 calls a game)
            cols[key].append(arr[sel] if isinstance(arr, np.ndarray) else np.full(len(sel), arr))
    return {k: np.concatenate(v) for k, v in cols.items()}


def _event_groups(ps: dict[str, np.ndarray]) -> list[tuple[Any, ...]]:
    """Per kind of event, in this order: (kind, the possessions that have one, the side of its
    primary player, the player, pts, made, three, helper, opp), each an array over the
    possessions or one value for them all."""
    n = len(ps["t"])
    side, shooter, mate, opp = ps["side"], ps["shooter"], ps["mate"], ps["opp"]
    miss1 = ps["shot"] & ~ps["made1"]
    miss2 = ps["oreb"] & ~ps["made2"]
    last_ft_miss = ps["trip"] & ~np.where(ps["fta"] == 3, ps["ft3"], ps["ft2"])
    none = np.full(n, -1)
    three, three0 = ps["three"], np.zeros(n, dtype=bool)
    return [
        (_K_FOUL, ps["trip"], 1 - side, opp, 0, three0, three0, none, none),
        (_K_FT, ps["trip"], side, shooter, ps["ft1"] * 1, ps["ft1"], three0, none, none),
        (_K_FT + 1, ps["trip"], side, shooter, ps["ft2"] * 1, ps["ft2"], three0, none, none),
        (_K_FT + 2, ps["trip"] & (ps["fta"] == 3), side, shooter, ps["ft3"] * 1, ps["ft3"], three0, none,
         none),
        (_K_FT_REB, last_ft_miss, 1 - side, none, 0, three0, three0, none, none),
        (_K_TOV, ps["tov"], side, shooter, 0, three0, three0, none, np.where(ps["stl"], opp, -1)),
        (_K_SHOT, ps["shot"], side, shooter, np.where(ps["made1"], np.where(three, 3, 2), 0), ps["made1"],
         three, np.where(ps["ast1"], mate, -1), np.where(ps["blk"], opp, -1)),
        (_K_REB, miss1, np.where(ps["oreb"], side, 1 - side), np.where(ps["oreb"], ps["orebber"], ps["drebber"]),
         0, ps["oreb"], three0, none, none),
        (_K_PUT, ps["oreb"], side, ps["orebber"], np.where(ps["made2"], np.where(three, 3, 2), 0),
         ps["made2"], three, np.where(ps["ast2"], mate, -1), none),
        (_K_PUT_REB, miss2, 1 - side, ps["drebber"], 0, three0, three0, none, none),
        (_K_PF, ps["pf"], side, shooter, 0, three0, three0, none, none),
    ]


def _event_times(ps: dict[str, np.ndarray], poss: np.ndarray, kind: np.ndarray) -> np.ndarray:
    """Each event's time: its possession's, plus its kind's offset (``_OFFSET``) within the room
    the possession leaves."""
    n = len(ps["t"])
    t, end = ps["t"][poss], ps["end"][poss]
    off = np.zeros(len(kind))
    for k, o in _OFFSET.items():
        off[kind == k] = o
    # Squeeze a possession's follow-ups in before the next possession (of either team) and the
    # end of its period of play, so its events stay together and the clock never runs backwards.
    by_t = np.argsort(ps["t"], kind="stable")
    nxt = np.full(n, np.inf)
    nxt[by_t[:-1]] = ps["t"][by_t[1:]]
    room = np.minimum(1.0, 0.99 * (np.minimum(end, nxt[poss]) - t) / 5.0)
    d: np.ndarray = t + off * room
    return d


def _substitutions(ev: dict[str, np.ndarray], floors: list[_Floor]) -> dict[str, np.ndarray]:
    """The events with every substitution added, in time order: at each new stint, each player
    coming on replaces one going off (``who`` in for ``off``)."""
    parts: list[tuple[np.ndarray, ...]] = []
    for team, floor in enumerate(floors):
        before, after = floor.fives[:-1], floor.fives[1:]
        # as many come on as go off at each change, so the two lists, each ordered by stint,
        # pair up stint by stint
        stint, enters = np.nonzero(after & ~before)
        leaves = np.nonzero(before & ~after)[1]
        parts.append((floor.starts[stint + 1], np.full(len(stint), team), enters, leaves))
    d, side, enters, leaves = (np.concatenate(c) for c in zip(*parts))
    m = len(d)
    if m == 0:
        return ev
    add: dict[str, np.ndarray] = {
        "d": d, "side": side, "who": enters, "off": leaves, "kind": np.full(m, _K_SUB),
        "poss": np.full(m, -1),
        "pts": np.zeros(m, dtype=np.int64), "made": np.zeros(m, dtype=bool),
        "three": np.zeros(m, dtype=bool), "helper": np.full(m, -1), "opp": np.full(m, -1),
        "fta": np.zeros(m, dtype=np.int64)}
    out = {k: np.concatenate((ev[k], add[k])) for k in ev}
    order = np.lexsort((out["kind"], out["poss"], out["d"]))
    return {k: v[order] for k, v in out.items()}


def _lines(ev: dict[str, np.ndarray], dress: int) -> list[np.ndarray]:
    """The player lines counted from the events: every shot, free throw, rebound, turnover and foul."""
    st = np.zeros((2 * dress, len(_CODES)), dtype=np.int64)
    kind, side, who = ev["kind"], ev["side"], ev["who"]
    slot = side * dress + who
    opp_slot = (1 - side) * dress + ev["opp"]
    made, three = ev["made"], ev["three"]
    shot = (kind == _K_SHOT) | (kind == _K_PUT)
    ft = (kind >= _K_FT) & (kind < _K_FT_REB)
    reb = ((kind == _K_REB) | (kind == _K_PUT_REB))
    n = 2 * dress

    def add(col: int, where: np.ndarray, at: np.ndarray = slot, w: np.ndarray | None = None) -> None:
        st[:, col] += np.bincount(at[where], weights=None if w is None else w[where],
                                  minlength=n).astype(np.int64)

    add(_IDX["PTS"], ev["pts"] > 0, w=ev["pts"])
    add(_FGA, shot)
    add(_FGM, shot & made)
    add(_3PA, shot & three)
    add(_3PM, shot & three & made)
    add(_FTA, ft)
    add(_FTM, ft & made)
    add(_OREB, reb & made)  # a rebound's ``made``: offensive
    add(_DREB, reb & ~made)
    add(_TOV, kind == _K_TOV)
    add(_STL, (kind == _K_TOV) & (ev["opp"] >= 0), opp_slot)
    add(_BLK, shot & (ev["opp"] >= 0), opp_slot)
    add(_AST, ev["helper"] >= 0, side * dress + ev["helper"])
    add(_PF, (kind == _K_FOUL) | (kind == _K_PF))
    return [st[:dress], st[dress:]]


def _plays(ev: dict[str, np.ndarray], p_no: np.ndarray, left: np.ndarray, teams: list[list[int]],
           g: GameIn) -> list[Play]:
    """The play-by-play: one play an event, in the events' order, with its words and tags."""
    names = g.people
    who_name = [[names[pid].name for pid in team] for team in teams]
    plays: list[Play] = []
    append = plays.append
    for kind, side, who, pts, made, three, helper, opp, fta, off, per, sec in zip(
            ev["kind"].tolist(), ev["side"].tolist(), ev["who"].tolist(), ev["pts"].tolist(),
            ev["made"].tolist(), ev["three"].tolist(), ev["helper"].tolist(), ev["opp"].tolist(),
            ev["fta"].tolist(), ev["off"].tolist(), p_no.tolist(), left.tolist()):
        pid = teams[side][who] if who >= 0 else None
        ours, theirs = who_name[side], who_name[1 - side]
        event, text, tags, scoring = _words(kind, who, made, three, helper, opp, fta, off, ours, theirs,
                                            g.names[side])
        append(new_play((per, None, f"{sec // 60:02d}:{sec % 60:02d}", side, pid, None, event, text,
                         scoring, pts, tags, None, None, None, None, None, None, None, None)))
    return plays


def _words(kind: int, who: int, made: bool, three: bool, helper: int, opp: int, fta: int, off: int,
           ours: list[str], theirs: list[str], team: str) -> tuple[str, str, str, bool]:
    """An event's kind, sentence and tags, and whether it scores: only made shots and free
    throws do (``pts`` is 0 for the rest). ``ours`` and ``theirs`` name each side's dressed
    players; ``team`` is the acting side's nickname (a team rebound)."""
    name = ours[who] if who >= 0 else ""
    if kind == _K_SUB:
        return "substitution", f"{name} enters the game for {ours[off]}", "substitution", False
    if kind == _K_SHOT or kind == _K_PUT:
        return _shot_words(name, who, made, three, ours[helper] if helper >= 0 else None,
                           theirs[opp] if opp >= 0 else None)
    if kind < _K_FT_REB and kind >= _K_FT:
        return ("free_throw", f"{name} {'made' if made else 'missed'} free throw {kind - _K_FT + 1} of {fta}",
                "ft|made" if made else "ft|missed", bool(made))
    if kind == _K_REB or kind == _K_PUT_REB:
        return ("rebound", f"{name} {'offensive' if made else 'defensive'} rebound",
                "rebound|offensive" if made else "rebound|defensive", False)
    if kind == _K_FT_REB:
        return "rebound", f"{team} team rebound", "rebound|defensive|team", False
    if kind == _K_TOV:
        steal = f" (steal: {theirs[opp]})" if opp >= 0 else ""
        return "turnover", f"{name} turnover{steal}", "turnover|steal" if opp >= 0 else "turnover", False
    shooting = kind == _K_FOUL
    return ("foul", f"{name} {'shooting' if shooting else 'personal'} foul",
            "foul|shooting" if shooting else "foul|personal", False)


def _shot_words(name: str, who: int, made: bool, three: bool, assist: str | None,
                blocker: str | None) -> tuple[str, str, str, bool]:
    """A shot's words and tags: made (with its assist) or missed (with its block)."""
    shot = f"{'three-point' if three else 'two-point'} {'jumper' if three else ('layup' if who % 2 else 'jump shot')}"
    points = "3pt" if three else "2pt"
    if made:
        assisted = f" (assist: {assist})" if assist is not None else ""
        return "shot", f"{name} made a {shot}{assisted}", f"{points}|made", True
    blocked = f" (blocked by {blocker})" if blocker is not None else ""
    return "shot", f"{name} missed a {shot}{blocked}", f"{points}|missed", False
