"""The OpenAPI 3.1 document, generated from the endpoint declarations (never written by hand).

Each endpoint becomes a path with its parameters (common ones included) and a response schema
whose record properties are the declared fields, each with its description and example.
"""
from __future__ import annotations

from typing import Any

import orjson

from server.endpoints.base import Endpoint, Field
from server.endpoints.registry import ENDPOINTS, served_levels
from server.errors import ERROR_TYPES
from server.http.parse import MAX_DEFAULT, MAX_LIMIT
from server.catalog.phases import PHASES, SEASON_TYPES
from server.store.schema import GAME_STATES

_TYPES: dict[str, dict[str, Any]] = {
    "integer": {"type": ["integer", "null"]}, "number": {"type": ["number", "null"]},
    "string": {"type": ["string", "null"]},
    "date": {"type": ["string", "null"], "format": "date"},
    "datetime": {"type": ["string", "null"], "format": "date-time"},
    "yn": {"type": ["string", "null"], "enum": ["Y", "N", None]},
    "money": {"type": ["string", "null"], "pattern": "^[+-][0-9]+$|^0$"},
    "stats": {"type": "object", "additionalProperties": {"type": ["number", "null"]}},
    "any": {},
}
_INT64 = 2**63 - 1  # params.to_number refuses anything wider
_TEXT = {"type": "string", "minLength": 1, "maxLength": 200, "pattern": "\\S"}  # to_string
_PARAM_SCHEMA: dict[str, dict[str, Any]] = {
    "number": {"type": "integer", "minimum": -_INT64, "maximum": _INT64},
    "positive": {"type": "integer", "minimum": 1, "maximum": _INT64},
    "string": _TEXT, "ref": _TEXT,
    "date": {"type": "string", "format": "date"},  # other forms are best effort, not promised
    "limit": {"type": "string"}, "search": {"type": "string"},
    "state": {"type": "string", "enum": list(GAME_STATES)},  # any case is taken
    "seasontype": {"type": "string", "enum": list(SEASON_TYPES)},  # any case is taken
    # one phase or several, comma separated, any case
    "phase": {"type": "string", "pattern": "^\\s*[A-Za-z]+(\\s*,\\s*[A-Za-z]+)*\\s*$",
              "examples": [PHASES[1], ",".join(PHASES[2:])]},
}


def field_schema(f: Field) -> dict[str, Any]:
    """The JSON schema of one record field, by its kind."""
    if f.kind == "object":
        out: dict[str, Any] = {"type": ["object", "null"], "properties": {
            c.name: field_schema(c) for c in f.children}}
    elif f.kind == "list":
        out = {"type": "array"}
    else:
        out = dict(_TYPES[f.kind])
    out["description"] = f.doc + (" (detail only: with id)" if f.detail else "") + (
        f" (levels {', '.join(f.levels)} only)" if f.levels else "")
    if f.example is not None:
        out["examples"] = [f.example]
    return out


