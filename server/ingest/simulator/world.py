"""A level's world: sublevels, venues, teams, players with bios, officials and season rosters.

Rosters change between seasons (players released, others signed) and during them (trades);
each change is a ``transactions`` row, and a team's roster on any date is what its games use.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from server.catalog.simulated import SPORTS, LevelPlan
from server.ingest.simulator import names, places

IdFn = Callable[[str, list[str]], list[int]]

POSITIONS: dict[str, tuple[str, ...]] = {
    "baseball": ("C", "1B", "2B", "3B", "SS", "LF", "CF", "RF", "DH", "C", "IF", "OF", "UT")
    + ("SP",) * 5 + ("RP",) * 8,
    "basketball": ("PG", "SG", "SF", "PF", "C", "PG", "SG", "SF", "PF", "C", "G", "F", "C"),
    "hockey": ("C", "LW", "RW") * 4 + ("D",) * 8 + ("G",) * 3,
    "soccer": ("GK", "DF", "DF", "DF", "DF", "MF", "MF", "MF", "FW", "FW", "FW", "GK", "DF", "DF",
               "DF", "DF", "MF", "MF", "MF", "MF", "MF", "FW", "FW", "GK"),
}
# Mean height (inches) and its spread, by sport and gender.
_HEIGHT = {("baseball", False): (73.5, 2.2), ("basketball", False): (77.5, 3.6),
           ("basketball", True): (72.0, 3.4), ("hockey", False): (73.0, 2.0),
           ("soccer", False): (71.0, 2.6), ("soccer", True): (66.5, 2.5)}


@dataclass
class Team:
    idx: int
    id: int
    name: str
    abbrev: str
    city: str
    nickname: str
    group: str  # leaf sublevel abbrev
    sublevel_id: int
    venue_id: int
    venue: str
    nation: str
    women: bool = False


@dataclass
class Person:
    id: int
    first: str
    last: str
    name: str
    position: str
    bats: str
    throws: str


@dataclass
class Roster:
    """A team's season roster: per slot, (from date, player id) segments in date order."""
    slots: list[list[tuple[dt.date, int]]] = field(default_factory=list)

    def on(self, day: dt.date) -> list[int]:
        out = []
        for seg in self.slots:
            pid = seg[0][1]
            for start, p in seg[1:]:
                if start <= day:
                    pid = p
            out.append(pid)
        return out


class Transaction(NamedTuple):
    """A roster move, before it is a ``transactions`` row."""

    day: dt.date
    team: int  # team index
    player: int
    kind: str  # Released, Signed, Traded
    text: str


@dataclass
class World:
    plan: LevelPlan
    sublevel_rows: list[dict[str, object]]
    sublevel_ids: dict[str, int]
    venue_rows: list[dict[str, object]]
    teams: list[Team]
    people: dict[int, Person]
    player_rows: list[dict[str, object]]
    official_ids: list[int]
    official_rows: list[dict[str, object]]
    rosters: dict[int, list[Roster]] = field(default_factory=dict)
    transactions: list[Transaction] = field(default_factory=list)
    strength: dict[int, np.ndarray] = field(default_factory=dict)  # season -> per-team rating


def _cities(plan: LevelPlan, rng: np.random.Generator, n: int) -> list[places.City]:
    pool: tuple[places.City, ...]
    if plan.region == "US":
        pool = places.US
    elif plan.region == "NA":
        pool = places.US + places.CANADA
    elif plan.region == "KR":
        pool = places.KOREA
    elif plan.region == "JP":
        pool = places.JAPAN
    elif plan.region == "RU":
        pool = places.RUSSIA
    else:
        pool = places.EUROPE
    order = rng.permutation(len(pool))
    return [pool[order[k % len(pool)]] for k in range(n)]


def _nicknames(plan: LevelPlan) -> tuple[str, ...]:
    return {"KR": places.NICKNAMES_KR, "JP": places.NICKNAMES_JP, "RU": places.NICKNAMES_RU,
            "EU": places.NICKNAMES_EURO}.get(plan.region,
                                             places.NICKNAMES_W if plan.women else places.NICKNAMES_US)


