"""winprob (v2, beyond the spec): the win probability line of one game, play by play.

The first record is the pre-game forecast (``Sequence`` 0: the ELO forecast re-tabulation
computed, the line's start), then one record per play with a line in ``play_winprob``, in game
order: where the game stood after it (period or inning, clock or outs, the score), the home
team's chance to win (``WP_Home``; soccer's draw ``WP_Draw``), the win probability the play
added for the team credited with it (``WPA``) and the play's explanation. Re-tabulation and the
nightly job compute the line (``server.jobs.winprob_plays``); this endpoint only reads it, by the
game's plays (``ix_plays_game``) and the line's primary key.
"""
from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from server.endpoints.base import ParsedRequest, Endpoint, Field, Record
from server.endpoints.common import params
from server.endpoints.plays import WP_RECORD_FIELDS, positive_zero, rounded
from server.store import schema as s

P, W, G, F = s.plays, s.play_winprob, s.games, s.forecasts
_I, _N, _S = "integer", "number", "string"


def _answer(conn: sa.Connection, ask: ParsedRequest) -> list[Record]:
    game_id = int(ask.get("game"))
    game = conn.execute(
        sa.select(G.c.id, G.c.visitor_id, G.c.home_id, F.c.helo_win_exp)
        .select_from(G.outerjoin(F, F.c.game_id == G.c.id))
        .where(G.c.id == game_id, G.c.level == ask.code)).first()
    if game is None:
        return []
    rows = conn.execute(
        sa.select(P.c.id, P.c.seq, P.c.period, P.c.half, P.c.clock, P.c.outs, P.c.score_vis,
                  P.c.score_home, P.c.team_id, P.c.player_id, P.c.explanation,
                  rounded(W.c.wp_home).label("wp_home"), rounded(W.c.wp_draw).label("wp_draw"),
                  rounded(W.c.wpa).label("wpa"))
        .select_from(P.join(W, W.c.play_id == P.c.id))
        .where(P.c.game_id == game_id).order_by(P.c.seq)).all()
    baseball = ask.level.sport == "baseball"
    out: list[Record] = [_record(game, None, baseball)] if game.helo_win_exp is not None else []
    out.extend(_record(game, r, baseball) for r in rows)
    return out


def _record(game: Any, play: Any, baseball: bool) -> Record:
    """One record of the line: the pre-game forecast when ``play`` is None."""
    r: Record = {"Game_ID": game.id, "Visitor_ID": game.visitor_id, "Home_ID": game.home_id}
    if play is None:
        r.update(Sequence=0, Play_ID=None, Period=None, Half=None, Clock=None, Outs=None,
                 ScoreVis=0, ScoreHome=0, Team_ID=None, Player_ID=None,
                 WP_Home=round(float(game.helo_win_exp), 3), WP_Draw=None, WPA=None,
                 Explanation="Pre-game forecast")
    else:
        r.update(Sequence=play.seq, Play_ID=play.id, Period=play.period,
                 Half=play.half if baseball else None, Clock=play.clock,
                 Outs=play.outs if baseball else None, ScoreVis=play.score_vis,
                 ScoreHome=play.score_home, Team_ID=play.team_id, Player_ID=play.player_id,
                 WP_Home=_number(play.wp_home), WP_Draw=_number(play.wp_draw),
                 WPA=_number(play.wpa),
                 Explanation=play.explanation)
    positive_zero(r)
    return r


def _number(value: Any) -> float | None:
    """The store's rounded value (PostgreSQL's a Decimal) as a float."""
    return None if value is None else float(value)


WINPROB = Endpoint(
    name="winprob", singular="winprob", version="v2", aliases=("wp",), needs="playbyplay",
    summary="one game's win probability line (game= required): the pre-game forecast, then "
            "every play with the home team's chance to win after it and the win probability "
            "it added",
    fields=(
        Field("Game_ID", _I, 401, "game ID"),
        Field("Sequence", _I, 12, "the play's position in the game, from 1; 0 the pre-game "
                                  "forecast"),
        Field("Play_ID", _I, 401003, "play ID (playbyplay); null for the forecast"),
        Field("Period", _I, 3, "inning, period or half of the play; null for the forecast"),
        Field("Half", _S, "bottom", "baseball: top or bottom; null elsewhere"),
        Field("Clock", _S, "07:21", "time left in the period (soccer: the match minute) when "
                                    "the sport has a clock"),
        Field("Outs", _I, 2, "baseball: outs in the half inning after the play (3: it is "
                             "over); null elsewhere"),
        Field("Visitor_ID", _I, 12, "visitor ID"),
        Field("Home_ID", _I, 11, "home ID"),
        Field("ScoreVis", _I, 0, "visitor score after the play"),
        Field("ScoreHome", _I, 1, "home score after the play"),
        Field("Team_ID", _I, 11, "the team credited with the play (batting team in baseball)"),
        Field("Player_ID", _I, 1001, "the play's most relevant player (batter, shooter, scorer)"),
        *WP_RECORD_FIELDS,
        Field("Explanation", _S, "Judge homered to left", "the play; 'Pre-game forecast' for "
                                                           "the first record"),
    ),
    params=params("game"), required_any=("game",), paginated=False, custom=_answer,
)
