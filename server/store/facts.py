"""Facts about the store the request path needs often: levels, newest seasons, data sources.

Read from the store and remembered, so the hot path never reflects the schema or re-asks for
reference data. A fact goes stale the way every cached answer does: when the store's generation
moves (``StoreWatch``: an ingest or re-tabulation is seen on the next request), and at the
latest after ``FACTS_TTL`` seconds (a write that bypasses the change signal).
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

import sqlalchemy as sa

from server.catalog.levels import LEVELS, Level
from server.store import schema as s
from server.store.watch import StoreWatch

FACTS_TTL = 30.0
T = TypeVar("T")


class _Ask:
    """The default of a fact's ``generation``: ask the store's watch."""


ASK = _Ask()


class StoreFacts:
    """Reference facts of one store, each kept while the store is unchanged (at most ``ttl``
    seconds)."""

    def __init__(self, engine: sa.Engine, watch: StoreWatch | None = None,
                 ttl: float = FACTS_TTL) -> None:
        self.engine = engine
        self.watch = watch or StoreWatch(engine)
        self.ttl = ttl
        self._memo: dict[Any, tuple[float, int | None, Any]] = {}
        self._lock = threading.Lock()

    def _remember(self, key: Any, compute: Callable[[], T],
                  seen: int | None | _Ask = ASK) -> T:
        """``compute()``'s value, kept; ``seen``: the store's generation as the request read
        it (``StoreWatch.generation``), so that a request asks the store once, not at every
        fact (on SQLite each is a read of its shared memory; instructions a request of
        ``bench/api.py``'s (b) in one process under callgrind: 3,838k -> 3,787k, -1.3%)."""
        hit = self._memo.get(key)
        now = time.monotonic()
        generation = self.watch.generation() if isinstance(seen, _Ask) else seen
        if hit is not None and hit[0] >= now and hit[1] == generation:
            return hit[2]  # type: ignore[no-any-return]
        value = compute()
        with self._lock:
            self._memo[key] = (now + self.ttl, generation, value)
        return value

    def levels(self, seen: int | None | _Ask = ASK) -> dict[str, Level]:
        """Levels by upper-case code: the store's ``levels`` rows (the catalog if it has none)."""
        def load() -> dict[str, Level]:
            lv = s.levels.c
            with self.engine.connect() as conn:
                rows = conn.execute(sa.select(lv.code, lv.name, lv.sport, lv.gender, lv.tier,
                                              lv.season_span, lv.college)).all()
            found = [Level(*r) for r in rows] or list(LEVELS)
            return {level.code.upper(): level for level in found}
        return self._remember("levels", load, seen)

    def level_codes(self) -> tuple[str, ...]:
        """The store's level codes, as the glossary spells them."""
        return tuple(lv.code for lv in self.levels().values())

    def find_level(self, code: str, seen: int | None | _Ask = ASK) -> Level | None:
        """The level a code names in any case, or None (``seen``: see ``_remember``)."""
        return self.levels(seen).get(code.strip().upper())

    def newest_season(self, code: str) -> int | None:
        """The level's newest season (from its seasons, else its games), or None."""
        def load() -> int | None:
            with self.engine.connect() as conn:
                value = conn.execute(sa.select(sa.func.max(s.seasons.c.season))
                                     .where(s.seasons.c.level == code)).scalar()
                if value is None:
                    value = conn.execute(sa.select(sa.func.max(s.games.c.season))
                                         .where(s.games.c.level == code)).scalar()
            return int(value) if value is not None else None
        return self._remember(("season", code), load)

    def stat_codes(self, sport: str, kind: str) -> tuple[str, ...]:
        """The glossary's stat codes of a sport and type (player or team), as the store spells
        them."""
        def load() -> tuple[str, ...]:
            gs = s.glossary_stats.c
            with self.engine.connect() as conn:
                return tuple(conn.execute(sa.select(gs.code).where(gs.sport == sport,
                                                                   gs.type == kind)).scalars())
        return self._remember(("stats", sport, kind), load)

    def sources(self, code: str, seen: int | None | _Ask = ASK) -> str | None:
        """The data sources behind a level, for ``meta.Source`` (``simulated``, ``retrosheet``;
        ``seen``: see ``_remember``)."""
        def load() -> str | None:
            with self.engine.connect() as conn:
                found = conn.execute(sa.select(s.seasons.c.source).distinct()
                                     .where(s.seasons.c.level == code)).scalars().all()
            return ",".join(sorted(found)) or None
        return self._remember(("source", code), load, seen)
