"""officials and venues: who worked and where games were played, per season (default: the
level's newest season, docs/api/index.md); with id, that season's games and, for officials, statistics."""
from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from server.endpoints.records import RecordPlan
from server.endpoints.base import ParsedRequest, Endpoint, Field, Record
from server.endpoints.common import G, GAME_FIELDS, game_select, params
from server.store import schema as s

GO = s.game_officials
OF = s.officials
VE = s.venues
# Rows of game_select(*extra): the game columns come first, so one plan reads them all.
_GAME_PLAN = RecordPlan.of(GAME_FIELDS, game_select(league=False))


def _season_games(ask: ParsedRequest) -> list[sa.ColumnElement[bool]]:
    clauses = [G.c.level == ask.code]
    if ask.season is not None:
        clauses.append(G.c.season == ask.season)
    return clauses


def _officials(ask: ParsedRequest) -> sa.Select[Any]:
    worked = (sa.select(GO.c.official_id, sa.func.count().label("games"),
                        sa.func.max(GO.c.role).label("role"))
              .select_from(GO.join(G, G.c.id == GO.c.game_id)).where(*_season_games(ask))
              .group_by(GO.c.official_id).subquery("worked"))
    return (sa.select(OF.c.id.label("ID"), OF.c.name.label("Name"), worked.c.role.label("Role"),
                      worked.c.games.label("Games"))
            .select_from(worked.join(OF, OF.c.id == worked.c.official_id))
            .order_by(OF.c.name, OF.c.id))


def _games_where(conn: sa.Connection, ask: ParsedRequest, clause: sa.ColumnElement[bool],
                 *extra: sa.ColumnElement[Any]) -> list[Record]:
    q = (game_select(*extra, league=False).where(clause, *_season_games(ask))
         .order_by(G.c.game_day.desc(), G.c.id.desc()))
    rows = conn.execute(q).all()
    out = _GAME_PLAN.build_all(rows)
    first = len(rows[0]) - len(extra) if rows else 0
    for rec, row in zip(out, rows, strict=True):
        rec.update((col.name, row[first + n]) for n, col in enumerate(extra))
    return out


def _official_detail(conn: sa.Connection, ask: ParsedRequest, found: list[Record]) -> None:
    record = found[0]
    oid = record["ID"]
    worked = sa.select(GO.c.game_id).where(GO.c.official_id == oid)
    role = (sa.select(GO.c.role).where(GO.c.official_id == oid, GO.c.game_id == G.c.id)
            .scalar_subquery().label("Role"))
    games = _games_where(conn, ask, G.c.id.in_(worked), role)
    record["games"] = games
    done = [g for g in games if g["ScoreVis"] is not None and g["ScoreHome"] is not None]
    home_wins = sum(1 for g in done if g["Winner_ID"] == g["Home_ID"])
    record["statistics"] = {
        "Season": ask.season, "Games": len(games), "HomeWins": home_wins,
        "HomeWinPct": round(100.0 * home_wins / len(done), 1) if done else None,
        "AvgTotalScore": round(sum(g["ScoreVis"] + g["ScoreHome"] for g in done) / len(done), 2)
        if done else None,
    }


_GAMES_DOC = "with id: the season's games (game record fields)"

OFFICIALS = Endpoint(
    name="officials", singular="official", aliases=("official", "umpire", "umpires"),
    needs="officials",
    summary="officials or umpires who worked games in the season (default: newest season)",
    fields=(
        Field("ID", "integer", 7, "official ID"), Field("Name", "string", "Joe West", "name"),
        Field("Role", "string", "HP", "a role held in the season (e.g. HP, 1B, Referee)"),
        Field("Games", "integer", 120, "games worked in the season"),
        Field("games", "list", [{"ID": 401, "Role": "HP"}], _GAMES_DOC + " plus Role",
              detail=True),
        Field("statistics", "object", None, "with id: the season's statistics", detail=True,
              hook=True, children=(
                  Field("Season", "integer", 2024, "season ID"),
                  Field("Games", "integer", 120, "games worked"),
                  Field("HomeWins", "integer", 64, "home wins"),
                  Field("HomeWinPct", "number", 53.3, "home win rate, percent"),
                  Field("AvgTotalScore", "number", 8.9, "average total score"))),
    ),
    build=_officials, params=params("id", "season"), season_default=True,
    id_filter=lambda v, a: OF.c.id == v, detail=_official_detail,
)


def _venues(ask: ParsedRequest) -> sa.Select[Any]:
    used = sa.select(G.c.venue_id).where(*_season_games(ask))
    home = sa.select(s.teams.c.venue_id).where(s.teams.c.level == ask.code)
    return (sa.select(VE.c.id.label("ID"), VE.c.name.label("Name"),
                      VE.c.city_state.label("CityState"), VE.c.latitude.label("Latitude"),
                      VE.c.longitude.label("Longitude"), VE.c.capacity.label("Capacity"),
                      VE.c.nation.label("Nation"))
            .where(sa.or_(VE.c.id.in_(used), VE.c.id.in_(home))).order_by(VE.c.name, VE.c.id))


def _venue_detail(conn: sa.Connection, ask: ParsedRequest, found: list[Record]) -> None:
    found[0]["games"] = _games_where(conn, ask, G.c.venue_id == found[0]["ID"])


VENUES = Endpoint(
    name="venues", singular="venue", aliases=("venue",),
    summary="venues used by the level in the season (default: newest season); with id its games",
    fields=(
        Field("ID", "integer", 5, "venue ID"), Field("Name", "string", "Yankee Stadium", "name"),
        Field("CityState", "string", "Bronx, NY", "city and state"),
        Field("Latitude", "number", 40.83, "latitude"),
        Field("Longitude", "number", -73.93, "longitude"),
        Field("Capacity", "integer", 46537, "capacity"),
        Field("Nation", "string", "US", "ISO country code"),
        Field("games", "list", [{"ID": 401}], _GAMES_DOC, detail=True),
    ),
    build=_venues, params=params("id", "season"), season_default=True,
    id_filter=lambda v, a: VE.c.id == v, detail=_venue_detail,
)
