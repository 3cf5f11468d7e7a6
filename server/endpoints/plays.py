"""playbyplay and pitch: events of games, newest first (game date, then ID).

playbyplay must be narrowed by a qualifying filter (docs/api/reference.md) so no request scans every play
of a level.
"""
from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from server.catalog.pitches import NOT_PITCHES
from server.endpoints.base import ParsedRequest, Endpoint, Field, Record
from server.endpoints.common import DATE_PARAMS, GAME_TEAMS, G, params
from server.endpoints.seasonnames import season_team
from server.store import schema as s

P = s.plays
PI = s.pitches
PRI = s.players.alias("primary_player")
PIT = s.players.alias("pitcher_player")
BAT = s.players.alias("batter_player")
# every team named as in the game's season
TM = season_team("play_team")
OP = season_team("play_opp")
GV = season_team("play_vis")
GH = season_team("play_home")
VN = s.venues.alias("play_venue")
PTV = season_team("pitch_vis")
PTH = season_team("pitch_home")
PA_END = s.plays.alias("pitch_play")  # the play that ended the pitch's plate appearance
W = s.play_winprob
# The win probability fields and their play_winprob columns, served to three decimals.
WP_COLUMNS = {"WP_Home": "wp_home", "WP_Draw": "wp_draw", "WPA": "wpa"}


def rounded(column: sa.ColumnElement[Any]) -> sa.ColumnElement[Any]:
    """A chance to three decimals, rounded once by the store (the records' own 4-place rounding
    first, then 3 places, would round twice: .59949 to .5995 to .600). PostgreSQL rounds to a
    number of places only a numeric, hence the cast."""
    return sa.func.round(sa.cast(column, sa.Numeric), 3)


def _plays(ask: ParsedRequest) -> sa.Select[Any]:
    cols = (
        P.c.id.label("ID"), P.c.explanation.label("Explanation"),
        P.c.player_id.label("PrimaryID"), PRI.c.name.label("PrimaryName"),
        P.c.pitcher_id.label("PitcherID"), PIT.c.name.label("PitcherName"),
        P.c.scoring.label("ScoringPlay"), P.c.tags.label("Tags"), P.c.the_count.label("TheCount"),
        P.c.pitcher_hand.label("PitcherHanded"), P.c.batter_hand.label("BatterHanded"),
        P.c.team_id.label("Team_ID"), TM.name.label("Team"),
        P.c.opponent_id.label("Opponent_ID"), OP.name.label("Opponent"),
        G.c.id.label("Game_ID"), G.c.game_day.label("GameDay"),
        GV.name.label("Visitor"), G.c.visitor_id.label("Visitor_ID"),
        P.c.score_vis.label("ScoreVis"), GH.name.label("Home"), G.c.home_id.label("Home_ID"),
        P.c.score_home.label("ScoreHome"), P.c.period.label("Half"), P.c.half.label("_half"),
        P.c.sequence.label("Sequence"), P.c.outs_before.label("OutsBefore"),
        P.c.bases_before.label("_bases_before"), VN.c.city_state.label("CityState"),
        VN.c.longitude.label("Longitude"), VN.c.latitude.label("Latitude"),
        *(rounded(W.c[column]).label(name) for name, column in WP_COLUMNS.items()),
    )
    frm = (P.join(G, G.c.id == P.c.game_id).outerjoin(PRI, PRI.c.id == P.c.player_id)
           .outerjoin(PIT, PIT.c.id == P.c.pitcher_id).outerjoin(W, W.c.play_id == P.c.id))
    for team, team_id in ((TM, P.c.team_id), (OP, P.c.opponent_id), (GV, G.c.visitor_id),
                          (GH, G.c.home_id)):
        frm = team.join(frm, team_id, G.c.season)
    frm = frm.outerjoin(VN, VN.c.id == G.c.venue_id)
    return (sa.select(*cols).select_from(frm).where(G.c.level == ask.code)
            .order_by(G.c.game_day.desc(), P.c.id.desc()))


