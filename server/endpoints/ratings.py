"""elo and rpi: current rankings, a snapshot on a date, or one team's series over a season.

Both read derived tables (``elo_history``, ``rpi``) that re-tabulation fills; rankings pick each
team's newest row with a window function, so one query answers any level.
"""
from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from server.catalog.football.internationals import CLUB_POOL, NATIONAL_POOL, NATIONAL_SOURCE
from server.endpoints.base import ParsedRequest, Endpoint, Field
from server.endpoints.common import LEAGUE_LEVELS, params, snapshot_season
from server.endpoints.seasonnames import season_team
from server.store import schema as s

E = s.elo_history
R = s.rpi
TEAM, OPPONENT = season_team("rteam"), season_team("ropp")  # named as in the rated season
LEAGUE = s.sublevels.alias("rleague")  # the league the team played in that season (FC)


def _season(table: sa.Table, ask: ParsedRequest) -> Any:
    """The season a rating query reads: the one holding ``date`` (date overrides season), else
    the asked season, else the level's newest."""
    return snapshot_season(table, ask, date_decides=True)


def _elo(ask: ParsedRequest) -> sa.Select[Any]:
    team = ask.get("team")
    scope = [E.c.level == ask.code, E.c.season == _season(E, ask)]
    if ask.day_to is not None:
        scope.append(E.c.date <= ask.day_to)
    if team is not None and ask.day_to is None:
        return (sa.select(
            E.c.date.label("Date"), E.c.game_id.label("Game_ID"),
            E.c.opponent_id.label("Opponent_ID"), OPPONENT.name.label("Opponent"),
            E.c.elo_before.label("ELOBefore"), E.c.elo_after.label("ELOAfter"),
            (E.c.elo_after - E.c.elo_before).label("Change"), E.c.win_exp.label("WinExp"),
            E.c.result.label("Result"), E.c.season.label("Season"),
            E.c.team_id.label("Team_ID"), TEAM.name.label("Team"))
            .select_from(TEAM.join(OPPONENT.join(E, E.c.opponent_id, E.c.season), E.c.team_id,
                                   E.c.season))
            .where(*scope, E.c.team_id == team).order_by(E.c.date, E.c.game_id))
    newest = sa.func.row_number().over(partition_by=E.c.team_id,
                                       order_by=(E.c.date.desc(), E.c.game_id.desc()))
    wins = sa.func.sum(sa.case((E.c.result == "W", 1), else_=0)).over(partition_by=E.c.team_id)
    losses = sa.func.sum(sa.case((E.c.result == "L", 1), else_=0)).over(partition_by=E.c.team_id)
    inner = sa.select(E.c.team_id, E.c.elo_after, E.c.date, E.c.season, newest.label("n"),
                      wins.label("w"), losses.label("l")).where(*scope).subquery()
    # Football rates clubs and national teams in two pools that never meet (docs/football.md):
    # each is ranked among its own, clubs first.
    national = TEAM.team.c.source == NATIONAL_SOURCE
    pools = [national] if ask.code in LEAGUE_LEVELS else []
    rank = sa.func.rank().over(partition_by=pools or None, order_by=inner.c.elo_after.desc())
    q = (sa.select(rank.label("Rank"), inner.c.team_id.label("Team_ID"), TEAM.name.label("Team"),
                   inner.c.elo_after.label("ELO"), inner.c.date.label("Date"),
                   inner.c.season.label("Season"), inner.c.w.label("Wins"),
                   inner.c.l.label("Losses"), LEAGUE.c.abbrev.label("League"),
                   LEAGUE.c.name.label("LeagueName"),
                   sa.case((national, NATIONAL_POOL), else_=CLUB_POOL).label("Pool"))
         .select_from(TEAM.join(inner, inner.c.team_id, inner.c.season)
                      .outerjoin(LEAGUE, LEAGUE.c.id == TEAM.season.c.sublevel_id))
         .where(inner.c.n == 1))
    if team is not None:
        # Named through the subquery (not literal_column): PostgreSQL folds unquoted names to
        # lower case, and COUNT(*) keeps the subquery in its FROM only if a column refers to it.
        ranked = q.subquery()
        return sa.select(ranked).where(ranked.c.Team_ID == team).order_by(ranked.c.Rank)
    return q.order_by(*pools, inner.c.elo_after.desc(), inner.c.team_id)