def _common(ep: Endpoint, levels: tuple[str, ...]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [
        {"name": "level", "in": "path", "required": True, "description":
         "competition level code (case-insensitive)", "schema": {"type": "string",
                                                                 "enum": list(levels)},
         "example": levels[0] if levels else "MLB"},
        {"name": "key", "in": "query", "required": True, "description": "API key XXXX-XXXXXX",
         "schema": {"type": "string", "pattern": "^[A-Za-z0-9]{4}-[A-Za-z0-9]{6}$"},
         "example": "AB12-CD34EF"},
        {"name": "format", "in": "query", "description": "json (default), xml or php",
         "schema": {"type": "string", "enum": ["json", "xml", "php"]}, "example": "json"},
    ]
    if ep.paginated:
        out += [
            {"name": "max", "in": "query", "description":
             f"results per page; default {min(MAX_DEFAULT, ep.max_page or MAX_LIMIT)}, at most "
             f"{ep.max_page or MAX_LIMIT} (larger is clamped, with a warning)",
             "schema": {"type": "integer", "minimum": 1, "maximum": _INT64}, "example": 100},
            {"name": "page", "in": "query", "description": "page number from 1",
             "schema": {"type": "integer", "minimum": 1, "maximum": _INT64}, "example": 1},
        ]
    return out


def _operation(ep: Endpoint, known: tuple[str, ...]) -> dict[str, Any]:
    levels = served_levels(ep, known)
    params = _common(ep, levels)
    for p in ep.params:
        doc = p.doc
        schema = dict(_PARAM_SCHEMA[p.kind])
        if p.name == "limit" and ep.limits:
            doc += "; values: " + ", ".join(f"={v}" for v in ep.limits)
            # With or without the leading '=' (docs/api/index.md).
            schema["enum"] = [f"={v}" for v in ep.limits] + list(ep.limits)
        example: Any = int(p.example) if schema.get("type") == "integer" else p.example
        param: dict[str, Any] = {"name": p.name, "in": "query", "description": doc,
                                 "schema": schema, "example": example}
        if ep.name == "stats" and p.name == "stat":
            param["required"] = True
        params.append(param)
    record = {"type": "object", "properties": {
        f.name: field_schema(f) for f in ep.fields if not f.name.startswith("_")}}
    body = {"type": "object", "properties": {
        "meta": {"$ref": "#/components/schemas/Meta"},
        ep.name: {"type": "array", "items": record}}}
    return {
        "summary": ep.summary,
        "description": (f"Aliases: {', '.join(ep.aliases) or 'none'}. Levels: "
                        f"{', '.join(levels)}. XML items are <{ep.singular}>."),
        "operationId": ep.name, "parameters": params,
        "responses": {
            "200": {"description": "the records", "content": {
                "application/json": {"schema": body},
                "application/xml": {"schema": {"type": "string"}},
                "application/vnd.php.serialized": {"schema": {"type": "string"}}}},
            "304": {"description": "not modified (If-None-Match matched the ETag)"},
            **{str(code): {"description": ", ".join(sorted(
                e.code for e in ERROR_TYPES if e.status == code)),
                "content": {  # errors come in the requested format (docs/api/index.md)
                    "application/json": {"schema": {"$ref": "#/components/schemas/Error"}},
                    "application/xml": {"schema": {"type": "string"}},
                    "application/vnd.php.serialized": {"schema": {"type": "string"}}}}
               for code in sorted({e.status for e in ERROR_TYPES})},
        },
    }


def spec(known: tuple[str, ...]) -> dict[str, Any]:
    """The OpenAPI document for the levels the store holds, from the declarations."""
    paths: dict[str, Any] = {}
    for ep in ENDPOINTS:
        op = _operation(ep, known)
        if ep.types:
            type_param = {"name": "type", "in": "path", "required": True, "description":
                          f"one of {', '.join(ep.types)} (optional segment; default "
                          f"{ep.types[0]})", "schema": {"type": "string", "enum": list(ep.types)},
                          "example": ep.types[0]}
            paths[f"/{ep.version}/{ep.name}/{{level}}/{{type}}/"] = {"get": {
                **op, "operationId": ep.name + "_typed",
                "parameters": [type_param, *op["parameters"]]}}
        paths[f"/{ep.version}/{ep.name}/{{level}}/"] = {"get": op}
    meta_props = {n: {"type": t, "description": d} for n, t, d in (
        ("Endpoint", "string", "canonical endpoint name"), ("Level", "string", "level code"),
        ("Version", "string", "v1 or v2"), ("Type", "string", "path type, when the endpoint has one"),
        ("Max_Results", "integer", "echo of max"), ("Page", "integer", "echo of page"),
        ("Total_Results", "integer", "total matches"), ("Total_Pages", "integer", "pages"),
        ("Next_Page", "string", "absolute URI of the next page, only when one exists"),
        ("Warnings", "array", "what was ignored or corrected, only when something was"),
        ("Source", "string", "data sources shown, e.g. simulated, retrosheet"))}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Sports data query service", "version": "1",
                 "description": "Read-only sports data: GET with ?key=XXXX-XXXXXX. "
                                "Formats json, xml, php. Each endpoint is documented under its "
                                "version and also answers under the other (v1/v2). Every "
                                "address also answers under /natstat/ with the same data shaped "
                                "as NatStat documents (keyed lists, all values strings)."},
        "paths": paths,
        "components": {"schemas": {
            "Meta": {"type": "object", "properties": meta_props},
            "Error": {"type": "object", "properties": {"error": {"type": "object", "properties": {
                "Status": {"type": "integer", "examples": [400]},
                "Code": {"type": "string", "enum": sorted({e.code for e in ERROR_TYPES})},
                "Parameter": {"type": "string", "examples": ["date"]},
                "Message": {"type": "string",
                            "examples": ["date '2024-13-45' is not a date"]}}}}},
        }},
    }


def encoded(known: tuple[str, ...]) -> bytes:
    """The OpenAPI document as JSON bytes."""
    return orjson.dumps(spec(known))
