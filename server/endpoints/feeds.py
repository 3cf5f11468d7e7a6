"""news, transactions and social: what is said and done around the games, newest first."""
from __future__ import annotations

import datetime as dt
from typing import Any

import sqlalchemy as sa

from server.endpoints.base import ParsedRequest, Endpoint, Field, Record
from server.endpoints.common import params, team_ref
from server.store import schema as s

N = s.news
TX = s.transactions
SA = s.social_accounts
SP = s.social_posts
TT = s.teams.alias("txteam")
TP = s.players.alias("txplayer")


def _news(ask: ParsedRequest) -> sa.Select[Any]:
    return (sa.select(N.c.id.label("ID"), N.c.published.label("Published"),
                      N.c.published.label("PublishedAt"), N.c.title.label("Title"),
                      N.c.summary.label("Summary"), N.c.url.label("URL"),
                      N.c.source.label("Source"), N.c.team_id.label("Team_ID"),
                      N.c.game_id.label("Game_ID"), N.c.body.label("Body"))
            .where(N.c.level == ask.code).order_by(N.c.published.desc(), N.c.id.desc()))


NEWS = Endpoint(
    name="news", singular="item",
    summary="news items, newest first; with id all metadata of the item",
    fields=(
        Field("ID", "integer", 9001, "news item ID"),
        Field("Published", "date", "2024-07-04", "publication date"),
        Field("PublishedAt", "datetime", "2024-07-04T23:59:00Z", "publication instant, UTC"),
        Field("Title", "string", "Yankees edge Red Sox", "headline"),
        Field("Summary", "string", "Judge homered twice.", "summary"),
        Field("URL", "string", None, "link to the full item, when known"),
        Field("Source", "string", "simulated", "publisher or source"),
        Field("Team_ID", "integer", 11, "team the item is about"),
        Field("Game_ID", "integer", 401, "game the item is about"),
        Field("Body", "string", "Full text...", "full text", detail=True),
    ),
    build=_news, params=params("id", "team", "search", "game", "date", "start", "end", "last",
                               team="ref"),
    filters={"team": lambda v, a: team_ref(N.c.team_id, v), "game": N.c.game_id},
    day_column=N.c.published, day_is_instant=True, search=(N.c.title, N.c.summary),
    id_filter=lambda v, a: N.c.id == v, reuse=True,
)


def _transactions(ask: ParsedRequest) -> sa.Select[Any]:
    return (sa.select(TX.c.id.label("ID"), TX.c.date.label("Date"), TX.c.team_id.label("Team_ID"),
                      TT.c.name.label("Team"), TX.c.player_id.label("Player_ID"),
                      TP.c.name.label("Player"), TX.c.type.label("Type"),
                      TX.c.description.label("Description"))
            .select_from(TX.outerjoin(TT, TT.c.id == TX.c.team_id)
                         .outerjoin(TP, TP.c.id == TX.c.player_id))
            .where(TX.c.level == ask.code).order_by(TX.c.date.desc(), TX.c.id.desc()))


TRANSACTIONS = Endpoint(
    name="transactions", singular="transaction", needs="transactions",
    summary="transactions (signings, releases, trades...), newest first",
    fields=(
        Field("ID", "integer", 77, "transaction ID"), Field("Date", "date", "2024-05-01", "date"),
        Field("Team_ID", "integer", 11, "team ID"),
        Field("Team", "string", "New York Yankees", "team"),
        Field("Player_ID", "integer", 1001, "player ID"),
        Field("Player", "string", "Aaron Judge", "player"),
        Field("Type", "string", "Signed", "Signed, Released, Traded, Recalled, ..."),
        Field("Description", "string", "Signed to a one-year contract", "description"),
    ),
    build=_transactions, params=params("id", "team", "date", "start", "end"),
    filters={"team": TX.c.team_id},
    day_column=TX.c.date, id_filter=lambda v, a: TX.c.id == v, reuse=True,
)


def _social(ask: ParsedRequest) -> sa.Select[Any]:
    return (sa.select(SA.c.handle.label("ID"), SA.c.name.label("Name"),
                      SA.c.platform.label("Platform"), SA.c.type.label("Type"),
                      SA.c.team_id.label("Team_ID"), SA.c.player_id.label("Player_ID"),
                      SA.c.last_post.label("LastPost"), SA.c.id.label("_account"))
            .where(SA.c.level == ask.code)
            .order_by(SA.c.last_post.desc().nulls_last(), SA.c.id.desc()))


def _posts(conn: sa.Connection, ask: ParsedRequest, found: list[Record]) -> None:
    """With id, the account's posts, newest first, within the date window if one was given."""
    record = found[0]
    q = sa.select(SP.c.id, SP.c.posted, SP.c.text, SP.c.url, SP.c.game_id).where(
        SP.c.account_id == record.pop("_account"))
    if ask.day_from is not None:
        q = q.where(SP.c.posted >= dt.datetime.combine(ask.day_from, dt.time()))
    if ask.day_to is not None:
        q = q.where(SP.c.posted <= dt.datetime.combine(ask.day_to, dt.time.max))
    record["posts"] = [
        {"ID": r.id, "Posted": r.posted.strftime("%Y-%m-%dT%H:%M:%SZ"), "Text": r.text,
         "URL": r.url, "Game_ID": r.game_id}
        for r in conn.execute(q.order_by(SP.c.posted.desc(), SP.c.id.desc()))]


def _social_game(value: Any, ask: ParsedRequest) -> sa.ColumnElement[bool]:
    return SA.c.id.in_(sa.select(SP.c.account_id).where(SP.c.game_id == value))


SOCIAL = Endpoint(
    name="social", singular="account",
    summary="social accounts, by most recent post; with id (a handle) the account's posts",
    fields=(
        Field("ID", "string", "Yankees", "the handle (case-insensitive as id)"),
        Field("Name", "string", "New York Yankees", "display name"),
        Field("Platform", "string", "X", "platform"),
        Field("Type", "string", "team", "team or player"),
        Field("Team_ID", "integer", 11, "team ID"), Field("Player_ID", "integer", None, "player ID"),
        Field("LastPost", "datetime", "2024-07-04T23:00:00Z", "last post, UTC"),
        Field("_account", "integer", None, "internal"),
        Field("posts", "list", [{"ID": 1, "Posted": "2024-07-04T23:00:00Z", "Text": "Win!",
                                 "URL": None, "Game_ID": 401}],
              "with id: posts (ID, Posted, Text, URL, Game_ID), newest first; date, start and "
              "end filter them", detail=True),
    ),
    build=_social,
    params=params("id", "team", "limit", "search", "player", "game", "date", "start", "end",
                  id="string"),
    filters={"team": SA.c.team_id, "player": SA.c.player_id, "limit": SA.c.type,
             "game": _social_game},
    limits=("team", "player"), search=(SA.c.name, SA.c.handle),
    day_column=SA.c.last_post, day_is_instant=True,
    id_filter=lambda v, a: SA.c.handle_lower == str(v).lower(), detail=_posts, reuse=True,
)
