"""The one command line of football's file sources (leagues, cups, internationals): check that
every path is a file, make the store current, load, and say how many matches."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import sqlalchemy as sa

from server.errors import UserError

Load = Callable[[sa.Engine, Sequence[Path]], int]  # the files -> how many matches were loaded


def run(args: argparse.Namespace, engine_factory: Callable[[], sa.Engine], load: Load,
        name: str, level: str) -> int:
    from server.store.init import init_store  # the store's setup, only when a command runs

    paths = [Path(p) for p in args.path]
    for path in paths:
        if not path.is_file():
            raise UserError(f"no such file: {path}")
    engine = engine_factory()
    init_store(engine)
    n = load(engine, paths)
    print(f"{name}: {n} matches for {level}", file=sys.stderr)
    return 0
