"""``ingest retrosheet --season YYYY``: download one season's zips, unpack them, ingest them.

The layout follows the public site (https://www.retrosheet.org): ``events/YYYYeve.zip`` holds the
regular season's event files with its rosters and ``TEAMYYYY``; ``events/YYYYpost.zip`` the
postseason; ``gamelogs/glYYYY.zip`` the game log; ``ballparks.zip`` and ``biofile.zip`` the
reference files. Only the event zip is required; the others are skipped with a note when the
site does not have them. ``--base-url`` points at a mirror (the tests serve one on loopback).
"""
from __future__ import annotations

import sys
import tempfile
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import sqlalchemy as sa

from server.errors import UserError

DEFAULT_BASE_URL = "https://www.retrosheet.org"
TIMEOUT = 60  # seconds per request


def season_urls(base: str, season: int) -> list[tuple[str, bool]]:
    """(url, required) for every zip of a season."""
    base = base.rstrip("/")
    return [(f"{base}/events/{season}eve.zip", True),
            (f"{base}/events/{season}post.zip", False),
            (f"{base}/gamelogs/gl{season}.zip", False),
            (f"{base}/ballparks.zip", False),
            (f"{base}/biofile.zip", False)]


def fetch(url: str, dest: Path) -> bool:
    """Download ``url`` to ``dest``; False when the server has no such file (404)."""
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as resp, dest.open("wb") as fh:
            while chunk := resp.read(1 << 16):
                fh.write(chunk)
        return True
    except urllib.error.HTTPError as exc:
        if exc.code == 404:
            return False
        raise UserError(f"download failed: {url}: HTTP {exc.code}") from exc
    except (urllib.error.URLError, TimeoutError, OSError) as exc:
        raise UserError(f"download failed: {url}: {getattr(exc, 'reason', exc)}") from exc


def download_season(season: int, base_url: str | None, folder: Path) -> Path:
    """Download and unpack a season into ``folder``; returns the folder."""
    for url, required in season_urls(base_url or DEFAULT_BASE_URL, season):
        name = url.rsplit("/", 1)[-1]
        target = folder / name
        print(f"downloading {url}", file=sys.stderr)
        if not fetch(url, target):
            if required:
                raise UserError(f"no Retrosheet events for {season} at {url}")
            print(f"  not available, skipped: {url}", file=sys.stderr)
            continue
        try:
            with zipfile.ZipFile(target) as zf:
                zf.extractall(folder / name.removesuffix(".zip"))
        except zipfile.BadZipFile as exc:
            raise UserError(f"not a zip file: {url}") from exc
        target.unlink()
    return folder


def download_and_ingest(engine: sa.Engine, season: int, base_url: str | None) -> dict[int, int]:
    from server.ingest.retrosheet.load import ingest_path

    with tempfile.TemporaryDirectory(prefix=f"retrosheet{season}-") as tmp:
        folder = download_season(season, base_url, Path(tmp))
        done = ingest_path(engine, folder)
    return {y: n for y, n in done.items() if y == season} or done
