"""teams: all teams of a level; with season, the teams active that season; with id, the detail."""
from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from server.catalog import phases
from server.endpoints.base import ParsedRequest, Endpoint, Field, Record
from server.endpoints.common import params
from server.endpoints.seasonnames import SeasonTeam
from server.store import schema as s

T = s.teams
TS = s.team_seasons
SUB = s.sublevels.alias("tsub")
VEN = s.venues.alias("tven")


def _active(ask: ParsedRequest) -> sa.ColumnElement[bool]:
    """Whether the team plays in the level's newest season (a team may have folded or moved)."""
    newest = sa.select(sa.func.max(TS.c.season)).where(TS.c.level == ask.code).scalar_subquery()
    return sa.exists().where(TS.c.team_id == T.c.id, TS.c.season == newest)


# The teams as they were in the asked season (the 1935 Boston Braves); without a season the
# season row matches nothing and each team is as it is now. Search matches the names shown.
NAMED = SeasonTeam(T, TS.alias("named_season"))


def _base(ask: ParsedRequest) -> sa.Select[Any]:
    """The teams, each named, abbreviated and placed as it was in ``season`` when one is asked.
    A request with a season never shares a reused statement: its filter is a callable
    (``_in_season``), so the statements are its own."""
    name, abbrev, nickname, city, sublevel = (
        NAMED.column(c) for c in ("name", "abbrev", "nickname", "city", "sublevel_id"))
    q = (sa.select(T.c.id.label("ID"), name.label("Name"), abbrev.label("Abbrev"),
                   nickname.label("Nickname"), _active(ask).label("Active"),
                   sublevel.label("Sublevel_ID"), SUB.c.name.label("Sublevel"),
                   city.label("City"), T.c.venue_id.label("Venue_ID"),
                   VEN.c.name.label("Venue"), T.c.nation.label("Nation"))
         .select_from(NAMED.join_season(T, T.c.id, ask.get("season"))
                      .outerjoin(SUB, SUB.c.id == sublevel)
                      .outerjoin(VEN, VEN.c.id == T.c.venue_id))
         .where(T.c.level == ask.code))
    return q.order_by(name, T.c.id)


def _in_season(season: int, ask: ParsedRequest) -> sa.ColumnElement[bool]:
    return T.c.id.in_(sa.select(TS.c.team_id).where(TS.c.season == season,
                                                   TS.c.level == ask.code))


def current_elo(conn: sa.Connection, team_id: int) -> float | None:
    e = s.elo_history.c
    value = conn.execute(sa.select(e.elo_after).where(e.team_id == team_id)
                         .order_by(e.date.desc(), e.game_id.desc()).limit(1)).scalar()
    return round(float(value), 1) if value is not None else None


_NO_POSTSEASON: dict[str, Any] = {"PostWins": None, "PostLosses": None, "PostUnplayed": []}


def _postseasons(conn: sa.Connection, tid: int) -> dict[int, dict[str, Any]]:
    """Per season, the team's postseason record in the games the store holds (the play-in and a
    cup final apart: ``server.catalog.phases``) and the rounds it is listed in without a result
    (a source that ends before them: NBA 2022-23's file stops before the Finals)."""
    g = s.games.c
    rows = conn.execute(
        sa.select(g.season, g.playoff, g.state, g.winner_id, g.loser_id)
        .where(g.phase == phases.POSTSEASON, sa.or_(g.home_id == tid, g.visitor_id == tid))
        .order_by(g.season, g.game_day, g.id)).all()
    out: dict[int, dict[str, Any]] = {}
    for r in rows:
        rec = out.setdefault(r.season, {"PostWins": 0, "PostLosses": 0, "PostUnplayed": []})
        if r.state == "final":
            rec["PostWins"] += r.winner_id == tid
            rec["PostLosses"] += r.loser_id == tid
        elif r.state == phases.NO_RESULT and r.playoff and r.playoff not in rec["PostUnplayed"]:
            rec["PostUnplayed"].append(r.playoff)
    return out


def _hockey_records(conn: sa.Connection, tid: int) -> dict[int, dict[str, int]]:
    """Per season, the team's regular-season Wins, Losses and OTL as its games give them: hockey
    counts a loss in overtime or a shoot-out apart (the standings' OTL: Boston 2022-23 went
    65-12-5), where a source's season total counts it a loss."""
    g = s.games.c
    lost_late = sa.and_(g.loser_id == tid, sa.func.coalesce(g.overtime, "") != "")
    rows = conn.execute(
        sa.select(g.season, sa.func.sum(sa.case((g.winner_id == tid, 1), else_=0)),
                  sa.func.sum(sa.case((sa.and_(g.loser_id == tid, ~lost_late), 1), else_=0)),
                  sa.func.sum(sa.case((lost_late, 1), else_=0)))
        .where(g.phase == phases.REGULAR, g.state == "final",
               sa.or_(g.home_id == tid, g.visitor_id == tid))
        .group_by(g.season)).all()
    return {season: {"Wins": int(w), "Losses": int(lo), "OTL": int(otl)}
            for season, w, lo, otl in rows}


