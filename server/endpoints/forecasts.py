"""forecasts and moneyline (v2): the derived ``forecasts`` table joined to its games.

Forecast objects (docs/api/reference.md) are declared once in ``FORECAST_OBJECTS`` and reused by the game
detail record. A forecast record of a level that a comparison forecaster covers
(``server.catalog.forecasters``) adds ``comparison``: each one's published home-win chance for
the game, beside ours, so a client scores them on the same games. Moneyline adds each season's
running correct/wrong record for the level.
"""
from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from server.endpoints.base import ParsedRequest, Endpoint, Field, Filter, Record
from server.endpoints.common import (DATE_PARAMS, G, GAME_FIELDS, GAME_TEAMS, game_select,
                                     params, phase_filters)
from server.catalog.clock import today
from server.catalog.forecasters import FORECASTERS
from server.catalog.levels import LEVELS
from server.store import schema as s

F = s.forecasts
THREE_WAY = tuple(lv.code for lv in LEVELS if lv.sport == "soccer")  # draws are an outcome
VN = s.venues.alias("fvenue")

FORECAST_COLUMNS: tuple[sa.ColumnElement[Any], ...] = (
    F.c.velo_before.label("VELOBefore"), F.c.helo_before.label("HELOBefore"),
    F.c.velo_after.label("VELOAfter"), F.c.helo_after.label("HELOAfter"),
    F.c.elo_k.label("ELOK"), F.c.elo_adjust.label("ELOAdjust"),
    F.c.elo_points.label("ELOPoints"), F.c.velo_change.label("VELOChange"),
    F.c.helo_change.label("HELOChange"), F.c.velo_win_exp.label("VELOWinExp"),
    F.c.helo_win_exp.label("HELOWinExp"), F.c.elo_home_prob.label("HomeWinProb"),
    F.c.elo_draw_prob.label("DrawProb"), F.c.elo_vis_prob.label("VisWinProb"),
    F.c.prediction_favourite.label("PredictionFavourite"), F.c.prediction.label("Prediction"),
    F.c.prediction_correct.label("PredictionCorrect"), F.c.over_under.label("OverUnder"),
    F.c.over_under_result.label("OverUnderResult"), F.c.vis_ml.label("VisMoneyLine"),
    F.c.home_ml.label("HomeMoneyLine"), F.c.ml_drift.label("MoneyLineDrift"),
    F.c.ml_movement.label("MoneyLineMovement"), F.c.ml_correct.label("MoneyLineCorrect"),
    F.c.spread.label("Spread"), F.c.favourite.label("Favourite"),
    F.c.spread_correct.label("SpreadCorrect"),
)


def _f(name: str, kind: str, example: Any, doc: str) -> Field:
    return Field(name, kind, example, doc)


