"""ETag and Cache-Control on every answer; If-None-Match answers 304 (contract section 5)."""
from __future__ import annotations

from tests.conftest import Api


def test_etag_and_304(api: Api) -> None:
    first = api.get("/v1/games/MLB/", {"max": 3})
    etag = first.headers["etag"]
    assert etag.startswith('"') and "max-age" in first.headers["cache-control"]
    again = api.get("/v1/games/MLB/", {"max": 3}, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == etag
    weak = api.get("/v1/games/MLB/", {"max": 3}, headers={"If-None-Match": f'"x", W/{etag}'})
    assert weak.status_code == 304


def test_etag_differs_by_content_and_format(api: Api) -> None:
    a = api.get("/v1/games/MLB/", {"max": 3}).headers["etag"]
    b = api.get("/v1/games/MLB/", {"max": 4}).headers["etag"]
    c = api.get("/v1/games/MLB/", {"max": 3, "format": "xml"}).headers["etag"]
    assert len({a, b, c}) == 3
    stale = api.get("/v1/games/MLB/", {"max": 3}, headers={"If-None-Match": b})
    assert stale.status_code == 200


def test_same_query_same_body(api: Api) -> None:
    one = api.get("/v1/games/MLB/", {"team": 1, "season": 2024, "max": 10})
    two = api.get("/v1/games/MLB/", {"season": 2024, "max": 10, "team": 1})
    assert one.json()["games"] == two.json()["games"]
