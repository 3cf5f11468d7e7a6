"""Read one level's canonical rows from the store into the DataFrames the models consume."""
from __future__ import annotations

from typing import Any

import numpy as np
import orjson
import pandas as pd
import sqlalchemy as sa

from server.catalog.phases import AFTER_REGULAR, PRESEASON
from server.catalog.simulated import PLANS
from server.catalog.sources import SIMULATED  # games.source of the simulator's games
from server.models.pitchers import game_score
from server.store import schema

# Postponed games get no forecast; neither do games without a result (``phases.NO_RESULT``),
# nor preseason games, which move no rating.
GAME_STATES = ("final", "scheduled", "inprogress")


def _frame(conn: sa.Connection, stmt: Any, columns: list[str]) -> pd.DataFrame:
    """Rows to a DataFrame column by column (much faster than row by row for big tables)."""
    rows = conn.execute(stmt).all()
    if not rows:
        return pd.DataFrame(columns=columns)
    return pd.DataFrame({c: pd.Series(v, dtype=object) for c, v in zip(columns, zip(*rows))})


def read_games(conn: sa.Connection, level: str) -> pd.DataFrame:
    """Games of a level in the shape ``server.models.elo.run_elo`` takes, plus state, game_day,
    sublevel_id and starting pitchers (from ``info`` when the ingester recorded them)."""
    g = schema.games.c
    cols = ["game_id", "season", "date", "game_no", "home", "visitor", "score_home", "score_vis",
            "state", "neutral", "phase", "sublevel_id", "info"]
    df = _frame(conn, sa.select(g.id, g.season, g.game_day, g.game_no, g.home_id, g.visitor_id,
                                g.score_home, g.score_vis, g.state, g.neutral, g.phase,
                                g.sublevel_id, g.info)
                .where(g.level == level, g.state.in_(GAME_STATES), g.phase != PRESEASON)
                .order_by(g.game_day, g.game_no, g.id), cols)
    for c in ("game_id", "season", "game_no", "home", "visitor"):
        df[c] = df[c].astype("int64")
    final = df["state"] == "final"
    for c in ("score_home", "score_vis"):
        df[c] = pd.to_numeric(df[c], errors="coerce").astype(float).where(final, np.nan)
    df["neutral"] = df["neutral"].fillna(False).astype(bool)
    df["playoff"] = df["phase"].isin(AFTER_REGULAR)
    sps = [_info_starters(i) for i in df["info"]]
    df["home_sp"] = [s[1] for s in sps]
    df["vis_sp"] = [s[0] for s in sps]
    return df.drop(columns=["info"])


def _info_starters(info: Any) -> tuple[Any, Any]:
    """(visitor, home) starting pitchers from games.info, accepting the shapes an ingester may
    write: {"starting_pitchers": {"visitor": .., "home": ..}} or flat *_starting_pitcher keys."""
    if not isinstance(info, dict):
        return None, None
    sp = info.get("starting_pitchers")
    if isinstance(sp, dict):
        return sp.get("visitor"), sp.get("home")
    if isinstance(sp, (list, tuple)) and len(sp) == 2:
        return sp[0], sp[1]
    return info.get("visitor_starting_pitcher"), info.get("home_starting_pitcher")


def apply_line_starters(games: pd.DataFrame, players: pd.DataFrame) -> pd.DataFrame:
    """Starting pitchers from player lines with GS = 1 (the most robust source) override info;
    each start's game score (``home_sp_gs``/``vis_sp_gs``) comes from the same line."""
    if players.empty or "GS" not in players.columns:
        return games
    sp = players[players["GS"] >= 1].drop_duplicates(["game_id", "home"])
    col = {c: sp[c].to_numpy(float) if c in sp.columns else np.zeros(len(sp))
           for c in ("OUTS", "K", "BBA", "HA", "RA", "HRA")}
    sp = sp.assign(gs=game_score(col["OUTS"], col["K"], col["BBA"], col["HA"], col["RA"],
                                 col["HRA"]))
    for side, name in ((True, "home_sp"), (False, "vis_sp")):
        by_game = sp[sp["home"] == side].set_index("game_id")
        found = games["game_id"].map(by_game["entity_id"])
        games[name] = found.where(found.notna(), games[name]).astype(object)
        games[f"{name}_gs"] = games["game_id"].map(by_game["gs"]).astype(float)
    return games


