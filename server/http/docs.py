"""/docs: a plain HTML reference rendered from the OpenAPI document (no CDN, no script)."""
from __future__ import annotations

from html import escape
from typing import Any


def _fields(props: dict[str, Any], depth: int = 0) -> list[str]:
    rows = []
    for name, schema in props.items():
        kind = schema.get("type", "")
        kind = "/".join(k for k in kind if k != "null") if isinstance(kind, list) else kind
        example = schema.get("examples", [""])[0]
        rows.append(f"<tr><td>{'&nbsp;' * 4 * depth}<code>{escape(name)}</code></td>"
                    f"<td>{escape(str(kind))}</td><td>{escape(schema.get('description', ''))}</td>"
                    f"<td><code>{escape(str(example))}</code></td></tr>")
        rows += _fields(schema.get("properties", {}), depth + 1)
    return rows


def page(spec: dict[str, Any]) -> str:
    """The /docs page: the OpenAPI document rendered for people."""
    out = ["<!doctype html><html><head><meta charset='utf-8'><title>Sports data API</title>",
           ("<style>body{font-family:sans-serif;max-width:70em;margin:auto}table{border-collapse:"
            "collapse}td,th{border:1px solid #ccc;padding:2px 6px;vertical-align:top}</style>"),
           "</head><body><h1>Sports data query service</h1>",
           (f"<p>{escape(spec['info']['description'])} Machine-readable: "
            "<a href='/openapi.json'>/openapi.json</a>.</p><ul>")]
    for path in spec["paths"]:
        out.append(f"<li><a href='#{escape(path)}'>{escape(path)}</a></li>")
    out.append("</ul>")
    for path, item in spec["paths"].items():
        op = item["get"]
        out.append(f"<h2 id='{escape(path)}'>GET {escape(path)}</h2><p>{escape(op['summary'])}."
                   f" {escape(op['description'])}</p><h3>Parameters</h3><table>"
                   "<tr><th>name</th><th>in</th><th>description</th><th>example</th></tr>")
        for p in op["parameters"]:
            out.append(f"<tr><td><code>{escape(p['name'])}</code></td><td>{p['in']}</td>"
                       f"<td>{escape(p['description'])}</td>"
                       f"<td><code>{escape(str(p.get('example', '')))}</code></td></tr>")
        out.append("</table><h3>Record fields</h3><table><tr><th>field</th><th>type</th>"
                   "<th>meaning</th><th>example</th></tr>")
        schema = op["responses"]["200"]["content"]["application/json"]["schema"]
        items = next(v for k, v in schema["properties"].items() if k != "meta")["items"]
        out += _fields(items["properties"])
        out.append("</table>")
    out.append("</body></html>")
    return "".join(out)
