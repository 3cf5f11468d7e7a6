"""The NatStat dialect (issue #15): the root document reshaped the way the public NatStat API
answers, so scripts written for it run with only their base URL changed.

It is one more encoding of the same result: the request path parses, checks, queries and caches
exactly as at the root, makes the root document, and ``shape`` turns that document into the
dialect tree, which the json, xml and php encoders then write as they write any document. What
differs, and why scripts need it:

* lists are objects keyed ``<singular>_<ID>`` in list order (scripts merge pages with
  ``dict.update`` and build frames with ``from_dict(orient="index")``); a record without an ID is
  keyed by its ``Season`` or ``Code`` when those are unique in the list, else by its position;
* every scalar is a string (``""`` for null, Y/N kept), and there are no arrays but a team
  season's ``League``: nested lists and meta's warnings and notices are keyed objects too;
* ``Overtime`` is ``N`` for a finished game decided in regulation;
* ``pitch`` is listed under ``pitches`` and the glossary under ``items`` (each with ``ID`` and
  ``Label``); the ``stats`` object opens with three members describing the table; pitch records
  carry ``players.pitcher`` / ``players.batter``; a team's ``seasons`` are keyed ``season_<YYYY>``;
* the top level carries ``"success": "1"``, an error document ``"success": "0"`` and
  ``error: {message, detail}``.

The v3 and v4 forms (docs/api/natstat.md; ``form``) are the same tree with what clients written
for them read besides: the meta members they page with (``results-max``, ``results-total``,
``page``, ``pages-total``, ``page-next``; v3's next page in its key-in-path form), their list
names (``performances``, ``moneylines``), the forecast record's ``home``, ``visitor``, ``League``
and ``forecast`` members, ``NO_DATA`` for a valid request that matches nothing; and ``user``
with the key's rate limit (``quota.Quota``), which the request path adds to the encoded body
(``Encoder.append``) because it changes with every request while the rest may be kept.

The dialect only adds members and re-spells values: every root field is in the dialect record,
and reads back as the root's value once its string is parsed (tested).
"""
from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from server.endpoints.base import ParsedRequest, Endpoint
from server.errors import ApiError
from server.http.encode.xmldoc import SINGULAR
from server.store import deadline

PREFIX = "/natstat"  # the dialect's path prefix; the rest of the address is the root's
# Endpoints whose NatStat list name and record key differ from the root's list name and singular.
LISTS: dict[str, tuple[str, str]] = {"pitch": ("pitches", "pitch"), "glossary": ("items", "item")}
KEEP_ARRAYS = frozenset({"League"})  # the one array the NatStat documents carry (team seasons)
_KEY_FIELDS = ("ID", "Season", "Code")  # what keys a record of a nested list, in this order
LIVE_FORMS = frozenset({"v3", "v4"})  # the forms that page by offset and carry ``user``
# v3 and v4 list names that differ from v1/v2's (docs/api/natstat.md).
LIVE_LISTS: dict[str, tuple[str, str]] = {
    "playerperfs": ("performances", "performance"), "teamperfs": ("performances", "performance"),
    "moneyline": ("moneylines", "moneyline")}
_SPAN = ("date", "start", "end", "season")  # what a v3 address carries in its path


def is_dialect(path: str) -> bool:
    """Whether an address is under the dialect's prefix."""
    return path == PREFIX or path.startswith(PREFIX + "/")


