"""``python -m server evaluate --projections --level FC``: were football's season projections
any good, against a points-per-game pace?

Every finished league season in the store whose places are declared (``server.catalog.football.
places``) is projected as of three days: when a quarter, half and three quarters of its matches
were played. The pace baseline projects each club's final points as its points so far plus its
points per game so far times its games left, and ranks the clubs by them (goal difference so far
breaks a tie): it says one final table for certain. Both are scored against the final table
(points, the league's deductions and tiebreakers):

* final position: ranked probability score over the positions (the pace puts all its weight on
  one position), normalised by the positions less one, so 0 is a certain right answer and 1 a
  certain answer at the other end of the table;
* title and relegation (the direct places): Brier score over the league's clubs;
* final points: RMSE.

Lower is better in each. The projections use ``EVAL_SIMS`` simulated seasons each.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd
import sqlalchemy as sa

from server.catalog import phases
from server.catalog.football.places import RELEGATION, places_for
from server.errors import UserError
from server.jobs import football_tables
from server.jobs.projections import SeasonGames, game_rules, read_season, snapshot
from server.models.football_goals import Fits
from server.models.projections import SEED, TableLeague, project_table
from server.store import schema

LEVEL = "FC"
EVAL_SIMS = 1_000  # per projection: a title chance within 0.016 (one standard error)
FRACTIONS = (0.25, 0.5, 0.75)  # of the league's matches played by the as-of day


@dataclass(frozen=True)
class LeagueScore:
    league: str
    season: int
    fraction: float
    clubs: int
    rps: float
    rps_pace: float
    title: float
    title_pace: float
    relegation: float | None
    relegation_pace: float | None
    rmse: float
    rmse_pace: float


def position_rps(probs: np.ndarray, actual: np.ndarray) -> float:
    """Mean over clubs of the ranked probability score of a distribution over final positions
    (``probs[i, p - 1]``) against the position each finished (1-based), normalised to 0-1."""
    size = probs.shape[1]
    outcome = np.zeros_like(probs)
    outcome[np.arange(len(actual)), actual - 1] = 1.0
    cum = np.cumsum(probs, axis=1)[:, :-1] - np.cumsum(outcome, axis=1)[:, :-1]
    return float(np.mean(np.sum(cum ** 2, axis=1) / max(size - 1, 1)))


def _brier(p: np.ndarray, y: np.ndarray) -> float:
    return float(np.mean((p - y) ** 2))


def _rmse(p: np.ndarray, y: np.ndarray) -> float:
    return float(np.sqrt(np.mean((p - y) ** 2)))


def seasons_held(conn: sa.Connection) -> list[int]:
    """The level's seasons with league matches, oldest first (``score_season`` keeps the
    leagues whose season is over)."""
    g = schema.games.c
    return [int(r[0]) for r in conn.execute(
        sa.select(g.season).where(g.level == LEVEL, g.phase == phases.REGULAR).distinct()
        .order_by(g.season))]


def _league_part(sg: SeasonGames, keep: np.ndarray) -> tuple[SeasonGames, np.ndarray]:
    """The games of the clubs ``keep`` (a boolean per club) as a season of their own, and the
    clubs' indexes in the whole season."""
    clubs = np.flatnonzero(keep)
    remap = np.full(len(sg.team_ids), -1)
    remap[clubs] = np.arange(len(clubs))
    mine = keep[sg.home] & keep[sg.visitor]
    fields = {name: getattr(sg, name)[mine] for name in (
        "date", "score_home", "score_vis", "final", "overtime", "neutral", "before", "after",
        "points", "win_exp")}
    return SeasonGames(sg.team_ids[clubs], home=remap[sg.home[mine]],
                       visitor=remap[sg.visitor[mine]], **fields), clubs


def score_season(conn: sa.Connection, season: int, sims: int = EVAL_SIMS,
                 leagues: Iterable[str] | None = None, goals: bool = True,
                 seed: int = SEED) -> list[LeagueScore]:
    """Every finished league of ``season`` with declared places, at each of ``FRACTIONS``;
    without ``goals``, the matches played with the Elo's chances alone (the comparison of
    bench/football_projection_blend.py)."""
    games = read_season(conn, LEVEL, season)
    if games.empty:
        return []
    sg = SeasonGames.of(games)
    table = football_tables.setup(conn, LEVEL, season, sg.team_ids)
    wanted = set(leagues) if leagues is not None else None
    out: list[LeagueScore] = []
    unplayed = games["state"].isin(("scheduled", "inprogress", phases.NO_RESULT)).to_numpy()
    fits = football_tables.goal_fits(conn, LEVEL, sorted({
        d for g in range(len(table.codes)) for d in _days(sg, table.group == g)})) \
        if goals else None
    for g, code in enumerate(table.codes):
        if code is None or places_for(code, season) is None or (wanted and code not in wanted):
            continue
        keep = table.group == g
        if unplayed[keep[sg.home] | keep[sg.visitor]].any():
            continue  # not finished
        part, clubs = _league_part(sg, keep)
        final, steps = table.of(clubs)
        one = football_tables.TableSetup(np.zeros(len(clubs), np.int64), final, [code],
                                         [table.leagues[g]],
                                         [table.sublevel_ids[i] for i in clubs], steps,
                                         table.splits[g:g + 1])
        out += _score_league(part, one, code, season, sims, fits, seed)
    return out


def _final(part: SeasonGames, one: football_tables.TableSetup) -> tuple[np.ndarray, np.ndarray]:
    """The final table: each club's position and points."""
    rated, _played = snapshot(part, part.date.max(), one.group, np.full(len(one.group), -1),
                             "soccer")
    state = football_tables.state_at(rated.ratings, part.home, part.visitor, part.score_home,
                                     part.score_vis, part.final, part.neutral, part.team_ids, one)
    p = project_table(state, game_rules("soccer", part, part.final), one.leagues, n_sims=1)
    return np.rint(p.proj_rank).astype(np.int64), state.points


