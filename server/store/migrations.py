"""The store's versions, declared: what each one changed and the steps that bring an older
store up to it.

Every upgrade is additive and idempotent, so ``init`` runs every version's steps on every
start, in version order, and an older store of any version comes out current (a step finds
nothing to do in a store that already has its change). Three kinds of change need no step of
their own, since ``init`` makes them for every version: a new table (``create_all`` creates the
missing ones), a new nullable column (added empty; the next ingest or re-tabulation fills it)
and a new index. ``SCHEMA_VERSION`` in ``server.store.schema`` is the last version here (a test
holds them together).
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

import sqlalchemy as sa

from server.catalog import phases
from server.catalog.playoffs import CUP_FINALS
from server.store import schema

Step = Callable[[sa.Connection], None]


@dataclass(frozen=True)
class Migration:
    """One schema version: ``changes`` says what it added and how an older store gets it;
    ``before_tables`` run before the missing tables are created, ``steps`` after them."""

    version: int
    changes: str
    before_tables: tuple[Step, ...] = ()
    steps: tuple[Step, ...] = ()


# Indexes a later version replaced (version 2).
RETIRED_INDEXES = ("ix_games_home", "ix_games_visitor")


def drop_retired_indexes(conn: sa.Connection) -> None:
    for name in RETIRED_INDEXES:
        conn.execute(sa.text(f"DROP INDEX IF EXISTS {name}"))  # a constant name, not input


_OLD_STAT_TABLES = "stat_tables_v3"


def set_aside_stat_tables(conn: sa.Connection) -> None:
    """``stat_tables`` keyed without ``phase`` is renamed (its indexes and key out of the new
    one's way) for ``refill_stat_tables``."""
    inspector = sa.inspect(conn)
    if not inspector.has_table("stat_tables") or \
            "phase" in {c["name"] for c in inspector.get_columns("stat_tables")}:
        return
    for index in schema.stat_tables.indexes:
        conn.execute(sa.text(f"DROP INDEX IF EXISTS {index.name}"))  # constant names
    conn.execute(sa.text(f"ALTER TABLE stat_tables RENAME TO {_OLD_STAT_TABLES}"))
    if conn.dialect.name == "postgresql":
        conn.execute(sa.text(f"ALTER TABLE {_OLD_STAT_TABLES} RENAME CONSTRAINT stat_tables_pkey "
                             f"TO {_OLD_STAT_TABLES}_pkey"))


def refill_stat_tables(conn: sa.Connection) -> None:
    """The set-aside table's rows, every one the regular season's (all an older version
    tabulated), into the new ``stat_tables``; then the old table goes."""
    if not sa.inspect(conn).has_table(_OLD_STAT_TABLES):
        return
    names = ", ".join(f'"{c.name}"' for c in schema.stat_tables.columns if c.name != "phase")
    conn.execute(sa.text(f"INSERT INTO stat_tables ({names}, phase) "
                         f"SELECT {names}, '{phases.REGULAR}' FROM {_OLD_STAT_TABLES}"))
    conn.execute(sa.text(f"DROP TABLE {_OLD_STAT_TABLES}"))


def add_game_phase(conn: sa.Connection) -> None:
    """``games.phase`` (not nullable, so added here), filled from the playoff round every
    source already stored, by the one rule (``phases.phase_of_round``)."""
    held = {c["name"] for c in sa.inspect(conn).get_columns("games")}
    if "phase" in held:
        return
    conn.execute(sa.text("ALTER TABLE games ADD COLUMN phase VARCHAR(12) NOT NULL "
                         f"DEFAULT '{phases.REGULAR}'"))  # constants, not input
    g = schema.games.c
    rounds = conn.execute(sa.select(g.playoff).where(g.playoff.is_not(None)).distinct()).scalars()
    for name in rounds:
        conn.execute(schema.games.update().where(g.playoff == name)
                     .values(phase=phases.phase_of_round(name)))


def mark_cup_finals(conn: sa.Connection) -> None:
    """A cup final loaded before it was declared (``playoffs.CUP_FINALS``) is a regular-season
    game: it gets its round and the ``cupfinal`` phase (the next re-tabulation and projections
    count it no more)."""
    g, t = schema.games.c, schema.teams.c
    for cup in CUP_FINALS:
        teams = sa.select(t.id).where(t.level == cup.level, t.abbrev.in_(sorted(cup.teams)))
        conn.execute(schema.games.update().where(
            g.level == cup.level, g.game_day == dt.date.fromisoformat(cup.day),
            g.playoff.is_(None), g.home_id.in_(teams), g.visitor_id.in_(teams))
            .values(playoff=cup.name, phase=phases.phase_of_round(cup.name)))


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "The first schema."),
    Migration(2, "A team's games are found by team and season, not by team and date: the "
                 "indexes on home and visitor team by date are dropped.",
              steps=(drop_retired_indexes,)),
    Migration(3, "Season projections (``projections``)."),
    Migration(4, "Each game's phase (``games.phase``, filled from the playoff round already "
                 "stored) and the ``noresult`` state (settled by ``init`` for past days); "
                 "``stat_tables.phase`` in its primary key (the table rebuilt around it, its "
                 "rows the regular season's); a team season's ``abbrev``, ``city``, ``nickname`` "
                 "(empty: the team's current ones stand in until the next ingest) and "
                 "``division_id`` (filled from the declared divisions); a player's "
                 "``search_name`` (filled by ``init``); baseball's base-out state on ``plays`` "
                 "(``outs``, ``bases``; the next ingest of the source fills them); "
                 "``play_winprob`` and ``winprob_calibration`` (the next ``retabulate`` fills "
                 "them).",
              before_tables=(set_aside_stat_tables,),
              steps=(refill_stat_tables, add_game_phase)),
    Migration(5, "Other forecasters' published chances (``comparison_forecasts``; the next "
                 "``ingest fivethirtyeight`` of the same files fills it)."),
    Migration(6, "The run environment (``run_expectancy``, ``run_constants``; the next "
                 "``retabulate`` fills them); cup finals their own phase (``cupfinal``: a final "
                 "stored as a regular-season game is marked).",
              steps=(mark_cup_finals,)),
    Migration(7, "Baseball's state before a play (``plays.outs_before``, ``plays.bases_before``) "
                 "and a batter's place in the batting order (``player_lines.batting_order``), "
                 "added last so rows written by position keep their places, filled by the next "
                 "ingest of the source; football's three-outcome chances "
                 "(``forecasts.elo_*_prob``, ``comparison_forecasts.draw_prob`` and "
                 "``vis_win_prob``), filled by the next ``retabulate`` and SPI ingest; football's places "
                 "in ``projections`` (``proj_rank``, ``*_prob``), filled by the next projections "
                 "run."),
    Migration(8, "A traded player's metrics per team and his season's total "
                 "(``stint_metrics``; the next ``retabulate`` fills it)."),
    Migration(9, "Players in name order (``ix_players_name_order``): the players list's first "
                 "page and its count without grouping a level's every player season; the forecasts "
                 "with a money line (``ix_forecasts_lines``), so the moneyline list does not walk "
                 "every forecast of a level to find them."),
    Migration(10, "Which kinds of data each season holds, kept (``season_data``): the seasons "
                  "list read an EXISTS per season over the largest tables, which PostgreSQL "
                  "answered by scanning them once per season; ``init`` fills it for a store "
                  "that has none (``server.store.season_data``)."),
    Migration(11, "How many games, plays and pitches each season holds, kept (``season_rows``): "
                  "a plain list's total (every pitch of a level, a season's plays) was a count of "
                  "millions of rows on every uncached request; and each baseball pitcher's record "
                  "through each game he had a decision in (``pitcher_records``), which box scores "
                  "summed from his season's lines per page; ``init`` fills both for a store that "
                  "has none (``server.store.season_data``)."),
)
