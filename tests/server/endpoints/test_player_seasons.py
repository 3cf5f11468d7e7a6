"""A player's seasons count what the Leaders count: regular-season games and totals, with the
postseason apart (an analyst saw 166 games on the profile beside 162 on the leaderboard)."""
from __future__ import annotations



from tests.demo_api import ApiServer


def test_season_games_match_regular_season_lines_and_the_leaders(demo_api: ApiServer) -> None:
    post = demo_api.get_json("/v1/playerperfs/MLB/", seasontype="postseason", max=50)["playerperfs"]
    assert post, "the demo plays a postseason"
    season = demo_api.get_json("/v1/games/MLB/", id=post[0]["Game_ID"])["games"][0]["Season"]
    for line in (line for line in post if line["AB"]):  # a batter of one team that season
        pid = line["Player_ID"]
        player = demo_api.get_json("/v1/players/MLB/", id=pid)["players"][0]
        entries = [s for s in player["seasons"] if s["Season"] == season]
        if len(entries) == 1:
            break
    [entry] = entries
    regular = demo_api.get_json("/v1/playerperfs/MLB/", player=pid, season=season,
                                seasontype="regular", max=1)["meta"]["Total_Results"]
    playoff = demo_api.get_json("/v1/playerperfs/MLB/", player=pid, season=season,
                                seasontype="postseason", max=1)["meta"]["Total_Results"]
    assert entry["Games"] == regular and entry["PostseasonGames"] == playoff >= 1
    leaders = demo_api.get_json("/v1/stats/MLB/", stat="AB", season=season, player=pid)["stats"]
    assert leaders and leaders[0]["GP"] == entry["Games"]
    assert entry["Stats"].get("AB") == leaders[0]["Value"], entry  # regular-season totals
    log = demo_api.get_json("/v1/players/MLB/", id=pid, season=season)["players"][0]["games"]
    assert sum(1 for g in log if g["Playoff"]) == entry["PostseasonGames"]
    assert sum(1 for g in log if g["Playoff"] is None) == entry["Games"]
    said = demo_api.get_json("/v1/players/MLB/", id=pid, season=season)["players"][0]["insights"][0]
    assert said == f"Played {entry['Games']} games in {season} and {entry['PostseasonGames']} in the postseason."


def test_a_season_says_where_its_regular_season_ended(demo_api: ApiServer) -> None:
    """``RegularEnd`` is the day of the season's last regular-season game; every playoff game
    comes after it, every other game on or before it."""
    season = demo_api.get_json("/v1/seasons/MLB/")["seasons"][1]  # a completed season
    games = demo_api.get_json("/v1/games/MLB/", season=season["ID"], max=1000)["games"]
    playoff = demo_api.get_json("/v1/playerperfs/MLB/", season=season["ID"], seasontype="postseason",
                                max=1000)["playerperfs"]
    assert playoff, "the demo plays a postseason"
    assert max(g["GameDay"] for g in games if g["ID"] not in {p["Game_ID"] for p in playoff}) \
        == season["RegularEnd"]
    assert min(p["GameDay"] for p in playoff) > season["RegularEnd"]
