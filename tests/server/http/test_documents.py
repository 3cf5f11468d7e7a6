"""The three encodings of one document: JSON, well-formed XML, PHP serialize()."""
from __future__ import annotations

import json
import subprocess
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.http.encode.phpdoc import encode_php
from server.http.encode.xmldoc import encode_xml
from tests.demo_api import ApiServer

PATHS = [("/v1/games/MLB/", {"max": 5}), ("/v1/games/FC/", {}), ("/v1/news/MLB/", {"id": 1}),
         ("/v1/social/MLB/", {"id": "yankees"}), ("/v2/forecasts/MLB/", {"max": 3}),
         ("/v1/playerperfs/MLB/", {"max": 2}), ("/v1/glossary/MLB/", {}),
         ("/v1/games/MLB/", {"id": 5})]


def _normalise(value: Any) -> Any:
    """PHP has one array type: an empty object and an empty list look the same."""
    if isinstance(value, dict):
        return {k: _normalise(v) for k, v in value.items()} if value else []
    if isinstance(value, list):
        return [_normalise(v) for v in value]
    return value


def php_to_json(php: str, body: bytes) -> Any:
    script = ("$v = unserialize(stream_get_contents(STDIN)); if ($v === false) exit(3);"
              "echo json_encode($v, JSON_PRESERVE_ZERO_FRACTION | JSON_INVALID_UTF8_SUBSTITUTE);")
    done = subprocess.run([php, "-r", script], check=False, input=body, capture_output=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("path,params", PATHS)
def test_xml_is_well_formed_and_shaped(api: ApiServer, path: str, params: dict[str, Any]) -> None:
    response = api.send(path, {**params, "format": "xml"})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/xml")
    root = ET.fromstring(response.content)
    assert root.tag == "response" and root.find("meta/Endpoint") is not None
    listing = root[1]
    assert listing.tag == response.content.decode().split("<Endpoint>")[1].split("<")[0]


def test_xml_item_names_are_singular(api: ApiServer) -> None:
    root = ET.fromstring(api.send("/v1/games/MLB/", {"format": "xml", "max": 2}).content)
    games = root.find("games")
    assert games is not None and [child.tag for child in games] == ["game", "game"]
    root = ET.fromstring(api.send("/v1/pbp/MLB/", {"format": "xml", "game": 5, "max": 1}).content)
    assert root.find("playbyplay/play/primary/Name") is not None


@pytest.mark.parametrize("path,params", PATHS)
def test_php_unserialises_to_the_json_document(api: ApiServer, php_binary: str, path: str,
                                               params: dict[str, Any]) -> None:
    as_json = api.send(path, params).json()
    response = api.send(path, {**params, "format": "php"})
    assert response.headers["content-type"] == "application/vnd.php.serialized"
    from_php = php_to_json(php_binary, response.content)
    as_json["meta"].pop("Next_Page", None)
    from_php["meta"].pop("Next_Page", None)
    assert _normalise(from_php) == _normalise(as_json)


TEXT = st.text(alphabet=st.characters(codec="utf-8"), max_size=40)
# Document keys are field names; PHP turns a numeric-string key into an integer key, so a
# key like "0" cannot round-trip and never occurs in our documents.
KEYS = TEXT.filter(lambda k: bool(k) and not k.strip().lstrip("+-").isdigit())
DOCS = st.recursive(st.none() | st.integers(-2**62, 2**62) | TEXT
                    | st.floats(allow_nan=False, allow_infinity=False, width=32),
                    lambda kids: st.lists(kids, max_size=4)
                    | st.dictionaries(KEYS, kids, max_size=4), max_leaves=12)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(["meta", "games", "error"]), DOCS, min_size=1))
def test_xml_well_formed_for_any_text(document: dict[str, Any]) -> None:
    ET.fromstring(encode_xml(document))


def test_php_strings_count_utf8_bytes() -> None:
    assert encode_php({"a": "é"}) == b'a:1:{s:1:"a";s:2:"\xc3\xa9";}'
    assert encode_php([None, 1, 1.5, True]) == b"a:4:{i:0;N;i:1;i:1;i:2;d:1.5;i:3;b:1;}"


@settings(max_examples=100, deadline=None)
@given(DOCS)
def test_php_round_trips_any_document(php_binary: str, document: Any) -> None:
    wrapped = {"doc": document}
    assert _normalise(php_to_json(php_binary, encode_php(wrapped))) == _normalise(
        json.loads(json.dumps(wrapped)))
