"""seasons: a level's seasons with stat granularity; with id, sublevels and playoffs."""
from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from server.catalog import phases
from server.endpoints.base import ParsedRequest, Endpoint, Field, Record
from server.endpoints.common import G, params
from server.store import loading as level_loading
from server.store import schema as s

SE = s.seasons


def _has(kind: str) -> sa.ColumnElement[Any]:
    """'Y' when the season holds rows of this kind (granularity overview), else 'N': kept with
    the data (``server.store.season_data``), read by the season's key."""
    sd = s.season_data.c
    held = sa.exists(sa.select(1).where(sd.level == SE.c.level, sd.season == SE.c.season,
                                        sd[kind].is_(True)))
    return sa.case((held, "Y"), else_="N")


def _base(ask: ParsedRequest) -> sa.Select[Any]:
    games = (sa.select(sa.func.count()).where(G.c.level == SE.c.level, G.c.season == SE.c.season)
             .scalar_subquery())
    # a real season's End is its last game, the postseason's; a client placing a game in the
    # regular season or the postseason needs the day the regular season ended
    regular_end = (sa.select(sa.func.max(G.c.game_day))
                   .where(G.c.level == SE.c.level, G.c.season == SE.c.season,
                          G.c.phase == phases.REGULAR)
                   .scalar_subquery())
    # where the season's data stops: its last game with a result, and how many games the source
    # lists after that without one (NBA 2022-23: the Finals' games 6 and 7)
    data_end = (sa.select(sa.func.max(G.c.game_day))
                .where(G.c.level == SE.c.level, G.c.season == SE.c.season, G.c.state == "final")
                .scalar_subquery())
    no_result = (sa.select(sa.func.count())
                 .where(G.c.level == SE.c.level, G.c.season == SE.c.season,
                        G.c.state == phases.NO_RESULT)
                 .scalar_subquery())
    # the background fill's notice while the level is not whole (``server.jobs.fill``)
    info = s.store_info.c
    loading = (sa.select(info.value).where(info.key == sa.literal(level_loading.PREFIX) + SE.c.level)
               .scalar_subquery())
    return (sa.select(
        SE.c.season.label("ID"), SE.c.level.label("Level"), SE.c.name.label("Name"),
        SE.c.start.label("Start"), SE.c.end.label("End"),
        regular_end.label("RegularEnd"), data_end.label("DataEnd"),
        no_result.label("NoResultGames"), games.label("Games"),
        sa.case((games > 0, "Y"), else_="N").label("g_games"),
        _has("player_lines").label("g_player"), _has("team_lines").label("g_team"),
        _has("plays").label("g_plays"), _has("pitches").label("g_pitches"),
        _has("game_officials").label("g_officials"), _has("odds").label("g_odds"),
        SE.c.source.label("Source"), loading.label("Loading"))
        .where(SE.c.level == ask.code).order_by(SE.c.season.desc()))


def _detail(conn: sa.Connection, ask: ParsedRequest, found: list[Record]) -> None:
    record = found[0]
    season = record["ID"]
    sl = s.sublevels.c
    used = sa.union(
        sa.select(G.c.sublevel_id).where(G.c.level == ask.code, G.c.season == season),
        sa.select(s.team_seasons.c.sublevel_id).where(s.team_seasons.c.level == ask.code,
                                                      s.team_seasons.c.season == season),
    ).subquery()
    record["sublevels"] = [dict(r) for r in conn.execute(
        sa.select(sl.id.label("ID"), sl.name.label("Name"), sl.type.label("Type"))
        .where(sl.id.in_(sa.select(used.c[0]))).order_by(sl.id)).mappings()]
    record["playoffs"] = conn.execute(
        sa.select(SE.c.playoffs).where(SE.c.level == ask.code, SE.c.season == season)).scalar()


def _sublevel(value: Any, ask: ParsedRequest) -> sa.ColumnElement[bool]:
    return sa.exists(sa.select(1).where(G.c.level == SE.c.level, G.c.season == SE.c.season,
                                        G.c.sublevel_id == value))


_GRAN = (("Games", "g_games"), ("PlayerPerfs", "g_player"), ("TeamPerfs", "g_team"),
         ("PlayByPlay", "g_plays"), ("Pitches", "g_pitches"), ("Officials", "g_officials"),
         ("Odds", "g_odds"))

SEASONS = Endpoint(
    name="seasons", singular="season",
    summary="the level's seasons with an overview of the data held; with id, sublevels, playoffs",
    fields=(
        Field("ID", "integer", 2024, "season ID: the year the season ends"),
        Field("Level", "string", "MLB", "level code"),
        Field("Name", "string", "2024", "season name, e.g. 2023-24"),
        Field("Start", "date", "2024-03-28", "first day"),
        Field("End", "date", "2024-09-29", "last day"),
        Field("RegularEnd", "date", "2024-09-29", "last day of the regular season (its last game "
                                                 "outside the playoff), null before any game"),
        Field("DataEnd", "date", "2024-10-30", "day of the season's last game with a result: "
              "where its data stops; null before any result"),
        Field("NoResultGames", "integer", 0, "games the source lists on past days without a "
              "result (GameStatus No result): when above 0 the data stops at DataEnd, before "
              "the season did"),
        Field("Games", "integer", 2430, "games held"),
        Field("Granularity", "object", None, "which data the season holds, Y/N", children=tuple(
            Field(name, "string", "Y", f"{name} held", column=col) for name, col in _GRAN)),
        Field("Source", "string", "simulated", "where the season's data come from"),
        Field("Loading", "string", "MLB 2021-2023 loading, 2 of 3 seasons", "null when the season is whole; while the service is "
              "still loading or computing the level in the background (a first build), what it "
              "is doing, e.g. 'MLB 2021-2023 loading, 2 of 3 seasons': until then the season may "
              "lack games, ratings, forecasts, stat tables or projections"),
        Field("sublevels", "list", [{"ID": 1, "Name": "American League", "Type": "League"}],
              "sublevels of the season: ID, Name, Type", detail=True),
        Field("playoffs", "list", [{"Round": "World Series"}], "playoff rounds, when known",
              detail=True),
    ),
    build=_base, params=params("id", "sublevel"),
    filters={"sublevel": _sublevel}, id_filter=lambda v, a: SE.c.season == v,
    detail=_detail,
)
