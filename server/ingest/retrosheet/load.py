"""Load Retrosheet files into the store (source ``retrosheet``, level MLB), one season at a time.

``ingest_path(engine, path)`` finds the files anywhere under ``path`` (the shared tree
``events/YYYY``, ``postseason/YYYY``, ``rosters/YYYY`` ..., or Retrosheet's flat download
layout), replays every game (:mod:`.game`) and writes teams, venues, players, officials, games,
plays, pitches and game lines through the loader, each season in one transaction.
"""
from __future__ import annotations

import datetime as dt
import os
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
import sqlalchemy as sa
from tqdm import tqdm

from server.catalog import innings
from server.catalog.names import SeasonName, club_name, suffix_of, with_suffix
from server.catalog.nations import birthplace
from server.catalog.phases import phase_of_round
from server.errors import UserError
from server.ingest.retrosheet import reference as ref
from server.ingest.retrosheet.files import (
    BALLPARKS,
    BIOFILE,
    EVENTS,
    POSTSEASON,
    ROSTER,
    TEAMS,
    UMPIRES,
    read_records,
    split_games,
)
from server.ingest.retrosheet.game import GameResult, play_game
from server.store import schema
from server.store.loader import Loader, loading

SOURCE = "retrosheet"
LEVEL = "MLB"
UMPIRE_ROLES = {"umphome": "HP", "ump1b": "1B", "ump2b": "2B", "ump3b": "3B", "umplf": "LF",
                "umprf": "RF"}
_ROUNDS = (("WS", "World Series"), ("CS", "LCS"), ("D", "Division Series"), ("W", "Wild Card"))
# info keys that become columns or links rather than entries of games.info
_INFO_COLUMNS = {"visteam", "hometeam", "site", "date", "number", "attendance", "timeofgame",
                 "inputtime", "edittime", "howscored", "oscorer", "inputter", "inputprogvers",
                 "translator", "wp", "lp", "save", "gwrbi", *UMPIRE_ROLES}


@dataclass
class SeasonFiles:
    season: int
    events: list[Path] = field(default_factory=list)
    postseason: list[Path] = field(default_factory=list)
    rosters: list[Path] = field(default_factory=list)
    teams: Path | None = None
    umpires: Path | None = None


@dataclass
class Tree:
    seasons: dict[int, SeasonFiles]
    ballparks: Path | None
    biofile: Path | None


def find_files(path: Path) -> Tree:
    """Every Retrosheet file under ``path``, grouped by season."""
    if not path.exists():
        raise UserError(f"no such file or folder: {path}")
    seasons: dict[int, SeasonFiles] = {}

    def season(year: int) -> SeasonFiles:
        return seasons.setdefault(year, SeasonFiles(year))

    ballparks = biofile = None
    files = [path] if path.is_file() else sorted(
        Path(d) / f for d, _, names in os.walk(path, followlinks=True) for f in names)
    for p in files:
        name = p.name
        if m := EVENTS.fullmatch(name):
            season(int(m.group(1))).events.append(p)
        elif m := POSTSEASON.fullmatch(name):
            if m.group(2).upper() != "AS":  # the All-Star game is not a league game
                season(int(m.group(1))).postseason.append(p)
        elif m := ROSTER.fullmatch(name):
            season(int(m.group(1))).rosters.append(p)
        elif m := TEAMS.fullmatch(name):
            season(int(m.group(1))).teams = p
        elif m := UMPIRES.fullmatch(name):
            season(int(m.group(1))).umpires = p
        elif BALLPARKS.fullmatch(name):
            ballparks = p
        elif BIOFILE.fullmatch(name):
            biofile = p
    seasons = {y: s for y, s in seasons.items() if s.events or s.postseason}
    if not seasons:
        raise UserError(f"no Retrosheet event files (*.EVA, *.EVN, *.EVE) under {path}")
    return Tree(seasons, ballparks, biofile)


def playoff_round(path: Path) -> str:
    stem = path.stem[4:].upper()
    for code, name in _ROUNDS:
        if code in stem:
            return name
    return "Playoffs"


