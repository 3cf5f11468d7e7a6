"""In chromium: a link's choices reach the page it opens, whatever that page calls them. A shared
link naming one ``season`` (as the Games, Standings, Ratings, Projections and Leaders pages write
it) opened in a fresh browser shows that season in the page's own season box: Forecasts' seasons,
a player's season, a team's ELO season."""
from __future__ import annotations

from typing import Any
from urllib.parse import quote_plus

import pytest

from services import api
from tests.dashboard._streamlit import open_fresh
from tests.dashboard.conftest import ApiServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]
playwright_api = pytest.importorskip("playwright.sync_api")
LEVEL = "MLB"


def _select_value(page: Any, label: str) -> str:
    return str(page.locator(f'[data-testid="stSidebar"] input[aria-label="{label}"]').input_value())


def _chips(page: Any, label: str) -> list[str]:
    """The values a sidebar multiselect labelled ``label`` shows."""
    box = page.locator('[data-testid="stSidebar"] [data-testid="stMultiSelect"]').filter(has_text=label)
    return [str(t).strip() for t in box.locator('[data-tag] > span[title]').all_inner_texts()]


def _older_season() -> int:
    """A season that is not the newest: no page shows it unless the link names it."""
    return api.season_ids(LEVEL, with_games=True)[1]


def test_forecasts_show_the_one_season_a_link_names(browser: Any, dashboard: str, dashboard_env: ApiServer) -> None:
    season = _older_season()
    page = open_fresh(browser, f"{dashboard}/forecasts?level={LEVEL}&season={season}")
    shown = (_chips(page, "Seasons"), page.url)
    page.context.close()
    assert shown[0] == [str(season)], shown


def test_a_player_opens_on_the_season_a_link_names(browser: Any, dashboard: str, dashboard_env: ApiServer) -> None:
    season = _older_season()
    player = int(api.stats(LEVEL, "player", "HR", season=season, size=1).frame.iloc[0]["Player_ID"])
    page = open_fresh(browser, f"{dashboard}/players?level={LEVEL}&player={player}&season={season}")
    shown = _select_value(page, "Player season")
    page.context.close()
    assert shown == str(season)


def test_a_team_opens_on_the_season_a_link_names(browser: Any, dashboard: str, dashboard_env: ApiServer) -> None:
    season = _older_season()
    team = str(min(api.teams(LEVEL, season)["Name"].astype(str)))
    page = open_fresh(browser, f"{dashboard}/players?level={LEVEL}&tab=Teams&team={quote_plus(team)}&season={season}")
    shown = _select_value(page, "ELO season")
    page.context.close()
    assert shown == str(season)
