"""What a source of real data declares about the files it reads, for ``server.ingest.discovery``.

Kept apart from the walk itself so that each source (Retrosheet, the results files, feeds)
declares its files here and discovery imports the sources, never the other way round.
"""
from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Ingest:
    """One ``python -m server`` command and a label saying what it loads.

    ``levels`` and ``season`` say what it adds, where the source knows from the file names, and
    ``slow`` marks a command that takes minutes rather than seconds (a season of play by play):
    a first build serves before such commands and lets the service's own job load them
    (``server.jobs.fill``), so the notice can say "MLB 2021-2023 loading, 2 of 3 seasons".
    """

    label: str
    args: tuple[str, ...]
    levels: tuple[str, ...] = ()
    season: int | None = None
    slow: bool = False


@dataclass(frozen=True)
class DataFiles:
    """A source's claim on a data folder.

    ``names``: a regular expression the whole file name must match (case-insensitive);
    ``commands``: the matched files (sorted paths) -> the commands that load them;
    ``whole_folder``: a match stands for its folder (a feed bundle's ``feed.json``), so every
    file beside it counts as read.
    """

    source: str
    names: re.Pattern[str]
    commands: Callable[[Sequence[Path]], list[Ingest]]
    whole_folder: bool = False

    def claims(self, path: Path) -> bool:
        return self.names.fullmatch(path.name) is not None


def common_folder(paths: Sequence[Path]) -> Path:
    """The deepest folder holding every one of ``paths``."""
    return Path(os.path.commonpath([p.parent for p in paths]))
