"""The win probability line of real games, through the API, as a fan would check it.

Game 5 of the 2023 World Series (Rangers at Diamondbacks, 1 November 2023, 5-0) was scoreless
until the Rangers' 7th: Seager's single, Carter's double that put the go-ahead run on third with
nobody out, Garver's single that scored it. Game 1 (Diamondbacks at Rangers, 27 October) was won
by a walk-off: Seager tied it 5-5 with a two-run homer with one out in the 9th, Garcia homered to
win it in the 11th. The 2023 season's in-game calibration is checked against the lines served.
"""
from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa

from server.store import schema
from server.store.engine import make_engine
from tests.demo_api import ApiServer

pytestmark = [pytest.mark.realdata, pytest.mark.timeout(900)]
W, P, G = schema.play_winprob, schema.plays, schema.games


def _game(api: ApiServer, day: str) -> dict[str, Any]:
    games = api.get_json("/v1/games/MLB/", date=day)["games"]
    assert len(games) == 1, [g["Description"] for g in games]
    return games[0]


def _line(api: ApiServer, game: dict[str, Any]) -> list[dict[str, Any]]:
    line: list[dict[str, Any]] = api.get_json("/v2/winprob/MLB/", game=game["ID"])["winprob"]
    return line


def _forecast(api: ApiServer, game: dict[str, Any]) -> float:
    found = api.get_json("/v2/forecasts/MLB/", id=game["ID"])["forecasts"]
    return float(found[0]["elo"]["HELOWinExp"])


def _swings(line: list[dict[str, Any]], n: int) -> list[dict[str, Any]]:
    return sorted(line[1:], key=lambda r: -abs(r["WPA"]))[:n]


def _sum_for_home(line: list[dict[str, Any]]) -> float:
    """The plays' WPA from the home team's side (a visitor's play counts against it)."""
    return sum(r["WPA"] * (1 if r["Team_ID"] == r["Home_ID"] else -1) for r in line[1:])


def test_world_series_game_5_line(real_api: ApiServer) -> None:
    game = _game(real_api, "2023-11-01")
    assert (game["Visitor"], game["ScoreVis"], game["ScoreHome"]) == ("Texas Rangers", 5, 0)
    line = _line(real_api, game)
    first, last = line[0], line[-1]
    # the line starts at the pre-game forecast and ends at 0 for the home side: Texas won
    assert first["Sequence"] == 0 and first["Explanation"] == "Pre-game forecast"
    assert first["WP_Home"] == pytest.approx(_forecast(real_api, game), abs=0.001)
    assert last["WP_Home"] == 0.0 and (last["ScoreVis"], last["ScoreHome"]) == (5, 0)
    assert [r["Sequence"] for r in line[1:]] == sorted(r["Sequence"] for r in line[1:])
    assert all(0.0 <= r["WP_Home"] <= 1.0 for r in line)
    # the biggest swing is the 7th-inning rally that broke the scoreless tie: Carter's double,
    # then Garver's single that scored the first run
    top = _swings(line, 3)
    assert top[0]["Explanation"].startswith("Carter doubled") and top[0]["WPA"] > 0.1
    assert (top[0]["Period"], top[0]["Half"]) == (7, "top")
    assert any(r["Explanation"].startswith("Garver singled") for r in top)
    # WPA sums to the winner's final 1 minus its start (three decimals a play)
    winner_start = 1.0 - first["WP_Home"]
    assert -_sum_for_home(line) == pytest.approx(1.0 - winner_start, abs=0.001 * len(line))


def test_world_series_game_1_walk_off(real_api: ApiServer) -> None:
    game = _game(real_api, "2023-10-27")
    assert (game["Home"], game["ScoreVis"], game["ScoreHome"]) == ("Texas Rangers", 5, 6)
    line = _line(real_api, game)
    last = line[-1]
    assert last["Explanation"].startswith("Garcia homered") and last["WP_Home"] == 1.0
    assert (last["Period"], last["Half"]) == (11, "bottom")
    # the two swings a fan names: Seager's tying homer in the 9th and Garcia's walk-off
    top = _swings(line, 2)
    assert top[0]["Explanation"].startswith("Seager homered") and top[0]["Period"] == 9
    assert top[1] == last and top[1]["WPA"] > 0.3
    assert _sum_for_home(line) == pytest.approx(1.0 - line[0]["WP_Home"],
                                                abs=0.001 * len(line))


