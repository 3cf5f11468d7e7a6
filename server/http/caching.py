"""The answer cache: what each worker keeps of the answers it gave, and for how long.

Two tiers, both bounded by the bytes they hold (a quarter each of ``SPORTS_CACHE_MB`` per worker,
default 64; the other half is SQLite's page caches, ``server.store.engine``), so a worker's
memory is known in advance whatever the traffic:

* results, keyed by the checked request (``ParsedRequest.identity``: endpoint, level, type, every typed
  parameter but ``key`` and ``format``, page size, page): every key and format shares them, and
  auth and rate limits run before. The found records are kept as compact JSON (``pack``), a fifth
  of what the same records take as Python objects, and decoded on a hit. With ``REDIS_URL`` this
  tier is shared by every worker (``shared_cache``);
* bodies, keyed by exact address (``address``), keeping encoded answers (``CachedAnswer``) that
  ``replay.Replay`` gives again before routing.

Entries live ``RESULT_TTL`` seconds (env ``SPORTS_CACHE_TTL``; 0 disables both), which bounds how
stale an answer about "today" can be. An entry put under a store generation (``StoreWatch``) is
also dropped as soon as the store announces a change, on SQLite and PostgreSQL alike, so an
ingest or re-tabulation is served at once; while no generation is known (a PostgreSQL listener
reconnecting) the TTL alone bounds staleness.
"""
from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson
from starlette.types import Scope

from server.http.encode import Encoder
from server.http.responses import Headers, respond
from server.store.engine import CACHE_BYTES, PAGE_CACHE_BYTES

RESULT_TTL = float(os.environ.get("SPORTS_CACHE_TTL", "15"))
# what the worker's budget leaves after SQLite's page caches (``server.store.engine``)
ANSWER_BYTES = CACHE_BYTES - PAGE_CACHE_BYTES
ENTRY_OVERHEAD = 512  # bytes an entry costs beyond its value: key, tuple, dict slot, headers

# Types orjson would silently turn into strings are refused instead (``pack`` returns None), so a
# decoded entry is always the very records it was made from.
_PACK_OPTIONS = (orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
                 | orjson.OPT_PASSTHROUGH_SUBCLASS)

Found = tuple[list[dict[str, Any]], int]
Address = tuple[str, bytes, str, bytes]


def trimmed(body: bytes) -> bytes:
    """An exact-size copy: orjson hands back bytes that keep its whole growth buffer (about
    twice their length; ijl/orjson since 3.12), which a cached answer would hold for its life."""
    return bytes(memoryview(body))


def _refuse(value: Any) -> Any:
    raise TypeError(type(value).__name__)


def pack(found: Found) -> bytes | None:
    """Records and total as compact JSON; None when a value is not plain JSON data and the
    answer must not be kept. (Tuples come back as lists, which every encoder writes alike.)"""
    try:
        return trimmed(orjson.dumps(found, default=_refuse, option=_PACK_OPTIONS))
    except TypeError:  # orjson.JSONEncodeError too: a big integer, a lone surrogate
        return None


def unpack(raw: bytes) -> Found | None:
    """The records and total ``pack`` made; None for anything else (an older entry's format)."""
    try:
        found, total = orjson.loads(raw)
    except (orjson.JSONDecodeError, TypeError, ValueError):
        return None
    return found, total


