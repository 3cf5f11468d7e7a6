"""boxscores: per game, the game record with its line score, team totals and every player's line.

Beyond the spec (issue #15): NatStat scripts and the dashboard's box score read it. The filters
are the games endpoint's (``gameid`` is an alias of ``id``); the lines of a whole page come from
two queries (player lines, team lines), not one per game. Stat codes are the sport's game-line
codes (``server.catalog.linestats``), a code a line lacks being 0 as in playerperfs.
"""
from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from server.catalog.linestats import line_codes
from server.endpoints.base import ParsedRequest, Endpoint, Field, Param, Record
from server.endpoints.common import G, GAME_FIELDS, LEAGUE_FIELDS, LEAGUE_LEVELS, game_select
from server.endpoints.games import GAMES
from server.endpoints.seasonnames import season_team
from server.store import schema as s
from server.store.facts import StoreFacts

PL = s.player_lines
TL = s.team_lines
PN = s.players.alias("box_player")
TN = season_team("box_team")  # named as in the game's season

_BOXES = {league: game_select(G.c.line_score.label("_line"), league=league)
          .order_by(G.c.game_day.desc(), G.c.id.desc()) for league in (False, True)}
_PLAYERS = (sa.select(PL.c.game_id, PL.c.player_id, PN.c.name, PL.c.team_id, TN.name.label("team"),
                      PL.c.home, PL.c.starter, PL.c.position, PL.c.stats)
            .select_from(TN.join(PL.outerjoin(PN, PN.c.id == PL.c.player_id), PL.c.team_id,
                                 PL.c.season))
            .order_by(PL.c.game_id, PL.c.home, PL.c.id))
_TEAMS = sa.select(TL.c.game_id, TL.c.home, TL.c.stats).order_by(TL.c.game_id, TL.c.home)


def _base(ask: ParsedRequest) -> sa.Select[Any]:
    return _BOXES[ask.code in LEAGUE_LEVELS].where(G.c.level == ask.code)


def header(r: Record) -> str:
    """One line: ``Final: Philadelphia Phillies 1, Houston Astros 4`` (or the game's state)."""
    if r.get("ScoreVis") is None or r.get("ScoreHome") is None:
        return f"Scheduled: {r['Visitor']} at {r['Home']}, {r['GameDay']}"
    return f"{r['GameStatus'] or 'Score'}: {r['Visitor']} {r['ScoreVis']}, {r['Home']} {r['ScoreHome']}"


def linescore(line: Any) -> list[Record]:
    """The stored ``{"visitor": [...], "home": [...]}`` as one record per period."""
    if not isinstance(line, dict):
        return []
    vis, home = line.get("visitor") or [], line.get("home") or []
    return [{"Period": n, "Visitor": vis[n - 1] if n <= len(vis) else None,
             "Home": home[n - 1] if n <= len(home) else None}
            for n in range(1, max(len(vis), len(home)) + 1)]


def _enrich(conn: sa.Connection, ask: ParsedRequest, found: list[Record]) -> None:
    """URL, header, line score, totals and player lines of every game of the page."""
    ids = [r["ID"] for r in found]
    team_codes = line_codes(ask.level.sport, team=True)
    player_codes = line_codes(ask.level.sport, team=False)
    totals: dict[int, dict[str, dict[str, Any]]] = {i: {"visitor": {}, "home": {}} for i in ids}
    players: dict[int, list[Record]] = {i: [] for i in ids}
    if ids:
        for t in conn.execute(_TEAMS.where(TL.c.game_id.in_(ids))):
            line = t.stats or {}
            totals[t.game_id]["home" if t.home else "visitor"] = {
                c: line.get(c, 0) for c in team_codes}
        for p in conn.execute(_PLAYERS.where(PL.c.game_id.in_(ids))):
            line = p.stats or {}
            players[p.game_id].append({
                "ID": p.player_id, "Name": p.name, "Team_ID": p.team_id, "Team": p.team,
                "Home": "Y" if p.home else "N",
                "Starter": None if p.starter is None else ("Y" if p.starter else "N"),
                "Position": p.position, **{c: line.get(c, 0) for c in player_codes}})
    for r in found:
        r["URL"] = f"{ask.base_url}/v2/boxscores/{ask.code}/?id={r['ID']}"
        r["BoxscoreHeader"] = header(r)
        r["linescore"] = linescore(r.pop("_line", None))
        r["totals"] = totals[r["ID"]]
        r["players"] = players[r["ID"]]


def _check(ask: ParsedRequest, facts: StoreFacts) -> ParsedRequest:
    """``gameid`` is NatStat's name for ``id``; ``id`` wins when both are given."""
    if "gameid" not in ask.values:
        return ask
    values = dict(ask.values)
    gameid = values.pop("gameid")
    warnings = ask.warnings
    if "id" in values:
        warnings += ("gameid and id both given; id is used",)
    else:
        values["id"] = gameid
    return ask.replace(values=values, warnings=warnings)


def _hooked(name: str, kind: str, example: Any, doc: str) -> Field:
    return Field(name, kind, example, doc, hook=True)


BOXSCORES = Endpoint(
    name="boxscores", singular="boxscore", aliases=("boxscore",), version="v2",
    # 100 box scores: 1.1 MB of JSON, 1.6 MB of XML, about 0.4 s of CPU to encode in XML
    # (1,000 were 18-20 MB and 2-2.8 s, beyond the query limit's reach)
    max_page=100,
    summary="box scores, newest first: the game, its line score, team totals and player lines",
    fields=GAME_FIELDS + LEAGUE_FIELDS + (
        _hooked("URL", "string", "https://host/v2/boxscores/MLB/?id=401",
                "the service's URL for the box score"),
        _hooked("BoxscoreHeader", "string", "Final: Philadelphia Phillies 1, Houston Astros 4",
                "one line: state, teams and scores"),
        _hooked("linescore", "list", [{"Period": 1, "Visitor": 0, "Home": 2}],
                "score by period (inning): Period, Visitor, Home"),
        _hooked("totals", "any", {"visitor": {"R": 1, "H": 6, "E": 0},
                                  "home": {"R": 4, "H": 9, "E": 1}},
                "team totals, visitor and home: the sport's team line codes (baseball R, H, E)"),
        _hooked("players", "list", [{"ID": 1001, "Name": "Aaron Judge", "Team_ID": 11,
                                     "Team": "New York Yankees", "Home": "Y", "Starter": "Y",
                                     "Position": "RF", "AB": 4, "H": 2}],
                "every player's line: ID, Name, Team_ID, Team, Home, Starter, Position, then "
                "the sport's player line codes"),
        Field("_line", "any", None, "internal: the stored line score"),
    ),
    build=_base,
    params=(*GAMES.params, Param("gameid", "number", "alias of id: one game's box score", "401")),
    filters=GAMES.filters, limits=GAMES.limits, day_column=GAMES.day_column,
    search=GAMES.search, id_filter=GAMES.id_filter, enrich=_enrich, check=_check, reuse=True,
)
