"""The API's errors (contract sections 2-4): inner code raises them, one handler renders them.

Every error carries an HTTP status, a stable machine ``code``, a human ``message`` and, when one
parameter is to blame, its name. ``error_document`` is the one place the error body is shaped.
"""
from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """An answer that is not a success; rendered by the app's single error handler."""

    status: int = 400
    code: str = "bad_request"

    def __init__(self, message: str, parameter: str | None = None,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.parameter = parameter
        self.headers = headers or {}


class BadParameter(ApiError):
    status, code = 400, "bad_parameter"


class FilterRequired(ApiError):
    status, code = 400, "filter_required"


class LevelNotSupported(ApiError):
    status, code = 400, "level_not_supported"


class NotFound(ApiError):
    status, code = 404, "not_found"


class WrongVersion(ApiError):
    status, code = 404, "wrong_version"


class MethodNotAllowed(ApiError):
    status, code = 405, "method_not_allowed"


class KeyMissing(ApiError):
    status, code = 401, "key_missing"


class KeyMalformed(ApiError):
    status, code = 401, "key_malformed"


class KeyInvalid(ApiError):
    status, code = 401, "key_invalid"


class LevelForbidden(ApiError):
    status, code = 403, "level_forbidden"


class RateLimited(ApiError):
    status, code = 429, "rate_limited"


class Unavailable(ApiError):
    status, code = 503, "unavailable"


class Internal(ApiError):
    """An unexpected fault: still a documented error body, never a stack trace."""

    status, code = 500, "internal"


# Every code the API can answer, for the OpenAPI document and the error-shape tests.
ERROR_TYPES: tuple[type[ApiError], ...] = (
    BadParameter, FilterRequired, LevelNotSupported, NotFound, WrongVersion, MethodNotAllowed,
    KeyMissing, KeyMalformed, KeyInvalid, LevelForbidden, RateLimited, Unavailable, Internal,
)


def error_document(error: ApiError) -> dict[str, Any]:
    """The canonical error body (contract section 3), the same logical shape in every format."""
    body: dict[str, Any] = {"Status": error.status, "Code": error.code}
    if error.parameter is not None:
        body["Parameter"] = error.parameter
    body["Message"] = error.message
    return {"error": body}
