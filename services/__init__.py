"""The dashboard's API client: the only code in the dashboard that does HTTP (docs/development.md)."""
from __future__ import annotations

from services.client import CACHE_TTL_SECONDS, Page, clear_cache, health, run_epoch
from services.config import ApiConfig, load_config
from services.errors import (
    ApiError, BadParameter, ConnectionFailed, Forbidden, KeyInvalid, KeyMissing, NotFound,
    NotOffered, RateLimited, Unavailable,
)

__all__ = [
    "CACHE_TTL_SECONDS", "ApiConfig", "ApiError", "BadParameter", "ConnectionFailed", "Forbidden",
    "KeyInvalid", "KeyMissing", "NotFound", "NotOffered", "Page", "RateLimited", "Unavailable", "clear_cache",
    "health", "load_config", "run_epoch",
]
