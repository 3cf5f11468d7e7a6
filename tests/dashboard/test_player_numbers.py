"""The player page's numbers: zeros as 0, rates as .389, plain stat names, the postseason apart."""
from __future__ import annotations

import json

from components import player_stats
from services import api
from tests.dashboard._apptest import assert_clean, open_page, printed, titles
from tests.dashboard.conftest import ApiServer

def test_rates_read_as_analysts_print_them() -> None:
    assert player_stats.stat_text("AVG", 0.388889) == ".389"
    assert player_stats.stat_text("OPS", 1.21513) == "1.215"
    assert player_stats.stat_text("ERA", 3.4567) == "3.46"
    assert player_stats.stat_text("WHIP", 1.08351) == "1.084"
    assert player_stats.stat_text("WHIP", 0.7365) == "0.737", "WHIP keeps its 0, as Baseball-Reference prints it"
    assert player_stats.stat_text("HR", 54.0) == "54"
    assert player_stats.stat_text("HR", None) == ""


def test_game_log_fills_unrecorded_stats_with_zero_and_names_each_games_phase() -> None:
    """The phase is the record's own (the API's ``Phase``), never guessed from the date: a game
    on the regular season's last day can be a playoff game, an October game a regular one."""
    games = [{"Game_ID": 1, "GameDay": "2026-09-27", "Phase": "regular", "stats": {"AB": 4, "H": 2}},
             {"Game_ID": 2, "GameDay": "2026-09-28", "Phase": "regular", "stats": {"AB": 3}},
             {"Game_ID": 3, "GameDay": "2026-09-28", "Phase": "playin", "stats": {"HR": 1}},
             {"Game_ID": 4, "GameDay": "2026-10-02", "Phase": "postseason", "stats": {}}]
    log = player_stats.game_log(games)
    assert list(log["H"]) == [2, 0, 0, 0] and list(log["HR"]) == [0, 0, 1, 0]
    assert not log[["AB", "H", "HR"]].isna().any().any()
    assert list(log["Phase"]) == ["Regular season", "Regular season", "Play-in", "Postseason"]
    assert player_stats.phase_counts(log) == {"Regular season": 2, "Play-in": 1, "Postseason": 1}


def test_seasons_without_a_game_count_show_blank_not_zero() -> None:
    lahman = [{"Season": 1927, "Team": "New York Yankees", "Games": 0, "Stats": {"AB": 540, "HR": 60, "AVG": 0.356}}]
    held = [{"Season": 2023, "Team": "Atlanta", "Games": 162, "Stats": None}]
    table = player_stats.seasons_table(lahman + held, {2023: {"HR": "54", "AVG": ".283"}})
    assert list(table["Games"]) == ["", "162"]
    assert list(table["HR"]) == ["60", "54"] and list(table["AVG"]) == [".356", ".283"]
    assert not [c for c in table.columns if c.startswith("Stats")]


def _mlb_leader() -> tuple[int, int, float]:
    season = api.season_ids("MLB", with_games=True)[0]
    row = api.stats("MLB", "player", "HR", season=season, size=1).frame.iloc[0]
    return int(row["Player_ID"]), season, float(row["Value"])


def test_player_page_shows_no_none_and_agrees_with_leaders(dashboard_env: ApiServer) -> None:
    player, season, home_runs = _mlb_leader()
    link = {"level": "MLB", "player": str(player), "player_season": str(season)}
    grids = []
    for section, has in (({"log_table": "true"}, lambda c: "Phase" in c),
                         ({"section": "Season statistics"}, lambda c: "Rank" in c),
                         ({"section": "Seasons"}, lambda c: "Season" in c and "AVG" in c)):
        at = open_page("players", {**link, **section})
        assert_clean(at)
        grids.append(next(d for d in at.dataframe if has(d.value.columns)))
    # the game log, ranks and batting seasons as printed (the ranks' values are numbers, which a
    # click on Value sorts as numbers, each printed as its stat reads)
    assert grids[1].value["Value"].dtype.kind in "if", grids[1].value["Value"].dtype
    log, stats, seasons = (printed(d) for d in grids)
    for grid, table in zip(grids, (log, stats, seasons), strict=True):
        # text is never missing; a number may be (a rank not earned), drawn blank
        assert not table.select_dtypes(exclude="number").isna().any().any(), table
        assert grid.proto.placeholder == ""
        assert "None" not in table.astype(str).to_numpy()
        assert not [c for c in table.columns if "." in str(c)], list(table.columns)
    assert set(log["Phase"]) == {"Regular season"}, "the log opens on the regular season"
    gp = int(stats["GP"].iloc[0])
    assert len(log) >= gp, "the regular-season log holds every game the season stats count"
    assert stats.set_index("Stat").loc["HR", "Value"] == f"{home_runs:.0f}", "the same figure as Leaders"
    assert stats.set_index("Stat").loc["AVG", "Value"].startswith("."), "a batting average reads .389"
    assert seasons.set_index("Season").loc[str(season), "HR"] == f"{home_runs:.0f}", "held seasons have a stat line"


def test_players_page_opens_on_the_leaders(dashboard_env: ApiServer) -> None:
    at = open_page("players", {"level": "MLB", "chart": "true"})
    assert_clean(at)
    assert any(t.startswith("MLB 20") and t.endswith(": HR leaders") for t in titles(at)), titles(at)
    config = json.loads(at.dataframe[1].proto.columns)
    assert config["ID"]["hidden"] is True, "the ID is kept for the row click, not shown"


def test_a_short_surname_finds_its_players(dashboard_env: ApiServer) -> None:
    """Typing a surname of four letters or fewer lists the players of that name (the API's
    search would ignore it)."""
    everyone = api.players("MLB", size=1000).frame
    short = next(str(n) for n in everyone["Name"] if len(str(n).split()[-1]) <= 4)
    surname = short.split()[-1]
    at = open_page("players", {"level": "MLB", "q": surname})
    assert_clean(at)
    names = [str(n) for n in at.dataframe[0].value["Name"]]
    assert short in names and all(n.lower().endswith(" " + surname.lower()) for n in names)
