"""Where the API lives and which key to send: environment first, then secrets.toml (docs/dashboard.md)."""
from __future__ import annotations

import os
from dataclasses import dataclass

import streamlit as st

DEFAULT_API_URL = "http://127.0.0.1:8765"
ENV_URL = "SPORTS_API_URL"
ENV_KEY = "SPORTS_API_KEY"
ENV_DIALECT = "SPORTS_API_DIALECT"  # "natstat": the backend answers NatStat's documents
NATSTAT = "natstat"


@dataclass(frozen=True)
class ApiConfig:
    url: str
    key: str | None
    dialect: str = ""  # "natstat" for a NatStat backend (services.natstat reads its documents)

    def __repr__(self) -> str:  # never print the key
        return (f"ApiConfig(url={self.url!r}, key={'set' if self.key else 'missing'}, "
                f"dialect={self.dialect or 'root'!r})")

    @property
    def natstat(self) -> bool:
        return self.dialect == NATSTAT


def _secret(name: str) -> str | None:
    try:
        value = st.secrets.get(name)
    except (FileNotFoundError, KeyError, st.errors.StreamlitSecretNotFoundError):
        return None
    return str(value) if value else None


def load_config() -> ApiConfig:
    """Read the configuration now (never at import time), environment winning over secrets."""
    url = (os.environ.get(ENV_URL) or _secret("api_url") or DEFAULT_API_URL).rstrip("/")
    key = os.environ.get(ENV_KEY) or _secret("api_key")
    dialect = (os.environ.get(ENV_DIALECT) or _secret("api_dialect") or "").strip().lower()
    if not dialect and url.endswith("/" + NATSTAT):  # a base URL under /natstat/ says it
        dialect = NATSTAT
    return ApiConfig(url=url, key=key or None, dialect=NATSTAT if dialect == NATSTAT else "")
