"""A NatStat v3 client script of the kind written now, run against our ``/natstat/`` base.

Written the way v3 wrappers are: the key in the path, the span and the first record's offset
after the level, pages by offset until ``pages-total``, ``data[list].values()`` into pandas,
stop on ``NO_DATA``. Only ``BASE`` and ``KEY`` are ours. It prints what it found as JSON, which
``test_natstat`` compares with the root documents.

    python natstat_client_v3.py http://127.0.0.1:8765/natstat/ ABCD-123456
"""
from __future__ import annotations

import json
import sys
from typing import Any

import pandas as pd
import requests

BASE = sys.argv[1]
KEY = sys.argv[2]
PER_PAGE = 10


def call(endpoint: str, level: str, *path: str, **params: str) -> dict[str, Any]:
    url = "/".join([f"{BASE}{KEY}", endpoint, level, *path])
    data: dict[str, Any] = requests.get(url, params=params, timeout=30).json()
    return data


def every(endpoint: str, level: str, span: str, list_name: str) -> list[dict[str, Any]]:
    """Every record of a span, a page at a time by offset, until pages-total."""
    rows: list[dict[str, Any]] = []
    offset = 0
    while True:
        data = call(endpoint, level, span, str(offset), max=str(PER_PAGE))
        if data["success"] != "1":
            if data["error"]["message"] == "NO_DATA":
                break
            raise SystemExit(data["error"]["message"])
        rows.extend(data[list_name].values())
        meta = data["meta"]
        if int(meta["page"]) >= int(meta["pages-total"]):
            break
        offset += int(meta["results-max"])
    return rows


seasons = call("seasons", "mlb")["seasons"]
season = max(s["ID"] for s in seasons.values())
games = pd.DataFrame(every("games", "mlb", season, "games"))
perfs = pd.DataFrame(every("playerperfs", "MLB", season, "performances"))
first = call("games", "MLB", season, "0", max=str(PER_PAGE))
second = requests.get(first["meta"]["page-next"], timeout=30).json()
nothing = call("games", "MLB", "1901-04-01")
print(json.dumps({
    "season": season, "games": len(games), "ids": sorted(games["ID"].astype(int).tolist()),
    "finals": int((games["GameStatus"] == "Final").sum()), "performances": len(perfs),
    "second_page": list(second["games"]), "user": first["user"],
    "no_data": [nothing["success"], nothing["error"]["message"]],
}))
