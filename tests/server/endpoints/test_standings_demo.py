"""Standings of simulated levels, as a client reads them: the divisions are the glossary's
(each under its league), and every team's record is the one its final regular-season games give,
counted here from the games endpoint (hockey's overtime losses apart, KBO's ties)."""
from __future__ import annotations

from collections import defaultdict
from typing import Any

import pytest

from server.catalog.tables import table_rules
from tests.demo_api import ApiServer


def _regular_finals(api: ApiServer, level: str, season: int) -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = []
    page = 1
    while True:
        doc = api.get_json(f"/v1/games/{level}/", season=season, status="final",
                           seasontype="regular", max=1000, page=page)
        games += doc["games"]
        if page >= doc["meta"]["Total_Pages"]:
            return games
        page += 1


@pytest.mark.parametrize("level", ["MLB", "NHL", "KBO"])
def test_simulated_standings_are_the_games_records(demo_api: ApiServer, level: str) -> None:
    rows = demo_api.get_json(f"/v2/standings/{level}/")["standings"]
    season = rows[0]["Season"]
    record: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # W, L, T, OTL
    for g in _regular_finals(demo_api, level, season):
        if g["ScoreHome"] == g["ScoreVis"]:
            record[g["Home_ID"]][2] += 1
            record[g["Visitor_ID"]][2] += 1
            continue
        record[g["Winner_ID"]][0] += 1
        overtime_loss = level == "NHL" and g["Overtime"] is not None
        record[g["Loser_ID"]][3 if overtime_loss else 1] += 1
    assert len(rows) == len(record) > 0
    for r in rows:
        w, lo, ti, otl = record[r["Team_ID"]]
        assert (r["W"], r["L"], r.get("T", 0), r.get("OTL", 0)) == (w, lo, ti, otl), r["Team"]
        assert r["G"] == w + lo + ti + otl
    if level == "KBO":
        assert "T" in rows[0] and "OTL" not in rows[0]
    if level == "NHL":
        assert all(r["Points"] == 2 * r["W"] + r["OTL"] for r in rows)

    sublevels = {s["ID"]: s for s in demo_api.get_json(f"/v1/glossary/{level}/sublevels/")["glossary"]}
    divisions = {r["Division_ID"] for r in rows}
    if level in ("MLB", "NHL"):  # leagues or conferences of divisions
        assert all(sublevels[d]["Type"] == "Division" for d in divisions)
        assert all(sublevels[r["Division_ID"]]["Parent_ID"] == r["League_ID"] for r in rows)
    for d in divisions:
        ranked = sorted((r for r in rows if r["Division_ID"] == d), key=lambda r: r["DivRank"])
        assert [r["DivRank"] for r in ranked] == list(range(1, len(ranked) + 1))
        # the distance to the leader, in the unit the level ranks by (its sport's row)
        assert ranked[0][table_rules(level).behind] == 0


def test_bad_input_gets_the_contract_errors(demo_api: ApiServer) -> None:
    for query, parameter in (({"season": "abc"}, "season"), ({"date": "2024-13-45"}, "date"),
                             ({"sublevel": "x"}, "sublevel")):
        error = demo_api.get_json("/v2/standings/MLB/", expect=400, **query)["error"]
        assert error["Parameter"] == parameter
    empty = demo_api.get_json("/v2/standings/MLB/", season=1800)
    assert empty["standings"] == [] and empty["meta"]["Total_Results"] == 0
    unknown = demo_api.get_json("/v2/standings/MLB/", sublevel=999999)
    assert unknown["standings"] == []
