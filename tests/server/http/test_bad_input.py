"""Every bad input gets a clear answer (issue 28, part 5): a 400 in the API's error document (docs/api/index.md)
naming the parameter, never a 503 after the store gave up, never a silent choice."""
from __future__ import annotations
from tests.demo_api import ApiServer

import time

import httpx
import pytest



def _bad_parameter(response: httpx.Response, parameter: str) -> None:
    assert response.status_code == 400, response.text[:300]
    error = response.json()["error"]
    assert error["Code"] == "bad_parameter" and error["Parameter"] == parameter, error


@pytest.mark.parametrize("value", ["x" * 49_999, "_" * 25_000, "%" * 5_000, "a" * 201])
def test_overlong_search_is_a_quick_400(api: ApiServer, value: str) -> None:
    started = time.monotonic()
    _bad_parameter(api.send("/v1/players/MLB/", {"search": value}), "search")
    assert time.monotonic() - started < 5


def test_every_overlong_value_names_its_parameter(api: ApiServer) -> None:
    for name in ("name", "team", "date", "status", "limit"):
        path = "/v1/players/MLB/" if name == "name" else "/v1/games/MLB/"
        _bad_parameter(api.send(path, {name: "9" * 300}), name)


def test_a_search_of_200_characters_is_still_a_search(api: ApiServer) -> None:
    response = api.send("/v1/players/MLB/", {"search": "z" * 200})
    assert response.status_code == 200 and response.json()["players"] == []


@pytest.mark.parametrize("query, parameter", [
    ("max=5&max=50", "max"), ("page=1&page=2", "page"), ("format=json&format=xml", "format"),
    ("team=1&team=2", "team"), ("max=5&MAX=5", "max"),
])
def test_a_parameter_given_twice_is_a_400(api: ApiServer, query: str, parameter: str) -> None:
    response = api.send(f"/v1/games/MLB/?key={api.key}&{query}", key="")
    assert response.status_code == 400, response.text[:300]
    assert f"<Parameter>{parameter}</Parameter>" in response.text or \
        response.json()["error"]["Parameter"] == parameter


def test_the_key_given_twice_is_refused(api: ApiServer) -> None:
    for query in (f"key={api.key}&key={api.key}", f"key=ABCD-123456&key={api.key}"):
        response = api.send(f"/v1/games/MLB/?{query}", key="")
        assert response.status_code == 400 and response.json()["error"]["Parameter"] == "key"
    response = api.send(f"/v1/games/MLB/?key={api.key}&key=ABCD-123456", key="")
    assert response.status_code == 401  # the key checked is refused before any parameter


@pytest.mark.parametrize("name, value", [
    ("max", "\u0663"), ("max", "\uff14"), ("page", "\u0662"), ("season", "\uff12\uff10\uff12\uff14"),
    ("team", "\u0661"), ("date", "\u0662\u0660\u0662\u0664-04-01"),
])
def test_digits_other_than_ascii_are_not_numbers(api: ApiServer, name: str, value: str) -> None:
    _bad_parameter(api.send("/v1/games/MLB/", {name: value}), name)
