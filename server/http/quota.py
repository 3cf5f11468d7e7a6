"""A key's rate limit as one answer leaves it (docs/api/natstat.md: the v3/v4 ``user`` block).

The block changes with every request and the rest of the body may not, so a v3/v4 body is
made, and kept, without it; ``with_quota`` adds it to the bytes each time they are sent, with the
``X-RateLimit-*`` headers and a weak ETag (the data is the same; the quota is not).
"""
from __future__ import annotations

from dataclasses import dataclass

from starlette.responses import Response

from server.http.encode import Encoder
from server.http.responses import Headers, matches, respond


@dataclass(frozen=True)
class Quota:
    """A key's rate limit as one answer leaves it: requests a minute, those left in the
    current minute, and when it resets (Unix seconds). Sent as ``X-RateLimit-*`` headers and
    as the v3/v4 ``user`` block."""

    limit: int
    remaining: int
    reset: int

    def headers(self) -> dict[str, str]:
        return {"X-RateLimit-Limit": str(self.limit),
                "X-RateLimit-Remaining": str(self.remaining),
                "X-RateLimit-Reset": str(self.reset)}

    def user(self) -> dict[str, str]:
        return {"ratelimit": str(self.limit), "ratelimit-remaining": str(self.remaining),
                "ratelimit-reset": str(self.reset)}


def with_quota(encoder: Encoder, body: bytes, etag: str, quota: Quota,
         if_none_match: str | None) -> Response:
    """A v3/v4 body (or its 304) sent with the key's quota, as the request path answers."""
    status = 304 if matches(if_none_match, etag) else 200
    return respond(encoder, encoder.append(body, "user", quota.user()), "W/" + etag, status,
                   quota.headers())


def cached_with_quota(encoder: Encoder, body: bytes, etag: str, shared: Headers, quota: Quota,
               if_none_match: str | None) -> tuple[int, Headers, bytes]:
    """``with_quota`` for a cached body, as the status, raw headers and bytes ``replay.Replay`` sends:
    ``shared``, the headers made once when the body was kept (its weak ETag, no length:
    ``caching.cache_answer``), and the quota's, with no Response built.
    bench/api.py's cached v4 and v3 pages took 1.31x and 1.35x the root page's time with the
    Response built (a quiet machine), 1.05x and 1.25x this way (a busy one; README,
    "Benchmarks")."""
    quota_headers = [(b"x-ratelimit-limit", str(quota.limit).encode()),
                     (b"x-ratelimit-remaining", str(quota.remaining).encode()),
                     (b"x-ratelimit-reset", str(quota.reset).encode())]
    if matches(if_none_match, etag):
        return 304, shared + quota_headers, b""
    sent = encoder.append(body, "user", quota.user())
    return 200, shared + quota_headers + [(b"content-length", str(len(sent)).encode())], sent