def text(value: Any) -> str:
    """A scalar as the dialect writes it: null is empty, booleans Y/N, floats without noise."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "Y" if value else "N"
    if isinstance(value, float):
        if not math.isfinite(value):
            return ""
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    return str(value)


def singular(name: str) -> str:
    """The record name of a nested list: its XML item name (``officials`` -> ``official``)."""
    return SINGULAR.get(name) or (name[:-1] if name.endswith("s") and len(name) > 1 else name)


def keyed(items: list[Any], name: str, start: int = 1) -> dict[str, Any]:
    """A list as an object keyed ``<name>_<ID>`` (or by position from ``start``), in order."""
    dicts = [i for i in items if isinstance(i, dict)]
    key_field = None
    if len(dicts) == len(items):
        for candidate in _KEY_FIELDS:
            values = [d.get(candidate) for d in dicts]
            if all(v is not None for v in values) and len(set(map(str, values))) == len(values):
                key_field = candidate
                break
    out: dict[str, Any] = {}
    for position, item in enumerate(items, start):
        if key_field is None:
            out[f"{name}_{position}"] = tree(item)
            continue
        record = tree(item)
        if "ID" not in record:  # the key is the record's identity: NatStat spells it ID
            record = {"ID": record[key_field], **record}
        out[f"{name}_{record[key_field]}"] = record
    return out


def tree(value: Any, name: str = "") -> Any:
    """Any part of a root document as the dialect writes it (objects and strings only)."""
    if isinstance(value, dict):  # a document's keys are strings (see ``encode``)
        return _writer(tuple(value))(value)
    if isinstance(value, (list, tuple)):
        if name in KEEP_ARRAYS:
            return [text(v) for v in value]
        return keyed(list(value), singular(name))
    return text(value)


@lru_cache(maxsize=512)
def _writer(keys: tuple[str, ...]) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A function writing records with these keys as the dialect does (``tree``), generated
    once per key set as ``records.RecordPlan`` is: strings and integers, nearly every value,
    are converted inline; anything else goes through ``tree``. It keeps a dialect page within
    a small fraction of the cost of encoding it (measured in bench/api.py)."""
    items = ", ".join(
        f"{k!r}: ('' if (v := r[{k!r}]) is None else v if v.__class__ is str "
        f"else _str(v) if v.__class__ is int else _tree(v, {k!r}))" for k in keys)
    scope: dict[str, Any] = {"_str": str, "_tree": tree}
    exec(f"def write(r):\n    return {{{items}}}\n", scope)  # noqa: S102 - keys quoted by repr
    writer: Callable[[dict[str, Any]], dict[str, Any]] = scope["write"]
    return writer


def overtime(record: dict[str, Any]) -> None:
    """``Overtime`` N for a finished game decided in regulation (scripts test 'OT' in it)."""
    if "Overtime" in record and record["Overtime"] == "" and record.get("Winner_ID", "") != "":
        record["Overtime"] = "N"


def _record(ep: Endpoint, root: dict[str, Any]) -> dict[str, Any]:
    record: dict[str, Any] = tree(root)
    overtime(record)
    if ep.name == "glossary":
        record = {"ID": record.get("ID") or record.get("Code", ""), "Label": record.get("Name", ""),
                  **{k: v for k, v in record.items() if k != "ID"}}
    elif ep.name == "pitch":
        record["players"] = {
            role: {"ID": record.get(f"{who}_ID", ""), "Name": record.get(who, ""),
                   "Team": record.get(f"{who}_Team", "")}
            for role, who in (("pitcher", "Pitcher"), ("batter", "Batter"))}
    return record


def _records(ep: Endpoint, ask: ParsedRequest, found: list[dict[str, Any]],
             form: str) -> dict[str, Any]:
    """The endpoint's records keyed ``<singular>_<ID>``; positional keys count across pages."""
    record_name = _list_names(ep, form)[1]
    start = (ask.page - 1) * ask.size + 1 if ep.paginated else 1
    out: dict[str, Any] = {}
    if ep.name == "stats":  # three members describing the table open the list (NatStat's own)
        out.update({"Stat": text(ask.get("stat")), "Type": text(ask.type or "player"),
                    "Season": text(ask.season)})
    records = []
    for root in found:
        deadline.between_records()  # a store thread's page stops once its client has had its 503
        records.append(_record(ep, root))
    if form in LIVE_FORMS and ep.name == "forecasts":
        for record in records:
            _live_forecast(record, ask.code)
    ids = [r.get("ID", "") for r in records]
    by_id = all(ids) and len(set(ids)) == len(ids)
    for position, record in enumerate(records, start):
        out[f"{record_name}_{record['ID'] if by_id else position}"] = record
    return out


