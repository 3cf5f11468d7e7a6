"""Store facts (levels, newest seasons, sources) go stale as cached answers do: a season ingested
is the default season on the next request, not after a timeout."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

from server.store import schema
from server.store.engine import make_engine
from server.store.facts import StoreFacts
from server.store.init import init_store
from server.store.watch import mark_changed


def test_a_new_season_is_seen_at_once(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'facts.db'}")
    init_store(engine)
    facts = StoreFacts(engine, ttl=3600.0)
    assert facts.newest_season("MLB") is None and facts.sources("MLB") is None
    with engine.begin() as conn:
        conn.execute(schema.seasons.insert().values(
            level="MLB", season=2031, name="2031", start=dt.date(2031, 3, 27),
            end=dt.date(2031, 10, 1), source="simulated"))
        mark_changed(conn)
    assert facts.newest_season("MLB") == 2031
    assert facts.sources("MLB") == "simulated"


def test_facts_are_cached_while_the_store_is_unchanged(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'cached.db'}")
    init_store(engine)
    facts = StoreFacts(engine, ttl=3600.0)
    assert facts.newest_season("NBA") is None
    with engine.begin() as conn:  # a write that bypasses the change signal
        conn.execute(schema.seasons.insert().values(
            level="NBA", season=2031, name="2030-31", start=dt.date(2030, 10, 20),
            end=dt.date(2031, 4, 12), source="simulated"))
    assert facts.newest_season("NBA") is None  # cached: the store said nothing changed
    assert StoreFacts(engine, ttl=0.0).newest_season("NBA") == 2031  # the TTL bounds it
