"""Errors: the API's (contract sections 2-4) and the operator's command line's.

Inner code raises them and one handler renders each kind: an ``ApiError`` becomes the documented
error document (``error_document`` is the one place its body is shaped), a ``UserError`` one line
on the command line. They sit below ``server/http`` and ``server/endpoints`` so declarations and
models can raise them without reaching up to the web layer.
"""
from __future__ import annotations

import logging
from typing import Any

import sqlalchemy as sa

log = logging.getLogger("server.http")


class UserError(Exception):
    """A mistake of the operator's (missing path, bad level code): printed, exit status 1."""



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
    """A parameter's value the API cannot take (400)."""
    status, code = 400, "bad_parameter"


class FilterRequired(ApiError):
    """An endpoint that needs one of its filters was given none (400)."""
    status, code = 400, "filter_required"


class LevelNotSupported(ApiError):
    """The endpoint does not serve the level, or no such level (400)."""
    status, code = 400, "level_not_supported"


class NotFound(ApiError):
    """No such address, endpoint or record (404)."""
    status, code = 404, "not_found"


class WrongVersion(ApiError):
    """The endpoint is served under another version (404)."""
    status, code = 404, "wrong_version"


class MethodNotAllowed(ApiError):
    """Anything but GET (405)."""
    status, code = 405, "method_not_allowed"


class KeyMissing(ApiError):
    """No key given (401)."""
    status, code = 401, "key_missing"


class KeyMalformed(ApiError):
    """A key not of the form XXXX-XXXXXX (401)."""
    status, code = 401, "key_malformed"


class KeyInvalid(ApiError):
    """A key that is unknown, revoked or expired (401)."""
    status, code = 401, "key_invalid"


class LevelForbidden(ApiError):
    """A level outside the key's scope (403)."""
    status, code = 403, "level_forbidden"


class RateLimited(ApiError):
    """The key's calls this hour are spent (429, with Retry-After)."""
    status, code = 429, "rate_limited"


class Unavailable(ApiError):
    """The store cannot answer now (503)."""
    status, code = 503, "unavailable"


class UnreadableRequest(ApiError):
    """Bytes that are not an HTTP request (a malformed request line, a header too large): 400,
    answered by the connection itself (``server.http.protocol``), before any route."""
    status, code = 400, "bad_request"


class RequestTimeout(ApiError):
    """A request whose headers did not arrive in time (408); the connection is closed."""
    status, code = 408, "request_timeout"


class Internal(ApiError):
    """An unexpected fault: still a documented error body, never a stack trace."""

    status, code = 500, "internal"


# Every code the API can answer, for the OpenAPI document and the error-shape tests.
ERROR_TYPES: tuple[type[ApiError], ...] = (
    BadParameter, FilterRequired, LevelNotSupported, NotFound, WrongVersion, MethodNotAllowed,
    KeyMissing, KeyMalformed, KeyInvalid, LevelForbidden, RateLimited, Unavailable, Internal,
)


def show(raw: str) -> str:
    """User input echoed in a message safely: short, printable."""
    text = "".join(ch if ch.isprintable() else "?" for ch in raw[:40])
    return text + ("..." if len(raw) > 40 else "")


def error_document(error: ApiError) -> dict[str, Any]:
    """The canonical error body (contract section 3), the same logical shape in every format."""
    body: dict[str, Any] = {"Status": error.status, "Code": error.code}
    if error.parameter is not None:
        body["Parameter"] = error.parameter
    body["Message"] = error.message
    return {"error": body}


def cause(exc: BaseException) -> str:
    """What went wrong, for a log line: the driver's own error and its message (``database is
    locked``, ``no such table: games``, ``connection refused``), one line, without the SQL or
    its parameters (SQLAlchemy's own message carries both)."""
    inner = getattr(exc, "orig", None) or exc
    text = " ".join(str(inner).split())[:300]
    return f"{type(inner).__name__}: {text}" if text else type(inner).__name__


def store_fault(exc: BaseException) -> ApiError | None:
    """The one mapping of a driver's error to the API's: a value the database cannot hold is
    the request's fault (400), an unreachable store is a 503; None for anything else."""
    if isinstance(exc, (sa.exc.DataError, OverflowError)):
        # PostgreSQL: an integer beyond a 32-bit column, a NUL in text; SQLite: beyond 64 bits.
        log.warning("value refused by the store: %s", cause(exc))
        return BadParameter("a parameter value is out of range for this query", None)
    if isinstance(exc, (sa.exc.OperationalError, sa.exc.InterfaceError,
                        sa.exc.ProgrammingError)):
        log.warning("store fault: %s", cause(exc))
        return Unavailable("the data store is unavailable; try again shortly", None)
    return None
