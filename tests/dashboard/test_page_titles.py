"""A page's title names its season as the API does: NHL seasons span two years, so the
title reads "2025-26", not the season's ID, its hyphen a non-breaking one (a phone wraps the
title between words, never inside the name; tests/dashboard/test_browser_phone.py)."""
from __future__ import annotations

import pytest

from components.layout import NON_BREAKING_HYPHEN
from services import api
from tests.dashboard._apptest import assert_clean, open_page
from tests.dashboard.conftest import ApiServer


@pytest.mark.parametrize(("page", "title"), [("standings", "NHL standings"),
                                             ("projections", "NHL season projections"),
                                             ("ratings", "NHL ELO ratings")])
def test_the_title_names_a_split_season_as_the_api_does(page: str, title: str,
                                                        dashboard_env: ApiServer) -> None:
    season = api.season_ids("NHL", with_games=True)[0]
    at = open_page(page, {"level": "NHL"})
    assert_clean(at)
    named = api.season_name("NHL", season)
    assert named != str(season)
    assert at.title[0].value == f"{title}, {named.replace('-', NON_BREAKING_HYPHEN)}"


def test_the_games_list_names_its_season_the_title_the_page(dashboard_env: ApiServer) -> None:
    """The Games page's list is a season's; its detail tab may show a game of any season, so the
    season is named above the list, not in the page's title."""
    season = api.season_ids("NHL", with_games=True)[0]
    at = open_page("games", {"level": "NHL"})
    assert_clean(at)
    named = api.season_name("NHL", season).replace("-", NON_BREAKING_HYPHEN)
    assert at.title[0].value == "NHL games"
    assert any(f" games in {named} · " in c.value for c in at.caption), [c.value for c in at.caption]
