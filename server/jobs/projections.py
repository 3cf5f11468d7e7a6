"""Fill ``projections``: season projections as of the end of days with games.

Two uses. The nightly job (``server.jobs.scheduler``) projects the levels in season as of the
newest day with regular-season finals, with ``N_SIMS`` simulated seasons (plus any of the last
``CATCH_UP_DAYS`` such days a missed night left out). ``python -m server projections --history``
replays every season that is over (all played, or a past season whose data stops early), one
snapshot per day with games not yet projected, with ``HISTORY_SIMS`` (fewer: a season has up to
~190 such days).

Inputs come from the store: the games, the re-tabulated Elo block of each (``forecasts``), the
teams' sublevels, and the level's postseason (``server.catalog.playoffs``). Everything is computed
first; then one transaction replaces the snapshots computed, so an interrupted run leaves the
table as it was.
"""
from __future__ import annotations

import argparse
import datetime as dt
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import sqlalchemy as sa

from server.catalog import clock
from server.catalog.levels import LEVELS, find_level
from server.catalog import phases
from server.catalog.playoffs import format_for, usable
from server.catalog.sources import SIMULATED  # games.source of the simulator's seasons
from server.catalog.tables import SPORT_TABLES
from server.errors import UserError
from server.models.elo import SPORT_ELO
from server.jobs import football_tables
from server.models.projections import GameRules, SeasonState, project, project_table
from server.store import schema
from server.store.competitions import in_league_tables
from server.store.divisions import Placement, placements
from server.store.watch import mark_changed

N_SIMS = 10_000  # nightly: standard error of a probability <= 0.005
HISTORY_SIMS = 2_000  # replays: standard error of a probability <= 0.011 (sqrt(0.25 / 2000))
CATCH_UP_DAYS = 3  # nightly: days with games of the season still unprojected, newest first
# Shares before a season shows its own (weighted as PRIOR_GAMES games): soccer draws (European
# leagues ~25%), hockey games decided in overtime or a shootout (NHL ~23% since 2015-16).
DRAW_PRIOR = {"soccer": 0.25}
OT_PRIOR = {"hockey": 0.23}
PRIOR_GAMES = 20.0
OT_LOSS_SPORTS = ("hockey",)  # a loss in overtime counts a T (overtime loss), not an L


def read_season(conn: sa.Connection, level: str, season: int) -> pd.DataFrame:
    """The season's regular-season games (final, scheduled or in progress) with the Elo block
    re-tabulation wrote for each: before/after ratings, the Elo points exchanged and the home
    side's win expectation."""
    g, f = schema.games.c, schema.forecasts.c
    stmt = (sa.select(g.id, g.game_day, g.game_no, g.home_id, g.visitor_id, g.score_home,
                      g.score_vis, g.state, g.neutral, g.overtime, g.source, f.helo_before,
                      f.velo_before, f.helo_after, f.velo_after, f.elo_points, f.helo_win_exp)
            .join_from(schema.games, schema.forecasts, f.game_id == g.id, isouter=True)
            .where(g.level == level, g.season == season, g.phase == phases.REGULAR,
                   in_league_tables(g.sublevel_id),
                   # a game the source has no result for is still one of the schedule's: it is
                   # simulated like a game to come, never read as a result
                   g.state.in_(("final", "scheduled", "inprogress", phases.NO_RESULT)))
            .order_by(g.game_day, g.game_no, g.id))
    cols = ["game_id", "date", "game_no", "home", "visitor", "score_home", "score_vis", "state",
            "neutral", "overtime", "source", "helo_before", "velo_before", "helo_after",
            "velo_after", "elo_points", "win_exp"]
    df = pd.DataFrame(conn.execute(stmt).all(), columns=cols)
    df["date"] = pd.to_datetime(df["date"]).dt.date
    df["final"] = (df["state"] == "final") & df["score_home"].notna() & df["score_vis"].notna()
    df["neutral"] = df["neutral"].fillna(False).astype(bool)
    return df


