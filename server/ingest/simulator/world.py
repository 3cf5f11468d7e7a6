"""A level's world: sublevels, venues, teams, players with bios, officials and season rosters.

Rosters change between seasons (players released, others signed) and during them (trades);
each change is a ``transactions`` row, and a team's roster on any date is what its games use.
"""
from __future__ import annotations

import bisect
import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from server.ingest.simulator import names, places
from server.ingest.simulator.rules import SPORTS, LevelPlan

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
    transactions: list[tuple[dt.date, int, int, str, str]] = field(default_factory=list)
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
    if plan.region == "RU":
        return f"{nick} {city}"
    if plan.region == "EU":
        return f"{prefix} {city}"
    if plan.region == "FOOTBALL":
        return f"{prefix} {city}"
    return f"{city} {nick}"


def build_world(plan: LevelPlan, rng: np.random.Generator, size: str, seasons: list[int],
                season_dates: dict[int, tuple[dt.date, dt.date]], ids: IdFn) -> World:
    """Everything about a level that is not a game, for these seasons (oldest first)."""
    code = plan.code
    sport = SPORTS[plan.sport]
    per_group = plan.teams_per_group[0 if size == "full" else 1]

    # -- sublevels
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
    sub_ids = dict(zip([s[0] for s in subs], ids("sublevel", [f"{code}:{s[0]}" for s in subs])))
    sublevel_rows = []
    for abbrev, name, type_, parent, facts in subs:
        row: dict[str, object] = {"id": sub_ids[abbrev], "level": code, "name": name, "abbrev": abbrev,
                                  "type": type_, "parent_id": sub_ids[parent] if parent else None,
                                  "league_type": None, "nation": None, "gender": None, "factor": None}
        if facts:
            row.update(league_type=facts[0], nation=facts[1], gender=facts[2], factor=facts[3])
        sublevel_rows.append(row)

    # -- teams and venues
    team_specs: list[tuple[str, places.City, bool]] = []  # group, city, women
    if plan.region == "FOOTBALL":
        nations = {"ENG1": "GB", "ESP1": "ES", "GER1": "DE", "ENGW": "GB"}
        for g in plan.groups:
            pool = places.FOOTBALL[nations[g.abbrev]]
            order = rng.permutation(len(pool))
            for k in range(per_group):
                team_specs.append((g.abbrev, pool[order[k % len(pool)]], g.abbrev.endswith("W")))
    else:
        cities = _cities(plan, rng, per_group * len(plan.groups))
        for gi, g in enumerate(plan.groups):
            for k in range(per_group):
                team_specs.append((g.abbrev, cities[gi * per_group + k], plan.women))
    nicks = _nicknames(plan)
    nick_order = rng.permutation(len(nicks))
    prefixes = places.FC_PREFIX if plan.region == "FOOTBALL" else ("BC", "KK", "Basket", "CB", "BK")
    n_teams = len(team_specs)
    team_ids = ids("team", [f"{code}:t{k:03d}" for k in range(n_teams)])
    venue_ids = ids("venue", [f"{code}:v{k:03d}" for k in range(n_teams)])
    teams: list[Team] = []
    venue_rows: list[dict[str, object]] = []
    used_names: set[str] = set()
    used_abbrev: set[str] = set()
    for k, (group, city, women) in enumerate(team_specs):
        nick = nicks[nick_order[k % len(nicks)]]
        prefix = prefixes[k % len(prefixes)]
        name = _team_name(plan, city[0], nick, prefix)
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
        kind = {"baseball": "Park", "basketball": "Arena", "hockey": "Ice Center",
                "soccer": "Stadium"}[plan.sport]
        venue = f"{city[0]} {kind}" if k % 2 else f"{nick} {kind}" if plan.region not in (
            "FOOTBALL", "EU") else f"Estadio {city[0]}" if city[2] == "ES" else f"{city[0]} {kind}"
        capacity = {"baseball": 38000, "basketball": 18500, "hockey": 17500, "soccer": 42000}[plan.sport]
        if plan.code in ("MiLB", "CBB", "MHK", "GL") or plan.code.startswith(("MB", "WB")):
            capacity //= 4
        cap = int(capacity * (0.7 + 0.6 * rng.random()) // 100 * 100)
        lat = round(city[3] + (rng.random() - 0.5) * 0.08, 4)
        lon = round(city[4] + (rng.random() - 0.5) * 0.08, 4)
        city_state = f"{city[0]}, {city[1]}" if city[1] != city[0] else city[0]
        venue_rows.append({"id": venue_ids[k], "name": venue, "city_state": city_state,
                           "nation": city[2], "latitude": lat, "longitude": lon, "capacity": cap})
        teams.append(Team(k, team_ids[k], name, cand, city[0], nick, group, sub_ids[group],
                          venue_ids[k], venue, city[2], women))

    # -- players: one pool, drawn season by season as rosters turn over
    template = POSITIONS[plan.sport][:sport.roster]
    people: dict[int, Person] = {}
    player_rows: list[dict[str, object]] = []
    counter = [0]
    college = plan.code.startswith(("MB", "WB")) or plan.code in ("CBB", "MHK")

    def new_players(n: int, positions: list[str], first_day: dt.date, women: bool) -> list[int]:
        culture = plan.culture
        if women and plan.region == "FOOTBALL":
            culture = "fc_w"
        drawn = names.draw_people(rng, culture, n)
        keys = [f"{code}:p{counter[0] + j:06d}" for j in range(n)]
        counter[0] += n
        pids = ids("player", keys)
        mean, sd = _HEIGHT.get((plan.sport, women), (73.0, 2.5))
        h = np.clip(np.round(rng.normal(mean, sd, n)), 62, 88).astype(int)
        bmi = rng.normal(25.5 if plan.sport != "basketball" else 24.0, 1.6, n) - (2.5 if women else 0)
        w = np.round(bmi * h * h / 703).astype(int)
        age = rng.uniform(18, 22, n) if college else rng.uniform(20, 34, n)
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
            people[pids[j]] = Person(pids[j], first, last, display, pos, bats, throws)
            player_rows.append({
                "id": pids[j], "name": display, "first_name": first, "last_name": last,
                "height": f"{h[j] // 12}-{h[j] % 12:02d}", "weight": int(w[j]),
                "birth_date": born, "hometown": town, "nation": names.nation_name(nat),
                "flag": nat, "bats": bats or None, "throws": throws or None, "position": pos,
                "debut": first_day, "source": "simulated"})
        return pids

    rosters: dict[int, list[Roster]] = {}
    transactions: list[tuple[dt.date, int, int, str, str]] = []
    prev: list[list[int]] | None = None
    for s in seasons:
        start, end = season_dates[s]
        cur: list[list[int]] = []
        if prev is None:
            for t in teams:
                cur.append(new_players(len(template), list(template), start, t.women))
        else:
            released: list[tuple[int, int]] = []  # (team idx, player)
            keep = rng.random((n_teams, len(template))) < 0.78
            cur = [list(p) for p in prev]
            for t in teams:
                for j in range(len(template)):
                    if not keep[t.idx, j]:
                        gone = people[cur[t.idx][j]]
                        text = f"{t.name} released {gone.position} {gone.name}."
                        released.append((t.idx, cur[t.idx][j]))
                        transactions.append((start - dt.timedelta(days=45 + j), t.idx, cur[t.idx][j],
                                             "Released", text))
            free: dict[tuple[str, bool], list[int]] = {}
            for ti, pid in released:
                free.setdefault((people[pid].position, teams[ti].women), []).append(pid)
            for t in teams:
                for j in range(len(template)):
                    if keep[t.idx, j]:
                        continue
                    agents = free.get((template[j], t.women), [])
                    cands = [p for p in agents if p != prev[t.idx][j]]
                    if cands and rng.random() < 0.35:
                        pid = cands[int(rng.integers(len(cands)))]
                        agents.remove(pid)
                    else:
                        pid = new_players(1, [template[j]], start, t.women)[0]
                    cur[t.idx][j] = pid
                    transactions.append((start - dt.timedelta(days=30 - (j % 20)), t.idx, pid, "Signed",
                                         f"{t.name} signed {template[j]} {people[pid].name}."))
        rosters[s] = [Roster([[(start, pid)] for pid in cur[t.idx]]) for t in teams]
        # In-season trades: two teams swap players of one roster slot.
        n_trades = max(1, n_teams // 6)
        span = (end - start).days
        for _ in range(n_trades):
            a, b = (int(x) for x in rng.choice(n_teams, 2, replace=False))
            if teams[a].women != teams[b].women or teams[a].group[:3] != teams[b].group[:3] \
                    and plan.schedule_by == "group":
                continue
            j = int(rng.integers(len(template)))
            day = start + dt.timedelta(days=int(span * (0.25 + 0.4 * rng.random())))
            pa, pb = rosters[s][a].on(day)[j], rosters[s][b].on(day)[j]
            rosters[s][a].slots[j].append((day, pb))
            rosters[s][b].slots[j].append((day, pa))
            for ti, pid, other in ((b, pa, pb), (a, pb, pa)):
                text = (f"{teams[ti].name} acquired {people[pid].name} in exchange for "
                        f"{people[other].name}.")
                transactions.append((day, ti, pid, "Traded", text))
        prev = [r.on(end + dt.timedelta(days=400)) for r in rosters[s]]

    # -- officials
    n_off = max(len(sport.officials) * 3, n_teams // 2 * len(sport.officials) + 2)
    officials = names.draw_people(rng, "us" if plan.culture not in ("kr", "jp", "ru", "euro", "fc")
                                  else plan.culture, n_off)
    off_ids = ids("official", [f"{code}:o{k:04d}" for k in range(n_off)])
    official_rows = [{"id": off_ids[k], "name": names.full_name(f, l, plan.culture), "first_name": f,
                      "last_name": l, "source": "simulated"} for k, (f, l, _, _) in enumerate(officials)]

    # -- hidden strengths, persistent across seasons
    strength: dict[int, np.ndarray] = {}
    prev_s = rng.normal(0, 1, n_teams)
    for s in seasons:
        cur_s = 0.6 * prev_s + 0.8 * rng.normal(0, 1, n_teams)
        strength[s] = cur_s
        prev_s = cur_s

    return World(plan, sublevel_rows, sub_ids, venue_rows, teams, people, player_rows, off_ids,
                 official_rows, rosters, transactions, strength)


def roster_dates(roster: Roster) -> list[dt.date]:
    return sorted({d for seg in roster.slots for d, _ in seg})


def segment_index(dates: list[dt.date], day: dt.date) -> int:
    return bisect.bisect_right(dates, day)
