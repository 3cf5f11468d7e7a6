"""Every page renders over the demo store, at a level of each sport, with no error and no None."""
from __future__ import annotations

import pytest

from tests.dashboard._apptest import declared_pages, open_clean
from tests.dashboard.conftest import ApiServer

PAGES = tuple(declared_pages())  # every page app.py declares: one added there is tested here too
LEVELS = ("MLB", "NBA", "NHL", "FC")


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("page", PAGES)
def test_page_renders(dashboard_env: ApiServer, page: str, level: str) -> None:
    open_clean(page, {"level": level})
