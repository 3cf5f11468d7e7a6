"""Pages partition a result exactly; Next_Page is an absolute URI to the next page."""
from __future__ import annotations

from typing import Any
from tests.demo_api import ApiServer

import httpx
import pytest


LISTS = [("/v1/games/MLB/", {}), ("/v1/games/MLB/", {"team": 1, "season": 2024}),
         ("/v1/playerperfs/MLB/", {}), ("/v1/pitch/MLB/", {"season": 2024}),
         ("/v1/pbp/MLB/", {"season": 2024}), ("/v2/forecasts/MLB/", {}),
         ("/v1/news/MLB/", {}), ("/v1/elo/MLB/", {"team": 2})]


@pytest.mark.parametrize("path,params", LISTS)
@pytest.mark.parametrize("size", [1, 7, 10])
def test_pages_partition_the_full_list(api: ApiServer, path: str, params: dict[str, Any],
                                       size: int) -> None:
    full = api.send(path, {**params, "max": 1000}).json()
    name = full["meta"]["Endpoint"]
    everything = [r["ID"] if "ID" in r else r["Game_ID"] for r in full[name]]
    assert len(everything) == full["meta"]["Total_Results"]
    seen: list[int] = []
    page = 1
    while True:
        doc = api.send(path, {**params, "max": size, "page": page}).json()
        assert doc["meta"]["Page"] == page and doc["meta"]["Max_Results"] == size
        seen += [r["ID"] if "ID" in r else r["Game_ID"] for r in doc[name]]
        if "Next_Page" not in doc["meta"]:
            break
        page += 1
    assert seen == everything
    assert page == max(1, doc["meta"]["Total_Pages"])


def test_next_page_carries_every_parameter(api: ApiServer) -> None:
    doc = api.send("/v1/games/MLB/", {"season": 2024, "max": 5, "team": 1}).json()
    link = httpx.URL(doc["meta"]["Next_Page"])
    assert link.scheme == "http" and link.host == "127.0.0.1"
    assert dict(link.params) == {"key": api.key, "season": "2024", "max": "5", "team": "1",
                                 "page": "2"}
    following = api.send(str(link), key="").json()
    assert following["meta"]["Page"] == 2


def test_past_the_last_page_is_empty(api: ApiServer) -> None:
    doc = api.send("/v1/games/MLB/", {"page": 999}).json()
    assert doc["games"] == [] and "Next_Page" not in doc["meta"]
    assert doc["meta"]["Total_Results"] > 0


def test_pages_after_the_first_keep_its_total(api: ApiServer) -> None:
    """A list's total, kept from its first page, answers its other pages and sizes: the last
    page holds the rest, a page past it is empty, both with the first page's total."""
    params = {"season": 2024}
    total = api.send("/v1/pitch/MLB/", {**params, "max": 3}).json()["meta"]["Total_Results"]
    assert total > 10
    for size in (3, 4):
        last = -(-total // size)
        doc = api.send("/v1/pitch/MLB/", {**params, "max": size, "page": last}).json()
        assert len(doc["pitch"]) == total - (last - 1) * size
        past = api.send("/v1/pitch/MLB/", {**params, "max": size, "page": last + 1}).json()
        assert past["pitch"] == [] and "Next_Page" not in past["meta"]
        assert doc["meta"]["Total_Results"] == past["meta"]["Total_Results"] == total


def test_max_is_clamped_with_a_warning(api: ApiServer) -> None:
    doc = api.send("/v1/games/MLB/", {"max": 5000}).json()
    assert doc["meta"]["Max_Results"] == 1000
    assert any("1000" in w for w in doc["meta"]["Warnings"])


def test_warnings_only_when_something_was_ignored(api: ApiServer) -> None:
    assert "Warnings" not in api.send("/v1/games/MLB/", {"max": 2}).json()["meta"]
    doc = api.send("/v1/teams/MLB/", {"search": "NYY", "colour": "red"}).json()
    assert len(doc["meta"]["Warnings"]) == 2
    assert len(doc["teams"]) == 4  # the short search was ignored, not applied
