"""stats: a stat table in ranking order, for players (default) or teams, from ``stat_tables``.

``phase`` picks the table of one phase of the season (default the regular season: Leaders and
qualifiers as analysts read them; ``postseason`` the playoffs' own table).

``stat`` is required and must be a code of the level's sport (glossary type stats); season
defaults to the level's newest; ``limit=qualifiers`` (players only) keeps qualifiers, ranked
among themselves.
"""
from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from server.catalog import phases
from server.endpoints.base import ParsedRequest, Endpoint, Field
from server.endpoints.common import params, team_ref
from server.endpoints.seasonnames import season_team
from server.errors import BadParameter
from server.store import schema as s
from server.store.facts import StoreFacts

ST = s.stat_tables
PN = s.players.alias("statplayer")
TN = season_team("statteam")  # both named as in the ranked season
ET = season_team("statentity")
SUB = s.sublevels.alias("statsub")


def _stats(ask: ParsedRequest) -> sa.Select[Any]:
    code = ask.get("stat")
    kind = ask.type or "player"
    qualifiers = ask.get("limit") == "qualifiers"
    rank = ST.c.qualified_rank if qualifiers else ST.c.rank
    name = PN.c.name if kind == "player" else ET.name
    player = ST.c.entity_id if kind == "player" else sa.null()
    team = ST.c.team_id if kind == "player" else ST.c.entity_id
    club = TN if kind == "player" else ET  # the team row: the player's, or the ranked team
    q = (sa.select(rank.label("Rank"), player.label("Player_ID"), team.label("Team_ID"),
                   name.label("Name"), club.name.label("Team"),
                   club.abbrev.label("Team_Abbrev"),
                   ST.c.code.label("Stat"), ST.c.value.label("Value"), ST.c.gp.label("GP"),
                   ST.c.qualified.label("Qualified"), ST.c.season.label("Season"),
                   ST.c.phase.label("Phase"),
                   SUB.c.name.label("Sublevel"))
         .select_from(TN.join(ET.join(ST.outerjoin(PN, PN.c.id == ST.c.entity_id),
                                      ST.c.entity_id, ST.c.season), ST.c.team_id, ST.c.season)
                      .outerjoin(SUB, SUB.c.id == ST.c.sublevel_id))
         .where(ST.c.level == ask.code, ST.c.type == kind,
                ST.c.code == code, ST.c.phase == _phase(ask)))
    if ask.season is not None:
        q = q.where(ST.c.season == ask.season)
    if qualifiers:
        q = q.where(ST.c.qualified.is_(True))
    return q.order_by(rank, ST.c.entity_id)


def _phase(ask: ParsedRequest) -> str:
    """The one phase a table is read in (``_check`` allows one): the regular season unless
    asked."""
    asked = ask.get("phase")
    return str(asked[0]) if asked else phases.REGULAR


def _check(ask: ParsedRequest, facts: StoreFacts) -> ParsedRequest:
    """stat is required, and is a code of the level's sport and the path type in any case: the
    copy carries it as the glossary spells it."""
    code = ask.get("stat")
    if code is None:
        raise BadParameter("stat is required: a stat code from the glossary (type stats)", "stat")
    asked = ask.get("phase")
    if asked is not None and len(asked) != 1:
        raise BadParameter(f"phase '{','.join(asked)}': a stat table is one phase's (regular, "
                           "playin or postseason); ask for one", "phase")
    kind = ask.type or "player"
    codes = facts.stat_codes(ask.level.sport, kind)
    match = next((c for c in codes if c.upper() == str(code).upper()), None)
    if match is None:
        raise BadParameter(f"stat '{code}' is not a {kind} stat code of {ask.level.sport}; see "
                           f"/v1/glossary/{ask.code}/stats/", "stat")
    return ask.replace(values={**ask.values, "stat": match})


def _sublevel(value: Any, ask: ParsedRequest) -> sa.ColumnElement[bool]:
    if isinstance(value, int):
        return ST.c.sublevel_id == value
    sl = s.sublevels.c
    return ST.c.sublevel_id.in_(sa.select(sl.id).where(sa.or_(
        sa.func.lower(sl.name) == value.lower(), sa.func.lower(sl.abbrev) == value.lower())))


def _player(value: Any, ask: ParsedRequest) -> sa.ColumnElement[bool]:
    if isinstance(value, int):
        return ST.c.entity_id == value
    return ST.c.entity_id.in_(sa.select(s.players.c.id).where(
        sa.func.lower(s.players.c.name) == value.lower()))


STATS = Endpoint(
    name="stats", singular="stat", aliases=("stat",), types=("player", "team"),
    summary="a stat table in ranking order; path type player (default) or team",
    fields=(
        Field("Rank", "integer", 1, "rank (among qualifiers with limit=qualifiers)"),
        Field("Player_ID", "integer", 1001, "player ID (type player; null for type team)"),
        Field("Team_ID", "integer", 11, "team ID (type team), or the player's (last) team"),
        Field("Name", "string", "Aaron Judge", "player or team name"),
        Field("Team", "string", "New York Yankees", "team name"),
        Field("Team_Abbrev", "string", "NYY", "team abbreviation"),
        Field("Stat", "string", "HR", "stat code"),
        Field("Value", "number", 58.0, "season value"),
        Field("GP", "integer", 158, "games played"),
        Field("Qualified", "yn", "Y", "meets the qualifier rule, Y/N"),
        Field("Season", "integer", 2024, "season ID"),
        Field("Phase", "string", "regular", "the phase the table covers: regular (default), "
              "playin or postseason"),
        Field("Sublevel", "string", "American League", "league or conference of the record "
              "that season"),
    ),
    build=_stats,
    params=params("stat", "limit", "sublevel", "team", "season", "player", "phase",
                  sublevel="ref", player="ref"),
    type_limits={"player": ("qualifiers",), "team": ()}, limits=("qualifiers",),
    season_default=True, check=_check,
    filters={"sublevel": _sublevel, "team": lambda v, a: team_ref(ST.c.team_id, v),
             "player": _player},
)
