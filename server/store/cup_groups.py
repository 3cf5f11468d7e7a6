"""A European cup's group stage or league phase, as the standings table it is: which group each
club played in, read from the stored matches.

A cup is one FC sublevel (``league_type`` Cup) whose group games are its ``regular`` games
(``server.catalog.football.cups``); the groups are not sublevels of their own, since a club's
group changes every season. A group is the clubs that played each other there (a connected
part of the season's matches), named by its matches' round (``Group A``), by the declared draw
where a file heads the matches by matchday only (``GROUP_DRAWS``), or ``League phase``: from
2024-25 every club is in one table of 36.
"""
from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa

from server.catalog import phases
from server.catalog.football.cups import (CUPS, GROUP_DRAWS, GROUP_ROUND, GROUP_TIEBREAKS,
                                          LEAGUE_PHASE, LEAGUE_PHASE_TIEBREAKS)
from server.store import schema


@dataclass(frozen=True)
class Cup:
    """A cup competition's sublevel: its ID, name and declared code (``uefa.cl``)."""
    id: int
    name: str
    code: str | None


@dataclass(frozen=True)
class Stage:
    """A cup season's group stage: each club's group name, and the stage's tiebreakers."""
    groups: dict[int, str]
    tiebreaks: tuple[str, ...]


def cup(sublevel_id: int, name: str, abbrev: str) -> Cup:
    """The cup sublevel ``sublevel_id`` (``league_type`` Cup), with its declared code."""
    code = next((c for c, lg in CUPS.items() if lg.abbrev == abbrev), None)
    return Cup(sublevel_id, str(name), code)


def stage(conn: sa.Connection, level: str, season: int, cup: Cup,
          rows: list[tuple[int, int, str | None]]) -> Stage:
    """The groups of the cup's season from its group games ``rows`` (home ID, visitor ID, the
    round as stored)."""
    parent: dict[int, int] = {}

    def root(t: int) -> int:
        while parent.setdefault(t, t) != t:
            parent[t] = parent[parent[t]]
            t = parent[t]
        return t

    for home, visitor, _ in rows:
        parent[root(home)] = root(visitor)
    members: dict[int, set[int]] = {}
    rounds: dict[int, list[str]] = {}
    for home, visitor, round_name in rows:
        r = root(home)
        members.setdefault(r, set()).update((home, visitor))
        rounds.setdefault(r, []).append(round_name or "")
    draw = _drawn(conn, level, GROUP_DRAWS.get((cup.code or "", season), {}))
    groups: dict[int, str] = {}
    league_phase = False
    for r, clubs in members.items():
        named = [m["g"] for x in rounds[r] if (m := GROUP_ROUND.fullmatch(x))]
        if any(x.startswith(LEAGUE_PHASE) for x in rounds[r]):
            name, league_phase = LEAGUE_PHASE, True
        elif named:
            name = f"Group {max(set(named), key=named.count)}"
        else:
            letters = [g for g, team in draw.items() if team in clubs]
            name = f"Group {letters[0]}" if len(letters) == 1 else f"Group of {len(clubs)}"
        groups.update(dict.fromkeys(clubs, name))
    return Stage(groups, LEAGUE_PHASE_TIEBREAKS if league_phase else GROUP_TIEBREAKS)


def _drawn(conn: sa.Connection, level: str, draw: dict[str, str]) -> dict[str, int]:
    """A declared draw's group letters -> the team ID of the club named for each."""
    if not draw:
        return {}
    sk = schema.source_keys.c
    ids = {k.split(":", 1)[1]: int(i) for i, k in conn.execute(
        sa.select(sk.id, sk.key).where(sk.kind == "team",
                                       sk.key.in_([f"{level}:{c}" for c in draw.values()])))}
    return {g: ids[c] for g, c in draw.items() if c in ids}


def group_games(level: str, season: int, cup_id: int) -> sa.ColumnElement[bool]:
    """The games of a cup season's group stage or league phase."""
    g = schema.games.c
    return sa.and_(g.level == level, g.season == season, g.sublevel_id == cup_id,
                   g.phase == phases.REGULAR)
