"""The win probability line of a finished game in every sport of the demo store, through the API:
it starts at the pre-game forecast, ends at the result, every chance is a chance, and the plays'
WPA adds up to the change from start to end for the home side (soccer: its expectation, a draw
counting half)."""
from __future__ import annotations


import pytest

from tests.demo_api import ApiServer

LEVELS = {"MLB": "baseball", "NBA": "basketball", "NHL": "hockey", "FC": "soccer"}


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_a_finished_games_line(demo_api: ApiServer, level: str) -> None:
    game = demo_api.get_json(f"/v1/games/{level}/", status="final", max=1)["games"][0]
    line = demo_api.get_json(f"/v2/winprob/{level}/", game=game["ID"])["winprob"]
    assert len(line) > 10, "the newest final game has its plays' line"
    forecast = demo_api.get_json(f"/v2/forecasts/{level}/", id=game["ID"])["forecasts"][0]
    first, last = line[0], line[-1]
    assert first["WP_Home"] == round(forecast["elo"]["HELOWinExp"], 3)
    assert (last["ScoreVis"], last["ScoreHome"]) == (game["ScoreVis"], game["ScoreHome"])
    soccer = LEVELS[level] == "soccer"
    home_won, tied = game["ScoreHome"] > game["ScoreVis"], game["ScoreHome"] == game["ScoreVis"]
    if soccer:
        assert (last["WP_Home"], last["WP_Draw"]) == (float(home_won), float(tied))
        assert all(r["WP_Draw"] is not None and 0 <= r["WP_Home"] + r["WP_Draw"] <= 1.001
                   for r in line[1:])
    else:
        assert last["WP_Home"] == float(home_won)
        assert all(r["WP_Draw"] is None for r in line)
    assert all(0.0 <= r["WP_Home"] <= 1.0 for r in line)
    end = last["WP_Home"] + (0.5 * last["WP_Draw"] if soccer else 0.0)
    home_side = sum(r["WPA"] * (1 if r["Team_ID"] == r["Home_ID"] else -1) for r in line[1:]
                    if r["Team_ID"] is not None)
    # the forecast is the ELO expectation, the line's start (soccer's too); three decimals a play
    assert home_side == pytest.approx(end - first["WP_Home"], abs=0.0006 * len(line) + 0.002)


def test_games_in_progress_have_their_line_so_far(demo_api: ApiServer) -> None:
    """Re-tabulation draws a game's line as its plays arrive: each game in progress (the demo
    store holds some) ends its line at its newest play, not yet certain either way."""
    live = [(level, g) for level in sorted(LEVELS)
            for g in demo_api.get_json(f"/v1/games/{level}/", status="inprogress", max=5)["games"]]
    assert live
    for level, game in live:
        line = demo_api.get_json(f"/v2/winprob/{level}/", game=game["ID"])["winprob"]
        plays = demo_api.get_json(f"/v1/playbyplay/{level}/", game=game["ID"], max=1)["playbyplay"]
        # the newest play, unless it is a substitution, which has no line
        assert line[-1]["Play_ID"] == plays[0]["ID"] or plays[0]["WP_Home"] is None
        assert 0.0 < line[-1]["WP_Home"] < 1.0, (level, game["GameStatus"])


def test_a_game_tied_after_the_twelfth_ends_its_line_at_the_tie(demo_api: ApiServer) -> None:
    """NPB stops a regular-season game tied after the 12th: its line ends at 0.5 (a tie counts
    half a win), and once the home side bats tied in the 12th the worst left to it is the tie,
    so its chance is never below it."""
    games = demo_api.get_json("/v1/games/NPB/", status="final", phase="regular", max=1000)["games"]
    tied = [g for g in games if g["ScoreHome"] == g["ScoreVis"]]
    assert tied, "the simulated NPB seasons hold ties"
    for game in tied[:3]:
        line = demo_api.get_json("/v2/winprob/NPB/", game=game["ID"])["winprob"]
        last = line[-1]
        assert (last["Period"], last["Half"], last["WP_Home"]) == (12, "bottom", 0.5)
        batting = [r for r in line[1:-1] if (r["Period"], r["Half"]) == (12, "bottom")
                   and r["ScoreHome"] == r["ScoreVis"]]
        assert all(r["WP_Home"] >= 0.5 for r in batting), batting
        home_side = sum(r["WPA"] * (1 if r["Team_ID"] == r["Home_ID"] else -1)
                        for r in line[1:] if r["Team_ID"] is not None)
        assert home_side == pytest.approx(0.5 - line[0]["WP_Home"],
                                          abs=0.0006 * len(line) + 0.002)