def _team_name(plan: LevelPlan, city: str, nick: str, prefix: str) -> str:
    """A team's name as its fans write it, with its Latin form where that differs (Korea's)."""
    if plan.region == "KR":
        native = f"{city} {nick}"
        return names.with_latin(native, places.latin(native))
    if plan.region == "RU":
        return f"{nick} {city}"
    if plan.region == "EU":
        return f"{prefix} {city}"
    if plan.region == "FOOTBALL":
        return f"{prefix} {city}"
    return f"{city} {nick}"


def build_world(plan: LevelPlan, rng: np.random.Generator, size: str, seasons: list[int],
                season_dates: dict[int, tuple[dt.date, dt.date]], ids: IdFn) -> World:
    """Everything about a level that is not a game, for these seasons (oldest first).

    The steps draw from ``rng`` in this order, and the order is part of the seed's promise (the
    same seed, the same world): sublevels, teams and venues, rosters season by season (players
    drawn as they are first signed), officials, strengths.
    """
    per_group = plan.teams_per_group[0 if size == "full" else 1]
    sublevel_rows, sub_ids = _sublevels(plan, ids)
    teams, venue_rows = _teams_and_venues(plan, rng, per_group, sub_ids, ids)
    pool = _PlayerPool(plan, rng, ids)
    rosters: dict[int, list[Roster]] = {}
    transactions: list[Transaction] = []
    previous: list[list[int]] | None = None
    for s in seasons:
        start, end = season_dates[s]
        if previous is None:
            current = _first_rosters(teams, pool, start)
        else:
            current = _turn_over(teams, pool, rng, previous, start, transactions)
        rosters[s] = [Roster([[(start, pid)] for pid in current[t.idx]]) for t in teams]
        _trades(plan, teams, pool.people, rng, rosters[s], start, end, transactions)
        previous = [r.on(end + dt.timedelta(days=400)) for r in rosters[s]]
    official_ids, official_rows = _officials(plan, rng, len(teams), ids)
    strength = _strengths(rng, seasons, len(teams))
    return World(plan, sublevel_rows, sub_ids, venue_rows, teams, pool.people, pool.rows, official_ids,
                 official_rows, rosters, transactions, strength)


def _sublevels(plan: LevelPlan, ids: IdFn) -> tuple[list[dict[str, object]], dict[str, int]]:
    """The level's sublevels (parents, the groups teams play in, a cup) as rows, and their ids
    by abbreviation. Domestic football leagues and the cup carry their league facts."""
    subs: list[tuple[str, str, str, str | None, tuple[object, ...] | None]] = []
    for g in plan.parents:
        subs.append((g.abbrev, g.name, g.type, None, None))
    leagues = plan.extra.get("leagues", {})
    assert isinstance(leagues, dict)
    for g in plan.groups:
        subs.append((g.abbrev, g.name, g.type, g.parent, leagues.get(g.abbrev)))
    cup = plan.extra.get("cup")
    if isinstance(cup, tuple):
        subs.append((str(cup[1]), str(cup[0]), "League", None, (cup[2], cup[3], cup[4], cup[5])))
    sub_ids = dict(zip([s[0] for s in subs], ids("sublevel", [f"{plan.code}:{s[0]}" for s in subs])))
    rows = []
    for abbrev, name, type_, parent, facts in subs:
        row: dict[str, object] = {"id": sub_ids[abbrev], "level": plan.code, "name": name,
                                  "abbrev": abbrev, "type": type_,
                                  "parent_id": sub_ids[parent] if parent else None,
                                  "league_type": None, "nation": None, "gender": None, "factor": None}
        if facts:
            row.update(league_type=facts[0], nation=facts[1], gender=facts[2], factor=facts[3])
        rows.append(row)
    return rows, sub_ids