def ingest_path(engine: sa.Engine, path: Path, season: int | None = None) -> dict[int, int]:
    """Ingest every season found under ``path`` (or only ``season``); returns games loaded per
    season."""
    tree = find_files(path)
    if season is not None:
        if season not in tree.seasons:
            raise UserError(f"no Retrosheet event files of {season} under {path} (it holds "
                            + ", ".join(map(str, sorted(tree.seasons))) + ")")
        tree.seasons = {season: tree.seasons[season]}
    parks = ref.read_ballparks(tree.ballparks) if tree.ballparks else {}
    bio = ref.read_biofile(tree.biofile) if tree.biofile else {}
    done = {}
    for year in sorted(tree.seasons):
        with loading(engine, SOURCE) as loader:
            done[year] = _load_season(loader, tree.seasons[year], parks, bio)
    return done


def _load_season(loader: Loader, files: SeasonFiles, parks: dict[str, dict[str, str]],
                 bio: dict[str, dict[str, str]]) -> int:
    year = files.season
    roster: dict[str, ref.RosterEntry] = {}
    team_pos: dict[tuple[str, str], str] = {}
    for p in sorted(files.rosters):
        for entry in ref.read_roster(p):
            roster.setdefault(entry.pid, entry)
            team_pos.setdefault((entry.pid, entry.team), entry.position)
    hands = {pid: (e.bats, e.throws) for pid, e in roster.items()}
    names = {pid: e.last for pid, e in roster.items()}
    umpires = ref.read_umpires(files.umpires) if files.umpires else {}

    # replay every game
    games: list[tuple[GameResult, str | None]] = []
    paths = [(p, None) for p in sorted(files.events)] + \
        [(p, playoff_round(p)) for p in sorted(files.postseason)]
    bar = tqdm(total=len(paths), desc=f"retrosheet {year}", unit="file", file=sys.stderr)
    for p, round_name in paths:
        for game_key, recs in split_games(read_records(p)):
            for rec in recs:  # players missing from the rosters still get a name
                if rec[0] in ("start", "sub") and rec[1] not in names and len(rec) > 2:
                    names[rec[1]] = rec[2].split(" ")[-1]
            games.append((play_game(game_key, recs, hands, names), round_name))
        bar.update(1)
    bar.close()

    teams = ref.read_teams(files.teams) if files.teams else []
    sub_ids = dict(zip(("AL", "NL"), loader.ids("sublevel", ["AL", "NL"])))
    loader.put(schema.sublevels, [
        {"id": sub_ids[abbr], "level": LEVEL, "name": name, "abbrev": abbr, "type": "League",
         "parent_id": None} for abbr, name in ref.LEAGUES.values()])
    codes = sorted({t.code for t in teams} | {g.info.get(k, "") for g, _ in games
                                              for k in ("visteam", "hometeam")} - {""})
    team_ids = dict(zip(codes, loader.ids("team", codes)))
    home_park: dict[str, Counter[str]] = defaultdict(Counter)
    for g, _ in games:
        home_park[g.info.get("hometeam", "")][g.info.get("site", "")] += 1
    park_codes = sorted({g.info["site"] for g, _ in games if g.info.get("site")})
    venue_ids = dict(zip(park_codes, loader.ids("venue", park_codes)))
    loader.put(schema.venues, [_venue(venue_ids[c], c, parks.get(c)) for c in park_codes])
    by_code = {t.code: t for t in teams}
    loader.put(schema.teams, [_team(team_ids[c], c, year, by_code.get(c), sub_ids, venue_ids,
                                    home_park[c]) for c in codes])

    # players
    pids = sorted(set(roster) | {pid for g, _ in games for pid in g.players})
    player_ids = dict(zip(pids, loader.ids("player", pids)))
    loader.put(schema.players, [_player(player_ids[p], p, roster.get(p), bio.get(p))
                                for p in pids])
    loader.put(schema.player_seasons, [
        {"player_id": player_ids[pid], "level": LEVEL, "season": year,
         "team_id": team_ids[team], "position": pos}
        for (pid, team), pos in sorted(team_pos.items()) if team in team_ids])

    # officials
    ump_keys = sorted({g.info[k] for g, _ in games for k in UMPIRE_ROLES
                       if g.info.get(k) and g.info[k] != "(none)"})
    official_ids = dict(zip(ump_keys, loader.ids("official", ump_keys)))
    loader.put(schema.officials, [_official(official_ids[u], u, umpires, bio) for u in ump_keys])

    # games and their children
    gids = loader.ids("game", [g.game_id for g, _ in games])
    rows: dict[str, list[dict[str, Any]]] = defaultdict(list)
    record: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for (g, round_name), gid in zip(games, gids):
        _game_rows(rows, g, gid, round_name, year, team_ids, venue_ids, player_ids, official_ids,
                   sub_ids, by_code)
        if round_name is None:
            w = rows["games"][-1]["winner_id"]
            lo = rows["games"][-1]["loser_id"]
            if w:
                record[w][0] += 1
                record[lo][1] += 1
    loader.put(schema.games, rows["games"])
    for name, table in (("player_lines", schema.player_lines), ("team_lines", schema.team_lines),
                        ("game_officials", schema.game_officials)):
        loader.replace_children(table, "game_id", gids, rows[name])
    for name, table in (("plays", schema.plays), ("pitches", schema.pitches)):
        loader.replace_children(table, "game_id", gids, [])
        _fast_insert(loader.conn, table, rows[name])
    loader.put(schema.team_seasons, [
        {"team_id": team_ids[c], "level": LEVEL, "season": year,
         "sublevel_id": sub_ids[ref.LEAGUES[by_code[c].league][0]] if c in by_code else None,
         **_season_name(c, year, by_code.get(c)),
         "wins": record[team_ids[c]][0], "losses": record[team_ids[c]][1], "ties": 0}
        for c in codes])
    days = [r["game_day"] for r in rows["games"]]
    rounds = list(dict.fromkeys(r for _, r in games if r))
    loader.put(schema.seasons, [{"level": LEVEL, "season": year, "name": str(year),
                                 "start": min(days), "end": max(days), "source": SOURCE,
                                 "playoffs": rounds or None}])
    return len(games)


