"""Documents of the NatStat dialect read as the typed records the pages use (issue #31).

A NatStat backend (the public NatStat API, or this service under ``/natstat/``) answers keyed
objects of strings: ``"games": {"game_2470": {"ScoreVis": "5", ...}}``, ``""`` for a missing
value, nested lists as objects keyed ``<singular>_<n>``, ``"success": "0"`` and ``error:
{message, detail}`` for errors, ``NO_DATA`` where a newer server found nothing. The pages are
written against the typed documents of the root; this module is the one place that turns the
first into the second, so every page runs on either backend unchanged:

* a whole number is an int, a decimal a float, ``""`` is None (money lines keep their sign as
  the root sends them, ``"+135"``; Y/N flags stay);
* a keyed object whose keys are one name and a number (``notice_1``, ``visitor_1``) is a list,
  without the ``ID`` the dialect copies from a record's ``Season`` or ``Code`` key;
* the list is found under the dialect's name (``pitches``, ``items``, ``performances``);
* ``Overtime`` ``N`` (NatStat's "regulation") is None, as at the root;
* a glossary item's ``ID`` and ``Label`` (NatStat's names for a code and its name) are its
  ``Code`` (or ``ID``) and ``Name``, as at the root.
"""
from __future__ import annotations

import re
from typing import Any

_INT = re.compile(r"^-?(?:0|[1-9]\d{0,17})$")
_FLOAT = re.compile(r"^-?\d+\.\d+(?:[eE][-+]?\d+)?$")
_KEYED = re.compile(r"^([A-Za-z]+)_(-?\d+)$")
# Fields the root sends as signed strings (docs/api/index.md: money lines "+135", "-150").
# ``Overtime`` is text too: "OT", "2OT", "SO" or the number of extra innings ("2").
_TEXT_FIELDS = frozenset({"VisMoneyLine", "HomeMoneyLine", "MoneyLineDrift", "TheCount",
                          "Overtime"})
# What keys a nested record without an ID of its own (its value is then copied as its ID).
_KEYED_BY = ("Season", "Code")
# The list of an endpoint under the names a NatStat backend may use for it.
LIST_NAMES: dict[str, tuple[str, ...]] = {
    "pitch": ("pitches",), "glossary": ("items",),
    "playerperfs": ("performances",), "teamperfs": ("performances",),
    "moneyline": ("moneylines",),
}
NO_DATA = "NO_DATA"
PREFIX = "/natstat"  # this service's dialect, under its own root
# What this service adds to the NatStat API: a NatStat backend without them answers 404, which
# the pages show as "not offered by this backend".
OURS_ONLY = frozenset({"projections", "boxscores", "calibration", "outcomes"})


def server_root(url: str) -> str:
    """The root of the server a dialect base URL names (``/health`` lives there)."""
    return url.removesuffix(PREFIX)


def typed(value: Any, name: str = "") -> Any:
    """A dialect value as the root would have sent it."""
    if isinstance(value, dict):
        if _is_list(value):
            return _without_copied_ids([typed(v) for v in value.values()])
        return {k: typed(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [typed(v) for v in value]
    if not isinstance(value, str):
        return value
    if value == "" or (name == "Overtime" and value == "N"):
        return None
    if name in _TEXT_FIELDS:
        return value
    if _INT.match(value):
        return int(value)
    if _FLOAT.match(value):
        return float(value)
    return value


def _is_list(value: dict[str, Any]) -> bool:
    """A dialect list: members named ``<name>_<n>`` under one name, numbered (``player_30``) or
    each named by its record's own ``ID`` (a box score's notes: ``visitor_HR``, ``"ID": "HR"``)."""
    if not value:
        return False
    keyed = [_KEYED.match(str(k)) for k in value]
    if all(keyed) and len({m[1] for m in keyed if m}) == 1:
        return True
    named = [str(k).rpartition("_") for k in value]
    return len({name for name, _, _ in named}) == 1 and all(
        sep and isinstance(v, dict) and str(v.get("ID")) == own
        for (_, sep, own), v in zip(named, value.values(), strict=True))


def _without_copied_ids(items: list[Any]) -> list[Any]:
    """A nested list without the ``ID`` the dialect copies into records keyed by their
    ``Season`` or ``Code`` (a player's seasons, ``season_2023``: ``"ID": "2023"``), which the
    root does not send: the pages would show it as one more column."""
    dicts = [i for i in items if isinstance(i, dict)]
    if not dicts or len(dicts) != len(items):
        return items
    for field in _KEYED_BY:
        if all("ID" in d and field in d and d["ID"] == d[field] for d in dicts):
            return [{k: v for k, v in d.items() if k != "ID"} for d in dicts]
    return items


def records(document: dict[str, Any], endpoint: str) -> list[dict[str, Any]]:
    """The typed records of a dialect list document (the members that describe a stats table,
    which are not records, left out)."""
    for name in (endpoint, *LIST_NAMES.get(endpoint, ())):
        listing = document.get(name)
        if isinstance(listing, dict):
            found = [typed(r) for r in listing.values() if isinstance(r, dict)]
            return [_glossary_item(r) for r in found] if endpoint == "glossary" else found
    return []


def _glossary_item(record: dict[str, Any]) -> dict[str, Any]:
    label = record.pop("Label", None)
    record.setdefault("Name", label)
    if "Code" in record:  # the stat codes: NatStat's ID is the code
        record.pop("ID", None)
    return record


def meta(document: dict[str, Any]) -> dict[str, Any]:
    """The typed ``meta`` block (totals as numbers, notices as a list)."""
    raw = document.get("meta")
    return typed(raw) if isinstance(raw, dict) else {}


def is_no_data(document: object) -> bool:
    """A newer NatStat answer saying a valid request matched nothing: an empty list, no error."""
    if not isinstance(document, dict) or document.get("success") != "0":
        return False
    error = document.get("error")
    return isinstance(error, dict) and error.get("message") == NO_DATA


def root_error(document: object) -> object:
    """A dialect error document in the root's shape (``Code``, ``Message``, ``Parameter``), for
    ``errors.error_from_document``; anything else as it is."""
    if not isinstance(document, dict) or document.get("success") != "0":
        return document
    error = document.get("error")
    if not isinstance(error, dict):
        return document
    code, _, parameter = str(error.get("detail") or "").partition(": ")
    return {"error": {"Code": code, "Message": str(error.get("message") or code),
                      "Parameter": parameter or None}}
