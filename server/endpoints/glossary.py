"""glossary: ID codes and explanations (levels, sublevels, stats, nations); never paginated.

The levels rows are read from the store's ``levels`` table (levels are data, docs/api/index.md) and
list the endpoints that serve each level: the registry, which declares this endpoint with
``glossary(serving)``, hands in that lookup, so the two modules do not import each other.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable

import sqlalchemy as sa

from server.endpoints.base import ParsedRequest, Endpoint, Field, Record
from server.store import schema as s

TYPES = ("levels", "sublevels", "stats", "nations")


Serving = Callable[[str], tuple[str, ...]]  # a level code -> the endpoints serving it


def _levels(conn: sa.Connection, serving: Serving) -> list[Record]:
    lv = s.levels.c
    return [{"ID": r.code, "Name": r.name, "Sport": r.sport, "Gender": r.gender,
             "Endpoints": list(serving(r.code))}
            for r in conn.execute(sa.select(lv.code, lv.name, lv.sport, lv.gender)
                                  .order_by(lv.code))]


def _sublevels(conn: sa.Connection, ask: ParsedRequest) -> list[Record]:
    sl = s.sublevels.c
    out = []
    for r in conn.execute(sa.select(s.sublevels).where(sl.level == ask.code).order_by(sl.id)):
        rec: Record = {"ID": r.id, "Name": r.name, "Abbrev": r.abbrev, "Type": r.type,
                       "Parent_ID": r.parent_id}
        if r.league_type is not None or r.factor is not None:
            rec.update({"LeagueType": r.league_type, "LeagueNation": r.nation,
                        "LeagueGender": r.gender, "LeagueFactor": r.factor})
        out.append(rec)
    return out


def _stats(conn: sa.Connection, ask: ParsedRequest) -> list[Record]:
    gs = s.glossary_stats.c
    return [{"Code": r.code, "Name": r.name, "Description": r.description, "Type": r.type,
             "Order": r.order, "Qualifier": r.qualifier}
            for r in conn.execute(sa.select(s.glossary_stats).where(gs.sport == ask.level.sport)
                                  .order_by(gs.type, gs.code))]


def _nations(conn: sa.Connection, ask: ParsedRequest) -> list[Record]:
    n = s.nations.c
    return [{"Code": r.code, "Name": r.name}
            for r in conn.execute(sa.select(n.code, n.name).order_by(n.code))]


_BY_TYPE: dict[str, Callable[[sa.Connection, ParsedRequest], list[Record]]] = {
    "sublevels": _sublevels, "stats": _stats, "nations": _nations,
}


def glossary(serving: Serving) -> Endpoint:
    """The glossary's declaration; ``serving`` lists the endpoints serving a level."""
    def answer(conn: sa.Connection, ask: ParsedRequest) -> list[Record]:
        kind = ask.type or TYPES[0]  # routing admits only the declared TYPES
        return _levels(conn, serving) if kind == "levels" else _BY_TYPE[kind](conn, ask)

    return dataclasses.replace(_GLOSSARY, custom=answer)


_GLOSSARY = Endpoint(
    name="glossary", singular="entry",
    summary="ID codes and explanations; path type levels (default), sublevels, stats or nations",
    fields=(
        Field("ID", "any", "MLB", "levels: level code; sublevels: sublevel ID (a number)"),
        Field("Name", "string", "Major League Baseball", "name"),
        Field("Sport", "string", "baseball", "levels: sport"),
        Field("Gender", "string", "M", "levels: M, W or X (mixed)"),
        Field("Endpoints", "list", ["games", "teams"], "levels: endpoints serving the level"),
        Field("Abbrev", "string", "AL", "sublevels: abbreviation"),
        Field("Type", "string", "League", "sublevels: League, Conference...; stats: player/team"),
        Field("Parent_ID", "integer", None, "sublevels: parent sublevel ID"),
        Field("LeagueType", "string", "Domestic", "sublevels of FC: Domestic, Cup, International"),
        Field("LeagueNation", "string", "England", "sublevels of FC: country or scope"),
        Field("LeagueGender", "string", "M", "sublevels of FC: M or W"),
        Field("LeagueFactor", "number", 1.0, "sublevels of FC: relative strength 0-1"),
        Field("Code", "string", "HR", "stats and nations: the code"),
        Field("Description", "string", "Season total: home runs.", "stats: meaning"),
        Field("Order", "string", "desc", "stats: desc (higher ranks first) or asc"),
        Field("Qualifier", "string", None, "stats: qualifier rule, null when none"),
    ),
    types=TYPES, paginated=False,
)
