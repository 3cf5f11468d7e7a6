"""Reading Retrosheet's files: their names, event files split into games, and the game logs."""
from __future__ import annotations

import csv
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from server.ingest.datafiles import DataFiles, Ingest, common_folder

ENCODING = "latin-1"

# The file names the ingest reads (``load.find_files``), as Retrosheet names them; the season is
# the first group where the name carries one.
EVENTS = re.compile(r"(\d{4})\w+\.EV[AN]", re.IGNORECASE)  # regular season, one file per home team
POSTSEASON = re.compile(r"(\d{4})(\w+)\.EVE", re.IGNORECASE)  # ``AS``: the All-Star game, not read
ROSTER = re.compile(r"[A-Z0-9]{3}(\d{4})\.ROS", re.IGNORECASE)
TEAMS = re.compile(r"TEAM(\d{4})", re.IGNORECASE)
UMPIRES = re.compile(r"UMPIRES(\d{4})\.txt", re.IGNORECASE)
BALLPARKS = re.compile(r"ballparks\.csv", re.IGNORECASE)
BIOFILE = re.compile(r"biofile\.csv", re.IGNORECASE)
_READ = (EVENTS, POSTSEASON, ROSTER, TEAMS, UMPIRES, BALLPARKS, BIOFILE)


def _ingest_tree(paths: Sequence[Path]) -> list[Ingest]:
    """One command a season, each reading the folder holding every matched file (the reference
    files serve every season): a season of play by play takes about half a minute, so a first
    build loads them one at a time in the background, oldest first."""
    seasons = sorted({int(m.group(1)) for p in paths
                      if (m := EVENTS.fullmatch(p.name) or POSTSEASON.fullmatch(p.name))})
    folder = str(common_folder(paths))
    return [Ingest(f"Retrosheet MLB {year}", ("ingest", "retrosheet", folder, "--season", str(year)),
                   levels=("MLB",), season=year, slow=True) for year in seasons]


DATA_FILES = DataFiles(
    "retrosheet", re.compile("|".join(f"(?:{r.pattern})" for r in _READ), re.IGNORECASE),
    _ingest_tree)


def read_records(path: Path) -> list[list[str]]:
    with path.open(encoding=ENCODING, newline="") as fh:
        return [rec for rec in csv.reader(fh) if rec]


def split_games(records: list[list[str]]) -> Iterator[tuple[str, list[list[str]]]]:
    """(game id, the game's records after its ``id`` record) for each game of an event file."""
    game_id: str | None = None
    cur: list[list[str]] = []
    for rec in records:
        if rec[0] == "id":
            if game_id:
                yield game_id, cur
            game_id, cur = rec[1].strip(), []
        elif game_id:
            cur.append([f.strip() for f in rec])
    if game_id:
        yield game_id, cur


def read_gamelog(path: Path) -> list[list[str]]:
    """Rows of a ``glYYYY.txt`` game log (161 fields each; see glfields.txt)."""
    with path.open(encoding=ENCODING, newline="") as fh:
        return [row for row in csv.reader(fh) if row]


def gamelog_id(row: list[str]) -> str:
    """The event-file game id of a game-log row: home team, date, game number."""
    return f"{row[6]}{row[0]}{row[1]}"
