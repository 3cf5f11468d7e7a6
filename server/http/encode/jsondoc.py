"""JSON encoding: orjson straight to bytes (no str round trip on the hot path)."""
from __future__ import annotations

from typing import Any

import orjson


def encode_json(document: dict[str, Any]) -> bytes:
    """Non-finite floats become null (orjson's rule), which keeps the document valid JSON."""
    return orjson.dumps(document)


def append_json(body: bytes, name: str, value: Any) -> bytes:
    """``body`` (a JSON object) with one more member, last: one copy of the body (a chain of
    ``+`` copied it at every step; a cached v3/v4 body is sent through here every time)."""
    member = orjson.dumps({name: value})
    return b"".join((memoryview(body)[:-1], b",", memoryview(member)[1:]))