def _days(sg: SeasonGames, keep: np.ndarray) -> list[dt.date]:
    """The as-of days of a league (the clubs ``keep``): when each of ``FRACTIONS`` of its
    matches were played."""
    dates = np.sort(sg.date[keep[sg.home] & keep[sg.visitor]], kind="stable")
    return [dates[int(len(dates) * f) - 1] for f in FRACTIONS] if len(dates) else []


def _score_league(part: SeasonGames, one: football_tables.TableSetup, code: str, season: int,
                  sims: int, fits: Fits | None = None, seed: int = SEED) -> list[LeagueScore]:
    league: TableLeague = one.leagues[0]
    actual_pos, actual_pts = _final(part, one)
    clubs = len(part.team_ids)
    down = league.places.get(RELEGATION)
    out = []
    for fraction, day in zip(FRACTIONS, _days(part, np.ones(clubs, dtype=bool)), strict=True):
        rated, played = snapshot(part, day, one.group, np.full(clubs, -1), "soccer")
        goals = (football_tables.club_goals(fits, day, part.team_ids, one)
                 if fits is not None else None)
        state = football_tables.state_at(rated.ratings, part.home, part.visitor,
                                         part.score_home, part.score_vis, played, part.neutral,
                                         part.team_ids, one, day, goals)
        p = project_table(state, game_rules("soccer", part, played), one.leagues, n_sims=sims,
                          seed=seed)
        games_played = state.wins + state.losses + state.draws
        total = np.bincount(part.home, minlength=clubs) + np.bincount(part.visitor,
                                                                      minlength=clubs)
        ppg = (3 * state.wins + state.draws) / np.maximum(games_played, 1)
        pace_pts = state.points + ppg * (total - games_played)
        rank = np.lexsort([-state.goal_diff, -pace_pts])
        pace_pos = np.empty(clubs, dtype=np.int64)
        pace_pos[rank] = np.arange(1, clubs + 1)
        pace_probs = np.zeros((clubs, clubs))
        pace_probs[np.arange(clubs), pace_pos - 1] = 1.0
        title_y = (actual_pos == 1).astype(float)
        rel = rel_pace = None
        if down is not None and len(down):
            y = np.isin(actual_pos, list(down)).astype(float)
            rel = _brier(p.places[RELEGATION], y)
            rel_pace = _brier(np.isin(pace_pos, list(down)).astype(float), y)
        out.append(LeagueScore(
            code, season, fraction, clubs, position_rps(p.positions[:, :clubs], actual_pos),
            position_rps(pace_probs, actual_pos), _brier(p.title, title_y),
            _brier((pace_pos == 1).astype(float), title_y), rel, rel_pace,
            _rmse(p.proj_points, actual_pts), _rmse(pace_pts, actual_pts)))
    return out


def scores(conn: sa.Connection, season: int | None = None, sims: int = EVAL_SIMS
           ) -> list[LeagueScore]:
    seasons = [season] if season is not None else seasons_held(conn)
    return [x for s in seasons for x in score_season(conn, s, sims)]


def summary(rows: list[LeagueScore]) -> pd.DataFrame:
    """Per as-of fraction: league seasons scored and the mean of each score, ours and pace."""
    df = pd.DataFrame([r.__dict__ for r in rows])
    return (df.groupby("fraction")
            .agg(leagues=("league", "size"), rps=("rps", "mean"), rps_pace=("rps_pace", "mean"),
                 title=("title", "mean"), title_pace=("title_pace", "mean"),
                 relegation=("relegation", "mean"), relegation_pace=("relegation_pace", "mean"),
                 rmse=("rmse", "mean"), rmse_pace=("rmse_pace", "mean"))
            .reset_index())


def report(conn: sa.Connection, season: int | None = None) -> str:
    rows = scores(conn, season)
    if not rows:
        raise UserError("no finished football league season with declared places is in the "
                        "store")
    seasons = sorted({r.season for r in rows})
    lines = [(f"football season projections ({len(seasons)} season(s) {seasons[0]}-"
             f"{seasons[-1]}, {len({(r.league, r.season) for r in rows})} league seasons, "
             f"{EVAL_SIMS} simulated seasons each) against the points-per-game pace; lower is "
             "better"),
             (f"{'played':>7} {'leagues':>7}  {'position RPS':>15}  {'title Brier':>15}  "
             f"{'relegation Brier':>17}  {'points RMSE':>13}"),
             (f"{'':>7} {'':>7}  {'ours':>7} {'pace':>7}  {'ours':>7} {'pace':>7}  "
             f"{'ours':>8} {'pace':>8}  {'ours':>6} {'pace':>6}")]
    for r in summary(rows).itertuples():
        lines.append(f"{r.fraction:>7.0%} {r.leagues:>7d}  {r.rps:>7.4f} {r.rps_pace:>7.4f}  "
                     f"{r.title:>7.4f} {r.title_pace:>7.4f}  {r.relegation:>8.4f} "
                     f"{r.relegation_pace:>8.4f}  {r.rmse:>6.2f} {r.rmse_pace:>6.2f}")
    by_league = pd.DataFrame([r.__dict__ for r in rows]).groupby("league").agg(
        n=("season", "nunique"), rps=("rps", "mean"), rps_pace=("rps_pace", "mean"))
    lines.append("per league (mean over seasons and days), position RPS ours / pace: " + ", ".join(
        f"{code} {x.rps:.4f}/{x.rps_pace:.4f}" for code, x in by_league.iterrows()))
    return "\n".join(lines)
