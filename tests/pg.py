"""PostgreSQL for tests: a fresh database per use on 127.0.0.1:5432, or one clear skip line."""
from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import sqlalchemy as sa

ADMIN_URL = os.environ.get("TEST_POSTGRES_ADMIN_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")


def _admin() -> sa.Engine:
    return sa.create_engine(ADMIN_URL, isolation_level="AUTOCOMMIT")


def postgres_available() -> bool:
    try:
        with _admin().connect() as conn:
            conn.execute(sa.text("SELECT 1"))
        return True
    except sa.exc.OperationalError:
        return False


@contextmanager
def fresh_database(prefix: str = "sports_test") -> Iterator[str]:
    """Create an empty database, yield its URL, drop it afterwards."""
    if not postgres_available():
        pytest.skip("PostgreSQL not reachable at 127.0.0.1:5432; PostgreSQL tests skipped")
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    admin = _admin()
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    try:
        yield ADMIN_URL.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