def _rpi(ask: ParsedRequest) -> sa.Select[Any]:
    scope = [R.c.level == ask.code, R.c.season == _season(R, ask)]
    cols = (R.c.rank.label("Rank"), R.c.team_id.label("Team_ID"), TEAM.name.label("Team"),
            R.c.rpi.label("RPI"), R.c.wp.label("WP"), R.c.owp.label("OWP"),
            R.c.oowp.label("OOWP"), R.c.wins.label("Wins"), R.c.losses.label("Losses"),
            R.c.date.label("Date"), R.c.season.label("Season"))
    base = sa.select(*cols).select_from(TEAM.join(R, R.c.team_id, R.c.season))
    team = ask.get("team")
    if team is not None and ask.day_to is None:
        return base.where(*scope, R.c.team_id == team).order_by(R.c.date, R.c.team_id)
    day = sa.select(sa.func.max(R.c.date)).where(*scope)
    if ask.day_to is not None:
        day = day.where(R.c.date <= ask.day_to)
    q = base.where(*scope, R.c.date == day.scalar_subquery())
    if team is not None:
        q = q.where(R.c.team_id == team)
    return q.order_by(R.c.rank, R.c.team_id)


_N = "number"
ELO = Endpoint(
    name="elo", singular="rating",
    summary="current ELO rankings; with date a snapshot; with team (and season) its series",
    fields=(
        Field("Rank", "integer", 1, "rankings: rank by ELO (FC: clubs first, ranked among "
              "clubs, then national teams among national teams)"),
        Field("Team_ID", "integer", 11, "team ID"),
        Field("Team", "string", "New York Yankees", "team name"),
        Field("ELO", _N, 1561.2, "rankings: rating after the team's newest game"),
        Field("Date", "date", "2024-09-29", "date of the rating or game"),
        Field("Season", "integer", 2024, "season ID"),
        Field("Wins", "integer", 94, "rankings: wins in the season so far"),
        Field("Losses", "integer", 68, "rankings: losses in the season so far"),
        Field("League", "string", "EN1", "rankings: the league the club played in that season "
              "(FC only)", levels=LEAGUE_LEVELS),
        Field("LeagueName", "string", "English Premier League", "rankings: that league's name "
              "(FC only)", levels=LEAGUE_LEVELS),
        Field("Pool", "string", CLUB_POOL, f"rankings: {CLUB_POOL} or {NATIONAL_POOL}, each "
              "ranked apart (FC only)", levels=LEAGUE_LEVELS),
        Field("Game_ID", "integer", 401, "series: the game"),
        Field("Opponent_ID", "integer", 12, "series: opponent ID"),
        Field("Opponent", "string", "Boston Red Sox", "series: opponent"),
        Field("ELOBefore", _N, 1550.0, "series: rating before the game"),
        Field("ELOAfter", _N, 1554.1, "series: rating after the game"),
        Field("Change", _N, 4.1, "series: ELOAfter - ELOBefore"),
        Field("WinExp", _N, 0.58, "series: win expectancy, 0-1"),
        Field("Result", "string", "W", "series: W, L or T"),
    ),
    build=_elo, params=params("team", "season", "date"),
)

RPI = Endpoint(
    name="rpi", singular="rating", needs="rpi",
    summary="current RPI rankings; with date a snapshot; with team (and season) its series",
    fields=(
        Field("Rank", "integer", 1, "rank by RPI on that date"),
        Field("Team_ID", "integer", 21, "team ID"),
        Field("Team", "string", "Duke Blue Devils", "team name"),
        Field("RPI", _N, 0.6421, "rating percentage index"),
        Field("WP", _N, 0.8, "winning percentage (weighted)"),
        Field("OWP", _N, 0.6, "opponents' winning percentage"),
        Field("OOWP", _N, 0.55, "opponents' opponents' winning percentage"),
        Field("Wins", "integer", 24, "wins"), Field("Losses", "integer", 6, "losses"),
        Field("Date", "date", "2024-03-10", "ratings as of the end of this date"),
        Field("Season", "integer", 2024, "season ID"),
    ),
    build=_rpi, params=params("team", "season", "date"),
)


