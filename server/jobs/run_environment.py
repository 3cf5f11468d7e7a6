"""A baseball level's run environment per season, computed by re-tabulation (docs/metrics.md).

From the plays of the season's final games (``server.jobs.winprob_scores.season_plays``, the
same frame the win probability reads) and its regular-season game lines, through
``server.models.run_environment``: the run expectancy of the 24 base-out states, the season's
constants, each league's and each team's park factor. They are written to ``run_expectancy`` and
``run_constants`` and handed to the stat tables, whose formulas name them (wOBA, wRC+, FIP...).

Also the totals no game line carries, per game and player, from the same plays: ``RE24`` (each
plate appearance's run value to its batter, its negative to its pitcher) and ``HBPA`` (batters a
pitcher hit).

Seasons known only from season totals (Lahman's 1871-2020, no games in the store) get the
leaderboards their totals allow (``statcodes.SEASON_TOTALS_LEADERS``: home runs, AVG, ERA...
and the metrics OPS+, ERA+, FIP) from the players' season totals and the source's park factors
(``totals_tables``).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
import orjson
import pandas as pd
import sqlalchemy as sa

from server.catalog.phases import REGULAR
from server.catalog.linestats import LINE_STATS
from server.catalog.statcodes import (SEASON_TOTALS_LEADERS, SEASON_TOTALS_METRICS,
                                      SEASON_TOTALS_TOP)
from server.models import run_environment as env
from server.models import stat_tables
from server.models import winprob as wp
from server.store import schema

SEASON_SCOPE = ""


class Environment(NamedTuple):
    expectancy: pd.DataFrame  # run_expectancy rows
    constants: pd.DataFrame  # run_constants rows
    by_team: pd.DataFrame  # one row per (season, team_id): every constant its rows' formulas read
    credits: pd.DataFrame  # RE24 and HBPA per (game_id, entity_id)


def _empty() -> Environment:
    return Environment(pd.DataFrame(), pd.DataFrame(), pd.DataFrame(), pd.DataFrame())


def _totals(lines: pd.DataFrame, codes: tuple[str, ...]) -> dict[str, float]:
    return {c: float(lines[c].sum()) if c in lines.columns else 0.0 for c in codes}


# A fly ball as the store's play explanations tell it (``server.ingest.retrosheet.explain``
# words Retrosheet's trajectory modifiers /F and /P and the SF modifier so): a fly out, a pop-up
# (an infield fly, which FanGraphs counts among fly balls), a sacrifice fly; and every home run.
# A hit's trajectory is not kept, so fly-ball hits in the park are not counted: the league's
# home runs per fly ball (``lgHRFB``) are counted the same way, and xFIP reads their product.
FLY_BALL_TEXTS = ("% flied out%", "% popped out%", "% hit a sacrifice fly%")
BUNT_TEXT = "% on a bunt%"


def fly_ball_plays(conn: sa.Connection, level: str) -> pd.Index:
    """The IDs of a level's plays that were fly balls (``FLY_BALL_TEXTS``, home runs)."""
    p, g = schema.plays.c, schema.games.c
    fly = sa.or_(p.event == "homer", *(p.explanation.like(t) for t in FLY_BALL_TEXTS))
    ids = conn.execute(sa.select(p.id).select_from(schema.plays.join(schema.games, g.id == p.game_id))
                       .where(g.level == level, p.level == level, fly,
                              ~p.explanation.like(BUNT_TEXT))).scalars().all()
    return pd.Index(ids, dtype="int64")


