"""Retrosheet (real MLB play-by-play) ingest: ``python -m server ingest retrosheet``.

Retrosheet's one condition for using its data is its notice (``catalog.sources``): the seasons
loaded here carry the source ``retrosheet``, which puts the notice in every document and page
that shows them.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import sqlalchemy as sa



def cli(args: argparse.Namespace, engine_factory: Callable[[], sa.Engine]) -> int:
    """Ingest the files under ``args.path`` (only ``args.season``'s when given), or download
    ``args.season`` and ingest that."""
    from server.errors import UserError
    from server.ingest.retrosheet.load import ingest_path
    from server.store.init import init_store

    if args.path is None and args.season is None:
        raise UserError("give a PATH to Retrosheet files (with --season YYYY for one of its "
                        "seasons) or --season YYYY alone to download one")
    engine = engine_factory()
    init_store(engine)
    started = time.monotonic()
    if args.path is not None:
        done = ingest_path(engine, Path(args.path), args.season)
    else:
        from server.ingest.retrosheet.download import download_and_ingest
        done = download_and_ingest(engine, args.season, args.base_url)
    for season, games in sorted(done.items()):
        print(f"retrosheet {season}: {games} games", file=sys.stderr)
    print(f"retrosheet: done in {time.monotonic() - started:.1f} s", file=sys.stderr)
    return 0