def _json(value: dict[str, Any]) -> str | None:
    """A JSON column's text for ``_fast_insert`` (null when empty)."""
    return orjson.dumps(value).decode() if value else None


def _fast_insert(conn: sa.Connection, table: sa.Table, rows: list[dict[str, Any]]) -> None:
    """Bulk insert of plain rows (ints, strings, booleans) through the driver's executemany.

    Plays and pitches are about a million rows a season; SQLAlchemy's per-row parameter
    processing would cost more than the parse. These tables hold no dates, and their one JSON
    column (the plays' credits) arrives as its text (``_json``).
    """
    if not rows:
        return
    cols = list(rows[0])
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    sql = (f'INSERT INTO {table.name} ({", ".join(cols)}) '
           f'VALUES ({", ".join([mark] * len(cols))})')
    for i in range(0, len(rows), 20000):
        conn.exec_driver_sql(sql, [tuple(r[c] for c in cols) for r in rows[i:i + 20000]])


def _venue(vid: int, code: str, park: dict[str, str] | None) -> dict[str, Any]:
    if park is None:
        return {"id": vid, "name": code, "city_state": None, "nation": None,
                "latitude": None, "longitude": None, "capacity": None}
    city_state = ", ".join(x for x in (park.get("CITY", "").strip(), park.get("STATE", "").strip())
                           if x) or None
    state = park.get("STATE", "").strip()
    nation = "US" if len(state) == 2 and state.isalpha() and state.isupper() else None
    nation = {"ON": "CA", "QC": "CA", "BC": "CA"}.get(state, nation)
    return {"id": vid, "name": park.get("NAME", code).strip() or code, "city_state": city_state,
            "nation": nation, "latitude": None, "longitude": None, "capacity": None}


def _season_name(code: str, year: int, team: ref.Team | None) -> dict[str, str | None]:
    """The name, city, nickname and abbreviation the season's team file gives the club (its
    code where the file has no line), unless it is one the club no longer carried."""
    found = SeasonName(team.name, team.city, team.nickname, code) if team else \
        SeasonName(code, None, None, code)
    named = club_name(LEVEL, code, year, found)
    return {"name": named.name, "abbrev": named.abbrev, "city": named.city,
            "nickname": named.nickname}


