"""projections (v2, beyond the spec): where will the season end? One record per team.

Reads the ``projections`` table (``server.jobs.projections`` fills it): the snapshot as of the
end of ``date`` (default today) is the newest one on or before it in the season; ``team`` with
``season`` and no ``date`` gives that team's series over the season, one record per day with
games. ``sublevel`` keeps the teams of a league or conference (or of a division, in levels
whose teams belong to divisions under a league).
"""
from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from server.catalog.clock import today
from server.catalog.tables import levels_with_points
from server.endpoints.base import ParsedRequest, Endpoint, Field
from server.endpoints.common import params, snapshot_season
from server.endpoints.seasonnames import season_team
from server.store import schema as s

P = s.projections
TEAM = season_team("pteam")  # named as in the projected season
SL = s.sublevels.alias("psub")
SOCCER = ("FC",)
POINTS = levels_with_points()  # hockey's 2 a win and 1 an overtime loss, football's 3-1-0


def _season(ask: ParsedRequest) -> Any:
    """The asked (or defaulted) season; with only ``date``, the newest season projected on or
    before it."""
    return snapshot_season(P, ask, date_decides=False)


def _build(ask: ParsedRequest) -> sa.Select[Any]:
    season = _season(ask)
    cols = (P.c.team_id.label("Team_ID"), TEAM.name.label("Team"),
            P.c.sublevel_id.label("Sublevel_ID"), SL.c.name.label("Sublevel"),
            P.c.date.label("Date"), P.c.season.label("Season"), P.c.wins.label("W"),
            P.c.losses.label("L"), P.c.ties.label("T"), P.c.points.label("Points"),
            P.c.elo.label("ELO"), P.c.proj_wins.label("ProjW"), P.c.proj_losses.label("ProjL"),
            P.c.proj_ties.label("ProjT"),
            P.c.proj_wins_10.label("ProjW10"), P.c.proj_wins_90.label("ProjW90"),
            P.c.proj_points.label("ProjPoints"), P.c.playoff_prob.label("PlayoffProb"),
            P.c.bye_prob.label("ByeProb"), P.c.title_prob.label("TitleProb"),
            P.c.proj_rank.label("ProjRank"),
            P.c.champions_league_prob.label("ChampionsLeagueProb"),
            P.c.europe_prob.label("EuropeProb"), P.c.promotion_prob.label("PromotionProb"),
            P.c.promotion_playoff_prob.label("PromotionPlayoffProb"),
            P.c.relegation_playoff_prob.label("RelegationPlayoffProb"),
            P.c.relegation_prob.label("RelegationProb"))
    query = (sa.select(*cols)
             .select_from(TEAM.join(P, P.c.team_id, P.c.season)
                          .outerjoin(SL, SL.c.id == P.c.sublevel_id))
             .where(P.c.level == ask.code, P.c.season == season))
    team = ask.get("team")
    if team is not None:
        query = query.where(P.c.team_id == team)
        if ask.day_to is None:  # the team's series over the season
            return query.order_by(P.c.date, P.c.team_id)
    day = sa.select(sa.func.max(P.c.date)).where(
        P.c.level == ask.code, P.c.season == season,
        P.c.date <= (ask.day_to if ask.day_to is not None else today()))
    # a table ranked by points lists by projected points, the others by projected wins
    return (query.where(P.c.date == day.scalar_subquery())
            .order_by(sa.func.coalesce(P.c.proj_points, P.c.proj_wins).desc(), P.c.team_id))


def _sublevel(value: Any, ask: ParsedRequest) -> sa.ColumnElement[bool]:
    children = sa.select(s.sublevels.c.id).where(s.sublevels.c.parent_id == value)
    return sa.or_(P.c.sublevel_id == value, P.c.sublevel_id.in_(children))


_N = "number"
PROJECTIONS = Endpoint(
    name="projections", singular="projection", version="v2", aliases=("projection",),
    summary="season projections as of a day (default today): projected record, playoff, bye "
            "and title odds per team (football: final position, European places, promotion "
            "and relegation); with team (and season) the series over the season",
    fields=(
        Field("Team_ID", "integer", 11, "team ID"),
        Field("Team", "string", "New York Yankees", "team name"),
        Field("Sublevel_ID", "integer", 3, "the team's league, conference or division ID"),
        Field("Sublevel", "string", "American League", "its name"),
        Field("Date", "date", "2024-07-01", "the projection as of the end of this day"),
        Field("Season", "integer", 2024, "season ID"),
        Field("W", "integer", 48, "regular-season wins so far"),
        Field("L", "integer", 35, "regular-season losses so far"),
        Field("T", "integer", 0, "ties (soccer: draws; hockey: overtime and shootout losses)"),
        Field("Points", "integer", 40, "table points so far (hockey: 2 a win, 1 an overtime "
                                       "loss; soccer: 3 a win, 1 a draw)", levels=POINTS),
        Field("ELO", _N, 1541.3, "ELO rating at the end of the day"),
        Field("ProjW", _N, 92.4, "projected final wins (mean of the simulated seasons)"),
        Field("ProjL", _N, 69.6, "projected final losses (mean)"),
        Field("ProjT", _N, 0.0, "projected final ties, draws or overtime losses (mean), as T"),
        Field("ProjW10", _N, 86.0, "10th percentile of the final wins"),
        Field("ProjW90", _N, 99.0, "90th percentile of the final wins"),
        Field("ProjPoints", _N, 61.2, "projected final table points (mean)", levels=POINTS),
        Field("PlayoffProb", _N, 0.71, "probability of making the playoff, 0-1; null where "
                                       "there is none"),
        Field("ByeProb", _N, 0.12, "probability of a first-round bye (NBA: of a place without "
                                   "the play-in), 0-1; null where the format has none"),
        Field("TitleProb", _N, 0.08, "probability of the title (soccer: first in the "
                                     "league), 0-1"),
        Field("ProjRank", _N, 3.4, "projected final position in the league (mean)", levels=SOCCER),
        Field("ChampionsLeagueProb", _N, 0.62, "probability of a Champions League place by "
              "league position (qualifying rounds included), 0-1; null where the league has "
              "none declared", levels=SOCCER),
        Field("EuropeProb", _N, 0.91, "probability of any European place by league position, "
              "0-1; null where none is declared", levels=SOCCER),
        Field("PromotionProb", _N, 0.3, "probability of direct promotion, 0-1; null where the "
              "league has none", levels=SOCCER),
        Field("PromotionPlayoffProb", _N, 0.4, "probability of a promotion play-off place, 0-1",
              levels=SOCCER),
        Field("RelegationPlayoffProb", _N, 0.1, "probability of a relegation play-off (or "
              "play-out) place, 0-1", levels=SOCCER),
        Field("RelegationProb", _N, 0.05, "probability of direct relegation, 0-1; null where "
              "the league has none declared", levels=SOCCER),
    ),
    build=_build, params=params("season", "date", "team", "sublevel"),
    filters={"sublevel": _sublevel}, season_default=True,
)
