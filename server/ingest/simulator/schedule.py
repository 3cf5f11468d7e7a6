"""Season calendars and schedules: which seasons exist, who plays whom on which day and when.

Regular seasons are built from balanced rounds (the circle method) so every team plays at most
once a day; baseball plays them as series on consecutive days, with the odd rained-out game made
up as the second game of a doubleheader. Start times are UTC. Today's games are spread around the
build clock so that some are over, some under way and some still to come.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import numpy as np

from server.catalog.simulated import LevelPlan


@dataclass
class GameSpec:
    key: str
    season: int
    day: dt.date
    game_no: int
    start: dt.datetime
    vis: int  # team index
    home: int
    sublevel_id: int | None
    playoff: str | None = None
    neutral: bool = False
    id: int = 0


def season_dates(plan: LevelPlan, season: int) -> tuple[dt.date, dt.date]:
    """First and last day of a season's regular season; split seasons start the year before."""
    (m0, d0), (m1, d1) = plan.start, plan.end
    y0 = season - 1 if (m0, d0) > (m1, d1) else season
    return dt.date(y0, m0, d0), dt.date(season, m1, d1)


SEASONS = {"full": 4, "small": 2}  # seasons a build holds by default, the current one included


def seasons_for(plan: LevelPlan, today: dt.date, size: str, count: int | None = None) -> list[int]:
    """The ``count`` newest seasons (default: the size's ``SEASONS``): completed seasons plus
    the current one (the newest whose first day has come)."""
    current = today.year + 1
    while season_dates(plan, current)[0] > today:
        current -= 1
    count = count or SEASONS[size]
    return list(range(current - count + 1, current + 1))