def _season_record(row: sa.RowMapping, hockey: dict[int, dict[str, int]] | None) -> Record:
    """A season's columns as the source gives them; in hockey the games' Wins and Losses, with
    OTL beside Losses where the standings print it."""
    out = {k: v for k, v in row.items() if k != "_parent"}
    if hockey is None:
        return out
    games = hockey.get(row["Season"], {"OTL": None})
    ordered: Record = {}
    for key, value in out.items():
        ordered[key] = games.get(key, value)
        if key == "Losses":
            ordered["OTL"] = games["OTL"]
    return ordered


def _detail(conn: sa.Connection, ask: ParsedRequest, found: list[Record]) -> None:
    record = found[0]
    tid = record["ID"]
    sub = s.sublevels.alias("season_sub")
    parent = s.sublevels.alias("season_parent")
    seasons = conn.execute(
        sa.select(TS.c.season.label("Season"), TS.c.name.label("Name"), TS.c.wins.label("Wins"),
                  TS.c.losses.label("Losses"), TS.c.ties.label("Ties"),
                  sub.c.name.label("Sublevel"), parent.c.name.label("_parent"))
        .select_from(TS.outerjoin(sub, sub.c.id == TS.c.sublevel_id)
                     .outerjoin(parent, parent.c.id == sub.c.parent_id))
        .where(TS.c.team_id == tid).order_by(TS.c.season.desc())).mappings()
    post = _postseasons(conn, tid)
    hockey = _hockey_records(conn, tid) if ask.level.sport == "hockey" else None
    record["seasons"] = [
        {**_season_record(r, hockey),
         "League": [n for n in (r["Sublevel"], r["_parent"]) if n is not None],
         **post.get(r["Season"], _NO_POSTSEASON)}
        for r in seasons]
    record["ELO"] = current_elo(conn, tid)
    a = s.social_accounts.c
    record["social"] = [
        {"ID": r.handle, "Name": r.name, "Platform": r.platform,
         "LastPost": r.last_post.strftime("%Y-%m-%dT%H:%M:%SZ") if r.last_post else None}
        for r in conn.execute(sa.select(a.handle, a.name, a.platform, a.last_post)
                              .where(a.team_id == tid, a.type == "team").order_by(a.handle))]


TEAMS = Endpoint(
    name="teams", singular="team", aliases=("team",),
    summary="teams of the level; season filters to the teams active that season",
    fields=(
        Field("ID", "integer", 11, "team ID"),
        Field("Name", "string", "New York Yankees",
              "full team name: its newest, or with season the one it carried that season"),
        Field("Abbrev", "string", "NYY", "abbreviation (with season: that season's)"),
        Field("Nickname", "string", "Yankees",
              "nickname (with season: that season's); null when the source has none"),
        Field("Active", "yn", "Y", "plays in the level's newest season, Y/N"),
        Field("Sublevel_ID", "integer", 3, "league or conference ID: its newest, or with season "
                                           "the one it played in that season"),
        Field("Sublevel", "string", "American League", "league or conference (with season: "
                                                       "that season's)"),
        Field("City", "string", "New York", "home city (with season: that season's)",
              detail=True),
        Field("Venue_ID", "integer", 5, "home venue ID", detail=True),
        Field("Venue", "string", "Yankee Stadium", "home venue", detail=True),
        Field("Nation", "string", "US", "ISO country code", detail=True),
        Field("seasons", "list", [{"Season": 2024, "Name": None, "Wins": 94, "Losses": 68,
                                   "Ties": 0, "Sublevel": "AL East",
                                   "League": ["AL East", "American League"],
                                   "PostWins": 7, "PostLosses": 5, "PostUnplayed": []}],
              "seasons played: Season, Name, Wins, Losses, Ties (hockey: and OTL, the losses in "
              "overtime or a shoot-out, apart from Losses, as the standings count them), "
              "Sublevel, League (the "
              "sublevel and the sublevels above it, conference first); PostWins, PostLosses (the "
              "postseason's record in the games held, play-in apart; null without postseason "
              "games) and PostUnplayed (the postseason rounds the source lists without a result)",
              detail=True),
        Field("ELO", "number", 1544.2, "current ELO rating; null if not rated", detail=True,
              hook=True),
        Field("social", "list", [{"ID": "Yankees", "Name": "New York Yankees",
                                  "Platform": "X", "LastPost": "2024-07-04T23:00:00Z"}],
              "social accounts: ID (handle), Name, Platform, LastPost", detail=True),
    ),
    build=_base,
    params=params("id", "season", "search"),
    filters={"season": _in_season},
    search=(NAMED.name, NAMED.abbrev),
    id_filter=lambda v, a: T.c.id == v,
    detail=_detail, reuse=True,
)
