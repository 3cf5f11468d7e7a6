"""The two ways an answer leaves the service: a document, or an error document.

Both are here so the pipeline, the replay front and the app's last-resort handlers make the same
bytes and headers (contract sections 3 and 5).
"""
from __future__ import annotations

from starlette.responses import Response

from server.http.caching import CACHE_CONTROL, ERROR_CACHE_CONTROL
from server.http.documents import DEFAULT_FORMAT, ENCODERS, Encoder
from server.http.errors import ApiError, error_document


def respond(encoder: Encoder, body: bytes, etag: str, status: int = 200) -> Response:
    """A document (200) or its 304, with its ETag and Cache-Control."""
    return Response(body if status == 200 else None, status_code=status,
                    media_type=encoder.media_type,
                    headers={"ETag": etag, "Cache-Control": CACHE_CONTROL})


def render_error(error: ApiError, encoder: Encoder | None = None) -> Response:
    """The one place an error document is made (contract section 3)."""
    encoder = encoder or ENCODERS[DEFAULT_FORMAT]
    headers = {"Cache-Control": ERROR_CACHE_CONTROL, **error.headers}
    return Response(encoder.encode(error_document(error)), status_code=error.status,
                    media_type=encoder.media_type, headers=headers)
