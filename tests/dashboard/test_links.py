"""A session and a fresh link show the same view; a link's unknown value is said, not hidden; the
copied link names every default that newer data would change."""
from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from streamlit.testing.v1 import AppTest

from services import api
from tests.dashboard._apptest import assert_clean, open_page, titles
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


# A fresh link leaves out what the page picks by itself; the copied link must name each pick that
# newer data would change (the newest season, the latest day, the top teams), so a colleague
# opening it next month sees the sender's view. Stable defaults (level, status) may stay out.

def _copied(at: AppTest) -> dict[str, list[str]]:
    """The query of the link the page's "Copy link to this view" box offers."""
    [link] = [c.value for c in at.code]
    return parse_qs(urlsplit(link).query)


def _view(at: AppTest) -> dict[str, Any]:
    """What a colleague sees: titles, captions, chart titles, every choice and every table."""
    return {"titles": [t.value for t in at.title], "captions": [c.value for c in at.caption],
            "charts": titles(at), "choices": [(s.label, s.value) for s in (*at.selectbox, *at.multiselect)],
            "tables": [(list(t.value.columns), t.value.astype(str).to_numpy().tolist()) for t in at.dataframe]}


def _season(at: AppTest, key: str = "season") -> list[str]:
    return [str(at.selectbox(key=key).value)]


def _chosen(at: AppTest, key: str) -> list[str]:
    return [str(v) for v in at.multiselect(key=key).value]


def _ratings_day(at: AppTest) -> list[str]:
    return [str(api.elo("NBA", season=int(_season(at)[0]))["Date"].max())]


def _standings_day(at: AppTest) -> list[str]:
    return [str(api.standings("NHL", season=int(_season(at)[0])).frame["Date"].max())]


def _projections_day(at: AppTest) -> list[str]:
    return [str(api.projections("NHL", season=int(_season(at)[0])).frame["Date"].max())]


def _a_team() -> dict[str, str]:
    return {"level": "MLB", "tab": "Teams", "team": str(min(api.teams("MLB")["Name"].astype(str)))}


def _a_leader() -> dict[str, str]:
    season = api.season_ids("MLB", with_games=True)[0]
    leader = api.stats("MLB", "player", "H", season=season, size=1).frame.iloc[0]
    return {"level": "MLB", "player": str(int(leader["Player_ID"]))}


Named = Callable[[AppTest], list[str]]
# page -> (a link that leaves the drifting choices out, URL name -> what the page shows for it)
DRIFTING: dict[str, tuple[Callable[[], dict[str, str]], dict[str, Named]]] = {
    "games": (lambda: {"level": "NBA"}, {"season": _season}),
    "ratings": (lambda: {"level": "NBA"},
                {"season": _season, "snapshot": _ratings_day, "teams": partial(_chosen, key="teams")}),
    "standings": (lambda: {"level": "NHL"}, {"season": _season, "asof": _standings_day}),
    "projections": (lambda: {"level": "NHL"},
                    {"season": _season, "asof": _projections_day, "teams": partial(_chosen, key="teams")}),
    "forecasts": (lambda: {"level": "MLB"}, {"fc_seasons": partial(_chosen, key="fc_seasons")}),
    "leaders": (lambda: {"level": "MLB"}, {"season": _season}),
    "players-team": (_a_team, {"team_season": partial(_season, key="team_season")}),
    "players-player": (_a_leader, {"player_season": partial(_season, key="player_season"),
                                   "log_stat": lambda at: [str(at.selectbox(key="log_stat").value)]}),
}


def test_a_link_without_a_season_opens_the_newest_and_its_copy_names_it(dashboard_env: ApiServer) -> None:
    newest = api.season_ids("NBA", with_games=True)[0]
    fresh = open_page("games", {"level": "NBA"})
    assert fresh.selectbox(key="season").value == newest, "links already sent still open the newest season"
    copied = _copied(fresh)
    assert copied["season"] == [str(newest)]
    reopened = open_page("games", copied)
    assert reopened.selectbox(key="season").value == newest
    assert _view(reopened) == _view(fresh)


@pytest.mark.parametrize("case", list(DRIFTING))
def test_the_copied_link_names_every_drifting_default_and_reopens_the_view(dashboard_env: ApiServer,
                                                                          case: str) -> None:
    link, named = DRIFTING[case]
    fresh = open_page(case.split("-")[0], link())
    assert_clean(fresh)
    copied = _copied(fresh)
    assert {key: copied.get(key) for key in named} == {key: shown(fresh) for key, shown in named.items()}
    assert dashboard_env.key not in str(copied)
    reopened = open_page(case.split("-")[0], copied)
    assert_clean(reopened)
    assert _view(reopened) == _view(fresh)


def test_a_pages_link_names_no_other_pages_choices(dashboard_env: ApiServer) -> None:
    at = open_page("ratings", {"level": "NBA"})
    assert "snapshot" in _copied(at)
    at.switch_page("app_pages/glossary.py").run()
    assert_clean(at)
    assert _copied(at) == {"level": ["NBA"]}