def _team_places(plan: LevelPlan, rng: np.random.Generator,
                 per_group: int) -> list[tuple[str, places.City, bool]]:
    """(group, home city, women's team) per team, group by group: football clubs from their
    nation's cities, everyone else from the level's region."""
    out: list[tuple[str, places.City, bool]] = []
    if plan.region == "FOOTBALL":
        nations = {"ENG1": "GB", "ESP1": "ES", "GER1": "DE", "ENGW": "GB"}
        for g in plan.groups:
            pool = places.FOOTBALL[nations[g.abbrev]]
            order = rng.permutation(len(pool))
            for k in range(per_group):
                out.append((g.abbrev, pool[order[k % len(pool)]], g.abbrev.endswith("W")))
    else:
        cities = _cities(plan, rng, per_group * len(plan.groups))
        for gi, g in enumerate(plan.groups):
            for k in range(per_group):
                out.append((g.abbrev, cities[gi * per_group + k], plan.women))
    return out


def _teams_and_venues(plan: LevelPlan, rng: np.random.Generator, per_group: int,
                      sub_ids: dict[str, int], ids: IdFn) -> tuple[list[Team], list[dict[str, object]]]:
    """Teams with unique names and abbreviations, each with a home venue near its city (seats
    and map position drawn; smaller for minor and college levels)."""
    code = plan.code
    team_places = _team_places(plan, rng, per_group)
    nicks = _nicknames(plan)
    nick_order = rng.permutation(len(nicks))
    prefixes = places.FC_PREFIX if plan.region == "FOOTBALL" else ("BC", "KK", "Basket", "CB", "BK")
    n_teams = len(team_places)
    team_ids = ids("team", [f"{code}:t{k:03d}" for k in range(n_teams)])
    venue_ids = ids("venue", [f"{code}:v{k:03d}" for k in range(n_teams)])
    teams: list[Team] = []
    venue_rows: list[dict[str, object]] = []
    used_names: set[str] = set()
    used_abbrev: set[str] = set()
    for k, (group, city, women) in enumerate(team_places):
        nick = nicks[nick_order[k % len(nicks)]]
        name = _team_name(plan, city[0], nick, prefixes[k % len(prefixes)])
        if women and plan.region == "FOOTBALL":
            name = f"{city[0]} Women"
        n = 2
        base = name
        while name in used_names:
            name = f"{base} {['II', 'United', 'Athletic', 'Rovers', 'Wanderers'][n % 5]}"
            n += 1
        used_names.add(name)
        latin = city[1] if plan.region == "KR" else city[0]
        ab = "".join(ch for ch in latin.upper() if ch.isalpha())[:3] or "TM"
        cand, n = ab, 1
        while cand in used_abbrev:
            cand = f"{ab[:2]}{n}"
            n += 1
        used_abbrev.add(cand)
        venue = _venue_name(plan, city, nick, k)
        venue_rows.append(_venue_row(plan, rng, venue_ids[k], venue, city))
        teams.append(Team(k, team_ids[k], name, cand, city[0], nick, group, sub_ids[group],
                          venue_ids[k], venue, city[2], women))
    return teams, venue_rows


def _venue_name(plan: LevelPlan, city: places.City, nick: str, k: int) -> str:
    """A home venue's name, with its Latin form where that differs ("서울 Park (Seoul Park)")."""
    kind = {"baseball": "Park", "basketball": "Arena", "hockey": "Ice Center",
            "soccer": "Stadium"}[plan.sport]
    if k % 2:
        name = f"{city[0]} {kind}"
    elif plan.region not in ("FOOTBALL", "EU"):
        name = f"{nick} {kind}"
    else:
        name = f"Estadio {city[0]}" if city[2] == "ES" else f"{city[0]} {kind}"
    return names.with_latin(name, places.latin(name))


