"""A NatStat v4 client script, run against our ``/natstat/`` base: v2's form under ``v4``,
paging through ``page-next`` until it is empty, reading ``results-total`` and the forecast
record's ``forecast.elo`` members. Only ``BASE`` and ``KEY`` are ours.

    python natstat_client_v4.py http://127.0.0.1:8765/natstat/ ABCD-123456
"""
from __future__ import annotations

import json
import sys
from typing import Any

import pandas as pd
import requests

BASE = sys.argv[1]
KEY = sys.argv[2]


def every(endpoint: str, level: str, list_name: str) -> tuple[list[dict[str, Any]], int]:
    url = f"{BASE}v4/{endpoint}/{level}/"
    params: dict[str, str] = {"key": KEY, "max": "10"}
    rows: list[dict[str, Any]] = []
    total = 0
    while url:
        data = requests.get(url, params=params, timeout=30).json()
        if data["success"] != "1":
            if data["error"]["message"] == "NO_DATA":
                break
            raise SystemExit(data["error"]["message"])
        rows.extend(data[list_name].values())
        total = int(data["meta"]["results-total"])
        url, params = data["meta"]["page-next"], {}
    return rows, total


games, games_total = every("games", "MLB", "games")
forecasts, _ = every("forecasts", "MLB", "forecasts")
frame = pd.DataFrame(forecasts)
home_elo = [float(f["forecast"]["elo"]["helowinexp"]) for f in forecasts
            if f["forecast"]["elo"]["helowinexp"] != ""]
print(json.dumps({
    "games": len(games), "games_total": games_total, "forecasts": len(frame),
    "homes": frame["home"].tolist() if len(frame) else [], "home_elo": home_elo,
}))