def _shape(conn: sa.Connection, ask: ParsedRequest, found: list[Record]) -> None:
    """Derived fields: TheDiff from the credited team's side, baseball's Inning, runners on base
    and the batter's and pitcher's WPA, a Description; the pitcher object is null when the play
    has no pitcher; a WPA of -0.0 as 0.0."""
    baseball = ask.level.sport == "baseball"
    for r in found:
        positive_zero(r)
        r["RunnersBefore"] = runners(r.pop("_bases_before"))
        # a play without a pitcher (a substitution) is no one's to credit
        wpa = r.get("WPA") if baseball and r["pitcher"]["Player_ID"] is not None else None
        r["WPA_Batter"] = wpa
        r["WPA_Pitcher"] = None if wpa is None else -wpa or 0.0
        g = r["game"]
        half = r.pop("_half")
        g["Description"] = f"{g['Visitor']} at {g['Home']}"
        g["Inning"] = f"{(half or '').capitalize()} {g['Half']}".strip() if baseball else None
        home_side = r["team"]["Team_ID"] == g["Home_ID"]
        diff = (g["ScoreHome"] - g["ScoreVis"]) * (1 if home_side else -1)
        r["TheDiff"] = f"+{diff}" if diff > 0 else str(diff)
        if r["pitcher"]["Player_ID"] is None:
            r["pitcher"] = None
        if not baseball:
            r["TheCount"] = None


BASE_NAMES = "123"


def runners(bases: int | None) -> str | None:
    """The runners on base as Baseball-Reference's play-by-play prints them: a base's number
    where a runner stands, a dash where none does ("1-3": first and third, "---": empty)."""
    if bases is None:
        return None
    return "".join(name if bases & (1 << k) else "-" for k, name in enumerate(BASE_NAMES))


def positive_zero(record: Record) -> None:
    """A WPA the store rounded to -0.0 as 0.0 (a play that changed nothing took nothing)."""
    for name in WP_COLUMNS:
        if record.get(name) == 0.0:
            record[name] = 0.0


def _f(name: str, kind: str, example: Any, doc: str, column: str | None = None) -> Field:
    return Field(name, kind, example, doc, column=column)


WP_RECORD_FIELDS: tuple[Field, ...] = (
    Field("WP_Home", "number", 0.712, "the home team's chance to win after the play, 0-1 (a"
       " final game's last play: its result); null for a play without a line (a baseball"
       " play without its base-out state, a substitution)"),
    Field("WP_Draw", "number", None, "soccer: the chance of a draw after the play; null"
          " elsewhere"),
    Field("WPA", "number", 0.153, "win probability added: the change the play made to the"
          " credited team's chance to win (soccer: a draw counting half)"),
)



