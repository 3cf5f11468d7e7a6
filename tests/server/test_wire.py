"""The wire, recorded: a sample of documents over a fixed store must come back byte for byte.

The store is the small demo (seed 7) built and re-tabulated with the clock pinned
(``SPORTS_NOW``), so every document is the same whenever and wherever the test runs. Each sample
is a file under ``wire/`` holding the request, the status, the media type and the body exactly
as served (the server's address and the key normalised). A refactor of the request path must
leave every file as it is; a change to the documents made on purpose is recorded by running

    SPORTS_WIRE_UPDATE=1 python -m pytest tests/server/test_wire.py

and committing the changed files, so the diff shows exactly what changed on the wire.
"""
from __future__ import annotations

import difflib
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import free_port
from tests.demo_api import build_store, serve

pytestmark = pytest.mark.slow

WIRE = Path(__file__).parent / "wire"
PINNED_NOW = "2024-07-04T20:00:00Z"
UPDATE = os.environ.get("SPORTS_WIRE_UPDATE") == "1"

# (name, path, query): every endpoint's list in every format, details with id, and errors.
LISTS: tuple[tuple[str, str, str], ...] = (
    ("seasons", "/v1/seasons/MLB/", ""),
    ("teams", "/v1/teams/NBA/", "season=2024"),
    ("players", "/v1/players/MLB/", "search=Martin"),
    ("games", "/v1/games/MLB/", "season=2024"),
    ("games-fc", "/v1/games/FC/", ""),
    ("stats", "/v1/stats/MLB/", "stat=HR"),
    ("stats-team", "/v1/stats/NHL/team/", "stat=GF"),
    ("playerperfs", "/v1/playerperfs/NBA/", "season=2024"),
    ("teamperfs", "/v1/teamperfs/NHL/", ""),
    ("playbyplay", "/v1/playbyplay/MLB/", "season=2024"),
    ("pitch", "/v1/pitch/MLB/", "season=2024"),
    ("officials", "/v1/officials/NBA/", ""),
    ("venues", "/v1/venues/FC/", ""),
    ("elo", "/v1/elo/NHL/", ""),
    ("rpi", "/v1/rpi/MBB/", ""),
    ("news", "/v1/news/MLB/", ""),
    ("transactions", "/v1/transactions/NBA/", ""),
    ("social", "/v1/social/MLB/", ""),
    ("glossary", "/v1/glossary/MLB/", ""),
    ("glossary-stats", "/v1/glossary/NHL/stats/", ""),
    ("glossary-sublevels", "/v1/glossary/FC/sublevels/", ""),
    ("forecasts", "/v2/forecasts/NBA/", "season=2024"),
    ("moneyline", "/v2/moneyline/MLB/", "season=2024"),
    ("standings", "/v2/standings/MLB/", "season=2024"),
    ("calibration", "/v2/calibration/MLB/", "season=2023"),
)
FORMATS = ("json", "xml", "php")
EXTRA: tuple[tuple[str, str, str], ...] = (
    ("games-page2", "/v1/games/NBA/", "max=2&page=2&season=2023"),
    ("games-today", "/v1/game/mlb/", "limit==today"),
    ("games-status", "/v1/games/MLB/", "status=final&date=2024-07-03"),
    ("games-range", "/v1/games/NHL/", "start=2024-03-01&end=20240305&max=4"),
    ("games-last", "/v1/games/MLB/", "last=3&max=4"),
    ("elo-series", "/v1/elo/MLB/", "season=2023&max=5&team={mlb_team}"),
    ("elo-date", "/v1/elo/NBA/", "date=2024-01-15&max=4"),
    ("stats-qualifiers", "/v1/stats/MLB/player/", "stat=avg&limit=qualifiers&max=4"),
    ("pbp-game", "/v1/pbp/NHL/", "game={nhl_game}&max=6"),
    ("standings-date", "/v2/standings/NHL/", "date=2024-01-15"),
    ("warnings", "/v1/teams/MLB/", "search=abc&max=5000&color=red"),
    ("err-key-missing", "/v1/games/MLB/", "nokey"),
    ("err-key-malformed", "/v1/games/MLB/", "key=abc"),
    ("err-key-invalid", "/v1/games/MLB/", "key=ZZZZ-ZZZZZZ"),
    ("err-level", "/v1/pitch/NBA/", ""),
    ("err-level-xml", "/v1/rpi/MLB/", "format=xml"),
    ("err-date", "/v1/games/MLB/", "date=2024-13-45"),
    ("err-format", "/v1/games/MLB/", "format=yaml"),
    ("err-filter", "/v1/playbyplay/MLB/", "format=php"),
    ("err-version", "/v3/forecasts/MLB/", ""),
    ("err-endpoint", "/v1/scores/MLB/", ""),
    ("err-id", "/v1/games/MLB/", "id=999999999"),
    ("err-limit", "/v1/games/MLB/", "limit=qualifiers"),
    ("err-stat", "/v1/stats/MLB/", "stat=XYZ"),
    ("err-page", "/v1/games/MLB/", "page=0"),
    # NatStat v3 (the key in the path) and v4 (docs/api/natstat.md)
    ("natstat-v4-games", "/natstat/v4/games/MLB/", "season=2024&max=3"),
    ("natstat-v4-forecasts-xml", "/natstat/v4/forecasts/NBA/", "season=2024&max=2&format=xml"),
    ("natstat-v4-perfs-php", "/natstat/v4/playerperfs/NHL/", "max=2&format=php"),
    ("natstat-v3-games", "/natstat/{key}/games/MLB/2024/3", "max=3"),
    ("natstat-v3-moneyline", "/natstat/{key}/moneyline/mlb/2024-07-03", "max=2"),
    ("natstat-v3-nodata", "/natstat/{key}/games/MLB/1990-04-01,1990-04-30", ""),
    ("natstat-err-version", "/natstat/v9/games/MLB/", ""),
)
# details: the first record of a list, asked for again with id
DETAILS: tuple[tuple[str, str, str], ...] = (
    ("team", "/v1/teams/MLB/", ""),
    ("player", "/v1/players/NHL/", "season=2024"),
    ("game", "/v1/games/NHL/", ""),
    ("game-fc", "/v1/games/FC/", ""),
    ("official", "/v1/officials/MLB/", ""),
    ("venue", "/v1/venues/MBB/", ""),
    ("news", "/v1/news/NBA/", ""),
    ("social", "/v1/social/NHL/", ""),
    ("season", "/v1/seasons/NBA/", ""),
    ("transaction", "/v1/transactions/MLB/", ""),
    ("playerperf", "/v1/playerperfs/MLB/", ""),
    ("pitch", "/v1/pitch/MLB/", ""),
)