def _structure(conn: sa.Connection, level: str, season: int, team_ids: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, list[int | None]]:
    """Per team: its group (league or conference) index, its division index (-1 unknown), and
    its sublevel id that season (``server.store.divisions.placements``)."""
    placed = placements(conn, level, season, team_ids.tolist())
    groups: dict[object, int] = {}
    divisions: dict[object, int] = {}
    group, division, subs = [], [], []
    for tid in team_ids.tolist():
        p = placed.get(tid, Placement(None, None, None))
        subs.append(p.sublevel_id)
        group.append(-1 if p.league_id is None else groups.setdefault(p.league_id, len(groups)))
        division.append(-1 if p.division_id is None
                        else divisions.setdefault(p.division_id, len(divisions)))
    return np.array(group), np.array(division), subs


def game_rules(sport: str, sg: SeasonGames, played: np.ndarray) -> GameRules:
    """The simulated game: the sport's Elo home advantage and playoff scaling; the K of the
    updates as this season's played games show it (median points exchanged per unit of
    surprise, which folds in the margin multiplier); draw and overtime shares from the season's
    games so far, shrunk toward the sport's prior."""
    params = SPORT_ELO[sport]
    k = params.k
    sh, sv = sg.score_home[played], sg.score_vis[played]
    if len(sh):
        result = np.where(sh > sv, 1.0, np.where(sh < sv, 0.0, 0.5))
        surprise = np.abs(result - sg.win_exp[played])
        pts = sg.points[played]
        ok = (surprise > 0.05) & np.isfinite(pts) & np.isfinite(surprise)
        if ok.sum() >= 10:
            k = float(np.median(pts[ok] / surprise[ok]))
    n = float(len(sh))
    draws = float((sh == sv).sum())
    draw_prior = DRAW_PRIOR.get(sport, 0.0)
    draw_share = (draws + draw_prior * PRIOR_GAMES) / (n + PRIOR_GAMES) if (draws or draw_prior) \
        else 0.0
    ot_share = 0.0
    if sport in OT_LOSS_SPORTS:
        ot = float(sg.overtime[played].sum())
        ot_share = (ot + OT_PRIOR[sport] * PRIOR_GAMES) / (n + PRIOR_GAMES)
    return GameRules(home_adv=params.home, k=k, draw_share=draw_share, ot_share=ot_share,
                     playoff_diff=params.playoff_diff)


@dataclass(frozen=True)
class SeasonGames:
    """A season's games as arrays (in play order), read once and cut at any day: team indexes,
    dates, scores, whether final and decided in overtime, and the Elo block's ratings."""

    team_ids: np.ndarray
    date: np.ndarray
    home: np.ndarray
    visitor: np.ndarray
    score_home: np.ndarray
    score_vis: np.ndarray
    final: np.ndarray
    overtime: np.ndarray
    neutral: np.ndarray
    before: np.ndarray  # (games, 2): home, visitor rating before the game
    after: np.ndarray  # (games, 2): after it (NaN when not final)
    points: np.ndarray  # Elo points exchanged
    win_exp: np.ndarray  # the home side's win expectation

    @classmethod
    def of(cls, games: pd.DataFrame) -> SeasonGames:
        team_ids = np.array(sorted(set(games["home"]) | set(games["visitor"])), dtype=np.int64)
        index = {t: i for i, t in enumerate(team_ids.tolist())}
        num = {c: games[c].to_numpy(float) for c in (
            "score_home", "score_vis", "helo_before", "velo_before", "helo_after", "velo_after",
            "elo_points", "win_exp")}
        return cls(team_ids, games["date"].to_numpy(), games["home"].map(index).to_numpy(np.int64),
                   games["visitor"].map(index).to_numpy(np.int64), num["score_home"],
                   num["score_vis"], games["final"].to_numpy(bool),
                   (games["overtime"].fillna("") != "").to_numpy(bool),
                   games["neutral"].to_numpy(bool),
                   np.stack([num["helo_before"], num["velo_before"]], axis=1),
                   np.stack([num["helo_after"], num["velo_after"]], axis=1),
                   num["elo_points"], num["win_exp"])


def _last_per_team(teams: np.ndarray, values: np.ndarray, into: np.ndarray) -> None:
    """Write each team's last non-NaN value of ``values`` (in order) into ``into``."""
    ok = ~np.isnan(values)
    teams, values = teams[ok], values[ok]
    if not len(teams):
        return
    uniq, rev = np.unique(teams[::-1], return_index=True)
    into[uniq] = values[::-1][rev]


