"""The generic feed: a folder of CSV files that loads any level without code.

A bundle is a folder holding ``feed.json`` (``{"source": "acme", "level": "NBA"}``) and one CSV per
resource, each with a header row. ``teams.csv`` and ``games.csv`` are required; the rest are
optional. Rows refer to each other by the feed's own keys (``team`` = a ``teams.csv`` key), which
map to stable IDs, so loading the same bundle twice changes nothing. The whole bundle loads in one
transaction: a bad value anywhere stops the ingest with ``file:line`` and leaves the store as it was.
The README documents every column; ``FILES`` below is that documentation's source.
"""
from __future__ import annotations

import csv
import json
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from server.catalog import phases
from server.catalog.clock import today
from server.catalog.levels import find_level
from server.errors import UserError
from server.ingest.datafiles import DataFiles, Ingest
from server.store import schema
from server.store.init import init_store
from server.store.loader import Loader, loading

Convert = Callable[[str], Any]

# What a text field may not hold: NUL, which PostgreSQL's text cannot store; the other C0 control
# characters but tab and line breaks, U+FFFE and U+FFFF, which XML 1.0 cannot carry; and lone
# surrogates (a JSON ``\ud800``), which no UTF-8 store can. Refused at ingest, where the file and
# line can be named, so that no store, copy or document ever meets one.
_UNSTORABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def unstorable(text: str) -> str | None:
    """Why ``text`` cannot be stored (the first character no store or document can carry, as
    ``U+XXXX`` and its position), or None when every character can."""
    found = _UNSTORABLE.search(text)
    if found is None:
        return None
    name = "a NUL byte" if found.group() == "\x00" else "a control character"
    return (f"holds {name} (U+{ord(found.group()):04X}) at character {found.start() + 1}, which "
            "PostgreSQL or XML cannot carry; remove it from the source")


def _int(v: str) -> int:
    return int(v)


def _float(v: str) -> float:
    return float(v)


def _date(v: str) -> date:
    return date.fromisoformat(v)


def _instant(v: str) -> datetime:
    return datetime.fromisoformat(v).replace(tzinfo=None)


def _yes(v: str) -> bool:
    if v.upper() not in {"Y", "N", "1", "0", "TRUE", "FALSE"}:
        raise ValueError(f"'{v}' is not Y or N")
    return v.upper() in {"Y", "1", "TRUE"}


def _text(v: str) -> str:
    return v


def _stats(v: str) -> dict[str, Any]:
    value = json.loads(v)
    if not isinstance(value, dict):
        raise TypeError("stats must be a JSON object of stat codes")
    for text in _texts(value):
        reason = unstorable(text)
        if reason:
            raise ValueError(f"a stat code or value {reason}")
    return value


