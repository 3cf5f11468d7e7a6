"""/health, /openapi.json and /docs: no key, generated from the declarations, complete."""
from __future__ import annotations

from typing import Any

from server.endpoints.base import Field
from server.endpoints.registry import ENDPOINTS
from server.store.schema import SCHEMA_VERSION
from tests.conftest import MiniStore
from tests.demo_api import ApiServer


def test_health_reports_store_and_levels(api: ApiServer, mini_store: MiniStore) -> None:
    doc = api.send("/health", key="").json()
    assert doc["SchemaVersion"] == SCHEMA_VERSION
    assert doc["Dialect"] == mini_store.engine.dialect.name
    assert doc["Store"].startswith(mini_store.engine.url.drivername.split("+")[0])
    mlb = next(lv for lv in doc["Levels"] if lv["Level"] == "MLB")
    assert mlb["NewestGame"] and mlb["Sources"] == ["simulated"]
    assert len(doc["Levels"]) == 23


def test_health_reports_each_part_with_its_state(api: ApiServer) -> None:
    """Store, Redis and the latest re-tabulation, each with a state a monitor can match on;
    without REDIS_URL Redis is off, which is no fault."""
    doc = api.send("/health", key="").json()
    parts = doc["Parts"]
    assert parts["Store"]["State"] == "ok"
    assert parts["Redis"] == {"State": "off"}
    assert parts["Retabulation"]["State"] in ("ok", "never")
    assert doc["Status"] == "ok"


def test_health_hides_passwords() -> None:
    from server.store.engine import describe, make_engine

    engine = make_engine("postgresql://user:secret@127.0.0.1:1/db")
    assert "secret" not in describe(engine)


def _check_fields(where: str, fields: tuple[Field, ...], documented: dict[str, Any]) -> None:
    """Every declared field is documented with a description and (leaf fields) an example."""
    for field in fields:
        if field.name.startswith("_"):
            continue
        doc = documented.get(field.name)
        assert doc is not None and doc["description"], (where, field.name)
        if field.kind == "object":
            _check_fields(f"{where}.{field.name}", field.children, doc["properties"])
        elif field.example is not None:
            assert doc["examples"] == [field.example]


def test_openapi_documents_every_endpoint_parameter_and_field(api: ApiServer) -> None:
    spec = api.send("/openapi.json", key="").json()
    for ep in ENDPOINTS:
        op = spec["paths"][f"/{ep.version}/{ep.name}/{{level}}/"]["get"]
        names = {p["name"] for p in op["parameters"]}
        assert {p.name for p in ep.params} | {"key", "format", "level"} <= names
        props = op["responses"]["200"]["content"]["application/json"]["schema"]["properties"]
        record = props[ep.name]["items"]["properties"]
        _check_fields(ep.name, ep.fields, record)
        for p in op["parameters"]:
            assert p["description"] and "example" in p


def test_docs_page_renders_without_a_key(api: ApiServer) -> None:
    page = api.send("/docs", key="")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    for ep in ENDPOINTS:
        assert f"/{ep.version}/{ep.name}/" in page.text
    assert "cdn" not in page.text.lower()


def test_trailing_slash_optional(api: ApiServer) -> None:
    assert api.send("/v1/games/MLB").status_code == 200
    assert api.send("/v1/glossary/MLB/stats").status_code == 200