def _venue_row(plan: LevelPlan, rng: np.random.Generator, venue_id: int, name: str,
               city: places.City) -> dict[str, object]:
    capacity = {"baseball": 38000, "basketball": 18500, "hockey": 17500, "soccer": 42000}[plan.sport]
    if plan.code in ("MiLB", "CBB", "MHK", "GL") or plan.code.startswith(("MB", "WB")):
        capacity //= 4
    cap = int(capacity * (0.7 + 0.6 * rng.random()) // 100 * 100)
    lat = round(city[3] + (rng.random() - 0.5) * 0.08, 4)
    lon = round(city[4] + (rng.random() - 0.5) * 0.08, 4)
    city_state = f"{city[0]}, {city[1]}" if city[1] != city[0] else city[0]
    return {"id": venue_id, "name": name, "city_state": city_state, "nation": city[2],
            "latitude": lat, "longitude": lon, "capacity": cap}


class _PlayerPool:
    """Every player of the level: drawn when first signed (name fitting the league, height,
    weight, age, handedness) and kept, so a released player may sign elsewhere later."""

    def __init__(self, plan: LevelPlan, rng: np.random.Generator, ids: IdFn) -> None:
        self.plan = plan
        self.rng = rng
        self.ids = ids
        self.people: dict[int, Person] = {}
        self.rows: list[dict[str, object]] = []
        self.template = POSITIONS[plan.sport][:SPORTS[plan.sport].roster]  # a roster's positions
        self._drawn = 0
        self._college = plan.code.startswith(("MB", "WB")) or plan.code in ("CBB", "MHK")

    def draw(self, n: int, positions: list[str], first_day: dt.date, women: bool) -> list[int]:
        """``n`` new players for these positions, debuting on ``first_day``; their ids."""
        plan, rng = self.plan, self.rng
        culture = plan.culture
        if women and plan.region == "FOOTBALL":
            culture = "fc_w"
        drawn = names.draw_people(rng, culture, n)
        keys = [f"{plan.code}:p{self._drawn + j:06d}" for j in range(n)]
        self._drawn += n
        pids = self.ids("player", keys)
        mean, sd = _HEIGHT.get((plan.sport, women), (73.0, 2.5))
        h = np.clip(np.round(rng.normal(mean, sd, n)), 62, 88).astype(int)
        bmi = rng.normal(25.5 if plan.sport != "basketball" else 24.0, 1.6, n) - (2.5 if women else 0)
        w = np.round(bmi * h * h / 703).astype(int)
        age = rng.uniform(18, 22, n) if self._college else rng.uniform(20, 34, n)
        r = rng.random((n, 2))
        for j in range(n):
            first, last, nat, town = drawn[j]
            pos = positions[j]
            throws = "L" if r[j, 0] < (0.28 if pos in ("SP", "RP") else 0.12) else "R"
            bats = "S" if r[j, 1] < 0.08 else ("L" if r[j, 1] < 0.36 else "R") if throws == "R" \
                else ("L" if r[j, 1] < 0.85 else "R")
            if plan.sport != "baseball":
                bats = throws = ""
            born = first_day - dt.timedelta(days=int(age[j] * 365.25))
            display = names.full_name(first, last, culture)
            self.people[pids[j]] = Person(pids[j], first, last, display, pos, bats, throws)
            self.rows.append({
                "id": pids[j], "name": display, "first_name": first, "last_name": last,
                "height": f"{h[j] // 12}-{h[j] % 12:02d}", "weight": int(w[j]),
                "birth_date": born, "hometown": town, "nation": names.nation_name(nat),
                "flag": nat, "bats": bats or None, "throws": throws or None, "position": pos,
                "debut": first_day, "source": "simulated"})
        return pids


def _first_rosters(teams: list[Team], pool: _PlayerPool, start: dt.date) -> list[list[int]]:
    """The first season: every team's roster drawn new."""
    return [pool.draw(len(pool.template), list(pool.template), start, t.women) for t in teams]


def _turn_over(teams: list[Team], pool: _PlayerPool, rng: np.random.Generator,
               previous: list[list[int]], start: dt.date,
               transactions: list[Transaction]) -> list[list[int]]:
    """The off-season: each roster slot keeps its player at 78%; the others are released, and
    the slot signs a released player of its position from another team (35%) or a new one.
    Every move is a transaction in the weeks before the season."""
    template = pool.template
    people = pool.people
    released: list[tuple[int, int]] = []  # (team idx, player)
    keep = rng.random((len(teams), len(template))) < 0.78
    current = [list(p) for p in previous]
    for t in teams:
        for j in range(len(template)):
            if not keep[t.idx, j]:
                gone = people[current[t.idx][j]]
                text = f"{t.name} released {gone.position} {gone.name}."
                released.append((t.idx, current[t.idx][j]))
                transactions.append(Transaction(start - dt.timedelta(days=45 + j), t.idx,
                                                current[t.idx][j], "Released", text))
    free: dict[tuple[str, bool], list[int]] = {}
    for ti, pid in released:
        free.setdefault((people[pid].position, teams[ti].women), []).append(pid)
    for t in teams:
        for j in range(len(template)):
            if keep[t.idx, j]:
                continue
            agents = free.get((template[j], t.women), [])
            candidates = [p for p in agents if p != previous[t.idx][j]]
            if candidates and rng.random() < 0.35:
                pid = candidates[int(rng.integers(len(candidates)))]
                agents.remove(pid)
            else:
                pid = pool.draw(1, [template[j]], start, t.women)[0]
            current[t.idx][j] = pid
            transactions.append(Transaction(start - dt.timedelta(days=30 - (j % 20)), t.idx, pid, "Signed",
                                            f"{t.name} signed {template[j]} {people[pid].name}."))
    return current


def _trades(plan: LevelPlan, teams: list[Team], people: dict[int, Person], rng: np.random.Generator,
            rosters: list[Roster], start: dt.date, end: dt.date,
            transactions: list[Transaction]) -> None:
    """In-season trades: two teams (of one gender, and of one league where the schedule keeps
    to groups) swap the players of one roster slot on a day between a quarter and two thirds
    into the season."""
    n_teams = len(teams)
    slots = len(rosters[0].slots)
    span = (end - start).days
    for _ in range(max(1, n_teams // 6)):
        a, b = (int(x) for x in rng.choice(n_teams, 2, replace=False))
        if teams[a].women != teams[b].women or teams[a].group[:3] != teams[b].group[:3] \
                and plan.schedule_by == "group":
            continue
        j = int(rng.integers(slots))
        day = start + dt.timedelta(days=int(span * (0.25 + 0.4 * rng.random())))
        pa, pb = rosters[a].on(day)[j], rosters[b].on(day)[j]
        rosters[a].slots[j].append((day, pb))
        rosters[b].slots[j].append((day, pa))
        for ti, pid, other in ((b, pa, pb), (a, pb, pa)):
            text = (f"{teams[ti].name} acquired {people[pid].name} in exchange for "
                    f"{people[other].name}.")
            transactions.append(Transaction(day, ti, pid, "Traded", text))


def _officials(plan: LevelPlan, rng: np.random.Generator, n_teams: int,
               ids: IdFn) -> tuple[list[int], list[dict[str, object]]]:
    """Enough officials for a full day's crews (every team playing), named like the league."""
    roles = len(SPORTS[plan.sport].officials)
    n = max(roles * 3, n_teams // 2 * roles + 2)
    culture = plan.culture if plan.culture in ("kr", "jp", "ru", "euro", "fc") else "us"
    drawn = names.draw_people(rng, culture, n)
    official_ids = ids("official", [f"{plan.code}:o{k:04d}" for k in range(n)])
    rows: list[dict[str, object]] = [
        {"id": official_ids[k], "name": names.full_name(f, l, plan.culture), "first_name": f,
         "last_name": l, "source": "simulated"} for k, (f, l, _, _) in enumerate(drawn)]
    return official_ids, rows


def _strengths(rng: np.random.Generator, seasons: list[int], n_teams: int) -> dict[int, np.ndarray]:
    """Hidden team strengths by season: persistent (0.6 of last season's carries over), so good
    teams tend to stay good, and what the game simulators tilt their rates by."""
    strength: dict[int, np.ndarray] = {}
    previous = rng.normal(0, 1, n_teams)
    for s in seasons:
        current = 0.6 * previous + 0.8 * rng.normal(0, 1, n_teams)
        strength[s] = current
        previous = current
    return strength
