"""The API reference page, written from the endpoint declarations when the docs are built.

MkDocs calls ``on_files`` (a hook named in ``mkdocs.yml``); the page is generated from the same
OpenAPI document the service serves at ``/openapi.json``, so the reference is never a second
hand-kept list: adding an endpoint, a parameter, a field or an error adds it here.
"""

from __future__ import annotations

from typing import Any

from server.catalog.levels import ALL_CODES, LEVELS
from server.errors import ERROR_TYPES
from server.http.openapi import spec

PAGE = "api/reference.md"


def _cell(text: object) -> str:
    """A value fit for one Markdown table cell."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def _schema_text(schema: dict[str, Any]) -> str:
    kind = schema.get("type", "")
    if "enum" in schema:
        return f"{kind} (one of {', '.join(map(str, schema['enum']))})"
    if "format" in schema:
        return f"{kind} ({schema['format']})"
    return str(kind)


def _operation(path: str, op: dict[str, Any]) -> list[str]:
    out = [f"### `GET {path}`", "", op["summary"], "", op["description"], "",
           "| parameter | where | type | what it does |", "|---|---|---|---|"]
    for p in op["parameters"]:
        out.append(f"| `{p['name']}` | {p['in']} | {_cell(_schema_text(p['schema']))} "
                   f"| {_cell(p.get('description', ''))} |")
    record = op["responses"]["200"]["content"]["application/json"]["schema"]["properties"]
    fields = next(v for k, v in record.items() if k != "meta")["items"]["properties"]
    out += ["", "| field | type | what it holds |", "|---|---|---|"]
    out += [f"| `{name}` | {_cell(_schema_text(f))} | {_cell(f.get('description', ''))} |"
            for name, f in fields.items()]
    return [*out, ""]


def page() -> str:
    """The whole reference page as Markdown."""
    doc = spec(ALL_CODES)
    out = ["# API reference", "",
           "Generated from the endpoint declarations (`server/endpoints/`), the same document the",
           "service serves at `/openapi.json`. Every address answers in `json`, `xml` and `php`",
           "(`format=`), and again under `/natstat/` in the NatStat dialect",
           "([Using existing NatStat code](natstat.md)).", "", "## Levels", "",
           "| code | name |", "|---|---|"]
    out += [f"| `{lv.code}` | {_cell(lv.name)} |" for lv in LEVELS]
    out += ["", "## Errors", "",
            ("Every error is a document in the requested format: "
             "`{\"error\": {\"Status\", \"Code\", \"Parameter\", \"Message\"}}`."), "",
            "| status | code | when |", "|---|---|---|"]
    out += [f"| {e.status} | `{e.code}` | {_cell((e.__doc__ or '').strip().splitlines()[0])} |"
            for e in sorted(ERROR_TYPES, key=lambda e: (e.status, e.code))]
    out += ["", "## Endpoints", ""]
    for path, item in doc["paths"].items():
        out += _operation(path, item["get"])
    return "\n".join(out) + "\n"


def on_files(files: Any, config: Any) -> Any:
    """MkDocs hook: add the generated page to the site's files."""
    from mkdocs.structure.files import File

    files.append(File.generated(config, PAGE, content=page()))
    return files