def snapshot(sg: SeasonGames, day: dt.date, group: np.ndarray, division: np.ndarray,
             sport: str) -> tuple[SeasonState, np.ndarray]:
    """The season as of the end of ``day``: records and ratings from the finals up to it; every
    other game (later, or not final) is still to play. Returns the state and the played mask."""
    done = sg.final & (sg.date <= day)
    t = len(sg.team_ids)
    w, lo, ti = np.zeros(t), np.zeros(t), np.zeros(t)
    h, v = sg.home[done], sg.visitor[done]
    sh, sv = sg.score_home[done], sg.score_vis[done]
    ot = sg.overtime[done] & (sport in OT_LOSS_SPORTS)
    np.add.at(w, h, sh > sv)
    np.add.at(w, v, sv > sh)
    np.add.at(ti, h, (sh == sv) | ((sh < sv) & ot))
    np.add.at(ti, v, (sh == sv) | ((sv < sh) & ot))
    np.add.at(lo, h, (sh < sv) & ~ot)
    np.add.at(lo, v, (sv < sh) & ~ot)
    # the rating after each team's newest played game, else before its first game
    ratings = np.full(t, SPORT_ELO[sport].mean)
    every = np.arange(len(sg.home))
    order = np.argsort(np.concatenate([every, every]), kind="stable")
    teams = np.concatenate([sg.home, sg.visitor])[order]
    before = np.concatenate([sg.before[:, 0], sg.before[:, 1]])[order]
    known = ~np.isnan(before)
    uniq, first = np.unique(teams[known], return_index=True)
    ratings[uniq] = before[known][first]
    idx = np.flatnonzero(done)
    order = np.argsort(np.concatenate([idx, idx]), kind="stable")
    _last_per_team(np.concatenate([sg.home[idx], sg.visitor[idx]])[order],
                   np.concatenate([sg.after[idx, 0], sg.after[idx, 1]])[order], ratings)
    rest = ~done
    h2h_wins, h2h_games = np.zeros((t, t)), np.zeros((t, t))
    np.add.at(h2h_wins, (h, v), sh > sv)
    np.add.at(h2h_wins, (v, h), sv > sh)
    np.add.at(h2h_games, (h, v), 1.0)
    np.add.at(h2h_games, (v, h), 1.0)
    regulation = np.zeros(t)
    np.add.at(regulation, h, (sh > sv) & ~sg.overtime[done])
    np.add.at(regulation, v, (sv > sh) & ~sg.overtime[done])
    state = SeasonState(sg.team_ids, ratings, w, lo, ti, group, division, sg.home[rest],
                        sg.visitor[rest], sg.neutral[rest], h2h_wins, h2h_games, regulation)
    return state, done


def project_days(conn: sa.Connection, level: str, season: int, days: Iterable[dt.date],
                 n_sims: int) -> pd.DataFrame:
    """Projection rows of a season as of the end of each of ``days``."""
    lv = find_level(level)
    assert lv is not None
    games = read_season(conn, lv.code, season)
    if games.empty:
        return pd.DataFrame()
    sg = SeasonGames.of(games)
    team_ids = sg.team_ids
    simulated = bool((games["source"] == SIMULATED).all())
    group, division, subs = _structure(conn, lv.code, season, team_ids)
    fmt = usable(format_for(lv.code, season, simulated), bool((group >= 0).all()),
                 bool((division >= 0).all()))
    if lv.sport == "soccer":
        return _project_tables(conn, lv.code, season, sg, days, n_sims)
    table = SPORT_TABLES[lv.sport]  # hockey's points (2 a win, 1 an overtime loss)
    frames = []
    for day in days:
        state, played = snapshot(sg, day, group, division, lv.sport)
        p = project(state, game_rules(lv.sport, sg, played), fmt, n_sims=n_sims,
                    points=table.points)
        points = table.table_points(state.wins, state.ties, state.losses)
        frames.append(pd.DataFrame({
            "season": season, "date": day, "team_id": team_ids, "sublevel_id": subs,
            "wins": state.wins.astype(int), "losses": state.losses.astype(int),
            "ties": state.ties.astype(int),
            "points": None if points is None else points.astype(int),
            "elo": state.ratings, "proj_wins": p.proj_wins, "proj_losses": p.proj_losses,
            "proj_ties": p.proj_ties, "proj_wins_10": p.wins_p10, "proj_wins_90": p.wins_p90,
            "proj_points": p.proj_points,
            "playoff_prob": p.playoff, "bye_prob": p.bye, "title_prob": p.title,
            "sims": n_sims}))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


