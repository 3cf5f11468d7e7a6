"""The inputs of a football season's table projection, read from the store: each club's league
(its sublevel that season) with the league's declared tiebreakers and places, the points the
league took off it by the day (``server.catalog.football.deductions``, each from the day it was
imposed: a projection knows no later decision), and the table as of a day (points,
goals, head-to-head points). ``server.jobs.projections`` projects with them
(``server.models.projections.project_table``); the projections' scores read them too.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import numpy as np
import sqlalchemy as sa

from server.catalog.football import LEAGUES, Split
from server.catalog.football.deductions import deducted, deduction_days
from server.catalog.football.places import EUROPE, places_for
from server.catalog.playoffs import FOOTBALL_TIEBREAKS, PlayoffFormat
from server.models import standings
from server.models.projections import TableLeague, TableState
from server.store import schema
from server.store.divisions import placements


@dataclass(frozen=True)
class TableSetup:
    """Per club: its league index (``group``), the points taken off it that season; per league:
    its code (None: a league not declared, as the simulator's) and ``TableLeague``; ``steps``:
    per day a decision on points was announced, each club's points taken off by its end."""

    group: np.ndarray
    deducted: np.ndarray
    codes: list[str | None]
    leagues: list[TableLeague]
    sublevel_ids: list[int | None]
    steps: tuple[tuple[dt.date, np.ndarray], ...] = ()
    splits: tuple[Split | None, ...] = ()  # per league its split season, as LEAGUES declares

    def deducted_by(self, day: dt.date | np.datetime64 | None) -> np.ndarray:
        """Per club, the points taken off by the end of ``day`` (None: the season's)."""
        if day is None:
            return self.deducted
        when = (dt.date.fromisoformat(str(day.astype("datetime64[D]")))
                if isinstance(day, np.datetime64)
                else day.date() if isinstance(day, dt.datetime) else day)
        out = np.zeros(len(self.deducted))
        for imposed, taken in self.steps:
            if imposed <= when:
                out = taken
        return out

    def of(self, clubs: np.ndarray) -> tuple[np.ndarray, tuple[tuple[dt.date, np.ndarray], ...]]:
        """The final deductions and the steps of the ``clubs`` (indexes) only."""
        return self.deducted[clubs], tuple((d, t[clubs]) for d, t in self.steps)


def setup(conn: sa.Connection, level: str, season: int, team_ids: np.ndarray) -> TableSetup:
    placed = placements(conn, level, season, team_ids.tolist())
    sl, sk = schema.sublevels.c, schema.source_keys.c
    abbrevs = {int(i): a for i, a in conn.execute(
        sa.select(sl.id, sl.abbrev).where(sl.level == level))}
    by_abbrev = {lg.abbrev: lg for lg in LEAGUES.values()}
    clubs = {int(i): k.split(":", 1)[1] for i, k in conn.execute(
        sa.select(sk.id, sk.key).where(sk.kind == "team", sk.id.in_(team_ids.tolist()),
                                       sk.key.like(f"{level}:%")))}
    index: dict[int | None, int] = {}
    group, subs = [], []
    for tid in team_ids.tolist():
        p = placed.get(tid)
        league_id = p.league_id if p is not None else None
        subs.append(p.sublevel_id if p is not None else None)
        group.append(index.setdefault(league_id, len(index)))
    sizes = np.bincount(np.array(group, dtype=np.int64), minlength=len(index))
    codes: list[str | None] = []
    leagues: list[TableLeague] = []
    splits: list[Split | None] = []
    for g, league_id in enumerate(index):
        lg = by_abbrev.get(abbrevs.get(league_id or -1, ""))
        codes.append(lg.code if lg is not None else None)
        splits.append(lg.split if lg is not None else None)
        declared = places_for(lg.code, season) if lg is not None else None
        ranges = ({} if declared is None
                  else {pl.kind: pl.positions(int(sizes[g])) for pl in declared.places})
        leagues.append(TableLeague(lg.tiebreaks if lg is not None else FOOTBALL_TIEBREAKS,
                                   ranges))
    def taken(as_of: dt.date | None) -> np.ndarray:
        out = np.zeros(len(team_ids))
        for n, tid in enumerate(team_ids.tolist()):
            code = codes[group[n]]
            if code is not None:
                out[n] = deducted(code, season, as_of).get(clubs.get(tid, ""), 0)
        return out

    days = sorted({d for code in set(codes) if code is not None
                   for d in deduction_days(code, season)})
    return TableSetup(np.array(group, dtype=np.int64), taken(None), codes, leagues, subs,
                      tuple((d, taken(d)) for d in days), tuple(splits))


def state_at(ratings: np.ndarray, home: np.ndarray, visitor: np.ndarray, score_home: np.ndarray,
             score_vis: np.ndarray, played: np.ndarray, neutral: np.ndarray,
             team_ids: np.ndarray, table: TableSetup,
             day: dt.date | np.datetime64 | None = None) -> TableState:
    """The table after the ``played`` matches (the others still to play), the deductions
    announced by the end of ``day`` off (None: all of the season's)."""
    t = len(team_ids)
    h, v, sh, sv = home[played], visitor[played], score_home[played], score_vis[played]
    w, lo, d, gd, gf, aw = (np.zeros(t) for _ in range(6))
    np.add.at(w, h, sh > sv)
    np.add.at(w, v, sv > sh)
    np.add.at(aw, v, sv > sh)
    np.add.at(lo, h, sh < sv)
    np.add.at(lo, v, sv < sh)
    np.add.at(d, h, sh == sv)
    np.add.at(d, v, sh == sv)
    np.add.at(gd, h, sh - sv)
    np.add.at(gd, v, sv - sh)
    np.add.at(gf, h, sh)
    np.add.at(gf, v, sv)
    h2h_pts, h2h_games = np.zeros((t, t)), np.zeros((t, t))
    np.add.at(h2h_pts, (h, v), 3.0 * (sh > sv) + (sh == sv))
    np.add.at(h2h_pts, (v, h), 3.0 * (sv > sh) + (sh == sv))
    np.add.at(h2h_games, (h, v), 1.0)
    np.add.at(h2h_games, (v, h), 1.0)
    rest = ~played
    taken = table.deducted_by(day)
    split = _split(h, v, sh, sv, table, taken)
    return TableState(team_ids, ratings, w, lo, d, 3 * w + d - taken - split.taken, gd, gf,
                      table.group, home[rest], visitor[rest], neutral[rest], h2h_pts, h2h_games,
                      split.section, split.half_point, aw)


def _split(h: np.ndarray, v: np.ndarray, sh: np.ndarray, sv: np.ndarray, table: TableSetup,
           taken: np.ndarray) -> standings.SplitState:
    """The split seasons' halving and groups as of the played matches (``h`` .. ``sv``, in play
    order), by the standings' engine (``server.models.standings.split_seasons``)."""
    t = len(table.group)
    if not any(table.splits):
        return standings.SplitState.none(t)
    games = standings.SeasonGames(h.astype(np.int64), v.astype(np.int64),
                                  sh.astype(np.int64), sv.astype(np.int64),
                                  np.zeros(len(h), dtype=bool), np.zeros(t, dtype=np.int64),
                                  deducted=taken.astype(np.int64))
    fmt = PlayoffFormat("FC", 0, 0, "table", (), tiebreaks=FOOTBALL_TIEBREAKS)
    return standings.split_seasons(games, table.group, np.full(t, -1), fmt, table.splits,
                                   [lg.tiebreaks for lg in table.leagues])


def europe(places: dict[str, np.ndarray]) -> np.ndarray | None:
    """The chance of any European place: the sum over the European kinds (disjoint positions),
    NaN where a club's league declares none; None when no league does."""
    held = [places[k] for k in EUROPE if k in places]
    if not held:
        return None
    stacked = np.stack(held)
    out: np.ndarray = np.where(np.isnan(stacked).all(axis=0), np.nan,
                               np.nansum(stacked, axis=0))
    return out