def compute(plays: pd.DataFrame, games: pd.DataFrame, players: pd.DataFrame,
            sublevels: pd.Series, fly_balls: pd.Index | None = None) -> Environment:
    """Every season of the level whose final games' plays hold the base-out state.
    ``plays``: ``season_plays``' frame; ``games``: ``_frames.read_games``'; ``players``: the
    player game lines (``_frames.read_lines``); ``sublevels``: each team's league;
    ``fly_balls``: the IDs of the plays that were fly balls (``fly_ball_plays``)."""
    if plays.empty or players.empty:
        return _empty()
    plays = plays.assign(fly=plays["id"].isin(fly_balls if fly_balls is not None else []))
    final = plays[plays["final"].astype(bool)]
    regular_games = set(games.loc[(games["phase"] == REGULAR) & games["score_home"].notna(),
                                  "game_id"])
    re_rows, const_rows, team_rows, credit_parts = [], [], [], []
    for key, of_season in final.groupby("season", sort=True):
        season = int(str(key))
        expectancy, count = env.run_expectancy(of_season)
        lines = players[(players["season"] == season) & players["game_id"].isin(regular_games)]
        if lines.empty:
            continue
        values = env.run_values(of_season[of_season["game_id"].isin(regular_games)], expectancy)
        with np.errstate(divide="ignore", invalid="ignore"):
            constants = env.season_constants(values, _totals(lines, env.BATTING_TOTALS),
                                             _totals(lines, env.PITCHING_TOTALS))
        if not all(np.isfinite(v) for v in constants.values()):
            continue  # too few plays for every event's run value: no constants to stand on
        constants.update(_fly_constants(of_season[of_season["game_id"].isin(regular_games)]))
        for i in range(wp.STATES):
            re_rows.append({"season": season, "outs": i // wp.BASE_STATES,
                            "bases": i % wp.BASE_STATES, "runs": float(expectancy[i]),
                            "count": int(count[i])})
        const_rows += [{"season": season, "scope": SEASON_SCOPE, "name": k, "value": v}
                       for k, v in constants.items()]
        league = lines["team_id"].map(sublevels)
        leagues = {}
        for sub, of_league in lines.groupby(league, sort=True):
            leagues[sub] = env.league_constants(_totals(of_league, env.BATTING_TOTALS),
                                                _totals(of_league, env.PITCHING_TOTALS),
                                                constants)
            const_rows += [{"season": season, "scope": f"sublevel:{sub}", "name": k, "value": v}
                           for k, v in leagues[sub].items()]
        parks = env.park_factors(games, season)
        for team, pf in parks.items():
            const_rows.append({"season": season, "scope": f"team:{team}", "name": "PF",
                               "value": float(pf)})
            team_rows.append({"season": season, "team_id": team, **constants,
                              **leagues.get(sublevels.get(team), {}),
                              **dict.fromkeys(("PF", "BPF", "PPF"), float(pf))})
        credit_parts.append(_credits(of_season, expectancy))
    if not re_rows:
        return _empty()
    credits = pd.concat(credit_parts).groupby(["game_id", "entity_id"]).sum()
    return Environment(pd.DataFrame(re_rows), pd.DataFrame(const_rows), pd.DataFrame(team_rows),
                       credits)


def _fly_constants(plays: pd.DataFrame) -> dict[str, float]:
    """``lgHRFB``: the season's home runs per fly ball (``FLY_BALL_TEXTS``), xFIP's; none
    where no play tells a fly ball (the simulator's words are not Retrosheet's)."""
    pa = plays[plays["event"].isin(wp.PLATE_APPEARANCES)]
    fly = int(pa["fly"].sum())
    homers = int(pa["event"].isin(env.EVENTS["HR"]).sum())
    return {"lgHRFB": homers / fly} if fly > homers > 0 else {}


def _credits(plays: pd.DataFrame, expectancy: np.ndarray) -> pd.DataFrame:
    """RE24 to the batter and its negative to the pitcher, and HBPA and FBA (fly balls) to
    the pitcher, per plate appearance."""
    pa = plays[plays["event"].isin(wp.PLATE_APPEARANCES)]
    value = env.play_run_values(pa, expectancy)
    hit = pa["event"].isin(env.EVENTS["HBP"]).to_numpy(float)
    zero = np.zeros(len(pa))
    both = pd.DataFrame({
        "game_id": np.r_[pa["game_id"].to_numpy(), pa["game_id"].to_numpy()],
        "entity_id": np.r_[pa["player_id"].to_numpy(), pa["pitcher_id"].to_numpy()],
        "RE24": np.r_[value, -value], "HBPA": np.r_[zero, hit],
        "FBA": np.r_[zero, pa["fly"].to_numpy(float)]}).dropna(subset=["entity_id"])
    both["entity_id"] = both["entity_id"].astype("int64")
    return both


PARK_SCALE = 100.0  # the source prints park factors with 100 neutral; the formulas read 1.00
TOTALS = ("G", "PA", "AB", "R", "H", "2B", "3B", "HR", "RBI", "SB", "CS", "BB", "IBB", "HBP",
          "SF", "SO", "W", "L", "SV", "GS", "OUTS", "ER", "HA", "HRA", "BBA", "HBPA", "K", "BF")
_COUNTS = frozenset(s.code for s in LINE_STATS["baseball"])


def _stints(conn: sa.Connection, level: str, seasons: set[int]) -> pd.DataFrame:
    """The level's player seasons outside ``seasons`` (those with games): one row per player,
    season and team with its league and position and ``TOTALS`` (NaN where not recorded)."""
    ps, ts = schema.player_seasons.c, schema.team_seasons.c
    rows = conn.execute(
        sa.select(ps.player_id, ps.season, ps.team_id, ts.sublevel_id, ps.position,
                  sa.type_coerce(ps.stats, sa.Text))  # the JSON text, parsed in one go below
        .select_from(schema.player_seasons.join(schema.team_seasons, sa.and_(
            ts.team_id == ps.team_id, ts.season == ps.season)))
        .where(ps.level == level, ps.season.not_in(sorted(seasons)))).all()
    if not rows:
        return pd.DataFrame()
    texts = [x if isinstance(x, str) else orjson.dumps(x or {}).decode() for x in
             (r[5] for r in rows)]
    records = orjson.loads("[" + ",".join(texts) + "]")
    stats = pd.DataFrame({c: np.array([r.get(c, np.nan) for r in records], dtype=float)
                          for c in TOTALS})
    keys = pd.DataFrame([r[:5] for r in rows],
                        columns=["entity_id", "season", "team_id", "league", "position"])
    out: pd.DataFrame = pd.concat([keys, stats], axis=1)
    return out