def _team(tid: int, code: str, year: int, team: ref.Team | None, sub_ids: dict[str, int],
          venue_ids: dict[str, int], parks: Counter[str]) -> dict[str, Any]:
    """The club as of ``year``: the seasons load oldest first, so a club carries the name of the
    newest season loaded. Its abbreviation stays the Retrosheet code (``team=ANA`` keeps
    working); the season's own abbreviation is the team season's."""
    park = parks.most_common(1)[0][0] if parks else None
    named = _season_name(code, year, team)
    return {"id": tid, "level": LEVEL, "name": named["name"], "abbrev": code,
            "city": named["city"], "nickname": named["nickname"],
            "sublevel_id": sub_ids[ref.LEAGUES[team.league][0]] if team else None,
            "venue_id": venue_ids.get(park) if park else None,
            "nation": "CA" if code == "TOR" else "US", "source": SOURCE}


def _player(player_id: int, pid: str, entry: ref.RosterEntry | None,
            bio: dict[str, str] | None) -> dict[str, Any]:
    first = (bio or {}).get("NICKNAME") or (bio or {}).get("FIRST") or (entry.first if entry else "")
    last = (bio or {}).get("LAST") or (entry.last if entry else pid)
    if entry:  # the roster spells the name as it is used in the season
        first, last = entry.first or first, entry.last or last
    suffix = suffix_of((bio or {}).get("FIRST", ""))
    row: dict[str, Any] = {
        "id": player_id, "name": with_suffix(first, last, suffix), "first_name": first or None,
        "last_name": last or None, "bats": (entry.bats if entry else None) or None,
        "throws": (entry.throws if entry else None) or None,
        "position": entry.position if entry else None, "source": SOURCE,
        "height": None, "weight": None, "birth_date": None, "hometown": None, "nation": None,
        "flag": None, "debut": None,
    }
    if bio:
        row["height"] = ref.height(bio.get("HEIGHT", ""))
        row["weight"] = ref.weight(bio.get("WEIGHT", ""))
        row["birth_date"] = ref.parse_date(bio.get("BIRTHDATE", ""))
        row["nation"], row["flag"] = ref.nation(bio.get("BIRTH.COUNTRY", ""))
        row["hometown"] = birthplace(bio.get("BIRTH.CITY", ""), bio.get("BIRTH.STATE", ""),
                                     row["flag"])
        row["debut"] = ref.parse_date(bio.get("PLAY.DEBUT", ""))
        row["bats"] = row["bats"] or bio.get("BATS") or None
        row["throws"] = row["throws"] or bio.get("THROWS") or None
    return row


def _official(oid: int, uid: str, umpires: dict[str, tuple[str, str]],
              bio: dict[str, dict[str, str]]) -> dict[str, Any]:
    last, first = umpires.get(uid, ("", ""))
    if not last and uid in bio:
        last, first = bio[uid]["LAST"], bio[uid]["FIRST"]
    return {"id": oid, "name": f"{first} {last}".strip() or uid, "first_name": first or None,
            "last_name": last or None, "source": SOURCE}


def _int(text: str | None) -> int | None:
    return int(text) if text and text.strip().isdigit() else None


