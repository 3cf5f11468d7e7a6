"""Projections page: the table as of a day, odds over the season per team, soccer's points, and
what one game changed in both teams' playoff odds, all from the URL."""
from __future__ import annotations

import datetime as dt
import json

import pandas as pd

from services import api
from tests.dashboard._apptest import assert_clean, figures, open_page, titles
from tests.dashboard.conftest import ApiServer


def _projected(level: str) -> tuple[int, pd.DataFrame]:
    """The level's newest season with projections, and its newest table."""
    season = next(s for s in api.season_ids(level, with_games=True)
                  if len(api.projections(level, season=s).frame) >= 4)
    return season, api.projections(level, season=season).frame


def test_the_table_ranks_every_team_with_records_ranges_and_odds_as_bars(dashboard_env: ApiServer) -> None:
    season, served = _projected("MLB")
    at = open_page("projections", {"level": "MLB", "season": str(season)})
    assert_clean(at)
    assert at.title[0].value == f"MLB season projections, {season}"
    table = at.dataframe[0].value
    assert list(table["Team"]) == list(served["Team"]), "the service's order: projected wins"
    first = served.iloc[0]
    assert table.iloc[0]["Record"] == f"{first['W']}-{first['L']}"
    assert table.iloc[0]["Projected"] == f"{first['ProjW']:.0f}-{first['ProjL']:.0f}"
    assert table.iloc[0]["Range"] == f"{first['ProjW10']:.0f}-{first['ProjW90']:.0f}"
    assert ("Bye %" in table.columns) == bool(served["ByeProb"].notna().any()), "bye odds where the format has byes"
    assert table.iloc[0]["Playoff %"] == round(first["PlayoffProb"] * 100, 1), "odds in percent"
    config = json.loads(at.dataframe[0].proto.columns)
    assert config["Playoff %"]["type_config"]["type"] == "progress"
    assert config["Title %"]["type_config"]["type"] == "progress"
    assert any(f"As of the end of {first['Date']}" in c.value for c in at.caption)
    assert not figures(at) and at.expander[0].label.startswith("Chart: playoff odds over the season"), \
        "the page opens on its table, the chart one click below it"


def test_the_as_of_day_shows_the_odds_as_they_stood(dashboard_env: ApiServer) -> None:
    season, served = _projected("NBA")
    days = sorted(api.projections("NBA", season=season, team_id=int(served.iloc[0]["Team_ID"])).frame["Date"])
    day = days[len(days) // 2]
    at = open_page("projections", {"level": "NBA", "season": str(season), "asof": day, "chart": "true"})
    assert_clean(at)
    then = api.projections("NBA", season=season, date=dt.date.fromisoformat(day)).frame
    shown = at.dataframe[0].value.set_index("Team")
    assert len(shown) == len(then)
    for row in then.itertuples():
        assert shown.loc[row.Team, "Playoff %"] == round(row.PlayoffProb * 100, 1)
    assert any(f"As of the end of {then['Date'].max()}" in c.value for c in at.caption)
    chart = figures(at)[0]
    assert chart["layout"]["shapes"][0]["x0"] == pd.Timestamp(str(then["Date"].max())).timestamp() * 1000, \
        "the chart marks the day the table stands on"


def test_odds_over_the_season_follow_the_teams_in_the_url(dashboard_env: ApiServer) -> None:
    season, served = _projected("NHL")
    names = sorted(served["Team"].astype(str))[:2]
    at = open_page("projections", {"level": "NHL", "season": str(season), "teams": names, "chart": "true"})
    assert_clean(at)
    assert at.multiselect(key="teams").value == names
    assert titles(at) == [f"NHL {api.season_name('NHL', season)}: playoff odds over the season"]
    lines = {trace["name"]: trace for trace in figures(at)[0]["data"]}
    assert set(lines) == set(names)
    team_id = int(served.set_index("Team").loc[names[0], "Team_ID"])
    series = api.projections("NHL", season=season, team_id=team_id).frame
    assert len(lines[names[0]]["x"]) == len(series), "one point per day with games"


def test_a_fresh_page_follows_the_teams_most_likely_to_make_it(dashboard_env: ApiServer) -> None:
    season, served = _projected("NHL")
    at = open_page("projections", {"level": "NHL", "season": str(season)})
    top = served.sort_values("PlayoffProb", ascending=False, kind="stable")["Team"].astype(str).head(4)
    assert at.multiselect(key="teams").value == list(top)


def test_soccer_ranks_by_points_and_shows_title_odds(dashboard_env: ApiServer) -> None:
    season, served = _projected("FC")
    at = open_page("projections", {"level": "FC", "season": str(season), "chart": "true"})
    assert_clean(at)
    table = at.dataframe[0].value
    assert list(table["ProjPoints"]) == sorted(table["ProjPoints"], reverse=True)
    assert "Playoff %" not in table.columns and "Title %" in table.columns, "a league table has no playoff"
    assert titles(at) == [f"FC {api.season_name('FC', season)}: title odds over the season"]
    top = served.sort_values("ProjPoints", ascending=False).iloc[0]
    assert table.iloc[0]["Record"] == f"{top['W']}-{top['T']}-{top['L']}", "a football record reads W-D-L"


def test_a_sublevel_keeps_its_teams(dashboard_env: ApiServer) -> None:
    season, served = _projected("NBA")
    group = str(served["Sublevel"].iloc[0])
    at = open_page("projections", {"level": "NBA", "season": str(season), "group": group})
    assert_clean(at)
    assert set(at.dataframe[0].value["Team"]) == set(served[served["Sublevel"] == group]["Team"])
    assert set(at.multiselect(key="teams").value) <= set(served[served["Sublevel"] == group]["Team"])


def test_a_new_season_forgets_the_day_of_the_old_one(dashboard_env: ApiServer) -> None:
    seasons = api.season_ids("NBA", with_games=True)
    season, served = _projected("NBA")
    older = next(s for s in seasons if s < season)
    at = open_page("projections", {"level": "NBA", "season": str(season), "asof": str(served["Date"].max())})
    at.selectbox(key="season").set_value(older).run()
    assert_clean(at)
    assert at.date_input(key="asof").value is None
    fresh = open_page("projections", {"level": "NBA", "season": str(older)})
    assert at.dataframe[0].value["Team"].tolist() == fresh.dataframe[0].value["Team"].tolist()


def test_the_game_page_shows_what_the_game_changed_in_both_teams_odds(dashboard_env: ApiServer) -> None:
    season = next(s for s in api.season_ids("NBA", with_games=True)
                  if len(api.all_games("NBA", season=s, status="final").frame) >= 20)
    end = str(api.season_ends("NBA")[season])
    games = api.all_games("NBA", season=season, status="final").frame.sort_values("GameDay")
    regular = games[games["GameDay"] <= end]
    game = regular.iloc[len(regular) // 2]  # not the season's first day: the odds had a day before
    at = open_page("games", {"level": "NBA", "game": str(int(game["ID"]))})
    assert_clean(at)
    said = "\n".join(m.value for m in at.markdown)
    assert "**Playoff odds**" in said
    for name, side in ((game["Visitor"], game["Visitor_ID"]), (game["Home"], game["Home_ID"])):
        series = api.projections("NBA", season=season, team_id=int(side)).frame
        before = series[series["Date"] < game["GameDay"]]["PlayoffProb"].iloc[-1]
        after = series[series["Date"] == game["GameDay"]]["PlayoffProb"].iloc[-1]
        assert f"**{name}:** {before:.1%} → {after:.1%} ({(after - before) * 100:+.1f} points)" in said
