"""Game results from FiveThirtyEight-style Elo CSVs (NBA, NHL, WNBA): source ``fivethirtyeight``.

``python -m server ingest fivethirtyeight PATH [PATH ...] --level L`` loads dates, seasons (the file's
``season`` column: the year the season ends), teams, scores, overtimes, playoff rounds, neutral
sites and results. It never loads the files' ratings: the service computes its own (docs/api/reference.md).
The published pre-game home-win chances are kept apart, as comparison forecasters
(``server.catalog.forecasters``, ``PUBLISHED``; table ``comparison_forecasts``), to be scored
beside ours and never read by our models. Three layouts are recognised by their header:

* NBA ``nba_elo_latest.csv``: ``team1`` is home, ``score1``/``score2``, ``playoff`` a round code.
* NHL ``nhl_elo_latest.csv``: ``home_team``/``away_team`` with ``*_abbr``, ``ot`` (OT, 2OT, SO).
* WNBA ``wnba_elo.csv``: every game twice, once from each side; ``is_home`` picks the home row
  (neutral-site games have none, and keep the first row's order).

Football's SPI files (``spi_matches*.csv``, ``--level FC``) hold chances for matches another
source loads: ``server.ingest.football.spi`` matches them to the stored games.

Rows without both scores (a snapshot taken before the games were played) have no result: games
still to come when their day is today or later, else ``No result`` (``server.catalog.phases``:
the NBA 2022-23 file lists all seven Finals games, two of them never played). The playoff
column gives each game's phase (``p``, the NBA play-in, is ``playin``); the WNBA's
Commissioner's Cup finals, which the file lists as regular-season games, are stored as cup finals
(``server.catalog.playoffs.CUP_FINALS``). Several files of one level load together (a season per
file): a game in two of them is stored once, scored where either file has its score.
"""
from __future__ import annotations

import argparse
import csv
import datetime as dt
import re
import sys
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from tqdm import tqdm

from server.catalog import phases
from server.catalog.alignments import conference_of
from server.catalog.clock import today
from server.catalog.levels import find_level
from server.catalog.playoffs import cup_final
from server.errors import UserError
from server.ingest.datafiles import DataFiles, Ingest
from server.ingest.football import spi
from server.store import schema
from server.store.loader import Loader, loading

SOURCE = "fivethirtyeight"
_STATUS = {"final": "Final", phases.NO_RESULT: phases.NO_RESULT_STATUS}
LEVELS = ("NBA", "NHL", "WNBA")
NBA_ROUNDS = {"p": "Play-In", "q": "First Round", "s": "Conference Semifinals",
              "c": "Conference Finals", "f": "Finals"}
NBA_TEAMS = {
    "ATL": "Atlanta Hawks", "BOS": "Boston Celtics", "BRK": "Brooklyn Nets",
    "CHI": "Chicago Bulls", "CHO": "Charlotte Hornets", "CLE": "Cleveland Cavaliers",
    "DAL": "Dallas Mavericks", "DEN": "Denver Nuggets", "DET": "Detroit Pistons",
    "GSW": "Golden State Warriors", "HOU": "Houston Rockets", "IND": "Indiana Pacers",
    "LAC": "Los Angeles Clippers", "LAL": "Los Angeles Lakers", "MEM": "Memphis Grizzlies",
    "MIA": "Miami Heat", "MIL": "Milwaukee Bucks", "MIN": "Minnesota Timberwolves",
    "NOP": "New Orleans Pelicans", "NYK": "New York Knicks", "OKC": "Oklahoma City Thunder",
    "ORL": "Orlando Magic", "PHI": "Philadelphia 76ers", "PHO": "Phoenix Suns",
    "POR": "Portland Trail Blazers", "SAC": "Sacramento Kings", "SAS": "San Antonio Spurs",
    "TOR": "Toronto Raptors", "UTA": "Utah Jazz", "WAS": "Washington Wizards",
}


@dataclass(frozen=True)
class Result:
    season: int
    day: dt.date
    home: tuple[str, str]  # (abbreviation, name)
    visitor: tuple[str, str]
    score_home: int | None
    score_vis: int | None
    overtime: str | None
    playoff: str | None
    neutral: bool
    published: tuple[tuple[str, float], ...] = ()  # (forecaster code, home-win chance)

    @property
    def key(self) -> str:
        return f"{self.day.isoformat()}:{self.visitor[0]}@{self.home[0]}"


