"""FiveThirtyEight's SPI match chances, a comparison forecaster for football: source
``fivethirtyeight``, forecaster ``fte_spi`` (``server.catalog.forecasters``).

``python -m server ingest fivethirtyeight PATH [PATH ...] --level FC`` reads
``spi_matches*.csv`` (one row per match: ``season`` the year a European season starts,
``league``, ``team1`` at home, ``prob1``/``probtie``/``prob2`` the published chances of a home
win, a draw and an away win). Only the leagues ``server.catalog.football.FIVETHIRTYEIGHT_LEAGUES``
declares are ours; every club name there must be in the alias table (``club_of``: an unknown
name stops the ingest with its name, never a guess). Each row is matched to the openfootball
game of its league, season, clubs and day; where the two sources date a rearranged match
differently, to the same clubs' one game of that league season that no other row took, if its
score agrees. The chances are kept apart (``comparison_forecasts``), never read by our models:
they are what our forecasts are scored against (docs/football.md). The games must be loaded
first (``ingest openfootball``): discovery declares this source after it.
"""
from __future__ import annotations

import csv
import datetime as dt
import re
import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from server.catalog.football import FIVETHIRTYEIGHT_LEAGUES, Club, club_of
from server.errors import UserError
from server.ingest.datafiles import DataFiles, Ingest
from server.store import schema
from server.store.loader import loading

SOURCE = "fivethirtyeight"
FORECASTER = "fte_spi"
LEVEL = "FC"
GAMES_SOURCE = "openfootball"  # whose team, league and game keys the rows are matched to
FILE_NAME = re.compile(r"spi_matches(?:_latest)?(?:_[\w.-]*)?\.csv", re.IGNORECASE)
SPI_COLUMNS = ("season", "date", "league", "team1", "team2", "prob1", "prob2", "probtie")


@dataclass(frozen=True)
class Chance:
    """One published forecast: chances of a home win, a draw, an away win (as printed)."""

    league: str  # our league code
    season: int  # the year the season ends (ours)
    day: dt.date
    home: Club
    visitor: Club
    home_win: float
    draw: float
    away_win: float
    score: tuple[int, int] | None  # as the file gives it, None before the match

    @property
    def key(self) -> tuple[str, int, dt.date, str, str]:
        return (self.league, self.season, self.day, self.home.key, self.visitor.key)


def _score(r: dict[str, str]) -> tuple[int, int] | None:
    one, two = (r.get("score1") or "").strip(), (r.get("score2") or "").strip()
    return (int(float(one)), int(float(two))) if one and two else None


def parse_rows(rows: list[dict[str, str]]) -> list[Chance]:
    """The chances of the rows in our leagues (the others are left out)."""
    if rows and not set(SPI_COLUMNS) <= set(rows[0]):
        raise UserError("not a FiveThirtyEight SPI matches file (needs columns "
                        f"{', '.join(SPI_COLUMNS)})")
    out = []
    for r in rows:
        league = FIVETHIRTYEIGHT_LEAGUES.get(r["league"].strip())
        if league is None:
            continue
        out.append(Chance(league, int(r["season"]) + 1, dt.date.fromisoformat(r["date"]),
                          club_of(r["team1"]), club_of(r["team2"]), float(r["prob1"]),
                          float(r["probtie"]), float(r["prob2"]), _score(r)))
    return out


def read_files(paths: Sequence[Path]) -> list[Chance]:
    """Every chance of the files, each match once (a copy with the score wins, else the later
    file's)."""
    merged: dict[tuple[str, int, dt.date, str, str], Chance] = {}
    for path in paths:
        if not path.is_file():
            raise UserError(f"no such file: {path}")
        with path.open(encoding="utf-8-sig", newline="") as fh:
            for chance in parse_rows(list(csv.DictReader(fh))):
                kept = merged.get(chance.key)
                if kept is None or not (kept.score is not None and chance.score is None):
                    merged[chance.key] = chance
    return list(merged.values())


@dataclass(frozen=True)
class _Game:
    id: int
    day: dt.date
    score: tuple[int, int] | None


Pairing = tuple[str, int, int, int]  # league code, season, home ID, visitor ID


