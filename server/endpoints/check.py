"""Step two of a request: an endpoint's rules, applied to a parsed ``ParsedRequest``.

Parsing (``server.http.parse``) turned the query string into typed values; here the declaration's
rules decide what those values mean for this endpoint, and return a normalised copy: a ``limit``
the endpoint allows, a filter that counts only with ``id``, the filters one of which is required, the default
season, then the endpoint's own ``check`` (stats: the stat code as the glossary spells it). The
answer cache keys on the copy, so two spellings of one question share an answer.
"""
from __future__ import annotations

from server.endpoints.base import ParsedRequest, Endpoint
from server.errors import BadParameter, FilterRequired, show
from server.store.facts import StoreFacts


def check(ep: Endpoint, ask: ParsedRequest, facts: StoreFacts) -> ParsedRequest:
    """The request as ``ep``'s rules read it, or the error naming the rule it breaks."""
    values = dict(ask.values)
    warnings = list(ask.warnings)
    limit = values.get("limit")
    if limit is not None:
        allowed = ep.type_limits.get(ask.type or "", ep.limits) if ep.type_limits else ep.limits
        if limit not in allowed:
            choices = ", ".join(f"={v}" for v in allowed) or "none"
            raise BadParameter(f"limit '{show(str(limit))}' is not allowed here; allowed: {choices}",
                               "limit")
    if "id" not in values:
        for name in ep.with_id_only:
            if name in values:
                warnings.append(f"{name} counts only together with id; ignored")
                del values[name]
    if ep.required_any and not any(values.get(n) is not None for n in ep.required_any):
        raise FilterRequired(f"{ep.name} needs at least one of: {', '.join(ep.required_any)}",
                             None)
    if ep.season_default and values.get("season") is None and "date" not in values:
        values["season"] = facts.newest_season(ask.code)
    size = ask.size
    if ep.max_page is not None and size > ep.max_page:
        warnings.append(f"max {size} clamped to {ep.max_page}, the most {ep.name} a page holds")
        size = ep.max_page
    checked = ask.replace(values=values, warnings=tuple(warnings), season=values.get("season"),
                          size=size)
    return checked if ep.check is None else ep.check(checked, facts)