def _texts(value: object) -> Iterator[str]:
    """Every string in a JSON value, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _texts(key)
            yield from _texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)


@dataclass(frozen=True)
class Column:
    name: str  # CSV header
    target: str  # column of the store table
    convert: Convert = _text
    required: bool = False
    ref: str | None = None  # kind whose feed key this column names (team, player, game, venue)


@dataclass(frozen=True)
class FeedFile:
    name: str
    table: sa.Table
    kind: str | None  # kind of the row's own key, when it has one (column "key")
    columns: tuple[Column, ...]
    required: bool = False


def _phase(text: str) -> str:
    phase = text.lower()
    if phase not in phases.PHASES:
        raise ValueError(f"not one of {', '.join(phases.PHASES)}")
    return phase


def _c(name: str, target: str | None = None, convert: Convert = _text, required: bool = False,
       ref: str | None = None) -> Column:
    return Column(name, target or name, convert, required, ref)


FILES: tuple[FeedFile, ...] = (
    FeedFile("venues.csv", schema.venues, "venue", (
        _c("name", required=True), _c("city_state"), _c("nation"),
        _c("latitude", convert=_float), _c("longitude", convert=_float),
        _c("capacity", convert=_int),
    )),
    FeedFile("teams.csv", schema.teams, "team", (
        _c("name", required=True), _c("abbrev"), _c("city"), _c("nickname"),
        _c("venue", "venue_id", ref="venue"), _c("nation"),
    ), required=True),
    FeedFile("players.csv", schema.players, "player", (
        _c("name", required=True), _c("first_name"), _c("last_name"), _c("height"),
        _c("weight", convert=_int), _c("birth_date", convert=_date), _c("hometown"),
        _c("nation"), _c("flag"), _c("bats"), _c("throws"), _c("position"),
    )),
    FeedFile("rosters.csv", schema.player_seasons, None, (
        _c("player", "player_id", required=True, ref="player"),
        _c("season", convert=_int, required=True),
        _c("team", "team_id", required=True, ref="team"), _c("position"), _c("jersey"),
    )),
    FeedFile("games.csv", schema.games, "game", (
        _c("season", convert=_int, required=True), _c("date", "game_day", _date, True),
        _c("game_no", convert=_int), _c("start_time", convert=_instant),
        _c("visitor", "visitor_id", required=True, ref="team"),
        _c("home", "home_id", required=True, ref="team"),
        _c("score_vis", convert=_int), _c("score_home", convert=_int),
        _c("state", required=True), _c("status", "game_status"), _c("overtime"),
        _c("venue", "venue_id", ref="venue"), _c("neutral", convert=_yes), _c("playoff"),
        _c("phase", convert=_phase), _c("attendance", convert=_int),
    ), required=True),
    FeedFile("odds.csv", schema.odds, None, (
        _c("game", "game_id", required=True, ref="game"), _c("taken", required=True),
        _c("taken_at", convert=_instant, required=True), _c("book"),
        _c("vis_ml", convert=_int), _c("home_ml", convert=_int),
        _c("spread", convert=_float), _c("total", convert=_float),
    )),
    FeedFile("player_lines.csv", schema.player_lines, None, (
        _c("game", "game_id", required=True, ref="game"),
        _c("player", "player_id", required=True, ref="player"),
        _c("team", "team_id", required=True, ref="team"),
        _c("starter", convert=_yes), _c("position"), _c("stats", convert=_stats, required=True),
    )),
    FeedFile("news.csv", schema.news, "news", (
        _c("published", convert=_instant, required=True), _c("title", required=True),
        _c("summary"), _c("body"), _c("url"), _c("source"),
        _c("team", "team_id", ref="team"), _c("game", "game_id", ref="game"),
    )),
    FeedFile("transactions.csv", schema.transactions, "transaction", (
        _c("date", convert=_date, required=True), _c("team", "team_id", ref="team"),
        _c("player", "player_id", ref="player"), _c("type", required=True),
        _c("description", required=True),
    )),
)

_STATES = {"scheduled", "inprogress", "final", "postponed"}
_LEVELED = {"teams", "games", "news", "transactions", "player_seasons", "player_lines"}


class _Reader:
    """Reads one bundle's files into rows for the store, resolving feed keys to IDs."""

    def __init__(self, folder: Path, loader: Loader, level: str) -> None:
        self.folder = folder
        self.loader = loader
        self.level = level

    def rows(self, spec: FeedFile) -> list[dict[str, Any]]:
        path = self.folder / spec.name
        if not path.exists():
            if spec.required:
                raise UserError(f"{path}: missing (a feed needs teams.csv and games.csv)")
            return []
        with path.open(newline="", encoding="utf-8-sig") as fh:
            reader = csv.DictReader(fh)
            wanted = {c.name for c in spec.columns if c.required} | ({"key"} if spec.kind else set())
            absent = wanted - set(reader.fieldnames or ())
            if absent:
                raise UserError(f"{path}: header lacks {', '.join(sorted(absent))}")
            return [self._row(spec, path, n, raw) for n, raw in enumerate(reader, start=2)]

    def _row(self, spec: FeedFile, path: Path, line: int, raw: dict[str, str]) -> dict[str, Any]:
        row: dict[str, Any] = {}
        if spec.kind:
            row["id"] = self.loader.id(spec.kind, _required(raw, "key", path, line))
        for col in spec.columns:
            value = _cell(raw, col.name, path, line)
            if not value:
                if col.required:
                    raise UserError(f"{path}:{line}: '{col.name}' is empty")
                row[col.target] = None
                continue
            try:
                row[col.target] = self._ref(col, value, path, line) if col.ref else col.convert(value)
            except (ValueError, TypeError) as exc:
                raise UserError(f"{path}:{line}: '{col.name}' = '{value}': {exc}") from None
        return row

    def _ref(self, col: Column, value: str, path: Path, line: int) -> int:
        found = self.loader.lookup(col.ref or "", value)
        if found is None:
            raise UserError(f"{path}:{line}: {col.name} '{value}' is not a key of the feed")
        return found


def _cell(raw: dict[str, str], name: str, path: Path, line: int) -> str:
    """One field of a row, stripped; a character no store can hold stops the ingest here."""
    value = (raw.get(name) or "").strip()
    reason = unstorable(value)
    if reason:
        raise UserError(f"{path}:{line}: '{name}' {reason}")
    return value


def _required(raw: dict[str, str], name: str, path: Path, line: int) -> str:
    value = _cell(raw, name, path, line)
    if not value:
        raise UserError(f"{path}:{line}: '{name}' is empty")
    return value


def _complete_games(rows: list[dict[str, Any]], source: str) -> None:
    """Defaults and results the store derives: a game without ``phase`` takes its playoff
    round's, and a scheduled game on a day already past has no result (``server.catalog.phases``)."""
    day_now = today()
    for g in rows:
        if g["state"] not in _STATES:
            raise UserError(f"games.csv: state '{g['state']}' is not one of {sorted(_STATES)}")
        g["phase"] = g["phase"] or phases.phase_of_round(g["playoff"])
        if g["state"] == "scheduled":
            g["state"] = phases.unplayed_state(g["game_day"], day_now)
            if g["state"] == phases.NO_RESULT:
                g["game_status"] = phases.NO_RESULT_STATUS
        g["game_no"] = g["game_no"] or 1
        g["neutral"] = bool(g["neutral"])
        g["source"] = source
        final = g["state"] == "final"
        g["game_status"] = g["game_status"] or ("Final" if final else "")
        sv, sh = g["score_vis"], g["score_home"]
        decided = final and sv is not None and sh is not None and sv != sh
        g["winner_id"] = (g["home_id"] if sh > sv else g["visitor_id"]) if decided else None
        g["loser_id"] = (g["visitor_id"] if sh > sv else g["home_id"]) if decided else None