def _games_by_pairing(conn: sa.Connection, chances: Sequence[Chance]
                      ) -> tuple[dict[str, int], dict[Pairing, list[_Game]]]:
    """The openfootball clubs' team IDs by key (``FC:<club>``), and the FC games of the
    chances' seasons by pairing."""
    sk, g = schema.source_keys.c, schema.games.c
    keys = conn.execute(sa.select(sk.kind, sk.key, sk.id).where(
        sk.source == GAMES_SOURCE, sk.kind.in_(("team", "sublevel")))).all()
    team_id = {key: int(i) for kind, key, i in keys if kind == "team"}
    league_of_id = {int(i): key.split(":", 1)[1] for kind, key, i in keys if kind == "sublevel"}
    seasons = sorted({c.season for c in chances})
    rows = conn.execute(sa.select(g.id, g.sublevel_id, g.season, g.game_day, g.home_id,
                                  g.visitor_id, g.score_home, g.score_vis)
                        .where(g.level == LEVEL, g.season.in_(seasons))).all()
    out: dict[Pairing, list[_Game]] = defaultdict(list)
    for gid, sub, season, day, home, vis, sh, sv in rows:
        score = None if sh is None or sv is None else (int(sh), int(sv))
        out[(league_of_id.get(sub, ""), season, home, vis)].append(_Game(gid, day, score))
    return team_id, out


def match_games(conn: sa.Connection, chances: Sequence[Chance]
                ) -> tuple[list[tuple[int, Chance]], list[Chance]]:
    """(game ID, chance) for every chance matched to a stored game; the chances left over."""
    team_id, by_pairing = _games_by_pairing(conn, chances)
    pairing: dict[Chance, Pairing] = {}
    for c in chances:  # a club with no stored game pairs with nothing (ID 0)
        pairing[c] = (c.league, c.season, team_id.get(f"{LEVEL}:{c.home.key}", 0),
                      team_id.get(f"{LEVEL}:{c.visitor.key}", 0))
    taken: set[int] = set()
    matched: list[tuple[int, Chance]] = []
    later: list[Chance] = []
    for c in chances:  # the same day first: it is how nearly every match is found
        game = next((x for x in by_pairing.get(pairing[c], ())
                     if x.day == c.day and x.id not in taken), None)
        if game is None:
            later.append(c)
        else:
            taken.add(game.id)
            matched.append((game.id, c))
    left: list[Chance] = []
    for c in later:  # a rearranged match: the pairing's one untaken game with the same score
        free = [x for x in by_pairing.get(pairing[c], ()) if x.id not in taken]
        if len(free) == 1 and (c.score is None or free[0].score == c.score):
            taken.add(free[0].id)
            matched.append((free[0].id, c))
        else:
            left.append(c)
    return matched, left


def ingest(engine: sa.Engine, paths: Sequence[Path]) -> tuple[int, int]:
    """Store the chances of the files; returns (matched, left unmatched)."""
    chances = read_files(paths)
    with loading(engine, SOURCE) as loader:
        matched, left = match_games(loader.conn, chances)
        game_ids = [gid for gid, _ in matched]
        loader.replace_children(schema.comparison_forecasts, "game_id", game_ids, [
            _row(gid, c) for gid, c in matched])
    return len(matched), len(left)


def _row(game_id: int, c: Chance) -> dict[str, Any]:
    return {"game_id": game_id, "forecaster": FORECASTER, "level": LEVEL, "season": c.season,
            "home_win_prob": c.home_win, "draw_prob": c.draw, "vis_win_prob": c.away_win,
            "source": SOURCE}


def cli_ingest(engine: sa.Engine, paths: Sequence[Path]) -> int:
    matched, left = ingest(engine, paths)
    print(f"{SOURCE}: SPI chances for {matched} {LEVEL} games"
          + (f"; {left} row(s) matched no stored game (a match never played on the day "
             "the file gives, or openfootball's files not loaded yet)"
             if left else ""), file=sys.stderr)
    return 0


def _commands(paths: Sequence[Path]) -> list[Ingest]:
    """One command with every SPI matches file, after the league matches it is matched to."""
    return [Ingest(f"FiveThirtyEight SPI match chances ({len(paths)} files)",
                   ("ingest", SOURCE, *map(str, sorted(paths)), "--level", LEVEL),
                   levels=(LEVEL,))] if paths else []


DATA_FILES = DataFiles(f"{SOURCE} SPI", FILE_NAME, _commands)