def _teams(conn: sa.Connection, level: str, seasons: set[int]) -> pd.DataFrame:
    """Per (season, team_id): its league, games played and the park factors ``BPF``, ``PPF``
    (1.00 neutral)."""
    ts = schema.team_seasons.c
    rows = conn.execute(sa.select(ts.season, ts.team_id, ts.sublevel_id, ts.wins, ts.losses,
                                  ts.ties, ts.batting_park_factor, ts.pitching_park_factor)
                        .where(ts.level == level, ts.season.not_in(sorted(seasons)))).all()
    df = pd.DataFrame(rows, columns=["season", "team_id", "league", "W", "L", "T", "BPF", "PPF"])
    df["games"] = df[["W", "L", "T"]].fillna(0).sum(axis=1)
    df[["BPF", "PPF"]] = df[["BPF", "PPF"]].astype(float) / PARK_SCALE
    out: pd.DataFrame = df.set_index(["season", "team_id"])
    return out


def _season_rows(stints: pd.DataFrame) -> pd.DataFrame:
    """Per (season, entity_id): the totals over his stints and the team he played most for
    (plate appearances and outs), the stat tables' team of the season."""
    share = stints["PA"].fillna(0) + stints["OUTS"].fillna(0)
    main = stints.assign(share=share).sort_values("share", kind="stable") \
        .groupby(["season", "entity_id"])["team_id"].last()
    tot = stints.groupby(["season", "entity_id"])[list(TOTALS)].sum(min_count=1)
    tot["GP"] = tot.pop("G")
    tot["team_id"] = main
    out: pd.DataFrame = tot.reset_index()
    return out


class Totals(NamedTuple):
    stat_tables: pd.DataFrame  # stat_tables rows: each player's season over all his teams
    stint_metrics: pd.DataFrame  # stint_metrics rows: his line with each team, when several


def totals_tables(conn: sa.Connection, level: str, seasons: set[int]) -> Totals:
    """Stat-table rows (regular season) of ``SEASON_TOTALS_LEADERS`` for the level's seasons
    known from totals alone: every season of its player seasons but ``seasons``; and the same
    metrics of each team's line of a player who played for several that season."""
    stints = _stints(conn, level, seasons)
    if stints.empty:
        return Totals(pd.DataFrame(), pd.DataFrame())
    teams = _teams(conn, level, seasons)
    constants = env.totals_constants(stints, teams[["BPF", "PPF"]])
    tot = _season_rows(stints)
    table = _tables(tot, teams, constants)
    # a franchise's league of the season (the Brewers were AL until 1997), not its current one
    at = pd.MultiIndex.from_arrays([table["season"], table["team_id"]])
    return Totals(table.assign(sublevel_id=teams["league"].reindex(at).to_numpy(), phase=REGULAR),
                  _stint_metrics(stints, teams))


def _tables(tot: pd.DataFrame, teams: pd.DataFrame, constants: pd.DataFrame) -> pd.DataFrame:
    """``SEASON_TOTALS_LEADERS``: a total's first ``SEASON_TOTALS_TOP`` (ties kept, none who has
    none), a rate's qualified players, a metric's every player."""
    table = stat_tables.build_tables(
        tot.fillna({c: 0.0 for c in TOTALS if c != "G"}), "baseball", "player", teams["games"],
        pd.Series(dtype=object), constants, only=SEASON_TOTALS_LEADERS)
    code = table["code"]
    total = code.isin(_COUNTS)
    rate = ~total & ~code.isin(SEASON_TOTALS_METRICS)
    keep = (~total | ((table["rank"] <= SEASON_TOTALS_TOP) & (table["value"] > 0))) \
        & (~rate | table["qualified"].astype(bool))
    out: pd.DataFrame = table[keep].reset_index(drop=True)
    return out


def _stint_metrics(stints: pd.DataFrame, teams: pd.DataFrame) -> pd.DataFrame:
    """``SEASON_TOTALS_METRICS`` of every stint of a player who played for several teams in a
    season, by the season's formulas: each stint is a player of its own to them, so its
    constants are its team's park and league alone (the league's from every stint, as ever)."""
    several = stints.groupby(["season", "entity_id"])["team_id"].transform("size").to_numpy() > 1
    if not several.any():
        return pd.DataFrame()
    own = stints.assign(entity_id=np.arange(len(stints)))  # a stint's row number as its player
    constants = env.totals_constants(own, teams[["BPF", "PPF"]])
    part = own[several]
    constants = constants[constants["entity_id"].isin(part["entity_id"])]
    lines = part.assign(entity_id=np.arange(len(part)), GP=part["G"]).drop(columns="G")
    constants = constants.assign(entity_id=constants["entity_id"].map(
        pd.Series(np.arange(len(part)), index=part["entity_id"].to_numpy())))
    return stat_tables.stint_metrics(
        lines.fillna({c: 0.0 for c in TOTALS if c != "G"}), stints["entity_id"].to_numpy()[several],
        "baseball", constants, SEASON_TOTALS_METRICS)
