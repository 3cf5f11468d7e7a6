"""The one place in the dashboard that speaks HTTP (style: services/ is the only I/O), to this
service's root or to a NatStat backend (``services.natstat`` reads its documents).

Responses are cached in a process-wide cachetools ``TTLCache`` keyed by the URL's path and
its sorted parameters, so every page and every session share one warm cache; the HTTP
session itself is the only thing held by ``st.cache_resource``.
"""
from __future__ import annotations

import random
import threading
import time
import uuid
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pandas as pd
import requests
import streamlit as st
from cachetools import TTLCache

from services import natstat
from services.config import ApiConfig, load_config
from services.errors import (ApiError, ConnectionFailed, KeyMissing, NotFound, NotOffered,
                             Unavailable, error_from_document)

CACHE_TTL_SECONDS = 120  # games in progress change by the minute; two minutes keeps pages fresh
CACHE_MAX_ENTRIES = 1024
# An API that accepts connections and never answers held every page for 15-21 s (a 15 s read
# timeout, then the next call's). Now a call waits at most these, and once the API has failed
# to answer, calls to it fail at once for DOWN_SECONDS (or until the Retry button): a page
# shows its message after one timeout, and the next pages at once.
CONNECT_TIMEOUT_SECONDS = 3.0
READ_TIMEOUT_SECONDS = 8.0
DOWN_SECONDS = 30.0
MAX_FOLLOWED_PAGES = 20  # with max=1000 that is 20,000 records: past that, page server-side
# The dashboard's users share one key, and the server lets a key have only a few requests in
# flight (429 ``too_many_in_flight``, ``Retry-After: 1``): two analysts opening heavy pages at
# once made one page an error. A 429 is asked again after its Retry-After (plus a little, so
# the waiting calls do not all come back at once) while the call has waited less than
# BUSY_RETRY_SECONDS in all; past that, or when Retry-After asks for longer (a key's hourly
# rate spent), the page shows the 429 as before.
BUSY_RETRY_SECONDS = 6.0
BUSY_RETRY_SPREAD = 0.25  # seconds of random delay added to each wait

Params = dict[str, str | int | float | None]
CacheKey = tuple[str, tuple[tuple[str, str], ...]]

# documents (for Next_Page chains) and the Pages built from them share one cache and one TTL
_CACHE: TTLCache[CacheKey, Any] = TTLCache(maxsize=CACHE_MAX_ENTRIES, ttl=CACHE_TTL_SECONDS)
_CACHE_LOCK = threading.Lock()
_DOWN: dict[str, float] = {}  # API address -> monotonic time until which it is not asked
# While the service still fills its store in the background its answers change by the minute, and
# documents cached at different moments disagreed: a page took the seasons list and /health from
# two minutes before (no season held, "0 of 3 seasons") and the standings fresh (2021's final
# table). So while a fill runs, each run of a page shares documents within itself only (a cache
# epoch of its own, ``run_epoch``); once the store is whole, every page and session share the
# cache again. /health itself is never cached: it is what decides.
_EPOCH: ContextVar[str] = ContextVar("cache_epoch", default="")


@dataclass(frozen=True)
class Page:
    """One page of a list document: the records as a DataFrame and the meta block."""

    frame: pd.DataFrame
    meta: dict[str, Any] = field(default_factory=dict)
    records: tuple[dict[str, Any], ...] = ()

    @property
    def total(self) -> int:
        return int(self.meta.get("Total_Results") or len(self.frame))

    @property
    def truncated(self) -> bool:
        """Whether following ``Next_Page`` stopped at its bound before the last page."""
        return bool(self.meta.get("Truncated"))

    @property
    def pages(self) -> int:
        return max(1, int(self.meta.get("Total_Pages") or 1))

    @property
    def sources(self) -> tuple[str, ...]:
        return split_sources(self.meta.get("Source"))

    @property
    def notices(self) -> tuple[str, ...]:
        """Credits the data of this document owes (meta ``Notices``), each as one line."""
        raw = self.meta.get("Notices") or ()
        items = raw if isinstance(raw, list | tuple) else (raw,)
        return tuple(" ".join(line.strip() for line in str(n).splitlines() if line.strip()) for n in items if n)


