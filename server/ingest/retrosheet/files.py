"""Reading Retrosheet's files: event files split into games, and the game logs."""
from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path

ENCODING = "latin-1"


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
