"""Typed errors of the dashboard's API client.

Every failure the API can answer (docs/api/index.md, error documents) or the network can
cause becomes one of these; pages catch ``ApiError`` once and show ``friendly()``.
"""
from __future__ import annotations

KEY_HINT = "Run `python -m server keys issue` and set SPORTS_API_KEY (or `api_key` in .streamlit/secrets.toml)."


class ApiError(Exception):
    """An answer that is not data: carries the API's status, code and message."""

    hint = "Check the filters, or try again in a moment."

    def __init__(self, message: str, *, status: int = 0, code: str = "", parameter: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code
        self.parameter = parameter

    def friendly(self) -> str:
        """One or two sentences for an analyst: what happened and what to do."""
        return f"{self.message} — {self.hint}"


class KeyMissing(ApiError):
    hint = "No API key is configured. " + KEY_HINT


class KeyInvalid(ApiError):
    hint = "The API key was rejected (malformed, unknown or revoked). " + KEY_HINT


class Forbidden(ApiError):
    hint = "This key may not read this level: pick another level or issue a key with `--levels`."


class NotFound(ApiError):
    hint = "The record does not exist at this level: clear the ID or pick another level."


class BadParameter(ApiError):
    hint = "Change the highlighted filter and try again."


class RateLimited(ApiError):
    hint = "Too many requests for this key: wait a few seconds and reload."


class Unavailable(ApiError):
    hint = "The API cannot read its store right now: try again shortly or ask an operator to check `/health`."


class NotOffered(ApiError):
    hint = ("This backend does not offer it: a NatStat backend has no projections, box scores "
            "or season phases of this service. Point SPORTS_API_URL at a Sports Workbench API "
            "for this page.")


class ConnectionFailed(ApiError):
    hint = (
        "The dashboard cannot reach the API. Start it with `python -m server serve` and check "
        "SPORTS_API_URL (or `api_url` in .streamlit/secrets.toml)."
    )


ERRORS_BY_CODE: dict[str, type[ApiError]] = {
    "key_missing": KeyMissing,
    "key_malformed": KeyInvalid,
    "key_invalid": KeyInvalid,
    "level_forbidden": Forbidden,
    "not_found": NotFound,
    "wrong_version": NotFound,
    "bad_parameter": BadParameter,
    "level_not_supported": BadParameter,
    "filter_required": BadParameter,
    "rate_limited": RateLimited,
    "unavailable": Unavailable,
}

ERRORS_BY_STATUS: dict[int, type[ApiError]] = {
    400: BadParameter, 401: KeyInvalid, 403: Forbidden, 404: NotFound, 429: RateLimited, 503: Unavailable,
}


def error_from_document(status: int, document: object) -> ApiError:
    """Build the typed error from an error document, falling back on the HTTP status."""
    body = document.get("error") if isinstance(document, dict) else None
    if not isinstance(body, dict):
        cls = ERRORS_BY_STATUS.get(status, Unavailable if status >= 500 else ApiError)
        return cls(f"The API answered HTTP {status}", status=status)
    code = str(body.get("Code") or "")
    cls = ERRORS_BY_CODE.get(code) or ERRORS_BY_STATUS.get(status, ApiError)
    message = str(body.get("Message") or code or f"HTTP {status}")
    parameter = body.get("Parameter")
    return cls(message, status=int(body.get("Status") or status), code=code,
               parameter=str(parameter) if parameter else None)
