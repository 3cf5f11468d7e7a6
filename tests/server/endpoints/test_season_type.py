"""seasontype=regular|postseason: the regular season apart from the playoffs, filtered on the
server so totals stay exact (an analyst's Brier score on the regular season, a player's 162
regular-season games rather than 166 with the postseason mixed in)."""
from __future__ import annotations

from typing import Any


from tests.demo_api import ApiServer


def _total(demo: ApiServer, path: str, **params: Any) -> int:
    return int(demo.get_json(path, max=1, **params)["meta"]["Total_Results"])


def test_regular_and_postseason_games_split_a_season(demo_api: ApiServer) -> None:
    first = demo_api.get_json("/v1/games/MLB/", seasontype="postseason", max=5)["games"]
    assert first, "the demo plays a postseason"
    detail = demo_api.get_json("/v1/games/MLB/", id=first[0]["ID"])["games"][0]
    season = detail["Season"]
    assert detail["Playoff"]  # the round's name
    every = _total(demo_api, "/v1/games/MLB/", season=season)
    regular = _total(demo_api, "/v1/games/MLB/", season=season, seasontype="regular")
    post = _total(demo_api, "/v1/games/MLB/", season=season, seasontype="POSTSEASON")
    assert regular > post > 0 and regular + post == every
    for game in demo_api.get_json("/v1/games/MLB/", season=season, seasontype="regular",
                                  max=3)["games"]:
        assert demo_api.get_json("/v1/games/MLB/", id=game["ID"])["games"][0]["Playoff"] is None


def test_forecasts_and_lines_take_the_same_split(demo_api: ApiServer) -> None:
    game = demo_api.get_json("/v1/games/MLB/", seasontype="postseason", max=1)["games"][0]
    season = demo_api.get_json("/v1/games/MLB/", id=game["ID"])["games"][0]["Season"]
    for path in ("/v2/forecasts/MLB/", "/v1/teamperfs/MLB/", "/v1/playerperfs/MLB/"):
        every = _total(demo_api, path, season=season)
        parts = [_total(demo_api, path, season=season, seasontype=kind)
                 for kind in ("regular", "postseason")]
        assert all(parts) and sum(parts) == every, path
    lines = demo_api.get_json("/v1/teamperfs/MLB/", season=season, seasontype="postseason",
                              max=10)["teamperfs"]
    post_ids = {g["ID"] for g in demo_api.get_json("/v1/games/MLB/", season=season,
                                                   seasontype="postseason", max=1000)["games"]}
    assert {line["Game_ID"] for line in lines} <= post_ids


def test_an_unknown_season_type_is_a_400_naming_the_choices(demo_api: ApiServer) -> None:
    error = demo_api.get_json("/v1/games/MLB/", expect=400, seasontype="preseason")["error"]
    assert error["Code"] == "bad_parameter" and error["Parameter"] == "seasontype"
    assert "regular, postseason" in error["Message"]


def test_the_simulators_bracket_is_the_postseason_phase(demo_api: ApiServer) -> None:
    """The simulator knows its own schedule: each game of its bracket (a playoff round) is a
    ``postseason`` game, every other one ``regular``; ``seasontype`` is the same split."""
    for level in ("NBA", "NHL", "FC"):
        post = demo_api.get_json(f"/v1/games/{level}/", phase="postseason", max=1000)["games"]
        assert post and {g["Phase"] for g in post} == {"postseason"}, level
        detail = demo_api.get_json(f"/v1/games/{level}/", id=post[-1]["ID"])["games"][0]
        assert detail["Playoff"], "a postseason game names its round"
        assert _total(demo_api, f"/v1/games/{level}/", phase="postseason") \
            == _total(demo_api, f"/v1/games/{level}/", seasontype="postseason")
        regular = demo_api.get_json(f"/v1/games/{level}/", phase="regular", max=5)["games"]
        for game in regular:
            assert demo_api.get_json(f"/v1/games/{level}/", id=game["ID"])["games"][0]["Playoff"] is None
        assert _total(demo_api, f"/v1/games/{level}/", phase="playin,preseason") == 0
