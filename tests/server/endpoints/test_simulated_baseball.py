"""A simulated baseball game reads as a real one does in its play-by-play and box score: each
play with the outs and runners it began with, each starter with his place in the batting order
(the simulator bats its nine in order and never pinch-hits), and holds among the decisions by the
rule the real seasons get."""
from __future__ import annotations

from tests.demo_api import ApiServer


def _final_game(api: ApiServer) -> int:
    game: int = api.get_json("/v1/games/MLB/", status="final", max=1)["games"][0]["ID"]
    return game


def test_every_play_begins_where_the_one_before_it_ended(demo_api: ApiServer) -> None:
    listed = demo_api.get_json("/v1/playbyplay/MLB/", game=_final_game(demo_api),
                               max=1000)["playbyplay"]
    plays = sorted(listed, key=lambda p: p["ID"])  # in the order they were played
    assert len(plays) > 50
    assert all(p["OutsBefore"] in (0, 1, 2) and p["RunnersBefore"] for p in plays)
    halves = [p["game"]["Inning"] for p in plays]
    assert plays[0]["OutsBefore"] == 0 and plays[0]["RunnersBefore"] == "---"
    for k in range(1, len(plays)):
        if halves[k] != halves[k - 1]:  # a new half inning: nobody out
            assert plays[k]["OutsBefore"] == 0, plays[k]
        else:  # the outs it began with: those the play before it ended with
            assert plays[k]["OutsBefore"] >= plays[k - 1]["OutsBefore"], (plays[k - 1], plays[k])


def test_the_box_score_names_each_starters_place_in_the_order(demo_api: ApiServer) -> None:
    box = demo_api.get_json("/v2/boxscores/MLB/", id=_final_game(demo_api))["boxscores"][0]
    for home in ("N", "Y"):
        side = [p for p in box["players"] if p["Home"] == home]
        order = [p["BattingOrder"] for p in side if p["BattingOrder"] is not None]
        assert sorted(order) == list(range(1, 10)), side
        assert all(p["BattingOrder"] is None for p in side if p["Position"] == "P")


def test_holds_go_to_relievers_who_kept_a_lead_and_took_no_other_decision(demo_api: ApiServer) -> None:
    boxes = demo_api.get_json("/v2/boxscores/MLB/", status="final", max=100)["boxscores"]
    held = 0
    for box in boxes:
        lines = {p["ID"]: p for p in box["players"]}
        letters = [d["Decision"] for d in box["decisions"]]
        holders = [d["ID"] for d in box["decisions"] if d["Decision"] == "H"]
        held += len(holders)
        assert letters[len(letters) - len(holders):] == ["H"] * len(holders), letters
        for pid in holders:
            line = lines[pid]
            assert line["HLD"] == 1 and line["Starter"] == "N" and line["OUTS"] >= 1, line
            assert not line["W"] and not line["SV"], line
    assert held >= 30, held  # 100 games: 65 holds at seed 2026 (MLB 2023: about one a game)