def read_lines(conn: sa.Connection, level: str, kind: str) -> tuple[pd.DataFrame, list[str]]:
    """Player or team game lines of a level, stats expanded to one column per code (0 when
    missing). Returns the frame (season, game_id, game_day, entity_id, team_id, home, codes...;
    player lines also carry starter and position) and the code columns."""
    t = schema.player_lines if kind == "player" else schema.team_lines
    ent = "player_id" if kind == "player" else "team_id"
    extra = ["starter", "position"] if kind == "player" else []
    cols = ["season", "game_id", "game_day", ent, "team_id", "home", *extra, "stats"]
    # The biggest read of a re-tabulation: straight through the DB-API cursor (SQLAlchemy's
    # per-row result processing costs more than the fetch), stats as raw JSON text parsed as
    # one array by one orjson call.
    prep = conn.dialect.identifier_preparer
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    sql = (f"SELECT {', '.join(prep.quote(c) for c in cols)} FROM {prep.format_table(t)} "
           f"WHERE level = {mark}")
    driver = conn.connection.driver_connection
    assert driver is not None  # None only once the pool has invalidated the connection
    cursor = driver.cursor()
    try:
        cursor.execute(sql, (level,))
        rows = cursor.fetchall()
    finally:
        cursor.close()
    names = ["season", "game_id", "game_day", "entity_id", "team_id", "home", *extra]
    columns = list(zip(*rows)) if rows else [()] * len(cols)
    base = pd.DataFrame({n: pd.Series(v, dtype=object) for n, v in zip(names, columns)})
    texts = [x if isinstance(x, str) else orjson.dumps(x).decode() for x in columns[-1]]
    stats = pd.DataFrame.from_records(orjson.loads("[" + ",".join(texts) + "]"), index=base.index)
    stats = stats.apply(pd.to_numeric, errors="coerce").fillna(0.0)
    for c in ("season", "game_id", "entity_id", "team_id"):
        base[c] = base[c].astype("int64")
    base["home"] = base["home"].astype(bool)
    if "starter" in base.columns:
        base["starter"] = base["starter"].fillna(False).astype(bool)
    return pd.concat([base, stats], axis=1), list(stats.columns)


def read_odds(conn: sa.Connection, level: str) -> pd.DataFrame:
    o, g = schema.odds.c, schema.games.c
    return _frame(conn, sa.select(o.game_id, o.taken, o.vis_ml, o.home_ml, o.spread, o.total)
                  .join_from(schema.odds, schema.games, o.game_id == g.id).where(g.level == level),
                  ["game_id", "taken", "vis_ml", "home_ml", "spread", "total"])


PRIOR_SEASONS = 2  # latest seasons pooled into a first-season prior (2020 had only 60 games)


def read_priors(conn: sa.Connection, level: str, first_season: dict[int, int]
                ) -> tuple[dict[int, float], dict[int, int]]:
    """Each team's win fraction over its ``PRIOR_SEASONS`` latest seasons before its first season
    with games here (e.g. Lahman's 2019 and 2020 records before the first Retrosheet season),
    wins and losses pooled so a short season counts for its games only; and the age of that
    record: the first season minus the latest season pooled (2 for 2020 before 2022)."""
    ts = schema.team_seasons.c
    rows = conn.execute(sa.select(ts.team_id, ts.season, ts.wins, ts.losses)
                        .where(ts.level == level).order_by(ts.season.desc())).all()
    pooled: dict[int, list[float]] = {}
    age: dict[int, int] = {}
    for team, season, w, lo in rows:
        if team in first_season and season < first_season[team] and w is not None \
                and lo is not None and w + lo > 0:
            acc = pooled.setdefault(team, [0.0, 0.0, 0])
            age.setdefault(team, first_season[team] - season)  # rows run latest first
            if acc[2] < PRIOR_SEASONS:
                acc[0] += w
                acc[1] += lo
                acc[2] += 1
    return {team: w / (w + lo) for team, (w, lo, _) in pooled.items()}, age


HISTORY_SEASONS = 4  # seasons before the data that seed players; absent longer, a newcomer


def read_history(conn: sa.Connection, level: str, before: int) -> pd.DataFrame:
    """Players' season totals of a level in the ``HISTORY_SEASONS`` seasons before season
    ``before`` (e.g. Lahman's 2017-2020 before the first Retrosheet season, 2022): player_id,
    season and one column per stat code (0 when missing), one row per player, season and team."""
    ps = schema.player_seasons.c
    df = _frame(conn, sa.select(ps.player_id, ps.season, ps.stats)
                .where(ps.level == level, ps.season < before,
                       ps.season >= before - HISTORY_SEASONS), ["player_id", "season", "stats"])
    if df.empty:
        return pd.DataFrame(columns=["player_id", "season"])
    texts = [x if isinstance(x, str) else orjson.dumps(x or {}).decode() for x in df["stats"]]
    stats = pd.DataFrame.from_records(orjson.loads("[" + ",".join(texts) + "]"), index=df.index)
    stats = stats.apply(pd.to_numeric, errors="coerce").fillna(0.0)
    out: pd.DataFrame = pd.concat([df[["player_id", "season"]].astype("int64"), stats], axis=1)
    return out


def read_sublevels(conn: sa.Connection, level: str) -> pd.Series:
    t = schema.teams.c
    rows = conn.execute(sa.select(t.id, t.sublevel_id).where(t.level == level)).all()
    return pd.Series({r[0]: r[1] for r in rows}, dtype=object)