PLAY_FIELDS: tuple[Field, ...] = (
    _f("ID", "integer", 401003, "play ID"),
    _f("Explanation", "string", "Judge homered to left", "plain text description"),
    Field("primary", "object", None, "the most relevant player", children=(
        _f("Player_ID", "integer", 1001, "player ID", "PrimaryID"),
        _f("Name", "string", "Aaron Judge", "full name", "PrimaryName"))),
    Field("pitcher", "object", None, "the pitcher (baseball); null otherwise", children=(
        _f("Player_ID", "integer", 1005, "pitcher's player ID", "PitcherID"),
        _f("Name", "string", "Chris Sale", "full name", "PitcherName"))),
    _f("ScoringPlay", "yn", "Y", "whether the play scored, Y/N"),
    _f("Tags", "string", "HR|FB", "tags, pipe separated"),
    _f("TheCount", "string", "1-2", "balls-strikes before the final pitch (baseball)"),
    _f("PitcherHanded", "string", "R", "R, L or S"),
    _f("BatterHanded", "string", "L", "L, R or S"),
    Field("TheDiff", "string", "+1", "credited team's score minus the opponent's, after the play",
          hook=True),
    Field("team", "object", None, "the credited team", children=(
        _f("Team_ID", "integer", 11, "team ID"), _f("Team", "string", "New York Yankees", "name"))),
    Field("opponent", "object", None, "the opposing team", children=(
        _f("Opponent_ID", "integer", 12, "team ID"),
        _f("Opponent", "string", "Boston Red Sox", "name"))),
    Field("game", "object", None, "game metadata", children=(
        _f("Game_ID", "integer", 401, "game ID"), _f("GameDay", "date", "2024-07-04", "date"),
        Field("Description", "string", "Boston Red Sox at New York Yankees", "matchup",
              hook=True),
        _f("Visitor", "string", "Boston Red Sox", "visitor"),
        _f("Visitor_ID", "integer", 12, "visitor ID"),
        _f("ScoreVis", "integer", 0, "visitor score after the play"),
        _f("Home", "string", "New York Yankees", "home team"),
        _f("Home_ID", "integer", 11, "home ID"),
        _f("ScoreHome", "integer", 1, "home score after the play"),
        _f("Half", "integer", 3, "period, half or inning number"),
        Field("Inning", "string", "Bottom 3", "baseball: half and inning", hook=True),
        _f("Sequence", "string", "BCX", "pitch sequence or sub-events"))),
    Field("venue", "object", None, "venue metadata", children=(
        _f("CityState", "string", "Bronx, NY", "city and state"),
        _f("Longitude", "number", -73.93, "longitude"), _f("Latitude", "number", 40.83, "latitude"))),
    _f("OutsBefore", "integer", 1, "baseball: outs when the play began, 0-2; null elsewhere and"
       " where the source does not record it"),
    Field("RunnersBefore", "string", "1-3", "baseball: the runners on base when the play began,"
          " a base's number where a runner stood and a dash where none did (\"1-3\": first and"
          " third, \"---\": bases empty; an extra inning's placed runner counts); null as"
          " OutsBefore", hook=True),
    *WP_RECORD_FIELDS,
    Field("WPA_Batter", "number", 0.153, "baseball: the WPA credited to the batter (the primary"
          " player), the play's WPA as the season tables credit it; null for a play without a"
          " pitcher (a substitution) or a line, and in the other sports", hook=True),
    Field("WPA_Pitcher", "number", -0.153, "baseball: the WPA credited to the pitcher, the"
          " negative of the batter's; null as WPA_Batter", hook=True),
    _f("_half", "string", None, "internal"),
    _f("_bases_before", "integer", None, "internal"),
)


PLAYBYPLAY = Endpoint(
    name="playbyplay", singular="play", aliases=("pbp",),
    needs="playbyplay",
    summary="play-by-play events, newest first; needs a filter (id, season, player, game, team,"
            " date, start/end or last)",
    fields=PLAY_FIELDS, build=_plays,
    params=params("id", "team", "season", "search", "player", "game", *DATE_PARAMS,
                  end="date"),
    filters={"team": (P.c.team_id, P.c.opponent_id), "season": G.c.season,
             "player": (P.c.player_id, P.c.pitcher_id), "game": P.c.game_id},
    day_column=G.c.game_day, search=(P.c.explanation,), id_filter=lambda v, a: P.c.id == v,
    required_any=("id", "season", "player", "game", "team", "date", "start", "end", "last"),
    enrich=_shape, reuse=True, kept_total="plays", joins_as_written=True,
)