def _score(text: str | None) -> int | None:
    text = (text or "").strip()
    if not text or text.upper() == "NA":
        return None
    return int(float(text))


# Each layout's columns of published pre-game home-win chances, by comparison forecaster. NBA's
# team1 and NHL's home team are the home side; WNBA's chosen row is the home side's (``_wnba``).
PUBLISHED: dict[str, dict[str, str]] = {
    "nba": {"fte_elo": "elo_prob1", "fte_raptor": "raptor_prob1"},
    "nhl": {"fte_elo": "home_team_winprob"},
    "wnba": {"paine_elo": "team1_winprob"},
}


def _published(r: dict[str, str], layout: str) -> tuple[tuple[str, float], ...]:
    """The row's published chances; a blank, NA or out-of-range value is left out."""
    out = []
    for code, column in PUBLISHED[layout].items():
        text = (r.get(column) or "").strip()
        try:
            p = float(text)
        except ValueError:
            continue
        if 0.0 <= p <= 1.0:
            out.append((code, p))
    return tuple(out)


def _flag(text: str | None) -> bool:
    return (text or "").strip() in ("1", "1.0", "True", "TRUE")


def parse_rows(rows: list[dict[str, str]]) -> list[Result]:
    """Results from a file's rows, whichever of the three layouts it has."""
    if not rows:
        return []
    cols = rows[0].keys()
    if "home_team" in cols:
        return [_nhl(r) for r in rows]
    if "is_home" in cols:
        return _wnba(rows)
    if "score1" in cols:
        return [_nba(r) for r in rows]
    raise UserError("not a FiveThirtyEight-style Elo CSV (no team and score columns)")


def _nba(r: dict[str, str]) -> Result:
    home, vis = r["team1"].strip(), r["team2"].strip()
    code = (r.get("playoff") or "").strip()
    return Result(int(r["season"]), dt.date.fromisoformat(r["date"]),
                  (home, NBA_TEAMS.get(home, home)), (vis, NBA_TEAMS.get(vis, vis)),
                  _score(r["score1"]), _score(r["score2"]), None,
                  NBA_ROUNDS.get(code, "Playoffs") if code else None, _flag(r.get("neutral")),
                  _published(r, "nba"))


def _nhl(r: dict[str, str]) -> Result:
    ot = (r.get("ot") or "").strip() or None
    return Result(int(r["season"]), dt.date.fromisoformat(r["date"]),
                  (r["home_team_abbr"].strip(), r["home_team"].strip()),
                  (r["away_team_abbr"].strip(), r["away_team"].strip()),
                  _score(r["home_team_score"]), _score(r["away_team_score"]), ot,
                  "Playoffs" if _flag(r.get("playoff")) else None, _flag(r.get("neutral")),
                  _published(r, "nhl"))


def _wnba(rows: list[dict[str, str]]) -> list[Result]:
    chosen: dict[tuple[str, frozenset[str]], dict[str, str]] = {}
    for r in rows:
        key = (r["date"], frozenset((r["team1_abbr"], r["team2_abbr"])))
        if key not in chosen or (_flag(r.get("is_home")) and not _flag(chosen[key].get("is_home"))):
            chosen[key] = r
    out = []
    for r in chosen.values():
        out.append(Result(int(r["season"]), dt.date.fromisoformat(r["date"]),
                          (r["team1_abbr"].strip(), r["team1"].strip()),
                          (r["team2_abbr"].strip(), r["team2"].strip()),
                          _score(r["team1_score"]), _score(r["team2_score"]), None,
                          "Playoffs" if _flag(r.get("playoff")) else None,
                          _flag(r.get("neutral")) or not _flag(r.get("is_home")),
                          _published(r, "wnba")))
    return sorted(out, key=lambda x: (x.day, x.key))


def read_results(path: Path) -> list[Result]:
    if not path.is_file():
        raise UserError(f"no such file: {path}")
    with path.open(encoding="utf-8-sig", newline="") as fh:
        return parse_rows(list(csv.DictReader(fh)))


