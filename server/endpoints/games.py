"""games: the game record list, and with ``id`` the full game detail (docs/api/reference.md)."""
from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from server.endpoints import records
from server.endpoints.records import RecordPlan
from server.endpoints.base import ParsedRequest, Endpoint, Field, Param, Record
from server.endpoints.common import (DATE_PARAMS, G, GAME_FIELDS, LEAGUE_FIELDS, LEAGUE_LEVELS,
                                     GAME_TEAMS, HOME, VISITOR, game_select, params,
                                     phase_filters)
from server.endpoints.forecasts import FORECAST_COLUMNS, FORECAST_OBJECTS
from server.catalog.clock import today
from server.catalog.levels import LEVELS
from server.store.schema import GAME_STATES
from server.store import schema as s

P = s.plays
_FORECAST = sa.select(*FORECAST_COLUMNS)
# One plan per level: a level-only field (football's three chances) shows at its level only.
_FORECAST_PLANS = {lv.code: RecordPlan.of(FORECAST_OBJECTS, _FORECAST, detail=True, level=lv.code)
                   for lv in LEVELS}


# Built once: a statement is immutable, and building its columns costs more than running it.
# Only the levels with League fields (FC) join the league they were played in.
_GAMES = {league: game_select(league=league).order_by(G.c.game_day.desc(), G.c.id.desc())
          for league in (False, True)}


def _base(ask: ParsedRequest) -> sa.Select[Any]:
    return _GAMES[ask.code in LEAGUE_LEVELS].where(G.c.level == ask.code)


# A filter on the server, so that paging stays exact: a client filtering one page of results
# could never fill a page or count the matches.
STATUS = Param("status", "state", "game state, any case: " + ", ".join(GAME_STATES), "final")


def _limit(value: str, ask: ParsedRequest) -> sa.ColumnElement[bool]:
    return G.c.state == "inprogress" if value == "inprogress" else G.c.game_day == today()


def forecast_of(conn: sa.Connection, game_id: int, level: str) -> Record | None:
    """The forecast objects of one game of ``level`` (as in the forecasts endpoint), or None."""
    row = conn.execute(_FORECAST.where(s.forecasts.c.game_id == game_id)).first()
    return _FORECAST_PLANS[level].build_all([row])[0] if row is not None else None


def _pair(info: Any, key: str) -> tuple[int, int] | None:
    """A (home, away) score the football files give in ``info`` (``ht``, ``ft``, ``et``,
    ``pens``), or None."""
    value = info.get(key) if isinstance(info, dict) else None
    return (int(value[0]), int(value[1])) if isinstance(value, list | tuple) and len(value) == 2 \
        else None


def _football_line(info: Any) -> dict[str, list[int]] | None:
    """A football match's score per period from its file's half-time, full-time and after-extra-
    time scores: first half, second half, then extra time when played; None without them."""
    ht, ft, et = _pair(info, "ht"), _pair(info, "ft"), _pair(info, "et")
    if ht is None or ft is None:
        return None
    ends = [(0, 0), ht, ft, *([et] if et is not None else [])]
    return {side: [ends[i][k] - ends[i - 1][k] for i in range(1, len(ends))]
            for k, side in ((1, "visitor"), (0, "home"))}


def _penalties(info: Any) -> dict[str, int] | None:
    """The shoot-out's score of a football match decided on penalties, else None."""
    pens = _pair(info, "pens")
    return None if pens is None else {"visitor": pens[1], "home": pens[0]}


def _detail(conn: sa.Connection, ask: ParsedRequest, found: list[Record]) -> None:
    record = found[0]
    gid = record["ID"]
    g = conn.execute(sa.select(G).where(G.c.id == gid)).mappings().one()
    record.update({
        "Season": g["season"], "Sublevel_ID": g["sublevel_id"],
        "StartTime": records.as_instant(g["start_time"]), "Periods": g["periods"],
        "Neutral": records.as_yn(g["neutral"]), "Playoff": g["playoff"],
        "Attendance": g["attendance"], "Duration": g["duration"],
        "LineScore": g["line_score"] or _football_line(g["info"]),
    })
    if ask.code in LEAGUE_LEVELS:
        record["Penalties"] = _penalties(g["info"])
    vn = s.venues.c
    venue = conn.execute(sa.select(vn.id.label("ID"), vn.name.label("Name"),
                                   vn.city_state.label("CityState"), vn.latitude.label("Latitude"),
                                   vn.longitude.label("Longitude"), vn.capacity.label("Capacity"))
                         .where(vn.id == g["venue_id"])).mappings().first()
    record["venue"] = dict(venue) if venue else None
    go, of = s.game_officials.c, s.officials.c
    record["officials"] = [dict(r) for r in conn.execute(
        sa.select(of.id.label("ID"), of.name.label("Name"), go.role.label("Role"))
        .join_from(s.game_officials, s.officials, of.id == go.official_id)
        .where(go.game_id == gid).order_by(go.role)).mappings()]
    plays = conn.execute(
        sa.select(P.c.id, P.c.seq, P.c.period, P.c.half, P.c.clock, P.c.explanation, P.c.scoring,
                  P.c.score_vis, P.c.score_home)
        .where(P.c.game_id == gid).order_by(P.c.seq)).all()
    record["scoring"] = [
        {"Period": p.period, "Explanation": p.explanation, "ScoreVis": p.score_vis,
         "ScoreHome": p.score_home} for p in plays if p.scoring]
    scores, last = [], (0, 0)
    for p in plays:
        if (p.score_vis, p.score_home) != last:
            last = (p.score_vis, p.score_home)
            scores.append({"Sequence": p.seq, "Period": p.period, "ScoreVis": p.score_vis,
                           "ScoreHome": p.score_home})
    record["scores"] = scores
    record["playbyplay"] = [
        {"ID": p.id, "Sequence": p.seq, "Period": p.period, "Half": p.half, "Clock": p.clock,
         "Explanation": p.explanation, "ScoringPlay": "Y" if p.scoring else "N",
         "ScoreVis": p.score_vis, "ScoreHome": p.score_home} for p in plays]
    record["forecast"] = forecast_of(conn, gid, ask.code)


