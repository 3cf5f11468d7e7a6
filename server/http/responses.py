"""How an answer leaves the service: a document or its 304, or an error document.

Both are here so the request path, the replay front and the app's error handlers make the same
bytes and headers (docs/api/index.md): an ETag on every document, so a client that sends
it back with If-None-Match gets a 304, and a Cache-Control for clients and proxies.
"""
from __future__ import annotations

import hashlib

from starlette.responses import Response

from server.errors import ApiError, error_document
from server.http.encode import DEFAULT_FORMAT, ENCODERS, Encoder
from server.http.encode.natstat import error_tree

Headers = list[tuple[bytes, bytes]]  # an answer's raw headers, as ASGI sends them

CACHE_CONTROL = "private, max-age=30"
ERROR_CACHE_CONTROL = "no-store"


def etag_of(body: bytes) -> str:
    """A strong ETag: a hash of the encoded body (its first 128 bits).

    SHA-256, not BLAKE2b: every answer made is hashed whole, and this interpreter's BLAKE2b is
    the portable reference code while OpenSSL's SHA-256 uses the processor's SHA instructions.
    Measured on a 25 KB body (the 100-game page, best of 7 x 500): 13.9 µs against 35.2 µs, a
    twentieth of what an uncached page costs (``bench/api.py`` (a0))."""
    return '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


def matches(if_none_match: str | None, etag: str) -> bool:
    """If-None-Match semantics: a list of tags, weak or strong, or '*'."""
    if not if_none_match:
        return False
    for tag in if_none_match.split(","):
        tag = tag.strip()
        if tag == "*" or tag.removeprefix("W/") == etag:
            return True
    return False


def respond(encoder: Encoder, body: bytes, etag: str, status: int = 200,
            headers: dict[str, str] | None = None) -> Response:
    """A document (200) or its 304, with its ETag, Cache-Control and any ``headers``."""
    return Response(body if status == 200 else None, status_code=status,
                    media_type=encoder.media_type,
                    headers={"ETag": etag, "Cache-Control": CACHE_CONTROL, **(headers or {})})


def render_error(error: ApiError, encoder: Encoder | None = None,
                 dialect: bool = False) -> Response:
    """The one place an error document is made (docs/api/index.md); ``dialect``: the NatStat
    error document, with the same status and headers."""
    encoder = encoder or ENCODERS[DEFAULT_FORMAT]
    headers = {"Cache-Control": ERROR_CACHE_CONTROL, **error.headers}
    body = error_tree(error) if dialect else error_document(error)
    return Response(encoder.encode(body), status_code=error.status,
                    media_type=encoder.media_type, headers=headers)
