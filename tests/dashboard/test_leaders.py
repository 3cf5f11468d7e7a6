"""Leaders page: a stat code from the URL, ranked, charted."""
from __future__ import annotations

from services import api
from tests.dashboard._apptest import assert_clean, open_page, titles
from tests.dashboard.conftest import ApiServer


def test_leaders_of_a_stat_code(dashboard_env: ApiServer) -> None:
    codes = api.glossary("NBA", "stats")
    code = str(codes[codes["Type"].astype(str) == "player"]["Code"].iloc[0])
    at = open_page("leaders", {"level": "NBA", "stat": code})
    assert_clean(at)
    assert at.selectbox(key="stat").value == code
    assert f"Leaders: {code}" in titles(at)
