"""A page's whole cost is bounded, not only its reads: no page of any list, in any format,
holds more than ``BUDGET`` bytes at its largest size, and an endpoint whose records are heavy
declares the most a page holds (``Endpoint.max_page``; docs/api/limits.md)."""
from __future__ import annotations

import httpx
import pytest

from server.endpoints.registry import ENDPOINTS
from tests.conftest import ApiServer

BUDGET = 4 * 1024 * 1024  # bytes: the most one page may be, whatever was asked
FORMATS = ("json", "xml", "php")
# each list with what it needs to have records on the demo store (season 0: a held season)
LISTS = {"games": {}, "boxscores": {}, "playbyplay": {"season": 0}, "pitch": {"season": 0},
         "playerperfs": {}, "teamperfs": {}, "players": {}, "stats": {"stat": "HR"},
         "forecasts": {}, "moneyline": {}, "news": {}, "transactions": {}, "officials": {},
         "venues": {}, "teams": {}, "elo": {}, "standings": {}}
MOST = {ep.name: ep.max_page or 1000 for ep in ENDPOINTS}


def _page(api: ApiServer, endpoint: str, params: dict[str, object], fmt: str) -> httpx.Response:
    version = next(ep.version for ep in ENDPOINTS if ep.name == endpoint)
    return api.get(f"/{version}/{endpoint}/MLB/", max=1000, format=fmt, **params)


def test_a_heavy_endpoint_clamps_its_page_and_says_so(demo_api: ApiServer) -> None:
    doc = _page(demo_api, "boxscores", {}, "json").json()
    assert doc["meta"]["Max_Results"] == MOST["boxscores"] == 100
    assert len(doc["boxscores"]) == 100 and doc["meta"]["Total_Results"] > 100
    assert "max 1000 clamped to 100, the most boxscores a page holds" in doc["meta"]["Warnings"]
    assert "page=2" in doc["meta"]["Next_Page"] and "max=1000" in doc["meta"]["Next_Page"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_no_page_is_heavier_than_the_budget(demo_api: ApiServer, fmt: str) -> None:
    """Each list's bytes per record, times the most records its page holds, within BUDGET."""
    heaviest: dict[str, int] = {}
    seasons = _page(demo_api, "seasons", {}, "json").json()["seasons"]
    done = max(s["ID"] for s in seasons if s["Games"])  # a season with plays and pitches
    for endpoint, wanted in LISTS.items():
        params = {k: done if k == "season" else v for k, v in wanted.items()}
        counted = _page(demo_api, endpoint, params, "json").json()
        records = len(counted[endpoint])
        assert records, f"{endpoint}: no records on the demo store to weigh"
        body = _page(demo_api, endpoint, params, fmt)
        heaviest[endpoint] = len(body.content) * MOST[endpoint] // records
    over = {name: size for name, size in heaviest.items() if size > BUDGET}
    assert over == {}, f"pages over {BUDGET:,} bytes at their largest ({fmt}): {over}"


def test_v3_offsets_count_in_the_pages_a_heavy_endpoint_serves(demo_api: ApiServer) -> None:
    """A v3 client paging box scores by offset with ``max=1000`` (docs/api/natstat.md) walks
    pages of 100, the size served: the offset ``page-next`` names holds the next 100 records,
    not the first page again (its offset was read in pages of 1000)."""
    seasons = _page(demo_api, "seasons", {}, "json").json()["seasons"]
    season = max(s["ID"] for s in seasons if s["Games"])
    first = demo_api.get_json(f"/natstat/{demo_api.key}/boxscores/MLB/{season}", keyed=False, max=1000)
    assert first["meta"]["results-max"] == "100" and first["meta"]["page"] == "1"
    following = first["meta"]["page-next"]
    assert following.split("?")[0].endswith(f"/{season}/100")
    second = demo_api.follow(following).json()
    assert second["meta"]["page"] == "2", second["meta"]
    total = int(first["meta"]["results-total"])
    assert len(second["boxscores"]) == min(100, total - 100) > 0
    assert not set(first["boxscores"]) & set(second["boxscores"])
