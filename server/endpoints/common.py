"""Shared pieces of the declarations: table aliases, the game record, shared parameters.

The game record (docs/api/reference.md) is reused by games, forecasts, moneyline, venues and officials, so
its columns and fields are declared once here.
"""
from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from server.catalog import phases
from server.endpoints.base import ParsedRequest, Field, Filter, Param
from server.endpoints.seasonnames import season_team
from server.store import schema as s

G = s.games
VISITOR, HOME = season_team("vis"), season_team("hom")  # named as in the game's season
V, H = VISITOR.team, HOME.team
SL = s.sublevels.alias("lg")
LEAGUE_LEVELS = ("FC",)  # levels whose games carry the League* fields (docs/api/reference.md)

GAME_COLUMNS: tuple[sa.ColumnElement[Any], ...] = (
    G.c.id.label("ID"), VISITOR.name.label("Visitor"), G.c.visitor_id.label("Visitor_ID"),
    HOME.name.label("Home"), G.c.home_id.label("Home_ID"), G.c.game_day.label("GameDay"),
    G.c.game_no.label("GameNo"), G.c.score_vis.label("ScoreVis"),
    G.c.score_home.label("ScoreHome"), G.c.game_status.label("GameStatus"),
    G.c.phase.label("Phase"),
    sa.case((G.c.state == phases.NO_RESULT, phases.NO_RESULT_NOTICE)).label("Notice"),
    G.c.overtime.label("Overtime"), G.c.winner_id.label("Winner_ID"),
    G.c.loser_id.label("Loser_ID"),
)
LEAGUE_COLUMNS: tuple[sa.ColumnElement[Any], ...] = (
    SL.c.abbrev.label("League"), SL.c.name.label("LeagueName"),
    SL.c.league_type.label("LeagueType"), SL.c.nation.label("LeagueNation"),
    SL.c.gender.label("LeagueGender"), SL.c.factor.label("LeagueFactor"),
    # a two-legged tie's second leg (server.ingest.football.cups.with_ties)
    G.c.info[("agg", 1)].as_integer().label("AggregateVis"),
    G.c.info[("agg", 0)].as_integer().label("AggregateHome"),
    G.c.info["tie_winner_id"].as_integer().label("TieWinner_ID"),
)
GAME_FROM = HOME.join(VISITOR.join(G, G.c.visitor_id, G.c.season), G.c.home_id, G.c.season)
LEAGUE_FROM = GAME_FROM.outerjoin(SL, SL.c.id == G.c.sublevel_id)

GAME_FIELDS: tuple[Field, ...] = (
    Field("ID", "integer", 401, "unique record identifier (the game ID)"),
    Field("Visitor", "string", "Boston Red Sox", "visiting team name"),
    Field("Visitor_ID", "integer", 12, "visiting team ID"),
    Field("Home", "string", "New York Yankees", "home team name"),
    Field("Home_ID", "integer", 11, "home team ID"),
    Field("GameDay", "date", "2024-07-04", "game date, YYYY-MM-DD"),
    Field("GameNo", "integer", 1, "2 if second game of a doubleheader, otherwise 1"),
    Field("ScoreVis", "integer", 3, "visiting score; null before the game"),
    Field("ScoreHome", "integer", 5, "home score; null before the game"),
    Field("GameStatus", "string", "Final", "period and time, Final, empty before the start, or "
          "No result (a past game the source has no result for; see Notice)"),
    Field("Phase", "string", "regular", "the game's phase, as its source gives it: "
          + ", ".join(phases.PHASES)),
    Field("Notice", "string", None, "what the source lacks about the game (a past game without "
          "a result); null when nothing"),
    Field("Overtime", "string", None, "extra innings or overtimes, when available"),
    Field("Winner_ID", "integer", 11, "winning team ID; null until decided"),
    Field("Loser_ID", "integer", 12, "losing team ID; null until decided"),
)
LEAGUE_FIELDS: tuple[Field, ...] = (
    Field("League", "string", "EPL", "league abbreviation (FC only)", levels=LEAGUE_LEVELS),
    Field("LeagueName", "string", "Premier League", "league name (FC only)", levels=LEAGUE_LEVELS),
    Field("LeagueType", "string", "Domestic", "Domestic, Cup or International (FC only)",
          levels=LEAGUE_LEVELS),
    Field("LeagueNation", "string", "England", "country or scope of the league (FC only)",
          levels=LEAGUE_LEVELS),
    Field("LeagueGender", "string", "M", "M or W (FC only)", levels=LEAGUE_LEVELS),
    Field("LeagueFactor", "number", 1.0, "relative league strength 0.0-1.0 (FC only)",
          levels=LEAGUE_LEVELS),
    Field("AggregateVis", "integer", 1, "the second leg of a two-legged knock-out tie: the "
          "visiting side's goals over both legs; null on any other game (FC only)",
          levels=LEAGUE_LEVELS),
    Field("AggregateHome", "integer", 7, "the same tie's home side's goals over both legs "
          "(FC only)", levels=LEAGUE_LEVELS),
    Field("TieWinner_ID", "integer", 11, "the second leg of a two-legged tie: the team that "
          "went through (more goals on aggregate, else the extra time and shoot-out of the "
          "second leg; no away goals from 2021-22); null on any other game (FC only)",
          levels=LEAGUE_LEVELS),
)