@pytest.fixture(scope="module")
def wire_api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    store = tmp_path_factory.mktemp("wire-store") / "sports.db"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{store}", "SPORTS_NOW": PINNED_NOW}
    env.pop("REDIS_URL", None)
    key = build_store(env)
    with serve(store, env, free_port()) as url:
        yield url, key


# A v3/v4 document tells the key's quota, which moves with the clock and every request.
_QUOTA = re.compile(rb'(ratelimit-(?:remaining|reset)(?:":"|>))\d+')
_PHP_QUOTA = re.compile(rb'(ratelimit-(?:remaining|reset)";)s:\d+:"\d+"')


def _fetch(base: str, key: str, path: str, query: str) -> bytes:
    if "{key}" in path:  # a v3 address: the key in the path, none in the query
        path = path.format(key=key)
    elif query == "nokey":
        query = ""
    elif not query.startswith("key="):
        query = f"key={key}&{query}" if query else f"key={key}"
    response = httpx.get(f"{base}{path}?{query}", timeout=30)
    shown = f"{path}?{query}".replace(key, "KEY")
    body = response.content.replace(key.encode(), b"KEY").replace(base.encode(),
                                                                  b"http://testserver")
    body = _PHP_QUOTA.sub(rb'\g<1>s:1:"0"', _QUOTA.sub(rb"\g<1>0", body))
    head = f"GET {shown}\n{response.status_code} {response.headers.get('content-type')}\n\n"
    return head.encode() + body


def _first_id(base: str, key: str, path: str, query: str) -> str:
    found = httpx.get(f"{base}{path}", params={"key": key, "max": "1",
                                               **dict(re.findall(r"(\w+)=([^&]*)", query))},
                      timeout=30).json()
    records = found[found["meta"]["Endpoint"]]
    return str(records[0]["ID"])


def _samples(base: str, key: str) -> Iterator[tuple[str, bytes]]:
    ids = {"mlb_team": _first_id(base, key, "/v1/teams/MLB/", ""),
           "nhl_game": _first_id(base, key, "/v1/games/NHL/", "status=final")}
    for name, path, query in LISTS:
        for fmt in FORMATS:
            q = "&".join(filter(None, (query, "max=3", f"format={fmt}")))
            yield f"{name}.{fmt}", _fetch(base, key, path, q)
    for name, path, query in EXTRA:
        yield name, _fetch(base, key, path, query.format(**ids))
    for name, path, query in DETAILS:
        ident = _first_id(base, key, path, "")
        q = "&".join(filter(None, (f"id={ident}", query)))
        yield f"detail-{name}", _fetch(base, key, path, q)


def _readable(raw: bytes) -> list[str]:
    head, _, body = raw.decode("utf-8", "replace").partition("\n\n")
    if body.startswith("{"):
        body = json.dumps(json.loads(body), indent=1, ensure_ascii=False)
    else:
        body = body.replace("><", ">\n<").replace(";s:", ";\ns:")
    return (head + "\n\n" + body).splitlines()


def test_documents_are_byte_for_byte_as_recorded(wire_api: tuple[str, str]) -> None:
    base, key = wire_api
    WIRE.mkdir(exist_ok=True)
    seen, changed = set(), []
    for name, raw in _samples(base, key):
        seen.add(name)
        path = WIRE / f"{name}.txt"
        if UPDATE:
            if not path.exists() or path.read_bytes() != raw:
                path.write_bytes(raw)
            continue
        assert path.exists(), f"no recorded sample {path.name}; record with SPORTS_WIRE_UPDATE=1"
        recorded = path.read_bytes()
        if recorded != raw:
            diff = "\n".join(list(difflib.unified_diff(_readable(recorded), _readable(raw),
                                                       "recorded", "served", lineterm=""))[:60])
            changed.append(f"{name}:\n{diff}")
    stale = sorted(p.name for p in WIRE.glob("*.txt") if p.stem not in seen)
    if UPDATE:
        for name in stale:
            (WIRE / name).unlink()
        return
    assert not stale, f"recorded samples no longer asked for: {stale}"
    assert not changed, f"{len(changed)} document(s) differ:\n\n" + "\n\n".join(changed[:5])
