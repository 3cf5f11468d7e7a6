"""A team named as it was in a season: the one way every endpoint names a team for a season.

A club's ``teams`` row carries its newest name (the Atlanta Braves); the ``team_seasons`` row of
a season carries the name, abbreviation and city of that season (the Boston Braves of 1935),
where the source gave one. A record about a season (a game, a box score line, a rating, a
projection, a player's season) joins the team to its season row on the row's key and reads each
column from the season first, the team second. A team asked for without a season keeps its
newest name.

What it costs, measured on the real store (SQLite, the query alone, interleaved rounds on a busy
2-core machine): a 100-game page of MLB 2022 0.57 -> 0.80 ms (1.41x), the sixth page 1.25 ->
2.34 ms (1.88x: SQLite joins the skipped rows too), one team's page 0.95 -> 1.28 ms (1.34x).
Tried: a team season table without rowid and a covering index (no steady gain); correlated
subqueries in place of the joins (the sixth page 0.85x of before, as SQLite skips rows before
it reads them, but the first page 1.48x and one team's 1.50x, against 1.17x and 1.23x for the
joins in the same run): the first pages are the ones read most.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.sql.selectable import NamedFromClause

from server.store import schema as s


@dataclass(frozen=True)
class SeasonTeam:
    """A ``teams`` alias and the ``team_seasons`` alias that names it in one season."""
    team: NamedFromClause
    season: NamedFromClause

    def join(self, source: Any, team_id: sa.ColumnElement[Any],
             season: sa.ColumnElement[Any] | Any) -> Any:
        """``source`` outer-joined to the team ``team_id`` and to its ``season`` row (both on
        their keys, so a COUNT leaves them out)."""
        return self.join_season(source.outerjoin(self.team, self.team.c.id == team_id),
                                team_id, season)

    def join_season(self, source: Any, team_id: sa.ColumnElement[Any],
                    season: sa.ColumnElement[Any] | Any) -> Any:
        """``source``, which holds the team already, outer-joined to its ``season`` row."""
        return source.outerjoin(self.season, sa.and_(self.season.c.team_id == team_id,
                                                     self.season.c.season == season))

    def column(self, name: str) -> sa.ColumnElement[Any]:
        """The season's value of ``name`` (name, abbrev, sublevel_id, city, nickname), else the
        team's; a season under another name than today's never borrows today's city or
        nickname (the Washington Senators of 1935 were not the Twins), it has its own or none."""
        own, current = self.season.c[name], self.team.c[name]
        if name in ("name", "abbrev", "sublevel_id"):
            return sa.func.coalesce(own, current)
        renamed = sa.and_(self.season.c.name.is_not(None), self.season.c.name != self.team.c.name)
        return sa.case((renamed, own), else_=sa.func.coalesce(own, current))

    @property
    def name(self) -> sa.ColumnElement[Any]:
        return self.column("name")

    @property
    def abbrev(self) -> sa.ColumnElement[Any]:
        return self.column("abbrev")


def season_team(alias: str) -> SeasonTeam:
    """A team alias named ``alias`` and its season row (``alias``_season)."""
    return SeasonTeam(s.teams.alias(alias), s.team_seasons.alias(f"{alias}_season"))
