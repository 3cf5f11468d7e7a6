"""Compare: two teams of a season side by side (their ELO on one chart, their season lines);
players over their careers are walked in the browser (test_browser_links)."""
from __future__ import annotations

from services import api
from tests.dashboard._apptest import assert_clean, figures, open_page, shown, titles
from tests.dashboard.conftest import ApiServer


def test_two_teams_side_by_side_over_a_season(dashboard_env: ApiServer) -> None:
    season = api.season_ids("NBA", with_games=True)[1]
    ids = dict(zip(api.teams("NBA", season)["Name"].astype(str), api.teams("NBA", season)["ID"], strict=True))
    names = sorted(ids)[:2]
    at = open_page("compare", {"level": "NBA", "compare": "teams", "season": str(season), "teams": names,
                               "lines": "true"})
    assert_clean(at)
    assert titles(at) == [f"NBA {api.season_name('NBA', season)}: ELO over the season"]
    # a season spanning two years reads as the API names it, under the picker's ID (the year it ends)
    named = next(str(r["Name"]) for _, r in api.seasons("NBA").iterrows() if int(r["ID"]) == season)
    assert named == f"{season - 1}-{season % 100:02d}"
    assert f"The {named} season" in [shown(c.value) for c in at.sidebar.caption]
    assert {trace["name"] for trace in figures(at)[0]["data"]} == set(names)
    table = at.dataframe[0].value.set_index("Team")
    assert list(table.index) == names
    for name in names:
        record = next(r for r in api.team("NBA", int(ids[name]))["seasons"] if r["Season"] == season)
        assert (table.loc[name, "Wins"], table.loc[name, "Losses"]) == (record["Wins"], record["Losses"])
        elo = api.elo("NBA", season=season, team_id=int(ids[name]))
        assert table.loc[name, "ELO"] == elo.sort_values("Date")["ELOAfter"].iloc[-1]


def test_a_link_to_a_player_of_another_level_says_so(dashboard_env: ApiServer) -> None:
    at = open_page("compare", {"level": "NBA", "who": ["Nobody (999999999)"]})
    assert not at.exception
    assert any("No player 999999999 in NBA" in w.value for w in at.sidebar.warning)


def test_players_side_by_side_read_in_the_reference_sites_order(dashboard_env: ApiServer) -> None:
    """Two hitters' season lines: the slash line and the rate stats beside the counts, batting's
    columns as Baseball-Reference orders them (then FanGraphs' metrics, then pitching's), the
    games once (Games, no second G), fielding last."""
    leaders = api.stats("MLB", "player", "PA", size=2).frame
    who = [str(int(i)) for i in leaders["Player_ID"]]
    at = open_page("compare", {"level": "MLB", "who": who, "lines": "true"})
    assert_clean(at)
    columns = list(at.dataframe[0].value.columns)
    assert "G" not in columns and columns[:4] == ["Player", "Season", "Team", "Games"]
    batting = [c for c in columns if c in ("PA", "AB", "H", "HR", "AVG", "OBP", "SLG", "OPS",
                                           "wOBA", "wRC+")]
    assert batting == ["PA", "AB", "H", "HR", "AVG", "OBP", "SLG", "OPS", "wOBA", "wRC+"]
    # pitching's columns, then fielding's, come after every batting one
    assert all(columns.index(c) > columns.index("wRC+")
               for c in ("W", "ERA", "FIP", "PO", "E") if c in columns)
