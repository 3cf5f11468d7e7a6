"""Step four of a request: the records of a page become a document with its ``meta``.

``meta`` says what was asked and what was found (docs/api/index.md): the endpoint, level,
version and path type; the page window with ``Next_Page``, an absolute URL that keeps every
parameter but ``page`` (the caller's key included: it is the caller's own link); the warnings the request earned; the data sources behind the level and
the notices their licences ask for.
"""
from __future__ import annotations

import math
import os
from typing import Any
from urllib.parse import urlencode

from starlette.requests import Request

from server.catalog.sources import notices
from server.endpoints.base import ParsedRequest, Endpoint, Record


PUBLIC_URL = "SPORTS_PUBLIC_URL"  # e.g. https://api.example.org, where clients reach the service


def public_base(request: Request) -> str:
    """The scheme and host every link in a document starts with: ``SPORTS_PUBLIC_URL`` when
    set, else the address the connection reached (the listening socket's, from the server, not
    the request). Never the ``Host`` header: a caller sending ``Host: evil.example`` would get
    ``Next_Page`` pointing there with its own key in it, a link it may pass on."""
    configured = os.environ.get(PUBLIC_URL, "").strip().rstrip("/")
    if configured:
        return configured
    server = request.scope.get("server")
    if not server:
        return "http://127.0.0.1"
    host, port = server[0], server[1]
    host = f"[{host}]" if ":" in str(host) else str(host)
    return f"http://{host}" if port in (None, 80) else f"http://{host}:{port}"


def next_page(request: Request, ask: ParsedRequest) -> str:
    """The address of the page after this one: the same query with ``page`` moved on."""
    items = [(k, v) for k, v in request.query_params.multi_items() if k.lower() != "page"]
    items.append(("page", str(ask.page + 1)))
    return f"{public_base(request)}{request.url.path}?{urlencode(items)}"


def document(request: Request, ep: Endpoint, ask: ParsedRequest, found: list[Record], total: int,
             source: str | None) -> dict[str, Any]:
    """The logical document of one answer: ``meta`` and the endpoint's list of records."""
    meta: dict[str, Any] = {"Endpoint": ep.name, "Level": ask.code, "Version": ep.version}
    if ask.type is not None or ep.types:
        meta["Type"] = ask.type or ep.types[0]
    if ep.paginated:
        pages = math.ceil(total / ask.size) if total else 0
        meta.update({"Max_Results": ask.size, "Page": ask.page, "Total_Results": total,
                     "Total_Pages": pages})
        if ask.page < pages and "id" not in ask.values:
            meta["Next_Page"] = next_page(request, ask)
    else:
        meta.update({"Max_Results": total, "Page": 1, "Total_Results": total,
                     "Total_Pages": 1 if total else 0})
    if ask.warnings:
        meta["Warnings"] = list(ask.warnings)
    if source:
        meta["Source"] = source
        owed = notices(source)
        if owed:
            meta["Notices"] = owed
    return {"meta": meta, ep.name: found}