# football's columns: the place kinds (server.catalog.football.places) -> projections' columns
PLACE_COLUMNS = {"champions_league": "champions_league_prob", "promotion": "promotion_prob",
                 "promotion_playoff": "promotion_playoff_prob",
                 "relegation_playoff": "relegation_playoff_prob", "relegation": "relegation_prob"}


def _project_tables(conn: sa.Connection, level: str, season: int, sg: SeasonGames,
                    days: Iterable[dt.date], n_sims: int) -> pd.DataFrame:
    """Football: each league's table played out (``server.models.projections.project_table``)
    with its declared tiebreakers, deductions and places (``server.jobs.football_tables``)."""
    table = football_tables.setup(conn, level, season, sg.team_ids)
    none = np.full(len(sg.team_ids), -1)
    days = list(days)
    fits = football_tables.goal_fits(conn, level, days)
    frames = []
    for day in days:
        rated, played = snapshot(sg, day, table.group, none, "soccer")
        state = football_tables.state_at(
            rated.ratings, sg.home, sg.visitor, sg.score_home, sg.score_vis, played,
            sg.neutral, sg.team_ids, table, day,
            football_tables.club_goals(fits, day, sg.team_ids, table))
        p = project_table(state, game_rules("soccer", sg, played), table.leagues, n_sims=n_sims)
        nan = np.full(len(sg.team_ids), np.nan)
        europe = football_tables.europe(p.places)
        frames.append(pd.DataFrame({
            "season": season, "date": day, "team_id": sg.team_ids,
            "sublevel_id": table.sublevel_ids, "wins": state.wins.astype(int),
            "losses": state.losses.astype(int), "ties": state.draws.astype(int),
            "points": state.points.astype(int), "elo": state.ratings,
            "proj_wins": p.proj_wins, "proj_losses": p.proj_losses, "proj_ties": p.proj_draws,
            "proj_wins_10": p.wins_p10, "proj_wins_90": p.wins_p90,
            "proj_points": p.proj_points, "playoff_prob": None, "bye_prob": None,
            "title_prob": p.title, "proj_rank": p.proj_rank,
            "europe_prob": europe if europe is not None else nan,
            **{col: p.places.get(kind, nan) for kind, col in PLACE_COLUMNS.items()},
            "sims": n_sims}))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def game_days(conn: sa.Connection, level: str, season: int) -> list[dt.date]:
    """Days of the season with regular-season finals, in order."""
    g = schema.games.c
    rows = conn.execute(sa.select(g.game_day).where(
        g.level == level, g.season == season, g.phase == phases.REGULAR, g.state == "final",
        in_league_tables(g.sublevel_id)).distinct().order_by(g.game_day)).all()
    return [r[0] for r in rows]


def _seasons(conn: sa.Connection, level: str, today: dt.date) -> list[tuple[int, bool]]:
    """(season, over) for each season of the level, oldest first: over when no regular-season
    game is left to play on or after ``today`` -- every game played, or a past season whose data
    stops before its end (a results file whose last games were never played)."""
    g = schema.games.c
    left = sa.func.sum(sa.case((g.state.in_(("scheduled", "inprogress")) & (g.game_day >= today),
                                1), else_=0))
    rows = conn.execute(sa.select(g.season, left).where(g.level == level,
                                                        g.phase == phases.REGULAR,
                                                        in_league_tables(g.sublevel_id))
                        .group_by(g.season).order_by(g.season)).all()
    return [(int(s), not n) for s, n in rows]


def _projected_days(conn: sa.Connection, level: str, season: int) -> set[dt.date]:
    p = schema.projections.c
    return {r[0] for r in conn.execute(sa.select(p.date).where(
        p.level == level, p.season == season).distinct())}


