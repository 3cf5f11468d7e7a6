"""boxscores: per game, the game record with its line score, team totals and every player's line.

Beyond the spec (issue #15): NatStat scripts and the dashboard's box score read it. The filters
are the games endpoint's (``gameid`` is an alias of ``id``); the lines of a whole page come from
two queries (player lines, team lines), not one per game. Stat codes are the sport's game-line
codes (``server.catalog.linestats``), a code a line lacks being 0 as in playerperfs.

A baseball box score also carries what the reference sites print around the lines: each player's
place in the batting order, the decisions (W, L, S, H) with the pitcher's record through the game,
and the notes under the box (2B, 3B, HR, SB, CS, E and who made them), all read from the lines.
"""
from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from server.catalog.linestats import BOX_NOTES, DECISIONS, line_codes
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

_BOXES = {league: game_select(G.c.line_score.label("_line"), G.c.season.label("_season"),
                              G.c.phase.label("_phase"), league=league)
          .order_by(G.c.game_day.desc(), G.c.id.desc()) for league in (False, True)}
_PLAYERS = (sa.select(PL.c.game_id, PL.c.player_id, PN.c.name, PL.c.team_id, TN.name.label("team"),
                      PL.c.home, PL.c.starter, PL.c.position, PL.c.batting_order, PL.c.stats)
            .select_from(TN.join(PL.outerjoin(PN, PN.c.id == PL.c.player_id), PL.c.team_id,
                                 PL.c.season))
            .order_by(PL.c.game_id, PL.c.home, PL.c.id))
_TEAMS = sa.select(TL.c.game_id, TL.c.home, TL.c.stats).order_by(TL.c.game_id, TL.c.home)
PR = s.pitcher_records
# the decisions' records kept by every ingest (``server.store.season_data``): the page's rows
_RECORDS = sa.select(PR.c.player_id, PR.c.game_id, PR.c.wins, PR.c.losses, PR.c.saves,
                     PR.c.holds)
_RECORD_NAMES = ("Wins", "Losses", "Saves", "Holds")


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
        for game_id, home, stats in conn.execute(_TEAMS.where(TL.c.game_id.in_(ids))).all():
            totals[game_id]["home" if home else "visitor"] = coded(stats, team_codes)
        # rows unpacked, not read by attribute (a row's attribute costs about a microsecond:
        # 3,043 lines of the real store's plain MLB page took 17.7 ms to build, 7.7 unpacked)
        zeros, known = dict.fromkeys(player_codes, 0), frozenset(player_codes)
        for (game_id, player_id, name, team_id, team, home, starter, position, batting_order,
             stats) in conn.execute(_PLAYERS.where(PL.c.game_id.in_(ids))).all():
            line = stats or {}
            record = {"ID": player_id, "Name": name, "Team_ID": team_id, "Team": team,
                      "Home": "Y" if home else "N",
                      "Starter": None if starter is None else ("Y" if starter else "N"),
                      "Position": position, "BattingOrder": batting_order, **zeros}
            if line.keys() <= known:
                record.update(line)  # in the codes' order: each key is there already
            else:
                record.update(coded(line, player_codes))
            players[game_id].append(record)
    decided = {i: decisions(players[i], ask.level.sport) for i in ids}
    _with_records(conn, found, decided)
    for r in found:
        r["URL"] = f"{ask.base_url}/v2/boxscores/{ask.code}/?id={r['ID']}"
        r["BoxscoreHeader"] = header(r)
        r["linescore"] = linescore(r.pop("_line", None))
        r["totals"] = totals[r["ID"]]
        r["players"] = players[r["ID"]]
        r["decisions"] = decided[r["ID"]]
        r["notes"] = notes(players[r["ID"]], ask.level.sport)
        r.pop("_season", None)
        r.pop("_phase", None)


def coded(line: dict[str, Any] | None, codes: tuple[str, ...]) -> dict[str, Any]:
    """A stored line as its sport's codes in order, a code it lacks 0."""
    line = line or {}
    return {c: line.get(c, 0) for c in codes}