def split_sources(value: object) -> tuple[str, ...]:
    if isinstance(value, list | tuple):
        return tuple(str(v).strip().lower() for v in value if v)
    if isinstance(value, str) and value:
        return tuple(s.strip().lower() for s in value.replace(";", ",").split(",") if s.strip())
    return ()


@st.cache_resource(show_spinner=False)
def _session() -> requests.Session:
    session = requests.Session()
    session.headers["Accept"] = "application/json"
    return session


def cache_key(url: str, params: Params) -> CacheKey:
    clean = {k: str(v) for k, v in params.items() if v is not None and v != ""}
    return _EPOCH.get() + url, tuple(sorted(clean.items()))


def run_epoch(filling: bool) -> None:
    """Called at the start of each run (app.py): ``filling`` (the store still loads in the
    background) gives this run a cache of its own, so what one page shows is one moment's data."""
    _EPOCH.set(f"{uuid.uuid4().hex}:" if filling else "")


def clear_cache() -> None:
    with _CACHE_LOCK:
        _CACHE.clear()


def retry_connection() -> None:
    """Ask an API that failed to answer again on the next call (the Retry button)."""
    with _CACHE_LOCK:
        _DOWN.clear()


def get_document(url: str, params: Params, *, cached: bool = True) -> dict[str, Any]:
    """GET one JSON document, from the cache when it is fresh (``cached``); raise typed errors
    otherwise. A NatStat backend's ``NO_DATA`` is a document with nothing in it, not an error."""
    key = cache_key(url, params)
    with _CACHE_LOCK:
        hit: dict[str, Any] | None = _CACHE.get(key) if cached else None
    if hit is not None:
        return hit
    where = urlsplit(url).netloc
    with _CACHE_LOCK:
        down = _DOWN.get(where, 0.0) > time.monotonic()
    if down:
        raise ConnectionFailed(f"No answer from {where} a moment ago; not asked again for "
                               f"{DOWN_SECONDS:g} s unless you retry")
    give_up = time.monotonic() + BUSY_RETRY_SECONDS
    while True:
        try:
            response = _session().get(url, params=dict(key[1]),
                                      timeout=(CONNECT_TIMEOUT_SECONDS, READ_TIMEOUT_SECONDS))
        except requests.RequestException as exc:
            with _CACHE_LOCK:
                _DOWN[where] = time.monotonic() + DOWN_SECONDS
            # the exception text holds the URL and so the key: never show it
            raise ConnectionFailed(f"No answer from {where} ({type(exc).__name__})") from None
        wait = _busy_wait(response, give_up)
        if wait is None:
            break
        time.sleep(wait)
    try:
        document: Any = response.json()
    except ValueError:
        document = None
    if natstat.is_no_data(document):
        document = {"meta": document.get("meta") or {}}
    elif response.status_code != 200 or not isinstance(document, dict) or "error" in document:
        raise error_from_document(response.status_code, natstat.root_error(document))
    found: dict[str, Any] = document
    if cached:
        with _CACHE_LOCK:
            _CACHE[key] = found
    return found


def _busy_wait(response: requests.Response, give_up: float) -> float | None:
    """Seconds to wait before asking again after a 429, or None to answer with ``response``
    (not a 429, no Retry-After in seconds, or the wait would end past ``give_up``)."""
    if response.status_code != 429:
        return None
    try:
        after = float(response.headers.get("Retry-After", ""))
    except ValueError:  # absent, or an HTTP date: not a short wait
        return None
    wait = max(0.0, after) + random.uniform(0, BUSY_RETRY_SPREAD)
    return wait if time.monotonic() + wait <= give_up else None


def _endpoint_url(config: ApiConfig, version: str, endpoint: str, level: str, kind: str | None) -> str:
    tail = f"{kind}/" if kind else ""
    return f"{config.url}/{version}/{endpoint}/{level}/{tail}"