def read_files(paths: Sequence[Path], level: str) -> tuple[list[Result], list[str]]:
    """The results of several files of one level with their game keys, each game once.

    Keys are made per file (``_unique_keys``), so a game listed by two files (a season file and
    a later snapshot that repeats it) has one key; the scored copy wins, else the later file's.
    """
    merged: dict[str, Result] = {}
    for path in paths:
        results = read_results(path)
        for key, r in zip(_unique_keys(results, level), results):
            kept = merged.get(key)
            if kept is None or not (_played(kept) and not _played(r)):
                merged[key] = r
    return list(merged.values()), list(merged)  # the files' own order (IDs follow it)


def _played(r: Result) -> bool:
    return r.score_home is not None and r.score_vis is not None


def ingest(engine: sa.Engine, paths: Path | Sequence[Path], level: str) -> int:
    """Load the results of one or more files for ``level``; returns the number of games."""
    lv = find_level(level)
    if lv is None or lv.code not in LEVELS:
        raise UserError(f"unknown or unsupported level {level!r} (use one of {', '.join(LEVELS)})")
    code = lv.code
    results, keys = read_files([paths] if isinstance(paths, Path) else paths, code)
    with loading(engine, SOURCE) as loader:
        names: dict[str, str] = {}
        for r in results:  # the latest name a team carried wins
            names[r.home[0]], names[r.visitor[0]] = r.home[1], r.visitor[1]
        abbrs = sorted(names)
        team_ids = dict(zip(abbrs, loader.ids("team", [f"{code}:{a}" for a in abbrs])))
        conference = _conferences(loader, code, results)
        latest = max((r.season for r in results), default=0)
        loader.put(schema.teams, [
            {"id": team_ids[a], "level": code, "name": names[a], "abbrev": a, "city": None,
             "nickname": None, "sublevel_id": conference(latest, a), "venue_id": None,
             "nation": None, "source": SOURCE} for a in abbrs])
        game_ids = loader.ids("game", keys)
        rows: list[dict[str, Any]] = []
        record: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0])
        spans: dict[int, list[dt.date]] = defaultdict(list)
        per_day: dict[tuple[dt.date, int, int], int] = defaultdict(int)
        day_now = today()
        for r, gid in tqdm(list(zip(results, game_ids)), desc=f"{SOURCE} {code}", unit="game",
                           file=sys.stderr):
            home, vis = team_ids[r.home[0]], team_ids[r.visitor[0]]
            per_day[(r.day, home, vis)] += 1
            state = "final" if _played(r) else phases.unplayed_state(r.day, day_now)
            # A cup final the file lists as a regular-season game is stored as what it was.
            round_name = r.playoff or cup_final(code, r.day.isoformat(),
                                                frozenset((r.home[0], r.visitor[0])))
            winner = loser = None
            if r.score_home is not None and r.score_vis is not None and r.score_home != r.score_vis:
                winner, loser = (home, vis) if r.score_home > r.score_vis else (vis, home)
                if round_name is None:
                    record[(winner, r.season)][0] += 1
                    record[(loser, r.season)][1] += 1
            spans[r.season].append(r.day)
            rows.append({
                "id": gid, "level": code, "season": r.season,
                "sublevel_id": conference(r.season, r.home[0]),  # the home side's, as elsewhere
                "game_day": r.day, "game_no": per_day[(r.day, home, vis)], "start_time": None,
                "visitor_id": vis, "home_id": home, "score_vis": r.score_vis,
                "score_home": r.score_home, "state": state,
                "game_status": _STATUS.get(state, ""), "overtime": r.overtime,
                "periods": None, "winner_id": winner, "loser_id": loser, "venue_id": None,
                "neutral": r.neutral, "playoff": round_name,
                "phase": phases.phase_of_round(round_name), "attendance": None, "duration": None,
                "line_score": None, "info": None, "source": SOURCE})
        loader.put(schema.games, rows)
        loader.replace_children(schema.comparison_forecasts, "game_id", game_ids, [
            {"game_id": gid, "forecaster": forecaster, "level": code, "season": r.season,
             "home_win_prob": p, "source": SOURCE}
            for r, gid in zip(results, game_ids) for forecaster, p in r.published])
        seasons_of: dict[str, set[int]] = defaultdict(set)
        for r in results:
            seasons_of[r.home[0]].add(r.season)
            seasons_of[r.visitor[0]].add(r.season)
        loader.put(schema.team_seasons, [
            {"team_id": team_ids[a], "level": code, "season": s,
             "sublevel_id": conference(s, a), "name": None,
             "wins": record[(team_ids[a], s)][0], "losses": record[(team_ids[a], s)][1],
             "ties": 0}
            for a, ss in sorted(seasons_of.items()) for s in sorted(ss)])
        loader.put(schema.seasons, [
            {"level": code, "season": s, "name": _season_name(s, lv.season_span),
             "start": min(days), "end": max(days), "source": SOURCE,
             "playoffs": sorted({r.playoff for r in results if r.season == s and r.playoff}) or None}
            for s, days in sorted(spans.items())])
    return len(results)


