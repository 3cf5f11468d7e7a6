"""Every page renders over the demo store, at a level of each sport, with no error and no None."""
from __future__ import annotations

import pytest

from tests.dashboard._apptest import assert_clean, open_page
from tests.dashboard.conftest import ApiServer

PAGES = ("overview", "games", "ratings", "projections", "forecasts", "playbyplay", "players", "leaders", "glossary")
LEVELS = ("MLB", "NBA", "NHL", "FC")


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("page", PAGES)
def test_page_renders(dashboard_env: ApiServer, page: str, level: str) -> None:
    at = open_page(page, {"level": level})
    assert_clean(at)
    assert at.title, "every page names what it shows"
    for table in at.dataframe:
        assert "None" not in table.value.astype(str).to_numpy(), (page, level, table.value.columns.tolist())