def game_select(*extra: sa.ColumnElement[Any], league: bool = True) -> sa.Select[Any]:
    """The game record's columns (and the League fields' when ``league``), plus ``extra``."""
    if league:
        return sa.select(*GAME_COLUMNS, *LEAGUE_COLUMNS, *extra).select_from(LEAGUE_FROM)
    return sa.select(*GAME_COLUMNS, *extra).select_from(GAME_FROM)


GAME_TEAMS = (G.c.home_id, G.c.visitor_id)  # a team filter on games: home or away


def team_ref(column: sa.ColumnElement[Any], value: Any) -> sa.ColumnElement[bool]:
    """A team given as an ID, or (where the spec types it as a string) as a name/abbreviation."""
    if isinstance(value, int):
        return column == value
    t = s.teams.c
    names = sa.select(t.id).where(sa.or_(sa.func.lower(t.name) == value.lower(),
                                         sa.func.lower(t.abbrev) == value.lower()))
    return column.in_(names)


def phase_of(game_id: sa.ColumnElement[Any]) -> sa.ColumnElement[Any]:
    """The phase of the game ``game_id`` names: a game line's ``phase`` filter."""
    return sa.select(G.c.phase).where(G.c.id == game_id).scalar_subquery()


def phase_filters(phase: sa.ColumnElement[Any]) -> dict[str, Filter]:
    """The ``phase`` and ``seasontype`` filters of an endpoint whose records have this phase:
    both arrive as a set of phases (``seasontype``, kept for older clients, stands for one of
    ``server.catalog.phases.SEASON_TYPES``: postseason is the play-in and the postseason)."""
    def clause(value: Any, ask: ParsedRequest) -> sa.ColumnElement[bool]:
        return phase.in_(value)
    return {"phase": clause, "seasontype": clause}


def snapshot_season(table: sa.Table, ask: ParsedRequest, date_decides: bool) -> Any:
    """The season a dated table (ratings, projections) is read in: the asked season, unless
    ``date_decides`` and a date is given; else the level's newest season holding a row on or
    before the date (or at all)."""
    if ask.season is not None and not (date_decides and ask.day_to is not None):
        return ask.season
    newest = sa.select(sa.func.max(table.c.season)).where(table.c.level == ask.code)
    if ask.day_to is not None:
        newest = newest.where(table.c.date <= ask.day_to)
    return newest.scalar_subquery()


def newest_first(day: sa.ColumnElement[Any], ident: sa.ColumnElement[Any]) -> tuple[Any, ...]:
    """Ordering by day, then ID, newest first: the spec's order for dated lists."""
    return (day.desc(), ident.desc())


def _p(name: str, kind: str, doc: str, example: str) -> Param:
    return Param(name, kind, doc, example)


PARAMS: dict[str, Param] = {p.name: p for p in (
    _p("id", "number", "record ID; returns the one record, richer", "401"),
    _p("team", "number", "team ID (from the teams endpoint)", "11"),
    _p("season", "number", "season ID: the year in which the season ends, YYYY", "2024"),
    _p("sublevel", "number", "league or conference ID (from the glossary)", "3"),
    _p("player", "number", "player ID", "1001"),
    _p("game", "number", "game ID", "401"),
    _p("search", "search", "case-insensitive search on names; 4 characters or fewer ignored",
       "yankees"),
    _p("date", "date", "one date: YYYY-MM-DD or YYYYMMDD (other forms best effort)",
       "2024-07-04"),
    _p("start", "date", "start date, inclusive", "2024-07-01"),
    _p("end", "date", "end date, inclusive", "2024-07-31"),
    _p("last", "positive", "the N days up to and including today (America/New_York)", "7"),
    _p("limit", "limit", "a named restriction, written with or without a leading '='", "=today"),
    _p("stat", "string", "stat code from the glossary (required)", "HR"),
    _p("phase", "phase", "the games' phase, any case: " + ", ".join(phases.PHASES)
       + "; several comma separated", "playin,postseason"),
    _p("seasontype", "seasontype", "older form of phase: regular, or postseason (the play-in "
       "and the postseason)", "regular"),
)}


def params(*names: str, **kinds: str) -> tuple[Param, ...]:
    """The named shared parameters, with per-endpoint kind overrides (`team="ref"`)."""
    out = []
    for name in names:
        p = PARAMS[name]
        out.append(Param(p.name, kinds.get(name, p.kind), p.doc, p.example))
    return tuple(out)


DATE_PARAMS = ("date", "start", "end", "last")