def _pitches(ask: ParsedRequest) -> sa.Select[Any]:
    return (sa.select(
        PI.c.id.label("ID"), PI.c.game_id.label("Game_ID"), G.c.game_day.label("GameDay"),
        PI.c.inning.label("Inning"), PI.c.half.label("Half"),
        PI.c.pitcher_id.label("Pitcher_ID"), PIT.c.name.label("Pitcher"),
        PI.c.batter_id.label("Batter_ID"), BAT.c.name.label("Batter"),
        sa.case((PI.c.half == "top", PTH.name), else_=PTV.name).label("Pitcher_Team"),
        sa.case((PI.c.half == "top", PTV.name), else_=PTH.name).label("Batter_Team"),
        PI.c.number.label("Number"), PI.c.balls.label("Balls"), PI.c.strikes.label("Strikes"),
        PI.c.code.label("Code"), PI.c.result.label("Result"),
        sa.not_(PI.c.code.in_(sorted(NOT_PITCHES))).label("Pitch"),
        PI.c.pitch_type.label("PitchType"), PI.c.speed.label("Speed"),
        PI.c.play_id.label("Play_ID"), PA_END.c.explanation.label("Outcome"))
        .select_from(PTH.join(PTV.join(PI.join(G, G.c.id == PI.c.game_id)
                                        .outerjoin(PA_END, PA_END.c.id == PI.c.play_id)
                                        .outerjoin(PIT, PIT.c.id == PI.c.pitcher_id)
                                        .outerjoin(BAT, BAT.c.id == PI.c.batter_id),
                                        G.c.visitor_id, G.c.season), G.c.home_id, G.c.season))
        .where(G.c.level == ask.code).order_by(G.c.game_day.desc(), PI.c.id.desc()))


PITCH = Endpoint(
    name="pitch", singular="pitch", aliases=("pitchfx",), needs="pitches",
    summary="pitches, newest first; with id one pitch",
    fields=(
        _f("ID", "integer", 4010001, "pitch ID"), _f("Game_ID", "integer", 401, "game ID"),
        _f("GameDay", "date", "2024-07-04", "game date"), _f("Inning", "integer", 3, "inning"),
        _f("Half", "string", "top", "top or bottom"),
        _f("Pitcher_ID", "integer", 1005, "pitcher ID"),
        _f("Pitcher", "string", "Chris Sale", "pitcher name"),
        _f("Batter_ID", "integer", 1001, "batter ID"), _f("Batter", "string", "Aaron Judge", "batter name"),
        _f("Pitcher_Team", "string", "Boston Red Sox", "the pitcher's team (fielding side)"),
        _f("Batter_Team", "string", "New York Yankees", "the batter's team (batting side)"),
        _f("Number", "integer", 1, "order within the plate appearance, from 1 (pitches and the"
           " throws between them)"),
        _f("Balls", "integer", 0, "balls before the pitch"),
        _f("Strikes", "integer", 0, "strikes before the pitch"),
        _f("Code", "string", "B", "Retrosheet pitch code; 1, 2, 3 a pickoff throw to that base,"
           " +1, +2, +3 the catcher's, N no pitch"),
        _f("Result", "string", "Ball", "result of the pitch"),
        _f("Pitch", "yn", "Y", "Y for a pitch to the batter; N for a pickoff throw, a catcher's"
           " throw or no pitch (a balk), which leave the count as it was"),
        _f("PitchType", "string", "FF", "pitch type; null when the source lacks it"),
        _f("Speed", "number", 95.5, "mph; null when the source lacks it"),
        _f("Play_ID", "integer", 401003, "the play that ended the plate appearance (or its last"
           " play, when the third out came on the bases)"),
        _f("Outcome", "string", "Judge singled to center field",
           "the plate appearance's outcome: that play's explanation; null only where a game"
           " was called in the middle of an appearance"),
    ),
    build=_pitches,
    params=params("id", "team", "season", "search", "player", "game", *DATE_PARAMS),
    filters={"team": GAME_TEAMS, "season": G.c.season,
             "player": (PI.c.pitcher_id, PI.c.batter_id), "game": PI.c.game_id},
    day_column=G.c.game_day, search=(PIT.c.name, BAT.c.name, PI.c.result),
    id_filter=lambda v, a: PI.c.id == v, reuse=True, kept_total="pitches",
    joins_as_written=True,
)