def _records(config: ApiConfig, document: dict[str, Any], endpoint: str) -> list[dict[str, Any]]:
    if config.natstat:
        return natstat.records(document, endpoint)
    rows = document.get(endpoint)
    if rows is None:  # fall back on the first list beside meta
        rows = next((v for k, v in document.items() if k != "meta" and isinstance(v, list)), [])
    return [r for r in rows if isinstance(r, dict)] if isinstance(rows, list) else []


def fetch(endpoint: str, level: str, params: Params | None = None, *, version: str = "v1",
          kind: str | None = None, follow: bool = False, max_pages: int = MAX_FOLLOWED_PAGES) -> Page:
    """One list document (``follow=False``) or every page of it, following ``Next_Page`` up to
    ``max_pages`` documents (the Page says ``truncated`` when it stopped there)."""
    config = load_config()
    if not config.key:
        raise KeyMissing("No API key is configured", status=401, code="key_missing")
    query: Params = {**(params or {}), "key": config.key, "format": "json"}
    url = _endpoint_url(config, version, endpoint, level, kind)
    page_key = cache_key(f"page{f'+{max_pages}' if follow else ''}:{url}", query)
    with _CACHE_LOCK:
        hit: Page | None = _CACHE.get(page_key)
    if hit is None:
        try:
            hit = _build_page(config, url, query, endpoint, follow, max_pages)
        except NotFound as exc:
            if config.natstat and endpoint in natstat.OURS_ONLY:
                raise NotOffered(f"This NatStat backend does not offer {endpoint}",
                                 status=404) from exc
            raise
        with _CACHE_LOCK:
            _CACHE[page_key] = hit
    # a shallow copy: pandas copy-on-write keeps the cached frame safe from a page's edits
    return Page(frame=hit.frame.copy(deep=False), meta=dict(hit.meta), records=hit.records)


def _build_page(config: ApiConfig, url: str, query: Params, endpoint: str, follow: bool, max_pages: int) -> Page:
    document = get_document(url, query)
    meta = natstat.meta(document) if config.natstat else dict(document.get("meta") or {})
    rows = _records(config, document, endpoint)
    followed = 1
    next_page = meta.get("Next_Page")
    while follow and next_page and followed < max_pages:
        parts = urlsplit(str(next_page))
        # rebuild on our own base URL: the server may name itself differently behind a proxy
        url = f"{config.url}{parts.path}"
        document = get_document(url, dict(parse_qsl(parts.query)))
        rows.extend(_records(config, document, endpoint))
        next_page = (document.get("meta") or {}).get("Next_Page")
        followed += 1
    if follow:
        meta.pop("Next_Page", None)
        meta["Truncated"] = bool(next_page)
    return Page(frame=pd.json_normalize(rows) if rows else pd.DataFrame(), meta=meta, records=tuple(rows))


def fetch_detail(endpoint: str, level: str, record_id: int | str, params: Params | None = None,
                 *, version: str = "v1") -> tuple[dict[str, Any], dict[str, Any]]:
    """The detail record of one id, and its document's meta."""
    page = fetch(endpoint, level, {**(params or {}), "id": record_id}, version=version)
    if not page.records:
        raise Unavailable(f"The API returned no {endpoint} record for id {record_id}")
    return page.records[0], page.meta


def health() -> dict[str, Any]:
    """``GET /health``, asked afresh each time (one small document a run): needs no key; says
    whether the API and its store answer and what the background fill is doing. A NatStat
    backend is asked at its server's root (this service answers there); one without a
    ``/health`` is ``NotOffered``, which the sidebar shows as a NatStat backend."""
    config = load_config()
    if not config.natstat:
        return get_document(f"{config.url}/health", {}, cached=False)
    try:
        return get_document(f"{natstat.server_root(config.url)}/health", {}, cached=False)
    except (ConnectionFailed, Unavailable):
        raise
    except ApiError as exc:  # the backend has no /health of ours
        raise NotOffered("This NatStat backend has no /health", status=404) from exc
