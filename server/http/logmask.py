"""Keys never reach logs (docs/api/index.md): a logging filter that masks ``key=`` values
and the key segment of a v3 address.

Installed on uvicorn's access and error loggers by ``serve``; it rewrites the record's message
and arguments, so any handler or formatter downstream only ever sees ``key=****``. A parameter's
name is judged as the service reads it (percent-decoded, ``+`` a space, then lower-cased, as
Starlette's query parser and ``parse`` do), so every spelling the service accepts as ``key``
is masked: ``KEY=``, ``k%65y=``, ``%6Bey=``, ``%E2%84%AAey=`` (the Kelvin sign lower-cases to k).
"""
from __future__ import annotations

import logging
import re
from typing import Any
from urllib.parse import unquote_plus

# a name=value pair: at a string's start or after ? or &, up to the next & or a blank or quote
_PAIR = re.compile(r"(?P<lead>^|[?&\s])(?P<name>[^=&?\s\"']*)=(?P<value>[^&\s\"']*)")
# A NatStat v3 address carries the key as the segment after the prefix (docs/api/natstat.md).
_PATH_KEY = re.compile(r"(?i)(/natstat/)(?![v][0-9]+(?:[/?\s\"']|$))[^/?\s\"']+(?=/)")


def _masked(match: re.Match[str]) -> str:
    if unquote_plus(match["name"], errors="replace").lower() != "key":
        return match[0]
    return f"{match['lead']}{match['name']}=****"


def mask(text: str) -> str:
    if "=" in text:
        text = _PAIR.sub(_masked, text)
    return _PATH_KEY.sub(r"\1****", text) if "/natstat/" in text.lower() else text


class KeyMaskFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = mask(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(mask(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: mask(v) if isinstance(v, str) else v
                           for k, v in record.args.items()}
        return True


LOGGERS = ("uvicorn.access", "uvicorn.error", "uvicorn", "server.http")


def install() -> None:
    """Attach the filter to the loggers uvicorn and the app write to (idempotent)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, KeyMaskFilter) for f in logger.filters):
            logger.addFilter(KeyMaskFilter())


def log_config() -> dict[str, Any]:
    """uvicorn's default logging config with the mask filter on every handler."""
    from uvicorn.config import LOGGING_CONFIG

    config: dict[str, Any] = {**LOGGING_CONFIG}
    config["filters"] = {"mask_keys": {"()": "server.http.logmask.KeyMaskFilter"}}
    config["handlers"] = {name: {**h, "filters": ["mask_keys"]}
                          for name, h in LOGGING_CONFIG["handlers"].items()}
    return config
