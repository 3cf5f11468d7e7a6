"""A NatStat client script of the kind found in the wild, run against our ``/natstat/`` base.

Written the way such scripts are (requests, pages merged with ``dict.update``, a frame from
``from_dict(orient="index")``, string comparisons, ``'OT' in Overtime``, the first three members
of a stats table dropped, XML read with ``find``); only ``BASE`` and ``KEY`` are ours. It prints
what it found as JSON, which ``test_natstat`` compares with the root documents.

    python natstat_client.py http://127.0.0.1:8765/natstat/ ABCD-123456
"""
# mypy: disable-error-code="union-attr"
# (such scripts chain ``find`` without checking for None: so does this one, on purpose)
from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from typing import Any

import pandas as pd
import requests

BASE = sys.argv[1]
KEY = sys.argv[2]


def get_all(endpoint: str, level: str, **params: str) -> dict[str, Any]:
    """Every page of a list, merged: NatStat lists are objects keyed by record."""
    url = f"{BASE}v2/{endpoint}/{level}/"
    params = {"key": KEY, "format": "json", "max": "10", **params}
    merged: dict[str, Any] = {}
    while url:
        data = requests.get(url, params=params, timeout=30).json()
        if data.get("success") != "1":
            raise SystemExit(data["error"]["message"])
        merged.update(data[endpoint])
        url = data["meta"].get("Next_Page")
        params = {}  # Next_Page carries the whole query, key included
    return merged


games = get_all("games", "MLB")
frame = pd.DataFrame.from_dict(games, orient="index")
finals = frame[frame["GameStatus"] == "Final"]
overtime = [g["ID"] for g in games.values() if "OT" in g["Overtime"]]
newest = next(iter(games.values()))
same = [g for g in games.values() if g["ID"] == newest["ID"]]

teams = requests.get(f"{BASE}v2/teams/MLB/", params={"key": KEY}, timeout=30).json()["teams"]
active = sorted(t["Abbrev"] for t in teams.values() if t["Active"] == "Y")

table = requests.get(f"{BASE}v1/stats/MLB/", params={"key": KEY, "stat": "HR"},
                     timeout=30).json()["stats"]
leaders = [r["Name"] for r in list(table.values())[3:]]  # the first three describe the table

glossary = requests.get(f"{BASE}v1/glossary/MLB/stats/", params={"key": KEY}, timeout=30).json()
labels = {item["ID"]: item["Label"] for item in glossary["items"].values()}

xml = requests.get(f"{BASE}v2/games/MLB/", params={"key": KEY, "format": "xml", "max": "5"},
                   timeout=30).content
root = ET.fromstring(xml)
xml_ids = [g.find("ID").text for g in root.find("games")]
first_home = root.find("games").find(f"game_{xml_ids[0]}").find("Home").text

box = requests.get(f"{BASE}v2/boxscore/MLB/", params={"key": KEY, "gameid": finals.index[0][5:]},
                   timeout=30).json()["boxscores"]
header = next(iter(box.values()))["BoxscoreHeader"]

print(json.dumps({
    "games": len(games), "frame_rows": len(frame), "finals": len(finals), "overtime": overtime,
    "same_id": len(same), "active": active, "leaders": leaders, "HR": labels.get("HR"),
    "xml_ids": xml_ids, "first_home": first_home, "header": header,
}))
