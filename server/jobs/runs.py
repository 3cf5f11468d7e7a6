"""The record of the latest re-tabulation, kept in ``store_info``: written inside the run's own
transaction (so it never claims a run that rolled back), read by ``/health``. Kept apart from
``retabulate`` so the HTTP workers read it without loading the models' libraries."""
from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import orjson
import sqlalchemy as sa

from server.store import schema
from server.store.loader import upsert

LAST_RUN_KEY = "retabulated"


def record(conn: sa.Connection, seconds: Mapping[str, float]) -> None:
    """Note a run now (UTC): its levels and seconds (``seconds``: level -> seconds taken)."""
    upsert(conn, schema.store_info, [{"key": LAST_RUN_KEY, "value": orjson.dumps({
        "At": datetime.now(UTC).isoformat(timespec="seconds"), "Levels": list(seconds),
        "Seconds": round(sum(seconds.values()), 2)}).decode()}])


def last_run(conn: sa.Connection) -> dict[str, Any] | None:
    """When the latest re-tabulation committed (UTC), its levels and seconds; None before the
    first."""
    value = conn.execute(sa.select(schema.store_info.c.value)
                         .where(schema.store_info.c.key == LAST_RUN_KEY)).scalar()
    found = orjson.loads(value) if value else None
    return found if isinstance(found, dict) else None
