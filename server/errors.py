"""Errors: the API's (docs/api/index.md) and the operator's command line's.

Inner code raises them and one handler renders each kind: an ``ApiError`` becomes the documented
error document (``error_document`` is the one place its body is shaped), a ``UserError`` one line
on the command line. They sit below ``server/http`` and ``server/endpoints`` so declarations and
models can raise them without reaching up to the web layer.
"""
from __future__ import annotations

import logging
from typing import Any

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


class TooManyInFlight(ApiError):
    """The key already has as many requests in flight as one worker runs for a key (429, with
    Retry-After): a key's rate bounds what it costs, not only how often it asks."""
    status, code = 429, "too_many_in_flight"


class Unavailable(ApiError):
    """The store cannot answer now (503, with Retry-After)."""
    status, code = 503, "unavailable"


class StoreUnavailable(Unavailable):
    """The store did not answer in time: a connection, a pooled session, a thread for store
    work or a statement's answer waited past ``SPORTS_STORE_TIMEOUT`` (503, with Retry-After)."""
    status, code = 503, "store_unavailable"


class QueryTooExpensive(ApiError):
    """The request's reads ran past the per-query time limit (``SPORTS_QUERY_MS``) and were
    stopped (503). Asking again will not help; a narrower request will."""
    status, code = 503, "query_too_expensive"


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
    KeyMissing, KeyMalformed, KeyInvalid, LevelForbidden, RateLimited, TooManyInFlight,
    Unavailable, StoreUnavailable, QueryTooExpensive, Internal,
)

RETRY_AFTER = "5"  # seconds a client is asked to wait after a store fault (Retry-After)
CANCELLED_SQLSTATE = "57014"  # PostgreSQL's query_canceled: statement_timeout fired


# A SQLite store's file replaced or deleted under the running server (``server.store.watch``):
# no retry helps, so the answer says what will.
STORE_REPLACED = ("the store's file was replaced or deleted while the service ran; it answers "
                  "again once the operator puts the file back or restarts the service")


def unavailable(message: str = "the data store is unavailable; try again shortly") -> Unavailable:
    """The 503 of a store that refused or failed, with Retry-After."""
    return Unavailable(message, None, headers={"Retry-After": RETRY_AFTER})


def store_timeout(seconds: float | None = None) -> StoreUnavailable:
    """The 503 of a store that did not answer within ``seconds``, with Retry-After."""
    within = f" within {seconds:g} s" if seconds is not None else " in time"
    return StoreUnavailable(f"the data store did not answer{within}; try again shortly", None,
                            headers={"Retry-After": RETRY_AFTER})


def too_expensive(limit_ms: int | None = None) -> QueryTooExpensive:
    """The 503 of a request whose reads ran past the time limit, with what to do about it."""
    limit = f"the {limit_ms} ms" if limit_ms is not None else "the time"
    return QueryTooExpensive(
        f"this request needed more than {limit} a query may take and was stopped; narrow it "
        "(a shorter date range, a team, player or game filter, a longer search term, an "
        "earlier page)", None)


def show(raw: str) -> str:
    """User input echoed in a message safely: short, printable."""
    text = "".join(ch if ch.isprintable() else "?" for ch in raw[:40])
    return text + ("..." if len(raw) > 40 else "")


def error_document(error: ApiError) -> dict[str, Any]:
    """The canonical error body (docs/api/index.md), the same logical shape in every format."""
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
    the request's fault (400); a read stopped at its time limit (SQLite's progress handler,
    PostgreSQL's statement_timeout) is 503 ``query_too_expensive``; a store that did not answer
    in time (the pool's timeout, libpq's connect_timeout, a session cut by the request path's
    watchdog) is 503 ``store_unavailable``; any other unreachable store 503 ``unavailable``;
    None for anything else.

    SQLAlchemy is imported here, not at the top: the dashboard reads the service's clock, which
    raises ``UserError``, and importing SQLAlchemy with it cost a page's first visit 0.2-0.5 s
    (``python -X importtime``); the service has it loaded long before a fault."""
    import sqlalchemy as sa
    if isinstance(exc, (sa.exc.DataError, OverflowError)):
        # PostgreSQL: an integer beyond a 32-bit column, a NUL in text; SQLite: beyond 64 bits.
        log.warning("value refused by the store: %s", cause(exc))
        return BadParameter("a parameter value is out of range for this query", None)
    if isinstance(exc, sa.exc.TimeoutError):  # every pooled session busy past the pool timeout
        log.warning("store fault: no pooled connection free in time")
        return store_timeout()
    if isinstance(exc, (sa.exc.OperationalError, sa.exc.InterfaceError,
                        sa.exc.ProgrammingError)):
        orig = getattr(exc, "orig", None)
        if _interrupted(orig):
            log.warning("query stopped at its time limit")
            return too_expensive()
        if type(orig).__name__ == "ConnectionTimeout" or getattr(orig, "cut_by_watchdog", False):
            log.warning("store fault: no answer in time (%s)", cause(exc))
            return store_timeout()
        log.warning("store fault: %s", cause(exc))
        return Unavailable(STORE_REPLACED, None) if str(orig) == STORE_REPLACED else unavailable()
    return None


def _interrupted(orig: object) -> bool:
    """SQLite stopped by the progress handler, or PostgreSQL's statement_timeout."""
    if getattr(orig, "sqlstate", None) == CANCELLED_SQLSTATE:
        return True
    return type(orig).__name__ == "OperationalError" and str(orig) == "interrupted"