def _circle_rounds(n: int) -> list[list[tuple[int, int]]]:
    """Round-robin rounds of n teams (n even): every pair meets once."""
    teams = list(range(n))
    rounds = []
    for r in range(n - 1):
        pairs = []
        for k in range(n // 2):
            a, b = teams[k], teams[n - 1 - k]
            pairs.append((a, b) if (r + k) % 2 else (b, a))
        rounds.append(pairs)
        teams = [teams[0]] + [teams[-1]] + teams[1:-1]
    return rounds


def _pools(plan: LevelPlan, groups: list[str]) -> list[list[int]]:
    if plan.schedule_by == "group":
        out: dict[str, list[int]] = {}
        for k, g in enumerate(groups):
            out.setdefault(g, []).append(k)
        return list(out.values())
    return [list(range(len(groups)))]


def regular_season(plan: LevelPlan, rng: np.random.Generator, season: int, groups: list[str],
                   sublevels: list[int], size: str, today: dt.date) -> list[GameSpec]:
    """Every regular-season game of a season, in date order."""
    start, end = season_dates(plan, season)
    games_per_team = plan.games[0 if size == "full" else 1]
    series = plan.series
    span = series if series > 1 else plan.round_days
    n_days = (end - start).days + 1
    out: list[tuple[dt.date, int, int, int]] = []  # day, game_no, vis, home
    n_rounds = -(-games_per_team // series)
    for pool in _pools(plan, groups):
        order = _round_order(rng, pool, n_rounds)
        slack = max(0, n_days - n_rounds * span)
        gaps = np.sort(rng.integers(0, slack + 1, n_rounds)) if slack else np.zeros(n_rounds, int)
        for r, pairs in enumerate(order):
            first = start + dt.timedelta(days=int(r * span + gaps[r]))
            if series > 1:
                games = min(series, games_per_team - r * series)
                out += _series_games(rng, pairs, first, games, r == n_rounds // 2)
            else:
                for k, (v, h) in enumerate(pairs):
                    out.append((first + dt.timedelta(days=k % span), 1, v, h))
    out = [g for g in out if g[0] <= end]
    _include_today(out, start, end, today)
    out.sort(key=lambda g: (g[0], g[1], g[3], g[2]))
    specs = []
    for k, (day, no, v, h) in enumerate(out):
        specs.append(GameSpec(f"{plan.code}:{season}:{k:05d}", season, day, no, _start(plan, rng, day, no),
                              v, h, sublevels[h]))
    return specs


def _round_order(rng: np.random.Generator, pool: list[int], n_rounds: int) -> list[list[tuple[int, int]]]:
    """The pool's rounds of (visitor, home) pairs: whole round robins (the circle method, a bye
    for an odd pool) in a random order each, home and away swapped every other cycle so each
    pair meets as often at either end, cut to ``n_rounds``."""
    n = len(pool)
    base = _circle_rounds(n + (n % 2))
    order: list[list[tuple[int, int]]] = []
    cycle = 0
    while len(order) < n_rounds:
        perm = rng.permutation(len(base))
        for r in perm:
            pairs = [(b, a) if cycle % 2 else (a, b) for a, b in base[r]]
            order.append([(pool[a], pool[b]) for a, b in pairs if a < n and b < n])
        cycle += 1
    return order[:n_rounds]


def _series_games(rng: np.random.Generator, pairs: list[tuple[int, int]], first: dt.date, games: int,
                  midseason: bool) -> list[tuple[dt.date, int, int, int]]:
    """A round of series from ``first``, ``games`` days in a row, as (day, game number, visitor,
    home). About one series in 25 loses its first day to rain and plays a doubleheader on the
    next; in the middle round the first series always does, so every season has one."""
    out: list[tuple[dt.date, int, int, int]] = []
    for k, (v, h) in enumerate(pairs):
        rained = games > 1 and (rng.random() < 0.04 or (midseason and k == 0))
        for g in range(games):
            if rained and g == 0:
                continue
            day = first + dt.timedelta(days=g)
            out.append((day, 2 if rained and g == 1 else 1, v, h))
            if rained and g == 1:
                out.append((day, 1, v, h))
    return out


def _include_today(out: list[tuple[dt.date, int, int, int]], start: dt.date, end: dt.date,
                   today: dt.date) -> None:
    """A level in season plays today: move the nearest slate of games to today if none falls on it."""
    if not start <= today <= end or any(g[0] == today for g in out):
        return
    days = sorted({g[0] for g in out})
    if not days:
        return
    near = min(days, key=lambda d: (abs((d - today).days), d))
    busy = {t for g in out if g[0] in (today,) for t in (g[2], g[3])}
    for i, g in enumerate(out):
        if g[0] == near and g[2] not in busy and g[3] not in busy:
            out[i] = (today, g[1], g[2], g[3])


def _start(plan: LevelPlan, rng: np.random.Generator, day: dt.date, game_no: int) -> dt.datetime:
    base = dt.datetime(day.year, day.month, day.day) + dt.timedelta(hours=plan.start_hour)
    if game_no == 2:
        return base + dt.timedelta(minutes=15)
    jitter = int(rng.integers(-6, 4)) * 15 if plan.sport != "soccer" else int(rng.integers(-8, 20)) * 15
    start = base + dt.timedelta(minutes=jitter)
    if plan.series > 1 and rng.random() < 0.25:  # day games
        start -= dt.timedelta(hours=5)
    return start


def doubleheader_first(specs: list[GameSpec], duration: int) -> None:
    """Game 1 of a doubleheader starts early enough that game 2 follows it."""
    seconds: dict[tuple[dt.date, int, int], dt.datetime] = {}
    for g in specs:
        if g.game_no == 2:
            seconds[(g.day, g.vis, g.home)] = g.start
    for g in specs:
        if g.game_no == 1 and (g.day, g.vis, g.home) in seconds:
            g.start = seconds[(g.day, g.vis, g.home)] - dt.timedelta(minutes=duration + 45)


def place_today(specs: list[GameSpec], today: dt.date, now: dt.datetime, duration: int) -> None:
    """Spread today's games around the build clock: a third over, a third live, a third to come."""
    todays = [g for g in specs if g.day == today and g.game_no == 1]
    for k, g in enumerate(todays):
        phase = k % 3
        if phase == 0:
            g.start = now - dt.timedelta(minutes=duration + 40 + 10 * (k % 5))
        elif phase == 1:
            g.start = now - dt.timedelta(minutes=int(duration * (0.2 + 0.12 * (k % 6))))
        else:
            g.start = now + dt.timedelta(minutes=60 + 20 * (k % 9))
        g.start = g.start.replace(second=0, microsecond=0)
    for g in specs:
        if g.day == today and g.game_no == 2:
            first = next((f for f in todays if (f.vis, f.home) == (g.vis, g.home)), None)
            if first is not None:
                g.start = first.start + dt.timedelta(minutes=duration + 45)


def progress(start: dt.datetime, now: dt.datetime, duration: int) -> float | None:
    """None before the start; the fraction of the game played; 1.0 once it is over."""
    if now < start:
        return None
    frac = (now - start).total_seconds() / (duration * 60)
    return 1.0 if frac >= 1 else frac