def test_play_by_play_records_carry_the_line(real_api: ApiServer) -> None:
    game = _game(real_api, "2023-10-27")
    plays = real_api.get_json("/v1/playbyplay/MLB/", game=game["ID"], max=1000)["playbyplay"]
    line = {r["Play_ID"]: r for r in _line(real_api, game)[1:]}
    assert len(plays) == len(line) > 100
    for play in plays:
        assert (play["WP_Home"], play["WPA"]) == (line[play["ID"]]["WP_Home"],
                                                  line[play["ID"]]["WPA"])
        assert play["WP_Draw"] is None


def test_season_wpa_leaders(real_api: ApiServer) -> None:
    """WPA is a season stat: batters and pitchers (a pitcher credited the negative of the
    batter's), and teams, whose total is their wins above the pre-game forecasts."""
    batters = real_api.get_json("/v1/stats/MLB/player/", stat="WPA", season=2023)["stats"]
    assert batters and batters[0]["Value"] > 3.0  # a season's best adds several wins
    glossary = real_api.get_json("/v1/glossary/MLB/stats/")["glossary"]
    assert any(g["Code"] == "WPA" and "Win probability added" in g["Name"] for g in glossary)
    teams = real_api.get_json("/v1/stats/MLB/team/", stat="WPA", season=2023)["stats"]
    assert len(teams) == 30
    # over a whole season, all teams' WPA sum to about nothing: each play's gain is a loss
    assert abs(sum(t["Value"] for t in teams)) < 1.0


def _calibration(api: ApiServer, **params: Any) -> dict[str, list[dict[str, Any]]]:
    records = api.get_json("/v2/calibration/MLB/", season=2023, **params)["calibration"]
    return {f: [r for r in records if r["Forecast"] == f] for f in ("ingame", "pregame")}


def test_calibration_of_the_2023_line(real_api: ApiServer) -> None:
    """The in-game line's calibration in 2023 beside the pre-game forecast's: the line knows
    what happened since the first pitch, so it scores better; its Brier score is the one its
    served chances give; it is calibrated; and the phases' figures add up to the season's."""
    cal = _calibration(real_api)
    ingame, pregame = cal["ingame"][0]["scores"], cal["pregame"][0]["scores"]
    assert ingame["Brier"] < pregame["Brier"] and ingame["LogLoss"] < pregame["LogLoss"]
    # every final game once before it, every play but each game's last in it (the result)
    finals = real_api.get_json("/v1/games/MLB/", season=2023, status="final", max=1)
    assert pregame["Count"] == finals["meta"]["Total_Results"] > 2400
    # the Brier score of the chances served on the plays, each game's last play (its result) left
    # out, read from the store
    last = (sa.select(P.c.game_id, sa.func.max(P.c.seq).label("seq"))
            .join(W, W.c.play_id == P.c.id).group_by(P.c.game_id).subquery())
    won = sa.case((G.c.score_home > G.c.score_vis, 1.0), else_=0.0)
    engine = make_engine(real_api.database_url)
    with engine.connect() as conn:
        count, brier = conn.execute(
            sa.select(sa.func.count(), sa.func.avg((W.c.wp_home - won) * (W.c.wp_home - won)))
            .join_from(W, P, P.c.id == W.c.play_id).join(G, G.c.id == W.c.game_id)
            .join(last, last.c.game_id == W.c.game_id)
            .where(G.c.level == "MLB", G.c.season == 2023, G.c.state == "final",
                   P.c.seq < last.c.seq)).one()
    engine.dispose()
    assert ingame["Count"] == count
    assert ingame["Brier"] == pytest.approx(brier, abs=5e-5)
    for b in cal["ingame"]:
        if b["Count"] >= 1000:
            assert abs(b["Observed"] - b["Predicted"]) <= 0.03, b
    # the phases are stored apart and add up exactly to the whole season
    parts = [_calibration(real_api, phase=p)["ingame"] for p in ("regular", "postseason")]
    assert [a["Count"] + b["Count"] for a, b in zip(*parts)] == [r["Count"] for r in cal["ingame"]]
    total = sum(p[0]["scores"]["Brier"] * p[0]["scores"]["Count"] for p in parts)
    assert total / ingame["Count"] == pytest.approx(ingame["Brier"], abs=1e-4)
