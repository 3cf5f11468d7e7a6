"""Step four of a request: the records of a page become a document with its ``meta``.

``meta`` says what was asked and what was found (contract section 3): the endpoint, level,
version and path type; the page window with ``Next_Page``, an absolute URL that keeps every
parameter but ``page``; the warnings the request earned; the data sources behind the level and
the notices their licences ask for.
"""
from __future__ import annotations

import math
from typing import Any
from urllib.parse import urlencode

from starlette.requests import Request

from server.catalog.sources import notices
from server.endpoints.base import Ask, Endpoint, Record


def next_page(request: Request, ask: Ask) -> str:
    """The address of the page after this one: the same query with ``page`` moved on."""
    items = [(k, v) for k, v in request.query_params.multi_items() if k.lower() != "page"]
    items.append(("page", str(ask.page + 1)))
    url = request.url
    return f"{url.scheme}://{url.netloc}{url.path}?{urlencode(items)}"


def document(request: Request, ep: Endpoint, ask: Ask, found: list[Record], total: int,
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
