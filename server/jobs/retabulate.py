"""Re-tabulation: rebuild a level's ELO series, RPI, forecasts, stat tables and the win
probability of its plays (with its calibration) from its games.

Each level is computed in memory first (numpy / pandas, ``server.models``) from reads that
take no lock; then a transaction of its own deletes that level's derived rows and bulk-inserts
the new ones, and commits. Readers keep the old snapshot until that commit (SQLite WAL,
PostgreSQL MVCC), so they never see a partial or empty table, and a failed or killed rebuild
leaves every level either as it was or wholly rebuilt, the old rows serving until then
(docs/api/index.md). Short write transactions, one level's insert at a time, keep SQLite's single
write lock free for everything else most of the run (before, one transaction over every level
held it for the whole run, 85 s under traffic).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Iterable
from datetime import date, datetime
from typing import Any

import numpy as np
import pandas as pd
import sqlalchemy as sa

from server.catalog.football import tiers_by_abbrev
from server.catalog.football.internationals import elo_k_by_abbrev, ranked_by_abbrevs
from server.catalog.levels import LEVELS, find_level, has_feature
from server.catalog.phases import REGULAR
from server.catalog.statcodes import GP, metric_codes
from server.errors import UserError
from server.jobs import _frames, run_environment, runs, winprob_calibration, winprob_plays
from server.models import lines as lines_model
from server.models import football, football_goals, lineups, pitchers, simulation, stat_tables
from server.models import rpi as rpi_model
from server.models.elo import SPORT_ELO, run_elo
from server.store import divisions, schema
from server.store.init import settle_unplayed
from server.store.loader import pause_before_commit
from server.store.watch import mark_changed

# Test hook: seconds to sleep after the deletes, inside the transaction (kill tests use it).
SLEEP_HOOK = "RETABULATE_SLEEP_AFTER_DELETE"


def compute_level(conn: sa.Connection, level: str) -> dict[str, pd.DataFrame]:
    """All derived rows of one level, as DataFrames keyed by table name."""
    lv = find_level(level)
    assert lv is not None
    games = _frames.read_games(conn, level)
    players, pcodes = _frames.read_lines(conn, level, "player")
    teams, tcodes = _frames.read_lines(conn, level, "team")
    out: dict[str, pd.DataFrame] = {}
    if games.empty:
        return {"elo_history": pd.DataFrame(), "rpi": pd.DataFrame(), "forecasts": pd.DataFrame(),
                "stat_tables": pd.DataFrame(), "play_winprob": pd.DataFrame(),
                "winprob_calibration": pd.DataFrame(), "run_expectancy": pd.DataFrame(),
                "run_constants": pd.DataFrame(), "stint_metrics": pd.DataFrame()}
    seeds: dict[object, tuple[float, float]] = {}
    if lv.sport == "baseball":
        games, seeds = _baseball_inputs(conn, level, games, players)
    first = _first_seasons(games)
    priors, prior_age = _frames.read_priors(conn, level, first)
    params = SPORT_ELO[lv.sport]
    if lv.sport == "soccer":  # clubs and national teams, each pool by its own rules
        tiers, national_k = division_tiers(conn, level), national_k_by_sublevel(conn, level)
        elo = football.rate_soccer(games, params, tiers, national_k, priors, prior_age)
    else:
        elo = run_elo(games, params, priors, seeds, prior_age)
    sim = simulation.predictions(games, simulation.SPORT_SIM[lv.sport])
    odds = _frames.read_odds(conn, level)
    lines = lines_model.line_fields(odds, games)
    fc = games[["game_id", "season", "date"]].rename(columns={"date": "game_day"})
    fc = fc.merge(elo, on="game_id").merge(sim, on="game_id").merge(lines, on="game_id", how="left")
    if lv.sport == "soccer":  # a draw is an outcome: the three chances join the elo block
        fc = fc.merge(football_goals.forecast_columns(games, elo, tiers, national_k),
                      on="game_id")
    out["forecasts"] = fc
    out["elo_history"] = elo_history_rows(games, elo)
    if lv.sport == "soccer":  # the nations outside FIFA's competitions are rated, not ranked
        apart = football.unranked_nations(games, national_k, _ranked_by(conn, level))
        out["elo_history"] = out["elo_history"][~out["elo_history"]["team_id"].isin(list(apart))]
    final = games[games["score_home"].notna()]
    out["rpi"] = rpi_model.rpi_series(final) if has_feature(lv.code, "rpi") else pd.DataFrame()
    prior = elo.set_index("game_id")["helo_win_exp"]
    baseball = winprob_plays.baseball_plays(conn, level) if lv.sport == "baseball" else None
    plays = winprob_plays.compute(conn, level, lv.sport, prior, baseball)
    out["play_winprob"] = plays[winprob_plays.COLUMNS]
    out["winprob_calibration"] = winprob_calibration.compute(plays, games, prior)
    if not plays.empty:  # WPA joins the lines' counting stats: the stat tables total it
        player_wpa, team_wpa = winprob_plays.credits(plays, lv.sport)
        players, pcodes = _with_total(players, pcodes, "WPA", player_wpa)
        teams, tcodes = _with_total(teams, tcodes, "WPA", team_wpa)
    sublevels = _frames.read_sublevels(conn, level)
    environment = run_environment.compute(
        baseball if baseball is not None else pd.DataFrame(), games, players, sublevels,
        run_environment.fly_ball_plays(conn, level) if baseball is not None else None)
    out["run_expectancy"], out["run_constants"] = environment.expectancy, environment.constants
    for code in environment.credits.columns:  # RE24, HBPA: totals no game line carries
        players, pcodes = _with_total(players, pcodes, code, environment.credits[code])
    out["stat_tables"] = _stat_rows(games, players, pcodes, teams, tcodes, lv.sport,
                                    sublevels, environment.by_team)
    if lv.sport == "baseball":  # seasons known from totals alone (Lahman's): their leaderboards
        history = run_environment.totals_tables(conn, level, set(games["season"].astype(int)))
        out["stat_tables"] = pd.concat([out["stat_tables"], history.stat_tables], ignore_index=True)
        out["stint_metrics"] = pd.concat(
            [_stint_metrics(games, players, pcodes, environment.by_team), history.stint_metrics],
            ignore_index=True)
    return out


def division_tiers(conn: sa.Connection, level: str) -> dict[int, int]:
    """The level's leagues (sublevel ID) -> division, for the leagues ``server.catalog.football``
    declares (a simulated league's is unknown, so its clubs start at the mean)."""
    tiers = tiers_by_abbrev()
    s = schema.sublevels.c
    rows = conn.execute(sa.select(s.id, s.abbrev).where(s.level == level)).all()
    return {int(i): tiers[a] for i, a in rows if a in tiers}


def national_k_by_sublevel(conn: sa.Connection, level: str) -> dict[int, float]:
    """The level's international competitions (sublevel ID) -> their K in the national
    teams' Elo (``server.catalog.football.internationals``)."""
    ks = elo_k_by_abbrev()
    s = schema.sublevels.c
    rows = conn.execute(sa.select(s.id, s.abbrev).where(s.level == level,
                                                        s.league_type == "International")).all()
    return {int(i): ks[a] for i, a in rows if a in ks}


def _ranked_by(conn: sa.Connection, level: str) -> frozenset[int]:
    """The sublevel IDs of the competitions that make a nation one of the ranked."""
    s = schema.sublevels.c
    wanted = ranked_by_abbrevs()
    return frozenset(int(i) for i, a in conn.execute(
        sa.select(s.id, s.abbrev).where(s.level == level)).all() if a in wanted)


def _baseball_inputs(conn: sa.Connection, level: str, games: pd.DataFrame, players: pd.DataFrame
                     ) -> tuple[pd.DataFrame, dict[object, tuple[float, float]]]:
    """Starters and their game scores, the lineup adjustment of every game, and the pitchers'
    seeds, from the player lines and the players' seasons before the level's first season."""
    games = _frames.apply_line_starters(games, players)
    history = _frames.read_history(conn, level, int(games["season"].min()))
    seeds = pitchers.pitcher_seeds(history) if {"GS", "BF"} <= set(history.columns) else {}
    params = lineups.SPORT_LINEUP.get("baseball")
    if params is not None and "starter" in players.columns:
        batters = players[players["starter"] & (players["position"] != "P")]
        batters = batters.rename(columns={"entity_id": "player_id"})
        bat_seeds = lineups.batter_seeds(history) if "AB" in history.columns else {}
        adjust = lineups.lineup_adjustments(games, batters, params, bat_seeds)
        games["lineup_adjust"] = games["game_id"].map(adjust).fillna(0.0).to_numpy(float)
    return games, seeds


def _with_total(lines: pd.DataFrame, codes: list[str], code: str, per_game: pd.Series
                ) -> tuple[pd.DataFrame, list[str]]:
    """Game lines with a ``code`` column from ``per_game`` (by game_id and entity_id; 0 where
    the entity has none): each entity's win probability added in the game
    (``winprob_plays.credits``), its RE24 (``run_environment``)."""
    if lines.empty:
        return lines, codes
    key = pd.MultiIndex.from_arrays([lines["game_id"], lines["entity_id"]])
    return (lines.assign(**{code: per_game.reindex(key).fillna(0.0).to_numpy(float)}),
            [*codes, code])


def _first_seasons(games: pd.DataFrame) -> dict[int, int]:
    both = pd.concat([games[["home", "season"]].rename(columns={"home": "t"}),
                      games[["visitor", "season"]].rename(columns={"visitor": "t"})])
    first = both.groupby("t")["season"].min()
    return dict(zip(first.index.astype(int), first.astype(int), strict=True))


def elo_history_rows(games: pd.DataFrame, elo: pd.DataFrame) -> pd.DataFrame:
    """Two rows per final game (one per team) from the elo block."""
    g = games.merge(elo, on="game_id")
    g = g[g["helo_after"].notna()]
    res_h = np.where(g["score_home"] > g["score_vis"], "W",
                     np.where(g["score_home"] < g["score_vis"], "L", "T"))
    flip = {"W": "L", "L": "W", "T": "T"}
    home = pd.DataFrame({"season": g["season"], "team_id": g["home"], "game_id": g["game_id"],
                         "date": g["date"], "opponent_id": g["visitor"],
                         "elo_before": g["helo_before"], "elo_after": g["helo_after"],
                         "win_exp": g["helo_win_exp"], "result": res_h})
    vis = pd.DataFrame({"season": g["season"], "team_id": g["visitor"], "game_id": g["game_id"],
                        "date": g["date"], "opponent_id": g["home"],
                        "elo_before": g["velo_before"], "elo_after": g["velo_after"],
                        "win_exp": g["velo_win_exp"], "result": [flip[r] for r in res_h]})
    return pd.concat([home, vis], ignore_index=True)


def _stat_rows(games: pd.DataFrame, players: pd.DataFrame, pcodes: list[str],
               teams: pd.DataFrame, tcodes: list[str], sport: str,
               sublevels: pd.Series, constants: pd.DataFrame | None = None) -> pd.DataFrame:
    """Stat tables of each phase a season played (the regular season, the play-in, the
    postseason apart): the qualifier basis is each team's final games of that phase."""
    frames = []
    played = games[games["score_home"].notna()]
    for phase, of_phase in played.groupby("phase", sort=True):
        tg = pd.concat([of_phase[["season", "home"]].rename(columns={"home": "team_id"}),
                        of_phase[["season", "visitor"]].rename(columns={"visitor": "team_id"})])
        team_games = tg.groupby(["season", "team_id"]).size()
        ids = set(of_phase["game_id"])
        for kind, lines_df, codes in (("player", players, pcodes), ("team", teams, tcodes)):
            if lines_df.empty:
                continue
            lines_df = lines_df[lines_df["game_id"].isin(ids)]
            if lines_df.empty:
                continue
            tot = stat_tables.season_totals(lines_df, codes)
            table = stat_tables.build_tables(tot, sport, kind, team_games, sublevels,
                                             constants if kind == "player" else None)
            frames.append(table.assign(phase=phase))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def _stint_metrics(games: pd.DataFrame, players: pd.DataFrame, pcodes: list[str],
                   by_team: pd.DataFrame) -> pd.DataFrame:
    """The metrics of each line a player has with one of his teams in a regular season he
    played for several (``statcodes.metric_codes``: wOBA, wRC+, FIP... and RE24), from his game
    lines with that team and its own park and league (``by_team``)."""
    regular = games.loc[(games["phase"] == REGULAR) & games["score_home"].notna(), "game_id"]
    lines = players[players["game_id"].isin(set(regular))] if not players.empty else players
    if lines.empty:
        return pd.DataFrame()
    teams = lines.groupby(["season", "entity_id"])["team_id"].transform("nunique")
    lines = lines[teams.to_numpy() > 1]
    if lines.empty:
        return pd.DataFrame()
    grp = lines.groupby(["season", "entity_id", "team_id"], sort=True)
    tot = grp[pcodes].sum().round(stat_tables.TOTAL_DIGITS)
    tot[GP] = grp.size()
    tot = tot.reset_index()
    player = tot.pop("entity_id").to_numpy()
    return stat_tables.stint_metrics(tot.assign(entity_id=np.arange(len(tot))), player,
                                     "baseball", by_team if not by_team.empty else None,
                                     metric_codes("baseball"))


def _column(series: pd.Series, as_text_date: bool = False) -> list[Any]:
    """A column as plain Python values (numpy scalars and NaN/NA become int/float/None), built
    column-wise: one ``tolist`` plus a vectorised null mask; per-value conversion only when the
    column holds numpy scalars or (SQLite) dates.
    ``as_text_date``: date values become ISO text ('2022-04-07'), as SQLAlchemy stores a Date
    in SQLite (without sqlite3's default date adapter, deprecated since Python 3.12)."""
    out: list[Any]
    if isinstance(series.dtype, np.dtype) and series.dtype.kind in "iub":
        out = series.to_numpy().tolist()
        return out
    if isinstance(series.dtype, np.dtype) and series.dtype.kind == "f":
        arr = series.to_numpy()
        out = arr.tolist()
        for i in np.flatnonzero(np.isnan(arr)):
            out[i] = None
        return out
    arr = series.to_numpy(dtype=object)
    out = arr.tolist()
    for i in np.flatnonzero(pd.isna(arr)):
        out[i] = None
    kinds = set(map(type, out))
    if any(issubclass(k, np.generic) for k in kinds):
        out = [v.item() if isinstance(v, np.generic) else v for v in out]
    if as_text_date and any(issubclass(k, (date, pd.Timestamp)) for k in kinds):
        out = [None if v is None else v.date().isoformat() if isinstance(v, datetime)
               else v.isoformat() for v in out]
    return out


# Sort keys of the derived tables' primary keys: rows inserted in key order append to the
# primary-key B-trees instead of splitting pages all over them (the secondary indexes still take
# random inserts; on the full demo store the gain was within measurement noise).
_INSERT_ORDER = {"stat_tables": ("season", "phase", "type", "code", "entity_id"),
                 "rpi": ("season", "date", "team_id"), "elo_history": ("team_id", "game_id"),
                 "forecasts": ("game_id",), "play_winprob": ("play_id",),
                 "winprob_calibration": ("season", "phase", "forecast", "bin"),
                 "run_expectancy": ("season", "outs", "bases"),
                 "run_constants": ("season", "scope", "name"),
                 "stint_metrics": ("season", "player_id", "team_id", "code")}


def _records(df: pd.DataFrame, table: sa.Table, level: str,
             text_dates: bool = False) -> tuple[list[str], list[tuple[Any, ...]]]:
    """DataFrame -> (column names, row tuples) of ``table``, plain Python values, in primary-key
    order. ``text_dates``: Date columns as ISO text (SQLite)."""
    if df.empty:
        return [], []
    order = [c for c in _INSERT_ORDER.get(table.name, ()) if c in df.columns]
    if order:
        df = df.sort_values(order, kind="stable")
    cols = [c for c in table.columns if c.name in df.columns and c.name != "level"]
    data = [_column(df[c.name], text_dates and isinstance(c.type, sa.Date)) for c in cols]
    return [*(c.name for c in cols), "level"], list(zip(*data, [level] * len(df)))


_CHUNK = 20000  # rows per executemany


def _bulk_insert(conn: sa.Connection, table: sa.Table, cols: list[str],
                 rows: list[tuple[Any, ...]]) -> None:
    """executemany straight on the DB-API cursor: SQLAlchemy's per-row parameter processing
    costs more than the insert itself at this size. Values are plain ints, floats, str,
    bools, dates (ISO text for SQLite, see ``_records``) and None, which sqlite3 and psycopg
    adapt natively."""
    if not rows:
        return
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    prep = conn.dialect.identifier_preparer
    sql = (f"INSERT INTO {prep.format_table(table)} ({', '.join(prep.quote(c) for c in cols)}) "
           f"VALUES ({', '.join([mark] * len(cols))})")
    driver = conn.connection.driver_connection
    assert driver is not None  # None only once the pool has invalidated the connection
    cursor = driver.cursor()
    try:
        for i in range(0, len(rows), _CHUNK):
            cursor.executemany(sql, rows[i:i + _CHUNK])
    finally:
        cursor.close()


def write_level(conn: sa.Connection, level: str, frames: dict[str, pd.DataFrame]) -> dict[str, int]:
    """Replace the level's derived rows inside the caller's transaction."""
    counts = {}
    text_dates = conn.dialect.name == "sqlite"
    rows = {t.name: _records(frames.get(t.name, pd.DataFrame()), t, level, text_dates)
            for t in schema.DERIVED_TABLES}
    for t in schema.DERIVED_TABLES:
        conn.execute(t.delete().where(t.c.level == level))
    hook = float(os.environ.get(SLEEP_HOOK, "0") or 0)
    if hook:
        print(f"{level}: derived rows deleted; sleeping {hook} s ({SLEEP_HOOK})",
              file=sys.stderr, flush=True)
        time.sleep(hook)
    for t in schema.DERIVED_TABLES:
        cols, tuples = rows[t.name]
        _bulk_insert(conn, t, cols, tuples)
        counts[t.name] = len(tuples)
    return counts


def levels_with_games(engine: sa.Engine) -> list[str]:
    g = schema.games.c
    with engine.connect() as conn:
        held = {r[0] for r in conn.execute(sa.select(g.level).distinct())}
    return [lv.code for lv in LEVELS if lv.code in held]


def run(engine: sa.Engine, levels: Iterable[str] | None = None,
        progress: Callable[[str], None] | None = None) -> dict[str, dict[str, float]]:
    """Rebuild the derived tables of ``levels`` (default: every level holding games), each
    level computed outside any write and replaced in a transaction of its own, so a failed or
    killed run leaves each level as it was or rebuilt, never partly (docs/operations.md).
    Returns per level the seconds taken, the seconds its write transaction held the store, and
    rows written per table."""
    codes = list(levels) if levels is not None else levels_with_games(engine)
    found = [find_level(code) for code in codes]
    unknown = [code for code, lv in zip(codes, found, strict=True) if lv is None]
    if unknown:
        raise UserError(f"unknown level {unknown[0]!r}")
    report: dict[str, dict[str, float]] = {}
    for lv in found:
        assert lv is not None
        t0 = time.perf_counter()
        with engine.begin() as conn:
            # a short write of its own before the level is read: team seasons ingested since
            # the last run get their declared divisions (the standings and the projections'
            # division formats read them), and a past game still without a result is settled
            divisions.place_declared(conn, [lv.code])
            settle_unplayed(conn, lv.code)
        with engine.connect() as conn:
            frames = compute_level(conn, lv.code)
        t1 = time.perf_counter()
        with engine.begin() as conn:
            counts = write_level(conn, lv.code, frames)
            mark_changed(conn)
            pause_before_commit()
        t2 = time.perf_counter()
        report[lv.code] = {"seconds": t2 - t0, "write_seconds": t2 - t1, **counts}
        if progress:
            progress(f"{lv.code}: {t2 - t0:.2f} s (writing {t2 - t1:.2f} s), "
                     + ", ".join(f"{k} {v}" for k, v in counts.items()))
    with engine.begin() as conn:
        runs.record(conn, {code: r["seconds"] for code, r in report.items()})
    return report


def cli(args: argparse.Namespace, engine_factory: Callable[[], sa.Engine]) -> int:
    """``python -m server retabulate [--level L[,L2...]]``: per-level timings on stderr."""
    level = getattr(args, "level", None)
    codes = [c.strip() for c in level.split(",") if c.strip()] if level else None
    for code in codes or ():
        if find_level(code) is None:
            raise UserError(f"unknown level {code!r}")
    t0 = time.perf_counter()
    report = run(engine_factory(), codes, progress=lambda s: print(s, file=sys.stderr))
    print(f"retabulated {len(report)} level(s) in {time.perf_counter() - t0:.2f} s", file=sys.stderr)
    return 0