def _conferences(loader: Loader, code: str,
                 results: list[Result]) -> Callable[[int, str], int | None]:
    """Store the conferences these results' teams played in (``server.catalog.alignments``);
    returns (season, abbreviation) -> sublevel ID, None where no alignment is declared."""
    used = {c for r in results for a in (r.home[0], r.visitor[0])
            if (c := conference_of(code, r.season, a)) is not None}
    ids = {c.abbrev: loader.id("sublevel", f"{code}:{c.abbrev}") for c in used}
    loader.put(schema.sublevels, [
        {"id": ids[c.abbrev], "level": code, "name": c.name, "abbrev": c.abbrev,
         "type": "Conference", "parent_id": None}
        for c in sorted(used, key=lambda c: c.abbrev)])

    def conference(season: int, team: str) -> int | None:
        c = conference_of(code, season, team)
        return ids[c.abbrev] if c is not None else None
    return conference


def _season_name(season: int, span: str) -> str:
    return f"{season - 1}-{season % 100:02d}" if span == "split" else str(season)


def _unique_keys(results: list[Result], level: str) -> list[str]:
    seen: dict[str, int] = defaultdict(int)
    keys = []
    for r in results:
        base = f"{level}:{r.key}"
        seen[base] += 1
        keys.append(base if seen[base] == 1 else f"{base}#{seen[base]}")
    return keys


def cli(args: argparse.Namespace, engine_factory: Callable[[], sa.Engine]) -> int:
    from server.store.init import init_store

    paths = [Path(p) for p in ([args.path] if isinstance(args.path, str) else args.path)]
    lv = find_level(args.level)
    if lv is None or lv.code not in (*LEVELS, spi.LEVEL):
        raise UserError(f"unknown or unsupported level {args.level!r} "
                        f"(use one of {', '.join((*LEVELS, spi.LEVEL))})")
    for path in paths:
        if not path.is_file():
            raise UserError(f"no such file: {path}")
    engine = engine_factory()
    init_store(engine)
    if lv.code == spi.LEVEL:
        return spi.cli_ingest(engine, paths)
    n = ingest(engine, paths, args.level)
    print(f"{SOURCE}: {n} games for {args.level.upper()}", file=sys.stderr)
    return 0


# A results file's name says its league: ``nba_elo.csv``, ``nba_elo_latest.csv``,
# ``nhl_elo_2021-22.csv``, ``wnba_elo.csv`` (FiveThirtyEight's names, and a season suffix).
FILE_NAME = re.compile(r"(?P<league>nba|nhl|wnba)_elo(?:_[\w.-]*)?\.csv", re.IGNORECASE)


def _ingest_by_league(paths: Sequence[Path]) -> list[Ingest]:
    """One command per league, with every file of that league (loaded together, so the teams'
    names and conferences are those of the latest season whatever the files' order)."""
    by_league: dict[str, list[Path]] = defaultdict(list)
    for p in paths:
        if m := FILE_NAME.fullmatch(p.name):
            by_league[m.group("league").upper()].append(p)
    return [Ingest(f"FiveThirtyEight-style {league} results ({len(files)} file"
                   f"{'s' if len(files) > 1 else ''})",
                   ("ingest", SOURCE, *map(str, sorted(files)), "--level", league),
                   levels=(league,))
            for league, files in sorted(by_league.items())]


DATA_FILES = DataFiles(SOURCE, FILE_NAME, _ingest_by_league)
