"""Divisions by season: the sublevels of type Division and ``team_seasons.division_id``.

A division is a sublevel under its league or conference (``parent_id``), keyed ``LEVEL:NAME``
in ``source_keys`` (source ``divisions``), so every path that names one (Lahman's ``divID``, the
catalog's declared divisions) reaches the same ID. Three kinds of team season get a division:

* Lahman's seasons (1969-2020): its teams table names each season's division
  (``server.ingest.lahman.load_divisions``);
* the other real seasons: the divisions the catalog declares (``server.catalog.playoffs.
  DIVISIONS``: MLB from 2013, NHL 2021-22 to 2023-24), matched by the team's abbreviation;
* a simulated or feed team whose own sublevel is a Division: that sublevel.

``place_declared`` fills the last two for team seasons without a division; ``init`` and every
re-tabulation run it, so a store built before divisions existed gets them on upgrade, and a
season ingested later gets them with its ratings. It never overwrites a division a source gave.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import sqlalchemy as sa

from server.catalog.playoffs import DIVISIONS, division_of
from server.store import schema
from server.store.loader import Loader, upsert

SOURCE = "divisions"  # source_keys.source of division sublevels
TYPE = "Division"


def division_key(level: str, name: str) -> str:
    """The one source key of a division: its level and name ("MLB:AL West")."""
    return f"{level}:{name}"


def ensure_division(loader: Loader, level: str, name: str, parent_id: int | None) -> int:
    """The ID of division ``name`` of ``level``, its sublevel row written when new (or when it
    had no parent yet)."""
    ident = loader.id("sublevel", division_key(level, name), SOURCE)
    sl = schema.sublevels.c
    have = loader.conn.execute(sa.select(sl.parent_id).where(sl.id == ident)).first()
    if have is None or (have[0] is None and parent_id is not None):
        upsert(loader.conn, schema.sublevels, [
            {"id": ident, "level": level, "name": name, "abbrev": _abbrev(name), "type": TYPE,
             "parent_id": parent_id}])
    return ident


def _abbrev(name: str) -> str:
    """"AL West" -> "ALW", "Metropolitan" -> "MET": short enough for the sublevels column."""
    words = name.split()
    if len(words) > 1:
        return (words[0] + "".join(w[0] for w in words[1:])).upper()[:16]
    return name[:3].upper()


def place_declared(conn: sa.Connection, levels: list[str] | None = None) -> int:
    """Give a division to every team season of ``levels`` (default all) that has none and
    whose division is declared: by the catalog (real seasons) or by its own sublevel being a
    Division. Returns the number of team seasons placed. Runs inside the caller's
    transaction."""
    ts, t, sl = schema.team_seasons.c, schema.teams.c, schema.sublevels.c
    query = (sa.select(ts.team_id, ts.season, ts.level, ts.sublevel_id, t.abbrev, sl.type)
             .join_from(schema.team_seasons, schema.teams, t.id == ts.team_id)
             .join(schema.sublevels, sl.id == ts.sublevel_id, isouter=True)
             .where(ts.division_id.is_(None)))
    if levels is not None:
        query = query.where(ts.level.in_(levels))
    declared_levels = {d.level for d in DIVISIONS}
    loader = Loader(conn, SOURCE)
    placed: list[dict[str, object]] = []
    for team_id, season, level, sublevel_id, abbrev, sub_type in conn.execute(query).all():
        if sub_type == TYPE:
            placed.append({"team_id": team_id, "season": season, "division_id": sublevel_id})
            continue
        if level not in declared_levels:
            continue
        name = division_of(level, season, abbrev)
        if name is not None:
            placed.append({"team_id": team_id, "season": season,
                           "division_id": ensure_division(loader, level, name, sublevel_id)})
    if placed:
        conn.execute(schema.team_seasons.update()
                     .where(ts.team_id == sa.bindparam("b_team"), ts.season == sa.bindparam("b_season"))
                     .values(division_id=sa.bindparam("b_division")),
                     [{"b_team": p["team_id"], "b_season": p["season"],
                       "b_division": p["division_id"]} for p in placed])
    return len(placed)


@dataclass(frozen=True)
class Placement:
    """Where a team stood in a season: its league or conference (the group its postseason is
    drawn from), its division (None: none declared), and its own sublevel that season."""

    league_id: int | None
    division_id: int | None
    sublevel_id: int | None


def placements(conn: sa.Connection, level: str, season: int, team_ids: Iterable[int],
               tree: dict[int, tuple[int | None, str | None]] | None = None
               ) -> dict[int, Placement]:
    """Each team's placement in ``season``: the division is the team season's; the league is
    the division's parent, else the parent of the team's sublevel (a simulated conference
    under its league), else that sublevel itself (a real league or conference). The one reading
    of the structure: the standings and the projections both use it. ``tree``: the level's
    sublevels (ID -> parent ID, type) when the caller has read them already."""
    t, ts, sl = schema.teams.c, schema.team_seasons.c, schema.sublevels.c
    rows = conn.execute(sa.select(t.id, sa.func.coalesce(ts.sublevel_id, t.sublevel_id),
                                  ts.division_id)
                        .join_from(schema.teams, schema.team_seasons,
                                   (ts.team_id == t.id) & (ts.season == season), isouter=True)
                        .where(t.id.in_([int(x) for x in team_ids]))).all()
    subs = tree if tree is not None else {r[0]: (r[1], r[2]) for r in conn.execute(
        sa.select(sl.id, sl.parent_id, sl.type).where(sl.level == level))}
    parents = {k: v[0] for k, v in subs.items()}
    out = {}
    for team_id, sub, div in rows:
        if div is None and sub is not None and subs.get(sub, (None, None))[1] == TYPE:
            div = sub  # a simulated team's own division, before re-tabulation records it
        league = parents.get(div) if div is not None else None
        if league is None and sub is not None:
            league = parents.get(sub) or sub
        out[team_id] = Placement(league, div, sub)
    return out