def decisions(players: list[Record], sport: str) -> list[Record]:
    """The game's decisions in the order box scores print them (W, L, S): who, for which team."""
    return [{"Decision": letter, "ID": p["ID"], "Name": p["Name"], "Team_ID": p["Team_ID"],
             "Team": p["Team"]}
            for code, letter in DECISIONS.get(sport, ()) for p in players if p.get(code)]


def notes(players: list[Record], sport: str) -> dict[str, list[Record]]:
    """Each side's notes under the box: per code (2B, 3B, HR, SB, CS, E) that someone recorded,
    who did and how many times, in the order of the lines."""
    out: dict[str, list[Record]] = {"visitor": [], "home": []}
    for side, home in (("visitor", "N"), ("home", "Y")):
        for code in BOX_NOTES.get(sport, ()):
            made = [{"ID": p["ID"], "Name": p["Name"], "Count": p[code]}
                    for p in players if p["Home"] == home and p.get(code)]
            if made:
                out[side].append({"Code": code, "Players": made})
    return out


def _with_records(conn: sa.Connection, found: list[Record],
                  decided: dict[int, list[Record]]) -> None:
    """Each decision's pitcher's record through the game in its season and phase (a postseason
    game's, the postseason's), as Baseball-Reference prints "W: Leclerc (1-0)": Wins, Losses,
    Saves and Holds, a doubleheader's games in their order.

    Kept by every ingest (``pitcher_records``, ``server.store.season_data``) and read by the
    page's games: 367 rows for the real store's plain MLB page. Summed per page from the
    pitchers' lines of their seasons (their stats read for four codes on 4,178 lines through the
    page's last day), it was more than half the page's time. The page in one process on the real
    store against the code before, interleaved rounds of 20, medians (a loaded machine): SQLite
    ``boxscores/MLB`` 66-68 -> 27-31 ms, ``?season=2022`` 74-77 -> 32-39, ``?page=7`` 67-69 -> 33;
    PostgreSQL 124-156 -> 52-75 ms (best 76 -> 31-32). The same decisions and records on every
    page of the real store (26,189). Kept, they cost an MLB ingest 0.6 s of SQLite (1.2-2.4 s of
    PostgreSQL) in its transaction."""
    if not any(decided.values()):
        return
    records = {(player_id, game_id): counts for player_id, game_id, *counts in conn.execute(
        _RECORDS.where(PR.c.game_id.in_([r["ID"] for r in found]))).all()}
    for r in found:
        for d in decided[r["ID"]]:
            counts = records.get((d["ID"], r["ID"]))
            for k, name in enumerate(_RECORD_NAMES):
                d[name] = int(counts[k] or 0) if counts is not None else 0


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
                "every player's line: ID, Name, Team_ID, Team, Home, Starter, Position, "
                "BattingOrder (baseball: the place in the batting order, 1-9; null for one who "
                "never batted in it, as a pitcher the designated hitter batted for, or where the "
                "source does not say), then the sport's player line codes"),
        _hooked("decisions", "list", [{"Decision": "W", "ID": 1005, "Name": "Jose Leclerc",
                                       "Team_ID": 11, "Team": "Texas Rangers", "Wins": 1,
                                       "Losses": 0, "Saves": 0, "Holds": 0}],
                "baseball: the pitchers of record in box-score order, W, L, S (a save), then H "
                "(each hold), with the pitcher's season record through this game (Wins, "
                "Losses, Saves, Holds); empty in the other sports and where the source names "
                "none"),
        _hooked("notes", "any", {"visitor": [{"Code": "3B", "Players": [
                    {"ID": 1001, "Name": "Corbin Carroll", "Count": 1}]}], "home": []},
                "baseball: the notes under the box, visitor and home: per code (2B, 3B, HR, SB, "
                "CS, E, in that order) that a player recorded, who and how many in the game"),
        Field("_line", "any", None, "internal: the stored line score"),
        Field("_season", "integer", None, "internal: the game's season"),
        Field("_phase", "string", None, "internal: the game's phase"),
    ),
    build=_base,
    params=(*GAMES.params, Param("gameid", "number", "alias of id: one game's box score", "401")),
    filters=GAMES.filters, limits=GAMES.limits, day_column=GAMES.day_column,
    search=GAMES.search, id_filter=GAMES.id_filter, enrich=_enrich, check=_check, reuse=True,
    kept_total="games",
)
