"""Standings page: a table per division in the service's order, as of any day from the URL, with
each team's projected wins and playoff odds beside its record and a link that opens the team."""
from __future__ import annotations

import datetime as dt

from services import api
from tests.dashboard._apptest import assert_clean, open_page
from tests.dashboard.conftest import ApiServer


def test_a_table_per_division_in_the_services_order(dashboard_env: ApiServer) -> None:
    season = api.season_ids("MLB", with_games=True)[0]
    served = api.standings("MLB", season=season).frame
    at = open_page("standings", {"level": "MLB", "season": str(season)})
    assert_clean(at)
    assert at.title[0].value == f"MLB standings, {season}"
    assert [h.value for h in at.subheader] == list(dict.fromkeys(served["League"]))
    divisions = sorted(served.groupby(["League", "Division"]).groups)
    assert len(at.dataframe) == len(divisions) == 6
    leaders = [rows.sort_values("DivRank").iloc[0]["Team"]
               for _, rows in served.groupby(["League", "Division"], sort=False)]
    assert [t.value.iloc[0]["Team"] for t in at.dataframe] == leaders  # the service's order
    projected = api.projections("MLB", season=season, date=dt.date.fromisoformat(str(served["Date"].max())))
    odds = projected.frame.set_index("Team")
    for table, (_, division) in zip(at.dataframe, divisions, strict=True):
        shown = table.value
        want = served[served["Division"] == division].sort_values("DivRank")
        assert list(shown["Team"]) == list(want["Team"])
        assert list(shown["GB"]) == list(want["GB"]) and list(shown["Streak"]) == list(want["Streak"])
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
