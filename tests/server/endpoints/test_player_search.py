"""Finding a player by name as an analyst types it: the best matches first (the whole name, then
a surname, then a start, then anywhere), and short surnames (Ruth, Ott) through ``name``."""
from __future__ import annotations

from typing import Any


from tests.demo_api import ApiServer


def _players(demo: ApiServer, **params: Any) -> dict[str, Any]:
    doc: dict[str, Any] = demo.get_json("/v1/players/MLB/", **params)
    return doc


def _every_name(demo: ApiServer) -> list[str]:
    names: list[str] = []
    page = 1
    while True:
        doc = _players(demo, max=1000, page=page)
        names += [p["Name"] for p in doc["players"]]
        if "Next_Page" not in doc["meta"]:
            return names
        page += 1


def _grade(name: str, text: str) -> int:
    name, text = name.lower(), text.lower()
    if name == text:
        return 0
    if name.endswith(" " + text):
        return 1
    return 2 if name.startswith(text) else 3


def test_search_lists_surnames_before_names_that_merely_contain_the_text(
        demo_api: ApiServer) -> None:
    names = _every_name(demo_api)
    surnames = {n.split()[-1] for n in names if len(n.split()[-1]) >= 5}
    # a surname that is also inside some longer name: the case that ranked badly
    text = next(s for s in sorted(surnames)
                if any(s.lower() in n.lower() and not n.lower().endswith(" " + s.lower())
                       for n in names))
    found = [p["Name"] for p in _players(demo_api, search=text, max=1000)["players"]]
    expected = sorted((n for n in names if text.lower() in n.lower()),
                      key=lambda n: _grade(n, text))
    assert [_grade(n, text) for n in found] == [_grade(n, text) for n in expected]
    assert _grade(found[0], text) <= 1 and _grade(found[-1], text) >= 2


def test_a_short_surname_is_found_by_name(demo_api: ApiServer) -> None:
    names = _every_name(demo_api)
    short = next(n for n in names if len(n.split()[-1]) <= 4)
    surname = short.split()[-1]
    ignored = _players(demo_api, search=surname)
    assert any("ignored" in w for w in ignored["meta"]["Warnings"])  # the spec's rule stands
    found = [p["Name"] for p in _players(demo_api, name=surname.upper(), max=1000)["players"]]
    assert short in found
    assert found == sorted(n for n in names if n.lower().endswith(" " + surname.lower()))
    assert [p["Name"] for p in _players(demo_api, name=short.lower())["players"]] == [short]