def _game_rows(rows: dict[str, list[dict[str, Any]]], g: GameResult, gid: int,
               round_name: str | None, year: int, team_ids: dict[str, int],
               venue_ids: dict[str, int], player_ids: dict[str, int],
               official_ids: dict[str, int], sub_ids: dict[str, int],
               by_code: dict[str, ref.Team]) -> None:
    info = g.info
    vis, home = team_ids[info["visteam"]], team_ids[info["hometeam"]]
    day = dt.date(int(g.game_id[3:7]), int(g.game_id[7:9]), int(g.game_id[9:11]))
    sv, sh = g.score
    winner = home if sh > sv else vis if sv > sh else None
    loser = None if winner is None else (vis if winner == home else home)
    extras: dict[str, object] = {k: v for k, v in info.items() if k not in _INFO_COLUMNS}
    for key, label in (("wp", "winning_pitcher"), ("lp", "losing_pitcher"), ("save", "save")):
        pid = info.get(key)
        extras[label] = player_ids.get(pid) if pid else None
    starters = {g.players[p]["team"]: p for p in g.order
                if g.players[p]["starter"] and g.players[p]["position"] == "P"}
    extras["starting_pitchers"] = {"visitor": player_ids.get(starters.get(0, "")),
                                   "home": player_ids.get(starters.get(1, ""))}
    scheduled = _int(info.get("innings")) or innings.REGULATION_INNINGS  # 2021's 7-inning games
    extra = innings.extra_innings(g.innings, scheduled)
    hteam = by_code.get(info["hometeam"])
    sub = sub_ids[ref.LEAGUES[hteam.league][0]] if hteam and round_name is None else None
    if round_name:  # league championship rounds carry their league in the file name
        sub = None
    rows["games"].append({
        "id": gid, "level": LEVEL, "season": year, "sublevel_id": sub, "game_day": day,
        "game_no": max(1, int(g.game_id[11])), "start_time": None, "visitor_id": vis,
        "home_id": home, "score_vis": sv, "score_home": sh, "state": "final",
        "game_status": innings.final_status(g.innings, scheduled),
        "overtime": str(extra) if extra else None,
        "periods": g.innings, "winner_id": winner, "loser_id": loser,
        "venue_id": venue_ids.get(info.get("site", "")), "neutral": False,
        "playoff": round_name, "phase": phase_of_round(round_name),
        "attendance": _int(info.get("attendance")),
        "duration": _int(info.get("timeofgame")), "line_score": g.line_score, "info": extras,
        "source": SOURCE,
    })
    teams = (vis, home)
    for p in g.plays:
        rows["plays"].append({
            "id": gid * 1000 + p.seq, "level": LEVEL, "game_id": gid, "seq": p.seq,
            "period": p.inning, "half": p.half, "clock": None, "team_id": teams[p.batting],
            "opponent_id": teams[1 - p.batting], "player_id": player_ids.get(p.batter or ""),
            "pitcher_id": player_ids.get(p.pitcher or ""), "event": p.event,
            "explanation": p.explanation, "scoring": p.runs > 0, "points": p.runs,
            "tags": p.tags or None, "the_count": p.count, "pitcher_hand": p.pitcher_hand,
            "batter_hand": p.batter_hand, "sequence": p.sequence, "score_vis": p.score[0],
            "score_home": p.score[1], "outs": p.outs, "bases": p.bases,
            "outs_before": p.outs_before, "bases_before": p.bases_before,
            "credits": _json({str(player_ids[pid]): line for pid, line in p.credits.items()
                              if pid in player_ids})})
    for n, pt in enumerate(g.pitches, start=1):
        rows["pitches"].append({
            "id": gid * 10000 + n, "level": LEVEL, "game_id": gid,
            "play_id": gid * 1000 + pt.play_seq if pt.play_seq else None,
            "inning": pt.inning, "half": pt.half,
            "pitcher_id": player_ids.get(pt.pitcher or ""), "batter_id": player_ids.get(pt.batter),
            "number": pt.number, "balls": pt.balls, "strikes": pt.strikes, "code": pt.code,
            "result": pt.result, "pitch_type": None, "speed": None})
    ordered = sorted(g.order, key=lambda p: g.players[p]["team"])
    for k, pid in enumerate(ordered):
        meta = g.players[pid]
        t = meta["team"]
        rows["player_lines"].append({
            "id": gid * 100 + k, "level": LEVEL, "season": year, "game_id": gid, "game_day": day,
            "player_id": player_ids[pid], "team_id": teams[t], "opponent_id": teams[1 - t],
            "home": t == 1, "starter": meta["starter"], "position": meta["position"],
            "batting_order": meta["slot"], "stats": g.lines.get(pid, {})})
    for t in (0, 1):
        rows["team_lines"].append({
            "id": gid * 10 + t, "level": LEVEL, "season": year, "game_id": gid, "game_day": day,
            "team_id": teams[t], "opponent_id": teams[1 - t], "home": t == 1,
            "stats": g.team_lines[t]})
    for key, role in UMPIRE_ROLES.items():
        uid = info.get(key)
        if uid and uid in official_ids:
            rows["game_officials"].append({"game_id": gid, "official_id": official_ids[uid],
                                           "role": role})