FORECAST_OBJECTS: tuple[Field, ...] = (
    Field("elo", "object", None, "ELO ratings before and after the game", children=(
        _f("VELOBefore", "number", 1512.4, "visitor ELO before the game"),
        _f("HELOBefore", "number", 1530.1, "home ELO before the game"),
        _f("VELOAfter", "number", 1508.2, "visitor ELO after the game; null before it"),
        _f("HELOAfter", "number", 1534.3, "home ELO after the game; null before it"),
        _f("ELOK", "number", 4.0, "K factor used"),
        _f("ELOAdjust", "number", 24.0, "home advantage in ELO points"),
        _f("ELOPoints", "number", 4.2, "points exchanged"),
        _f("VELOChange", "number", -4.2, "visitor ELO change"),
        _f("HELOChange", "number", 4.2, "home ELO change"),
        _f("VELOWinExp", "number", 0.44, "visitor win expectancy, 0-1"),
        _f("HELOWinExp", "number", 0.56, "home win expectancy, 0-1"),
        *(Field(name, "number", example, f"{what}, 0-1, from the ELO difference (a draw is an "
                "outcome in football: docs/models.md); the three sum to 1", levels=THREE_WAY)
          for name, example, what in (("HomeWinProb", 0.46, "chance of a home win"),
                                      ("DrawProb", 0.27, "chance of a draw"),
                                      ("VisWinProb", 0.27, "chance of an away win"))),
    )),
    Field("simulation", "object", None, "simulated result", children=(
        _f("PredictionFavourite", "integer", 11, "team ID the simulation favours"),
        _f("Prediction", "string", "4-3", "predicted score, visitor-home"),
        _f("PredictionCorrect", "yn", "Y", "whether the favourite won, Y/N; null before"),
    )),
    Field("overunder", "object", None, "over/under line and result", children=(
        _f("OverUnder", "number", 8.5, "total points line"),
        _f("OverUnderResult", "string", "Over", "Over, Under or Push; null before the game"),
    )),
    Field("moneyline", "object", None, "bookmaker money lines (American format)", children=(
        _f("VisMoneyLine", "money", "+135", "visitor money line"),
        _f("HomeMoneyLine", "money", "-150", "home money line"),
        _f("MoneyLineDrift", "money", "-10", "home line change in the 24 hours before start"),
        _f("MoneyLineMovement", "string", "Toward home", "direction the line moved"),
        _f("MoneyLineCorrect", "yn", "Y", "whether the money-line favourite won, Y/N"),
    )),
    Field("spread", "object", None, "point spread", children=(
        _f("Spread", "number", -1.5, "home team's spread (negative: home favoured)"),
        _f("Favourite", "integer", 11, "team ID favoured by the spread"),
        _f("SpreadCorrect", "yn", "N", "whether the favourite covered, Y/N"),
    )),
)

CF = s.comparison_forecasts
# One column per comparison forecaster: its chance for the record's game (a primary-key lookup).
# A three-outcome forecaster adds its draw and away-win chances (``<field>Draw``, ``<field>Vis``).
COMPARISON_COLUMNS: tuple[sa.ColumnElement[Any], ...] = tuple(
    sa.select(column).where(CF.c.game_id == G.c.id, CF.c.forecaster == fc.code)
    .scalar_subquery().label(fc.field + suffix) for fc in FORECASTERS
    for column, suffix in ((CF.c.home_win_prob, ""), (CF.c.draw_prob, "Draw"),
                           (CF.c.vis_win_prob, "Vis"))[:3 if fc.three_way else 1])
COMPARISON_OBJECT = Field(
    "comparison", "object", None, "other forecasters' published home win chances for the game, "
    "beside ours (elo.HELOWinExp)", levels=tuple(sorted({lv for fc in FORECASTERS for lv in fc.levels})),
    children=tuple(
        Field(fc.field + suffix, "number", example, f"{what}, 0-1, published by {fc.name}: "
              f"{fc.about}. {fc.credit}. Null where it published none", levels=fc.levels)
        for fc in FORECASTERS
        for suffix, example, what in (("", 0.62, "home win chance"), ("Draw", 0.24, "draw chance"),
                                      ("Vis", 0.14, "away win chance"))[:3 if fc.three_way else 1]))

GAME_FORECAST_FROM = F.join(G, G.c.id == F.c.game_id)


def _limit(value: str, ask: ParsedRequest) -> sa.ColumnElement[bool]:
    return G.c.state == "inprogress" if value == "inprogress" else G.c.game_day == today()


_FILTERS: dict[str, Filter] = {
    "sublevel": G.c.sublevel_id, "team": GAME_TEAMS, "season": G.c.season, "limit": _limit,
    **phase_filters(G.c.phase),
}
_PARAMS = params("id", "sublevel", "team", "limit", *DATE_PARAMS, "season", "phase",
                 "seasontype")


# Built once: a statement is immutable, and building its columns costs more than running it.
_FORECASTS = (game_select(*FORECAST_COLUMNS, *COMPARISON_COLUMNS, league=False)
              .join(F, F.c.game_id == G.c.id)
              .order_by(G.c.game_day.desc(), G.c.id.desc()))
