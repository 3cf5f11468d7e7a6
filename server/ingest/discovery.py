"""Which ingest commands load a folder of real data: found by walking it, never listed in code.

Each source declares, once, the file names it reads (``server.ingest.datafiles.DataFiles``: a
regular expression on the name) and how the files it matched become ``python -m server``
commands. ``plan`` walks a folder, offers every file to every declaration, and returns the commands in the sources' order, so a
season dropped into the folder later (``events/2024/``, ``nba_elo_2023-24.csv``) is loaded by the
next build without a code change. Files no source reads are returned too, so a build can say what
it left out instead of skipping it silently.
"""
from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from server.ingest import feed, fivethirtyeight
from server.ingest.datafiles import DataFiles, Ingest
from server.ingest.football import cups, internationals, openfootball, spi
from server.ingest.retrosheet import files as retrosheet_files

# Files that describe the data rather than hold it: never reported as left out.
NOT_DATA = re.compile(r".*\.md|SHA256SUMS|LICEN[CS]E.*|README.*", re.IGNORECASE)


@dataclass(frozen=True)
class Plan:
    commands: list[Ingest]
    unread: list[Path]  # data files that no source reads


def walk(root: Path) -> list[Path]:
    """Every file under ``root`` (following links), sorted, hidden files left out."""
    return sorted(Path(d) / f for d, _, names in os.walk(root, followlinks=True)
                  for f in names if not f.startswith("."))


def plan(root: Path, sources: Sequence[DataFiles] | None = None) -> Plan:
    """The commands that load everything ``sources`` (default: every declared source) read
    under ``root``, in the sources' order."""
    sources = declared() if sources is None else sources
    files = walk(root)
    commands: list[Ingest] = []
    claimed: set[Path] = set()
    for source in sources:
        mine = [p for p in files if source.claims(p)]
        claimed.update(mine)
        if source.whole_folder:
            folders = {p.parent for p in mine}
            claimed.update(p for p in files if folders.intersection(p.parents))
        if mine:
            commands.extend(source.commands(mine))
    unread = [p for p in files if p not in claimed and not NOT_DATA.fullmatch(p.name)]
    return Plan(commands, unread)


def lahman_command(root: Path) -> list[str]:
    """``ingest lahman``, given the folder of Retrosheet's reference files under ``root`` when
    there is one (its team list and biofile name cities and Jr./Sr. that Lahman leaves out)."""
    found = [p for p in walk(root) if retrosheet_files.BIOFILE.fullmatch(p.name)]
    return ["ingest", "lahman"] + (["--retrosheet-reference", str(found[0].parent)] if found else [])


def declared() -> tuple[DataFiles, ...]:
    """Every source's declaration, in load order: Retrosheet (MLB play by play), the
    FiveThirtyEight-style results files, openfootball's league files, then its European cup
    files (whose clubs are the leagues' clubs), FiveThirtyEight's SPI chances (matched to those
    league matches, so after them), the men's internationals and World Cups, then generic feed
    bundles (which may add to any)."""
    return (retrosheet_files.DATA_FILES, fivethirtyeight.DATA_FILES, openfootball.DATA_FILES,
            cups.DATA_FILES, spi.DATA_FILES, internationals.DATA_FILES, feed.DATA_FILES)
