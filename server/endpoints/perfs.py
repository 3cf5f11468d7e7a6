"""playerperfs and teamperfs: game lines, newest first, each followed by the sport's stat line.

The stat line is flattened into the record under the glossary's stat codes (docs/api/reference.md); a code
the line lacks is 0, as ``server.catalog.linestats`` defines.
"""
from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from server.catalog import splits as split_kinds
from server.catalog.linestats import line_codes
from server.endpoints import splits
from server.endpoints.base import ParsedRequest, Check, Endpoint, Field, Param, Record
from server.endpoints.common import DATE_PARAMS, G, params, phase_filters, phase_of
from server.endpoints.seasonnames import season_team
from server.store import schema as s
from server.store.facts import StoreFacts

PLN = s.player_lines
TLN = s.team_lines
PN = s.players.alias("perfplayer")
TN = season_team("perfteam")  # both named as in the line's season
ON = season_team("perfopp")


def _columns(table: sa.Table) -> tuple[sa.ColumnElement[Any], ...]:
    return (table.c.id.label("ID"), table.c.game_id.label("Game_ID"),
            table.c.game_day.label("GameDay"), table.c.season.label("Season"),
            table.c.team_id.label("Team_ID"), TN.name.label("Team"),
            table.c.opponent_id.label("Opponent_ID"), ON.name.label("Opponent"),
            table.c.home.label("Home"), table.c.stats.label("_stats"))


def _named(source: Any, table: sa.Table) -> Any:
    """``source`` joined to the line's team and opponent, each with its season row."""
    return ON.join(TN.join(source, table.c.team_id, table.c.season), table.c.opponent_id,
                   table.c.season)


def _player(ask: ParsedRequest) -> sa.Select[Any]:
    cols = _columns(PLN)
    return (sa.select(*cols[:4], PLN.c.player_id.label("Player_ID"), PN.c.name.label("Name"),
                      *cols[4:])
            .select_from(_named(PLN.outerjoin(PN, PN.c.id == PLN.c.player_id), PLN))
            .where(PLN.c.level == ask.code).order_by(PLN.c.game_day.desc(), PLN.c.id.desc()))


def _team(ask: ParsedRequest) -> sa.Select[Any]:
    return (sa.select(*_columns(TLN))
            .select_from(_named(TLN, TLN))
            .where(TLN.c.level == ask.code).order_by(TLN.c.game_day.desc(), TLN.c.id.desc()))


def _flatten(team: bool) -> Any:
    def hook(conn: sa.Connection, ask: ParsedRequest, found: list[Record]) -> None:
        codes = line_codes(ask.level.sport, team=team)
        for r in found:
            line = r.pop("_stats") or {}
            r.pop("StatCodes", None)
            for code in codes:
                r[code] = line.get(code, 0)
    return hook


def _sublevel(table: sa.Table) -> Any:
    def clause(value: Any, ask: ParsedRequest) -> sa.ColumnElement[bool]:
        if isinstance(value, str):
            sl = s.sublevels.c
            value = sa.select(sl.id).where(sa.or_(sa.func.lower(sl.name) == value.lower(),
                                                  sa.func.lower(sl.abbrev) == value.lower()))
            return table.c.game_id.in_(sa.select(G.c.id).where(G.c.sublevel_id.in_(value)))
        return table.c.game_id.in_(sa.select(G.c.id).where(G.c.sublevel_id == value))
    return clause


def _fields(player: bool) -> tuple[Field, ...]:
    who = (Field("Player_ID", "integer", 1001, "player ID"),
           Field("Name", "string", "Aaron Judge", "player name")) if player else ()
    return (
        Field("ID", "integer", 40101, "performance ID"),
        Field("Game_ID", "integer", 401, "game ID"),
        Field("GameDay", "date", "2024-07-04", "game date"),
        Field("Season", "integer", 2024, "season ID"),
        *who,
        Field("Team_ID", "integer", 11, "team ID"),
        Field("Team", "string", "New York Yankees", "team name"),
        Field("Opponent_ID", "integer", 12, "opponent ID"),
        Field("Opponent", "string", "Boston Red Sox", "opponent name"),
        Field("Home", "yn", "Y", "played at home, Y/N"),
        Field("StatCodes", "integer", 2, "then one field per stat code of the sport's game line "
              "(glossary type stats), e.g. H, HR, PTS; 0 when the line lacks it", hook=True),
        Field("_stats", "any", None, "internal: the raw line"),
    )


_COMMON = ("id", "sublevel", "team", "season", "phase", "seasontype")
# Beyond the spec: a season line divided (baseball), one record per part instead of the games.
SPLIT = Param("split", "string", "baseball: the season's line of the player (or team) divided, "
              "one record per part (Split, Value, G, the line's stats summed, AVG, OBP, SLG, "
              "OPS, ERA, WHIP), with player (teamperfs: team) and season; "
              + split_kinds.describe(), "homeaway")


def _check(team: bool) -> Check:
    def check(ask: ParsedRequest, facts: StoreFacts) -> ParsedRequest:
        splits.check(ask, team)
        name = ask.get("split")
        return ask if name is None else ask.replace(values={**ask.values, "split": name.lower()})
    return check

PLAYERPERFS = Endpoint(
    name="playerperfs", singular="playerperf", aliases=("playerperf",),
    summary="player game performances, newest first; with id one performance",
    fields=_fields(True), build=_player,
    params=(*params(*_COMMON, "player", "game", *DATE_PARAMS), SPLIT),
    filters={"sublevel": _sublevel(PLN), "team": PLN.c.team_id, "season": PLN.c.season,
             "player": PLN.c.player_id, "game": PLN.c.game_id,
             **phase_filters(phase_of(PLN.c.game_id))},
    day_column=PLN.c.game_day, id_filter=lambda v, a: PLN.c.id == v, enrich=_flatten(False),
    reuse=True, check=_check(False), modes={"split": splits.answer(False)},
)
TEAMPERFS = Endpoint(
    name="teamperfs", singular="teamperf", aliases=("teamperf",),
    summary="team game performances, newest first; with id one performance",
    fields=_fields(False), build=_team,
    params=(*params(*_COMMON, "game", *DATE_PARAMS, sublevel="ref"), SPLIT),
    filters={"sublevel": _sublevel(TLN), "team": TLN.c.team_id, "season": TLN.c.season,
             "game": TLN.c.game_id, **phase_filters(phase_of(TLN.c.game_id))},
    day_column=TLN.c.game_day, id_filter=lambda v, a: TLN.c.id == v, enrich=_flatten(True),
    reuse=True, check=_check(True), modes={"split": splits.answer(True)},
)
