"""Ratings page: ELO rankings and several teams' ELO over a season, all from the URL."""
from __future__ import annotations

from services import api
from tests.dashboard._apptest import assert_clean, figures, open_page, titles
from tests.dashboard.conftest import ApiServer


def test_elo_series_for_teams_in_the_url(dashboard_env: ApiServer) -> None:
    # the newest season may have just begun: take the newest with a full table of ratings
    seasons = sorted(api.seasons("NBA")["ID"].astype(int), reverse=True)
    season = next(s for s in seasons if len(api.elo("NBA", season=s)) >= 4)
    names = sorted(api.teams("NBA", season)["Name"].astype(str))[:2]
    at = open_page("ratings", {"level": "NBA", "season": str(season), "teams": names})
    assert_clean(at)
    assert at.multiselect(key="teams").value == names
    assert "ELO over the season" in titles(at)
    series = next(f for f in figures(at) if f["layout"]["title"]["text"] == "ELO over the season")
    assert {trace["name"] for trace in series["data"]} == set(names)
    assert at.dataframe, "rankings table"


def test_rpi_offered_for_college_levels(dashboard_env: ApiServer) -> None:
    at = open_page("ratings", {"level": "MBB", "rating": "RPI"})
    assert_clean(at)
    assert at.selectbox(key="rating").value == "RPI"
    assert any(t.startswith("RPI") or "RPI" in t for t in titles(at))