_MONEYLINE = (game_select(
    VN.c.name.label("VenueName"), G.c.season.label("_season"),
    F.c.vis_ml.label("VisMoneyLine"), F.c.home_ml.label("HomeMoneyLine"),
    F.c.ml_drift.label("MoneyLineDrift"), F.c.ml_correct.label("MoneyLineCorrect"),
    league=False,
).join(F, F.c.game_id == G.c.id).outerjoin(VN, VN.c.id == G.c.venue_id)
    .where(sa.or_(F.c.vis_ml.is_not(None), F.c.home_ml.is_not(None)))
    .order_by(G.c.game_day.desc(), G.c.id.desc()))


def _forecasts(ask: ParsedRequest) -> sa.Select[Any]:
    return _FORECASTS.where(G.c.level == ask.code)


def _moneyline(ask: ParsedRequest) -> sa.Select[Any]:
    """The games with a line, found through the forecasts' own level (``ix_forecasts_lines``:
    only the forecasts with a line): the plain list ``moneyline/FC`` walked the level's 74,494
    forecasts to find none, 95-233 ms uncached on the real store; now under a millisecond."""
    return _MONEYLINE.where(F.c.level == ask.code, G.c.level == ask.code)


def _season_records(conn: sa.Connection, ask: ParsedRequest, found: list[Record]) -> None:
    """Each record's URL, and its season object: the level's money-line record that season."""
    seasons = sorted({int(r["_season"]) for r in found})
    tally: dict[int, tuple[int, int]] = {}
    if seasons:
        correct = sa.func.sum(sa.case((F.c.ml_correct.is_(True), 1), else_=0))
        wrong = sa.func.sum(sa.case((F.c.ml_correct.is_(False), 1), else_=0))
        rows = conn.execute(
            sa.select(F.c.season, correct, wrong)
            .where(F.c.level == ask.code, F.c.season.in_(seasons)).group_by(F.c.season))
        tally = {int(season): (int(c or 0), int(w or 0)) for season, c, w in rows}
    for r in found:
        season = int(r.pop("_season"))
        c, w = tally.get(season, (0, 0))
        r["URL"] = f"{ask.base_url}/v1/games/{ask.code}/?id={r['ID']}"
        r["season"] = {"Season": season, "Correct": c, "Wrong": w,
                       "Percentage": round(100.0 * c / (c + w), 1) if c + w else None}


FORECASTS = Endpoint(
    name="forecasts", singular="forecast", version="v2",
    summary="ELO, simulation, over/under, money line and spread forecasts for the level's games, "
            "with the comparison forecasters' published chances where a source gives them",
    fields=GAME_FIELDS + FORECAST_OBJECTS + (COMPARISON_OBJECT,),
    build=_forecasts, params=_PARAMS, filters=_FILTERS, limits=("inprogress", "today"),
    day_column=G.c.game_day, id_filter=lambda v, a: G.c.id == v, reuse=True,
)

MONEYLINE = Endpoint(
    name="moneyline", singular="line", version="v2", aliases=("moneylines",),
    summary="bookmaker money lines in American format, with how the favourites fared",
    fields=GAME_FIELDS + (
        Field("VenueName", "string", "Yankee Stadium", "name of arena or stadium"),
        Field("URL", "string", "https://host/v1/games/MLB/?id=401", "the service's URL for the game",
              hook=True),
        Field("VisMoneyLine", "money", "+135", "visitor money line"),
        Field("HomeMoneyLine", "money", "-150", "home money line"),
        Field("MoneyLineDrift", "money", "-10", "change in the 24 hours before the start"),
        Field("MoneyLineCorrect", "yn", "Y", "whether the money line favourite won, Y/N"),
        Field("season", "object", None, "the level's money-line favourites that season",
              hook=True, children=(
                  Field("Season", "integer", 2024, "season ID"),
                  Field("Correct", "integer", 40, "games the money-line favourite won"),
                  Field("Wrong", "integer", 30, "games it lost"),
                  Field("Percentage", "number", 57.1, "Correct as a percentage; null if none"))),
        Field("_season", "integer", None, "internal: the game's season"),
    ),
    build=_moneyline, params=_PARAMS, filters=_FILTERS, limits=("inprogress", "today"),
    day_column=G.c.game_day, id_filter=lambda v, a: G.c.id == v, enrich=_season_records,
    reuse=True,
)