def _list_names(ep: Endpoint, form: str) -> tuple[str, str]:
    """The list's name and its records' name in this form."""
    if form in LIVE_FORMS and ep.name in LIVE_LISTS:
        return LIVE_LISTS[ep.name]
    return LISTS.get(ep.name, (ep.name, ep.singular))


def _live_forecast(record: dict[str, Any], level: str) -> None:
    """The members a v3/v4 forecast record adds: its league, the teams by name, and the ELO
    win expectations and money lines under ``forecast``."""
    elo, line = record.get("elo") or {}, record.get("moneyline") or {}
    record.update({
        "League": level, "home": record.get("Home", ""), "visitor": record.get("Visitor", ""),
        "forecast": {
            "elo": {"helowinexp": elo.get("HELOWinExp", ""),
                    "velowinexp": elo.get("VELOWinExp", "")},
            "moneyline": {"homemoneyline": line.get("HomeMoneyLine", ""),
                          "vismoneyline": line.get("VisMoneyLine", "")}}})


def _page_next(next_page: str | None, form: str, per_page: int) -> str:
    """The next page as a v3 or v4 client follows it ("" on the last page): v4's is the root's
    ``Next_Page``; v3's puts the key, the span and the first record's offset in the path, and
    leaves any other parameter in the query string."""
    if not next_page or form != "v3":
        return next_page or ""
    url = urlsplit(next_page)
    prefix, _version, endpoint, level = url.path.strip("/").split("/")[:4]
    query = dict(parse_qsl(url.query))
    key = query.pop("key", "")
    page = int(query.pop("page", "2"))
    span = [query.pop(name) for name in _SPAN if name in query]
    path = f"/{prefix}/{key}/{endpoint}/{level}/"
    if span:  # an offset needs a span before it; without one the page stays a parameter
        path += f"{','.join(span[:2])}/{(page - 1) * per_page}"
    else:
        query["page"] = str(page)
    rest = f"?{urlencode(query)}" if query else ""
    return f"{url.scheme}://{url.netloc}{path}{rest}"


def shape(document: dict[str, Any], ep: Endpoint, ask: ParsedRequest, form: str = "v2") -> dict[str, Any]:
    """The dialect tree of a root document: ``success``, ``meta`` and the keyed records, in
    the NatStat form ``form`` (``v1``-``v4``; see the module's docstring for v3 and v4)."""
    list_name = _list_names(ep, form)[0]
    meta = {k: tree(v, "notice" if k == "Notices" else "warning" if k == "Warnings" else k)
            for k, v in document["meta"].items()}
    found = document[ep.name]
    if form not in LIVE_FORMS:
        return {"success": "1", "meta": meta, list_name: _records(ep, ask, found, form)}
    root = document["meta"]
    meta.update({"results-max": text(root["Max_Results"]),
                 "results-total": text(root["Total_Results"]), "page": text(root["Page"]),
                 "pages-total": text(root["Total_Pages"]),
                 "page-next": _page_next(root.get("Next_Page"), form,
                                               root["Max_Results"])})
    if not found:
        asked = ", ".join(f"{k}={text(v)}" for k, v in ask.values.items())
        return {"success": "0", "error": {
                    "message": "NO_DATA",
                    "detail": f"no {list_name} of {ask.code} match "
                              f"{asked or 'this request'} (page {ask.page})"},
                "meta": meta}
    return {"success": "1", "meta": meta, list_name: _records(ep, ask, found, form)}


def error_tree(error: ApiError) -> dict[str, Any]:
    """An error as the dialect writes it, with the root's status code."""
    detail = error.code if error.parameter is None else f"{error.code}: {error.parameter}"
    return {"success": "0", "error": {"message": error.message, "detail": detail}}