def _hooked(name: str, kind: str, example: Any, doc: str, children: tuple[Field, ...] = ()) -> Field:
    """A detail field that ``_detail`` fills, not a column of the games row."""
    return Field(name, kind, example, doc, children=children, detail=True, hook=True)


DETAIL_FIELDS: tuple[Field, ...] = (
    _hooked("Season", "integer", 2024, "season ID"),
    _hooked("Sublevel_ID", "integer", 3, "league or conference of the game"),
    _hooked("StartTime", "datetime", "2024-07-04T23:05:00Z", "scheduled start, UTC"),
    _hooked("Periods", "integer", 9, "periods or innings played"),
    _hooked("Neutral", "yn", "N", "played at a neutral site, Y/N"),
    _hooked("Playoff", "string", None, "playoff round, null in the regular season"),
    _hooked("Attendance", "integer", 41203, "attendance"),
    _hooked("Duration", "integer", 181, "minutes"),
    _hooked("LineScore", "any", {"visitor": [0, 1], "home": [2, 0]}, "score per period "
            "(football: first half, second half, extra time when played)"),
    Field("Penalties", "any", {"visitor": 4, "home": 5}, "the shoot-out's score of a match "
          "decided on penalties; null otherwise (FC only)", detail=True, hook=True,
          levels=LEAGUE_LEVELS),
    _hooked("venue", "object", None, "venue metadata", children=(
        Field("ID", "integer", 5, "venue ID"), Field("Name", "string", "Yankee Stadium", "name"),
        Field("CityState", "string", "Bronx, NY", "city and state"),
        Field("Latitude", "number", 40.83, "latitude"), Field("Longitude", "number", -73.93, "longitude"),
        Field("Capacity", "integer", 46537, "capacity"))),
    Field("officials", "list", [{"ID": 7, "Name": "Joe West", "Role": "HP"}],
          "officials of the game: ID, Name, Role", detail=True),
    Field("scoring", "list", [{"Period": 3, "Explanation": "Judge homered", "ScoreVis": 0,
                               "ScoreHome": 1}], "scoring plays: Period, Explanation, ScoreVis, ScoreHome",
          detail=True),
    Field("scores", "list", [{"Sequence": 14, "Period": 3, "ScoreVis": 0, "ScoreHome": 1}],
          "in-game score datapoints: Sequence, Period, ScoreVis, ScoreHome", detail=True),
    Field("playbyplay", "list", [{"ID": 401001, "Sequence": 1, "Period": 1, "Half": "top",
                                  "Clock": None, "Explanation": "Betts grounded out",
                                  "ScoringPlay": "N", "ScoreVis": 0, "ScoreHome": 0}],
          "basic play-by-play, when held", detail=True),
    Field("forecast", "object", None, "forecast objects as in the forecasts endpoint; null if none",
          children=FORECAST_OBJECTS),
)

GAMES = Endpoint(
    name="games", singular="game", aliases=("game",),
    summary="games in reverse chronological order; with id, the full game detail",
    fields=GAME_FIELDS + LEAGUE_FIELDS + DETAIL_FIELDS,
    build=_base,
    params=(*params("id", "sublevel", "team", "season", "limit", *DATE_PARAMS, "search",
                    "phase", "seasontype"), STATUS),
    search=(VISITOR.name, HOME.name),  # the names the records show
    filters={"sublevel": G.c.sublevel_id, "team": GAME_TEAMS, "season": G.c.season,
             "limit": _limit, "status": G.c.state, **phase_filters(G.c.phase)},
    limits=("inprogress", "today"), day_column=G.c.game_day,
    id_filter=lambda v, a: G.c.id == v, detail=_detail, reuse=True, kept_total="games",
)