def read_plays(conn: sa.Connection, level: str, seasons: list[int],
               states: tuple[str, ...] = ("final",)) -> pd.DataFrame:
    """Plays of a level's games in some seasons and ``states`` (final ones by default), in game
    order (game day, game, seq), for the win probability models: id, game_id, seq, period,
    bottom (baseball's home half), clock, event, points, outs and bases (baseball's, after the
    play; NaN where the store holds none), score_vis, score_home, and the play's credited team,
    its opponent, its player and pitcher (``team_id``, ``opponent_id``, ``player_id``,
    ``pitcher_id``; None where absent)."""
    p, g = schema.plays, schema.games
    prep = conn.dialect.identifier_preparer
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    cols = ("id", "game_id", "seq", "period", "half", "clock", "event", "points", "outs", "bases",
            "score_vis", "score_home", "team_id", "opponent_id", "player_id", "pitcher_id")
    # Hundreds of thousands of rows a season: straight through the DB-API cursor (read_lines).
    sql = (f"SELECT {', '.join('p.' + prep.quote(c) for c in cols)} "
           f"FROM {prep.format_table(p)} p JOIN {prep.format_table(g)} g ON g.id = p.game_id "
           f"WHERE g.level = {mark} AND g.state IN ({', '.join([mark] * len(states))}) "
           f"AND g.season IN ({', '.join([mark] * len(seasons))}) "
           "ORDER BY g.game_day, g.game_no, g.id, p.seq")
    driver = conn.connection.driver_connection
    assert driver is not None  # None only once the pool has invalidated the connection
    cursor = driver.cursor()
    try:
        cursor.execute(sql, (level, *states, *seasons))
        rows = cursor.fetchall()
    finally:
        cursor.close()
    columns = list(zip(*rows)) if rows else [()] * len(cols)
    df = pd.DataFrame({c: pd.Series(v, dtype=object) for c, v in zip(cols, columns)})
    for c in ("id", "game_id", "seq", "period", "points", "score_vis", "score_home"):
        df[c] = df[c].astype("int64")
    for c in ("outs", "bases"):
        df[c] = pd.to_numeric(df[c], errors="coerce").astype(float)
    df["bottom"] = df.pop("half").to_numpy() == "bottom"
    return df


def read_winprob_games(conn: sa.Connection, level: str, seasons: list[int],
                       states: tuple[str, ...] = ("final",)) -> pd.DataFrame:
    """A level's games in some seasons and ``states`` (final ones by default) with what the win
    probability models need: game_id, season, playoff, final (the game is over), home_win (1, 0,
    or 0.5 for a tie; of a game in progress, its current score's), the margin and total, the ELO
    forecast (helo_win_exp, NaN without one), and, for baseball, the rules each game was played
    under from its source record (``info``): ``regulation`` innings (Retrosheet's ``innings``; 9 when absent) and
    ``automatic_runner`` (Retrosheet's ``tiebreaker`` base, in the regular season only: MLB's
    postseason never placed a runner, and the event files' postseason ``radj`` records agree,
    though 2023's postseason ``info`` names a tiebreaker base). A simulated game follows its
    level's plan (``server.catalog.simulated``: 9 innings, its ``ghost_runner`` in every game,
    and ``last_inning``, its ``max_innings`` in the regular season where games may end tied;
    0 elsewhere: played to a result)."""
    g, f = schema.games.c, schema.forecasts.c
    plan = PLANS.get(level)
    df = _frame(conn, sa.select(g.id, g.season, g.playoff, g.score_home, g.score_vis, g.info,
                                f.helo_win_exp, g.source, g.state, g.home_id)
                .join_from(schema.games, schema.forecasts, f.game_id == g.id, isouter=True)
                .where(g.level == level, g.state.in_(states), g.season.in_(seasons),
                       g.score_home.is_not(None), g.score_vis.is_not(None))
                .order_by(g.game_day, g.game_no, g.id),
                ["game_id", "season", "playoff", "score_home", "score_vis", "info",
                 "helo_win_exp", "source", "state", "home_id"])
    df["final"] = df.pop("state").to_numpy() == "final"
    df["game_id"] = df["game_id"].astype("int64")
    df["season"] = df["season"].astype("int64")
    df["playoff"] = df["playoff"].notna()
    sh, sv = df.pop("score_home").astype(float), df.pop("score_vis").astype(float)
    df["home_win"] = np.where(sh > sv, 1.0, np.where(sh < sv, 0.0, 0.5))
    df["margin"] = sh - sv
    df["total"] = sh + sv
    df["helo_win_exp"] = pd.to_numeric(df["helo_win_exp"], errors="coerce").astype(float)
    infos = [i if isinstance(i, dict) else orjson.loads(i) if isinstance(i, str) else {}
             for i in df.pop("info")]
    df["regulation"] = [_int_or(i.get("innings"), 9) for i in infos]
    simulated = df.pop("source").to_numpy() == SIMULATED
    df["automatic_runner"] = np.where(
        simulated, bool(plan and plan.ghost_runner),
        np.array([bool(i.get("tiebreaker")) for i in infos], dtype=bool)
        & ~df["playoff"].to_numpy(dtype=bool))
    # a league that stops a tied game (NPB, KBO: 12 innings) does so in its regular season only
    cap = plan.max_innings if plan is not None and plan.ties else 0
    df["last_inning"] = np.where(simulated & ~df["playoff"].to_numpy(dtype=bool), cap, 0)
    return df


def _int_or(value: Any, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default
