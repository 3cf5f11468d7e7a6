"""Standings page: a table per league, division by division in the service's order, as of any
day from the URL, with each team's projected wins and playoff odds beside its record and a link
that opens the team."""
from __future__ import annotations

import datetime as dt

from services import api
from tests.dashboard._apptest import assert_clean, open_page
from tests.dashboard.conftest import ApiServer


def test_a_table_per_league_division_by_division_in_the_services_order(dashboard_env: ApiServer) -> None:
    """One grid a league (two for MLB, not six): its Division column first, the divisions in
    the service's order, each in rank order with its own games behind."""
    season = api.season_ids("MLB", with_games=True)[0]
    served = api.standings("MLB", season=season).frame
    at = open_page("standings", {"level": "MLB", "season": str(season)})
    assert_clean(at)
    assert at.title[0].value == f"MLB standings, {season}"
    leagues = list(dict.fromkeys(served["League"]))
    assert [h.value for h in at.subheader] == leagues
    assert len(at.dataframe) == len(leagues) == 2
    projected = api.projections("MLB", season=season, date=dt.date.fromisoformat(str(served["Date"].max())))
    odds = projected.frame.set_index("Team")
    for table, league in zip(at.dataframe, leagues, strict=True):
        shown = table.value
        in_league = served[served["League"] == league]
        divisions = list(dict.fromkeys(in_league["Division"]))  # the service's order
        assert len(divisions) == 3 and list(shown.columns[:2]) == ["Division", "Team"], list(shown.columns)
        assert list(dict.fromkeys(shown["Division"])) == divisions
        for division in divisions:
            rows = shown[shown["Division"] == division]
            want = in_league[in_league["Division"] == division].sort_values("DivRank")
            assert list(rows["Team"]) == list(want["Team"])
            assert list(rows["GB"]) == list(want["GB"]) and list(rows["Streak"]) == list(want["Streak"])
        for row in shown.itertuples():
            assert row.ProjW == odds.loc[row.Team, "ProjW"]
        assert all(link.startswith("players?level=MLB&tab=Teams&team=") for link in shown["Open"])


def test_the_as_of_day_from_the_url(dashboard_env: ApiServer) -> None:
    season = api.season_ids("NHL", with_games=True)[0]
    days = sorted(api.games("NHL", season=season, status="final").frame["GameDay"].astype(str))
    day = days[len(days) // 2]
    at = open_page("standings", {"level": "NHL", "season": str(season), "asof": day})
    assert_clean(at)
    then = api.standings("NHL", season=season, date=dt.date.fromisoformat(day)).frame
    shown = {r.Team: r for table in at.dataframe for r in table.value.itertuples()}
    assert len(shown) == len(then)
    for row in then.itertuples():
        assert (shown[row.Team].W, shown[row.Team].L, shown[row.Team].OTL) == (row.W, row.L, row.OTL)
    assert any(f"As of the end of {day}" in c.value for c in at.caption)


def test_a_table_ranked_by_points_shows_projected_points(dashboard_env: ApiServer) -> None:
    """Football ranks by points (hockey too): the projection beside a club's record is its
    projected final points, not its wins."""
    season = api.season_ids("FC", with_games=True)[0]
    served = api.standings("FC", season=season).frame
    day = dt.date.fromisoformat(str(served["Date"].max()))
    projected = api.projections("FC", season=season, date=day).frame.set_index("Team")
    at = open_page("standings", {"level": "FC", "season": str(season)})
    assert_clean(at)
    rows = [r for table in at.dataframe for r in table.value.to_dict("records")]
    assert rows and all("ProjW" not in r for r in rows)
    for row in rows:
        assert row["ProjPoints"] == projected.loc[row["Team"], "ProjPoints"], row["Team"]
    assert any("projected points are the projections' of the same day" in c.value for c in at.caption)