def load_feed(engine: sa.Engine, folder: Path) -> dict[str, int]:
    """Load one bundle in one transaction; returns rows loaded per file."""
    manifest_path = folder / "feed.json"
    if not folder.is_dir():
        raise UserError(f"{folder}: not a folder")
    if not manifest_path.exists():
        raise UserError(f"{manifest_path}: missing (it names the feed's source and level)")
    try:
        manifest = json.loads(manifest_path.read_text())
        source = "feed:" + str(manifest["source"]).strip()
        level_code = str(manifest["level"])
    except (ValueError, KeyError, TypeError):
        raise UserError(f"{manifest_path}: must be JSON with 'source' and 'level'") from None
    reason = unstorable(source)
    if reason:
        raise UserError(f"{manifest_path}: 'source' {reason}")
    level = find_level(level_code)
    if level is None:
        raise UserError(f"{manifest_path}: unknown level '{level_code}'")
    counts: dict[str, int] = {}
    with loading(engine, source) as loader:
        reader = _Reader(folder, loader, level.code)
        games: list[dict[str, Any]] = []
        for spec in FILES:
            rows = reader.rows(spec)
            name = spec.table.name
            for row in rows:
                if name in _LEVELED:
                    row["level"] = level.code
                if name in {"teams", "players"}:
                    row["source"] = source
            if name == "games":
                _complete_games(rows, source)
                games = rows
            if name == "player_lines":
                _number_lines(rows, games)
                loader.replace_children(spec.table, "game_id", (r["game_id"] for r in rows), rows)
            else:
                loader.put(spec.table, rows)
            counts[spec.name] = len(rows)
        loader.put(schema.seasons, _seasons(games, level.code, source))
        loader.put(schema.team_seasons, _team_seasons(games, level.code))
    return counts


def _number_lines(rows: list[dict[str, Any]], games: list[dict[str, Any]]) -> None:
    """Give each line its game-derived id (game_id * 100 + k) and the game's facts."""
    by_id = {g["id"]: g for g in games}
    per_game: dict[int, int] = {}
    for row in rows:
        game = by_id.get(row["game_id"])
        if game is None:
            raise UserError(f"player_lines.csv: game {row['game_id']} is not in games.csv")
        k = per_game[row["game_id"]] = per_game.get(row["game_id"], 0) + 1
        home = row["team_id"] == game["home_id"]
        row.update(id=row["game_id"] * 100 + k, season=game["season"], game_day=game["game_day"],
                   home=home, opponent_id=game["visitor_id"] if home else game["home_id"])


def _seasons(games: list[dict[str, Any]], level: str, source: str) -> list[dict[str, Any]]:
    spans: dict[int, tuple[date, date]] = {}
    for g in games:
        lo, hi = spans.get(g["season"], (g["game_day"], g["game_day"]))
        spans[g["season"]] = (min(lo, g["game_day"]), max(hi, g["game_day"]))
    return [{"level": level, "season": s, "start": lo, "end": hi, "source": source}
            for s, (lo, hi) in sorted(spans.items())]


def _team_seasons(games: list[dict[str, Any]], level: str) -> list[dict[str, Any]]:
    """Season records as the games tell them: wins, losses and ties of final games."""
    table: dict[tuple[int, int], dict[str, Any]] = {}
    for g in games:
        for team in (g["home_id"], g["visitor_id"]):
            table.setdefault((team, g["season"]), {"team_id": team, "level": level, "season": g["season"],
                                                   "wins": 0, "losses": 0, "ties": 0})
        if g["state"] != "final":
            continue
        if g["winner_id"] is None:
            if g["score_vis"] is not None:
                table[(g["home_id"], g["season"])]["ties"] += 1
                table[(g["visitor_id"], g["season"])]["ties"] += 1
            continue
        table[(g["winner_id"], g["season"])]["wins"] += 1
        table[(g["loser_id"], g["season"])]["losses"] += 1
    return list(table.values())


def cli(args: Any, engine: Callable[[], sa.Engine]) -> int:
    eng = engine()
    init_store(eng)
    counts = load_feed(eng, Path(args.path))
    print(", ".join(f"{n}: {c}" for n, c in counts.items() if c), file=sys.stderr)
    return 0


def _ingest_bundles(paths: Sequence[Path]) -> list[Ingest]:
    """One command per bundle: every folder holding a ``feed.json``."""
    return [Ingest(f"feed bundle {p.parent.name}", ("ingest", "feed", str(p.parent)))
            for p in sorted(paths)]


# A bundle is claimed by its ``feed.json``; its CSV files are read through it.
DATA_FILES = DataFiles("feed", re.compile(r"feed\.json", re.IGNORECASE), _ingest_bundles,
                       whole_folder=True)
