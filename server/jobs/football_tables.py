"""The inputs of a football season's table projection, read from the store: each club's league
(its sublevel that season) with the league's declared tiebreakers and places, the points the
league took off it by the day (``server.catalog.football.deductions``, each from the day it was
imposed: a projection knows no later decision), and the table as of a day (points,
goals, head-to-head points). ``server.jobs.projections`` projects with them
(``server.models.projections.project_table``); the projections' scores read them too.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import sqlalchemy as sa

from server.catalog.football import LEAGUES, Split
from server.catalog.football.deductions import deducted, deduction_days
from server.catalog.football.places import EUROPE, places_for
from server.catalog.phases import PRESEASON
from server.catalog.playoffs import FOOTBALL_TIEBREAKS, PlayoffFormat
from server.jobs._frames import GAME_STATES
from server.jobs.retabulate import division_tiers, national_k_by_sublevel
from server.models import football_goals, standings
from server.models.football_goals import ClubGoals, Fits
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
        ranges = {} if declared is None else declared.ranges(int(sizes[g]))
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


def goal_fits(conn: sa.Connection, level: str, days: Sequence[dt.date]) -> Fits:
    """The goal model as the forecasts fit it (``server.models.football_goals``: the level's
    club games, national teams' left out), by the end of each of ``days``."""
    g = schema.games.c
    cols = ["game_id", "season", "date", "home", "visitor", "score_home", "score_vis",
            "state", "neutral", "sublevel_id"]
    national = list(national_k_by_sublevel(conn, level))
    rows = conn.execute(
        sa.select(g.id, g.season, g.game_day, g.home_id, g.visitor_id, g.score_home,
                  g.score_vis, g.state, g.neutral, g.sublevel_id)
        .where(g.level == level, g.state.in_(GAME_STATES), g.phase != PRESEASON,
               sa.or_(g.sublevel_id.is_(None), g.sublevel_id.not_in(national)))
        .order_by(g.game_day, g.game_no, g.id)).all()
    games = pd.DataFrame(rows, columns=cols)
    final = games["state"] == "final"
    for c in ("score_home", "score_vis"):
        games[c] = pd.to_numeric(games[c], errors="coerce").astype(float).where(final, np.nan)
    games["neutral"] = games["neutral"].fillna(False).astype(bool)
    return football_goals.as_of(games, division_tiers(conn, level), days)


def club_goals(fits: Fits, day: dt.date, team_ids: np.ndarray, table: TableSetup
               ) -> ClubGoals:
    """The fit of ``day`` for the season's clubs, each at home in its league."""
    league = np.array([-1 if s is None else s for s in table.sublevel_ids], dtype=np.int64)
    return fits.clubs(day, team_ids, league)


def state_at(ratings: np.ndarray, home: np.ndarray, visitor: np.ndarray, score_home: np.ndarray,
             score_vis: np.ndarray, played: np.ndarray, neutral: np.ndarray,
             team_ids: np.ndarray, table: TableSetup,
             day: dt.date | np.datetime64 | None = None,
             goals: ClubGoals | None = None) -> TableState:
    """The table after the ``played`` matches, the deductions announced by the end of ``day``
    off (None: all of the season's), and the matches still to play (``rest``: the league's
    declared schedule, listed or not). ``home`` .. ``neutral``: the season's listed league
    matches in play order (final, to come or without a result); ``goals``: the goal model as
    of the day."""
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
    home_pairs = np.zeros((t, t))
    np.add.at(home_pairs, (h, v), 1.0)
    taken = table.deducted_by(day)
    split = _split(h, v, sh, sv, table, taken)
    todo = rest(home, visitor, played, neutral, table, split)
    pending = tuple(rule if rule is not None and not split.reached[table.group == g].any()
                    else None for g, rule in enumerate(table.splits))
    return TableState(team_ids, ratings, w, lo, d, 3 * w + d - taken - split.taken, gd, gf,
                      table.group, todo.home, todo.visitor, todo.neutral, h2h_pts, h2h_games,
                      split.section, split.half_point, aw, pending, goals, home_pairs)


@dataclass(frozen=True)
class Rest:
    """The matches still to play, in play order: club indexes and neutral ground."""
    home: np.ndarray
    visitor: np.ndarray
    neutral: np.ndarray


def rest(home: np.ndarray, visitor: np.ndarray, played: np.ndarray, neutral: np.ndarray,
         table: TableSetup, split: standings.SplitState) -> Rest:
    """The season's matches still to play: every listed match not played (a match without a
    result is still to play); and in a league whose schedule is declared (``League.first_legs``,
    ``Split``), the meetings the files do not list, where a pair of clubs has met and is listed
    to meet fewer times than the schedule says (the round robin; after a split, the group's
    rounds): at home the one with fewer home matches against the other, a group's single
    meeting at home by places (``Split.group_fixtures``), or where the split balances home
    matches (``Split.home_balance``) for the club at home in fewer of the pair's meetings, then
    the one with fewer home matches in the season. A league whose split is still to
    come keeps its first phase here (a club's first ``Split.after`` listed matches): the
    projection draws its groups."""
    n_clubs = len(table.group)
    listed = np.zeros(len(home), dtype=bool)  # the listed matches kept to play
    added_h: list[int] = []
    added_v: list[int] = []
    nth = _nth(home, visitor, n_clubs)
    for g, code in enumerate(table.codes):
        members = np.flatnonzero(table.group == g)
        league = LEAGUES.get(code) if code is not None else None
        mine = (table.group[home] == g) & (table.group[visitor] == g)
        legs = league.first_legs(len(members)) if league is not None else None
        if legs is None or league is None:
            listed |= mine & ~played
            continue
        rule = league.split
        reached = rule is not None and bool(split.reached[members].any())
        if rule is None:
            phase = mine
        else:
            first_phase = (nth[0] <= rule.after) & (nth[1] <= rule.after)
            phase = mine & (~first_phase if reached else first_phase)
            legs = rule.legs if reached else legs
        pairs = _meetings(home, visitor, played, phase, members, legs)
        # each club's home matches in the season: played, listed to play, and added below
        season_home = np.bincount(home[mine & (played | phase)], minlength=n_clubs)
        for (i, j), (left, waiting) in pairs.items():
            listed[waiting] = True  # a listed match is played, whatever the count says
            if left <= len(waiting) or (reached and split.section[i] != split.section[j]):
                continue  # (two groups: they meet no more)
            homes = _home_count(home, visitor, played | listed, phase, i, j)
            for _ in range(left - len(waiting)):
                if rule is not None and reached and rule.legs == 1:  # by places
                    section = int(split.section[i])
                    offset = sum(rule.sizes[:section]) + 1
                    a, b = int(split.rank[i]) - offset, int(split.rank[j]) - offset
                    at_home = (a, b) in rule.group_fixtures(rule.sizes[section])
                    if rule.home_balance:  # the pair's meetings, then the season's
                        met = _home_count(home, visitor, played | listed, mine, i, j)
                        if met[0] != met[1]:
                            at_home = met[0] < met[1]
                        elif season_home[i] != season_home[j]:
                            at_home = bool(season_home[i] < season_home[j])
                    hh, vv = (i, j) if at_home else (j, i)
                else:
                    hh, vv = (i, j) if homes[0] <= homes[1] else (j, i)
                homes = (homes[0] + (hh == i), homes[1] + (hh == j))
                season_home[hh] += 1
                added_h.append(hh)
                added_v.append(vv)
    listed |= ~played & (table.group[home] != table.group[visitor])  # no league's: as listed
    out_h = np.concatenate([home[listed], np.array(added_h, dtype=np.int64)]).astype(np.int64)
    out_v = np.concatenate([visitor[listed], np.array(added_v, dtype=np.int64)]).astype(np.int64)
    out_n = np.concatenate([neutral[listed], np.zeros(len(added_h), dtype=bool)]).astype(bool)
    return Rest(out_h, out_v, out_n)


def _nth(home: np.ndarray, visitor: np.ndarray, n_clubs: int) -> tuple[np.ndarray, np.ndarray]:
    """Each listed match's number among the home club's and the away club's listed matches
    (1 their first), in play order."""
    seen = np.zeros(n_clubs, dtype=np.int64)
    nh, nv = np.empty(len(home), dtype=np.int64), np.empty(len(home), dtype=np.int64)
    for k, (a, b) in enumerate(zip(home.tolist(), visitor.tolist(), strict=True)):
        seen[a] += 1
        seen[b] += 1
        nh[k], nv[k] = seen[a], seen[b]
    return nh, nv


def _meetings(home: np.ndarray, visitor: np.ndarray, played: np.ndarray, phase: np.ndarray,
              members: np.ndarray, legs: int) -> dict[tuple[int, int], tuple[int, list[int]]]:
    """Per pair of the league's clubs (i < j): the meetings left (``legs`` less those played
    in the ``phase``) and the listed unplayed matches between them, in play order."""
    meet = np.zeros((len(home) and int(max(home.max(), visitor.max())) + 1,) * 2, dtype=np.int64)
    done = phase & played
    lo_, hi_ = np.minimum(home, visitor), np.maximum(home, visitor)
    if len(meet):
        np.add.at(meet, (lo_[done], hi_[done]), 1)
    waiting: dict[tuple[int, int], list[int]] = {}
    for k in np.flatnonzero(phase & ~played).tolist():
        waiting.setdefault((int(lo_[k]), int(hi_[k])), []).append(k)
    out: dict[tuple[int, int], tuple[int, list[int]]] = {}
    for a, i in enumerate(members.tolist()):
        for j in members[a + 1:].tolist():
            i_, j_ = min(i, j), max(i, j)
            left = max(legs - int(meet[i_, j_]) if len(meet) > j_ else legs, 0)
            listed = waiting.get((i_, j_), [])
            if left or listed:
                out[(i_, j_)] = (left, listed)
    return out


def _home_count(home: np.ndarray, visitor: np.ndarray, kept: np.ndarray, phase: np.ndarray,
                i: int, j: int) -> tuple[int, int]:
    """How many of the ``kept`` matches of the ``phase`` between clubs i and j each has at
    home."""
    between = phase & kept
    return (int((between & (home == i) & (visitor == j)).sum()),
            int((between & (home == j) & (visitor == i)).sum()))


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