def plan(conn: sa.Connection, level: str, history: bool, today: dt.date,
         season: int | None = None) -> list[tuple[int, list[dt.date], int]]:
    """What a run computes for a level: (season, days, simulations) triples. Nightly: the newest
    season's newest days with games up to today that are not yet projected (at most
    ``CATCH_UP_DAYS``; the newest always, so a re-run refreshes it). History: every day with
    games not yet projected of every season that is over (or of ``season``, every day)."""
    seasons = _seasons(conn, level, today)
    if season is not None:
        return [(season, game_days(conn, level, season), HISTORY_SIMS)]
    if history:
        pending = [(s, [d for d in game_days(conn, level, s) if d not in _projected_days(
            conn, level, s)]) for s, over in seasons if over]
        return [(s, days, HISTORY_SIMS) for s, days in pending if days]
    if not seasons:
        return []
    newest = seasons[-1][0]
    days = [d for d in game_days(conn, level, newest) if d <= today]
    if not days:
        return []
    done = _projected_days(conn, level, newest)
    todo = [d for d in days[:-1] if d not in done][-(CATCH_UP_DAYS - 1):] + [days[-1]]
    return [(newest, todo, N_SIMS)]


def write(conn: sa.Connection, level: str, season: int, rows: pd.DataFrame) -> int:
    """Replace the season's snapshots of the days in ``rows`` (inside the caller's transaction)."""
    p = schema.projections
    days = sorted(set(rows["date"]))
    conn.execute(p.delete().where(p.c.level == level, p.c.season == season, p.c.date.in_(days)))
    clean = rows.astype(object).where(rows.notna(), None)
    records: list[dict[str, Any]] = [{**{str(k): _plain(v) for k, v in r.items()}, "level": level}
                                     for r in clean.to_dict("records")]
    if records:
        conn.execute(p.insert(), records)
    return len(records)


def _plain(v: Any) -> Any:
    return v.item() if isinstance(v, np.generic) else v


def run(engine: sa.Engine, levels: Iterable[str] | None = None, history: bool = False,
        season: int | None = None, today: dt.date | None = None,
        progress: Callable[[str], None] | None = None, sims: int | None = None
        ) -> dict[str, float]:
    """Compute and store projections for ``levels`` (default: every level with games); one
    transaction for all, after everything is computed. ``sims``: simulated seasons per snapshot
    instead of ``N_SIMS`` (nightly) or ``HISTORY_SIMS`` (replays). Returns seconds per level."""
    today = today or clock.today()
    g = schema.games.c
    with engine.connect() as conn:
        held = {r[0] for r in conn.execute(sa.select(g.level).distinct())}
        codes = list(levels) if levels is not None else [lv.code for lv in LEVELS
                                                          if lv.code in held]
        work: list[tuple[str, int, pd.DataFrame]] = []
        seconds: dict[str, float] = {}
        for code in codes:
            lv = find_level(code)
            if lv is None:
                raise UserError(f"unknown level {code!r}")
            t0 = time.perf_counter()
            for s, days, planned in plan(conn, lv.code, history, today, season):
                rows = project_days(conn, lv.code, s, days, sims or planned)
                if not rows.empty:
                    work.append((lv.code, s, rows))
            seconds[lv.code] = time.perf_counter() - t0
            if progress:
                progress(f"{lv.code}: {seconds[lv.code]:.2f} s")
    if work:
        with engine.begin() as conn:
            for code, s, rows in work:
                write(conn, code, s, rows)
            mark_changed(conn)
    return seconds


def cli(args: argparse.Namespace, engine_factory: Callable[[], sa.Engine]) -> int:
    """``python -m server projections [--level L[,L2...]] [--history] [--season S] [--sims N]``."""
    level = getattr(args, "level", None)
    codes = [c.strip() for c in level.split(",") if c.strip()] if level else None
    for code in codes or ():
        if find_level(code) is None:
            raise UserError(f"unknown level {code!r}")
    if args.season is not None and len(codes or ()) != 1:
        raise UserError("--season needs --level with one level")
    t0 = time.perf_counter()
    sims = getattr(args, "sims", None)
    if sims is not None and sims < 100:
        raise UserError("--sims needs at least 100 simulated seasons")
    report = run(engine_factory(), codes, history=args.history, season=args.season,
                 progress=lambda s: print(s, file=sys.stderr), sims=sims)
    print(f"projected {len(report)} level(s) in {time.perf_counter() - t0:.2f} s",
          file=sys.stderr)
    return 0
