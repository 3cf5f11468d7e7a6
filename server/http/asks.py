"""Turn a request's query string into an ``Ask`` for one endpoint (contract section 4).

Every parameter is converted by its declared kind; a parameter the endpoint does not take is
ignored with a warning; ``search`` of 4 characters or fewer is ignored with a warning; ``limit``
values are checked against the endpoint's; ``playbyplay`` demands a qualifying filter.
"""
from __future__ import annotations

from collections.abc import Callable

from server.catalog.levels import Level
from server.endpoints.base import Ask, Endpoint
from server.http.errors import BadParameter, FilterRequired
from server.http.params import CONVERTERS, SEARCH_MIN, day_range, page_window, show

COMMON = ("key", "format", "max", "page")
_DATES = ("date", "start", "end", "last")


def parse_ask(ep: Endpoint, level: Level, kind: str | None, query: list[tuple[str, str]],
              base_url: str, newest_season: Callable[[str], int | None]) -> Ask:
    warnings: list[str] = []
    values: dict[str, object] = {}
    declared = {p.name: p for p in ep.params}
    raw_common: dict[str, str] = {}
    for name, raw in query:
        lname = name.lower()
        if lname in COMMON:
            raw_common.setdefault(lname, raw)
            continue
        param = declared.get(lname)
        if param is None:
            warnings.append(f"parameter '{show(name)}' is not taken by {ep.name}; ignored")
            continue
        if lname in values:
            warnings.append(f"parameter '{lname}' given more than once; the first is used")
            continue
        values[lname] = CONVERTERS[param.kind](lname, raw)

    search = values.get("search")
    if isinstance(search, str) and len(search) < SEARCH_MIN:
        warnings.append(f"search '{show(search)}' ignored: {SEARCH_MIN - 1} characters or fewer")
        del values["search"]

    if "limit" in values:
        allowed = ep.type_limits.get(kind or "", ep.limits) if ep.type_limits else ep.limits
        if values["limit"] not in allowed:
            choices = ", ".join(f"={v}" for v in allowed) or "none"
            raise BadParameter(f"limit '{show(str(values['limit']))}' is not allowed here; "
                               f"allowed: {choices}", "limit")

    if "id" not in values:
        for name in ep.with_id_only:
            if name in values:
                warnings.append(f"{name} counts only together with id; ignored")
                del values[name]

    if ep.paginated:
        size, page = page_window(raw_common.get("max"), raw_common.get("page"), warnings)
    else:
        size, page = 0, 1
        for name in ("max", "page"):
            if name in raw_common:
                warnings.append(f"{ep.name} is not paginated; {name} ignored")

    if ep.required_any and not any(values.get(n) is not None for n in ep.required_any):
        raise FilterRequired(
            f"{ep.name} needs at least one of: {', '.join(ep.required_any)}", None)

    ask = Ask(endpoint=ep.name, level=level, type=kind, values=values, warnings=warnings,
              size=size, page=page, base_url=base_url)
    if any(n in values for n in _DATES):
        ask.day_from, ask.day_to = day_range(values, warnings)
    if ep.season_default and values.get("season") is None and "date" not in values:
        values["season"] = newest_season(level.code)
    ask.season = values.get("season")  # type: ignore[assignment]
    return ask


def cache_key(ask: Ask, kind: str | None) -> tuple[object, ...]:
    """The request's canonical identity for the result cache (no key, no format)."""
    values = tuple(sorted((k, str(v)) for k, v in ask.values.items()))
    return (ask.endpoint, ask.code, kind, ask.base_url, values, ask.day_from, ask.day_to,
            ask.size, ask.page)
