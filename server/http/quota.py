"""A key's rate limit as one answer leaves it (contract section 9: the v3/v4 ``user`` block)."""
from __future__ import annotations

from dataclasses import dataclass


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
