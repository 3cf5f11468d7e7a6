"""A session and a fresh link show the same view; a link's unknown value is said, not hidden."""
from __future__ import annotations

from services import api
from tests.dashboard._apptest import open_page
from tests.dashboard.conftest import ApiServer


def test_ratings_teams_follow_a_new_level_as_a_fresh_link_would(dashboard_env: ApiServer) -> None:
    session = open_page("ratings", {"level": "MLB"})
    session.selectbox(key="level").set_value("NBA").run()
    fresh = open_page("ratings", {"level": "NBA"})
    assert session.multiselect(key="teams").value, "the new level's top teams, not an empty choice"
    assert session.multiselect(key="teams").value == fresh.multiselect(key="teams").value


def test_ratings_teams_follow_a_new_season(dashboard_env: ApiServer) -> None:
    older = api.season_ids("MLB", with_games=True)[-1]
    session = open_page("ratings", {"level": "MLB", "tab": "Over the season"})
    session.selectbox(key="season").set_value(older).run()
    fresh = open_page("ratings", {"level": "MLB", "season": str(older), "tab": "Over the season"})
    assert session.multiselect(key="teams").value == fresh.multiselect(key="teams").value


def test_forecast_seasons_follow_a_new_level(dashboard_env: ApiServer) -> None:
    session = open_page("forecasts", {"level": "MLB"})
    session.selectbox(key="level").set_value("NBA").run()
    fresh = open_page("forecasts", {"level": "NBA"})
    assert session.multiselect(key="fc_seasons").value == fresh.multiselect(key="fc_seasons").value
    assert len(fresh.multiselect(key="fc_seasons").value) == 2


def test_a_link_with_unknown_values_warns_and_shows_the_default(dashboard_env: ApiServer) -> None:
    at = open_page("ratings", {"level": "XYZ", "season": "1800"})
    assert not at.exception
    warnings = " ".join(w.value for w in at.sidebar.warning)
    assert "'XYZ'" in warnings and "showing MLB" in warnings
    assert "'1800'" in warnings
    assert at.selectbox(key="level").value == "MLB"
    assert at.selectbox(key="season").value == api.season_ids("MLB", with_games=True)[0]
    tab = open_page("forecasts", {"level": "MLB", "tab": "Nonsense"})
    assert any("'Nonsense'" in w.value for w in tab.sidebar.warning)


def test_a_valid_link_warns_of_nothing(dashboard_env: ApiServer) -> None:
    at = open_page("games", {"level": "NBA", "status": "Final"})
    assert not at.sidebar.warning
