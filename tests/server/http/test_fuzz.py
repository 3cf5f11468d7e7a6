"""Garbage in the query string never gives a 5xx: always 200/304 or a documented 4xx."""
from __future__ import annotations

from urllib.parse import quote

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.endpoints.registry import ENDPOINTS
from tests.demo_api import ApiServer

NAMES = ["id", "team", "season", "sublevel", "player", "game", "search", "date", "start", "end",
         "last", "limit", "stat", "max", "page", "format", "type", "key"]
VALUES = st.one_of(st.text(max_size=30), st.integers(-10**20, 10**20).map(str),
                   st.sampled_from(["=today", "=inprogress", "2024-04-01", "20240401",
                                    "July 4, 2024", "0", "-1", "1e9", "", "%00", "'; drop"]))
PATHS = [f"/{ep.version}/{ep.name}/{level}/" for ep in ENDPOINTS
         for level in ("MLB", "FC", "MBB")] + ["/v1/stats/MLB/team/", "/v1/glossary/FC/stats/"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PATHS),
       st.dictionaries(st.one_of(st.sampled_from(NAMES), st.text(max_size=8)), VALUES,
                       max_size=6))
def test_garbage_parameters_never_5xx(api: ApiServer, path: str, params: dict[str, str]) -> None:
    key = params.pop("key", None)
    response = api.send(path, params, key=key if key is not None else None)
    assert response.status_code < 500, (path, params, response.text)
    if response.status_code >= 400:
        error = response.json()["error"] if response.headers["content-type"].startswith(
            "application/json") else None
        assert error is None or {"Status", "Code", "Message"} <= set(error)


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8", exclude_characters="/?#%"), min_size=1,
               max_size=12))
def test_garbage_paths_never_5xx(api: ApiServer, segment: str) -> None:
    segment = quote(segment, safe="")  # a client sends paths percent-encoded
    for path in (f"/v1/{segment}/MLB/", f"/v1/games/{segment}/", f"/{segment}/games/MLB/"):
        assert api.send(path).status_code < 500