class GenerationCache:
    """Entries that live ``ttl`` seconds, and only while the store generation they were put
    under holds; once their sizes pass ``budget`` bytes the oldest are dropped first."""

    def __init__(self, ttl: float = RESULT_TTL, budget: int = ANSWER_BYTES // 2) -> None:
        self.ttl = ttl
        self.budget = budget
        self.held = 0  # bytes of the entries held, overheads included
        self._data: OrderedDict[Any, tuple[float, int | None, Any, int]] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def enabled(self) -> bool:
        """Whether entries are kept at all (a TTL and a budget above zero)."""
        return self.ttl > 0 and self.budget > 0

    def __len__(self) -> int:
        return len(self._data)

    def get(self, key: Any, generation: int | None = None) -> Any | None:
        """The value kept under ``key`` while fresh and of ``generation``, else None."""
        if self.ttl <= 0:
            return None
        hit = self._data.get(key)
        if hit is None or hit[0] < time.monotonic() or hit[1] != generation:
            return None
        return hit[2]

    def find(self, key: Any, generation: Callable[[], int | None]) -> Any | None:
        """``get``, asking ``generation`` only when a fresh entry is there: a miss costs a
        dict lookup, never a look at the store (on SQLite a read of its shared memory, which
        gives up the GIL: on the event loop, with store threads running, it was a wait for the
        GIL on every request the cache did not answer)."""
        if self.ttl <= 0:
            return None
        hit = self._data.get(key)
        if hit is None or hit[0] < time.monotonic():
            return None
        return hit[2] if hit[1] == generation() else None

    def put(self, key: Any, value: Any, size: int, generation: int | None = None) -> None:
        """Keep ``value``, which holds about ``size`` bytes; one larger than the whole budget
        is not kept."""
        cost = size + ENTRY_OVERHEAD
        if not self.enabled or cost > self.budget:
            return
        with self._lock:
            old = self._data.pop(key, None)
            if old is not None:
                self.held -= old[3]
            self._data[key] = (time.monotonic() + self.ttl, generation, value, cost)
            self.held += cost
            while self.held > self.budget:
                _, dropped = self._data.popitem(last=False)
                self.held -= dropped[3]


class ResultCache:
    """The in-process result cache: found records, packed, in a ``GenerationCache``."""

    def __init__(self, ttl: float = RESULT_TTL, budget: int = ANSWER_BYTES // 2) -> None:
        self.packed = GenerationCache(ttl, budget)

    def get(self, key: Any, generation: int | None = None) -> Found | None:
        """The records and total cached under ``key`` while fresh, else None."""
        raw = self.packed.get(key, generation)
        return None if raw is None else unpack(raw)

    def put(self, key: Any, found: Found, generation: int | None = None) -> None:
        """Keep the records and total, packed; values that are not plain data are not cached."""
        if self.packed.enabled:
            raw = pack(found)
            if raw is not None:
                self.packed.put(key, raw, len(raw), generation)


@dataclass(frozen=True)
class CachedAnswer:
    """One encoded answer and what is needed to give it again: the hash of the key that asked
    it (``KeyGate.verify_digest``; a body and its Next_Page only ever go back to that key, whose
    address it is kept under), its level (for the key's scope and rate),
    the headers of its 200 and 304 answers, and whether the key's quota is sent with it (a
    NatStat v3/v4 body: ``quota.cached_with_quota``, from the 304's headers)."""

    body: bytes
    level: str
    digest: str
    encoder: Encoder
    etag: str
    headers: Headers
    headers_304: Headers
    quota: bool = False


def cache_answer(body: bytes, etag: str, level: str, digest: str, encoder: Encoder,
         quota: bool = False) -> CachedAnswer:
    """An answer to keep: an exact-size body and its headers, made once."""
    body = trimmed(body)
    # a body sent with a quota goes with a weak ETag and its own length (``quota.cached_with_quota``)
    return CachedAnswer(body, level, digest, encoder, etag, respond(encoder, body, etag, 200).raw_headers,
                respond(encoder, b"", "W/" + etag if quota else etag, 304).raw_headers, quota)


ADDRESS_AS_SENT = "sports.address"  # a scope rewritten from another address keeps it here


def address(scope: Scope) -> Address:
    """A request's exact address as the client sent it: scheme, host, path and query string
    (key, format and page included). A v3 address is answered as the query it means, a
    rewritten scope that keeps the address it came by (``ADDRESS_AS_SENT``), so that its
    answer is kept under the address the client repeats."""
    sent: Address | None = scope.get(ADDRESS_AS_SENT)
    if sent is not None:
        return sent
    host = b""
    for name, value in scope["headers"]:
        if name == b"host":
            host = value
            break
    return scope["scheme"], host, scope["path"], scope["query_string"]
