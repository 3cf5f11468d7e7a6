"""A baseball level's run environment per season, computed by re-tabulation (docs/metrics.md).

From the plays of the season's final games (``server.jobs.winprob_scores.season_plays``, the
same frame the win probability reads) and its regular-season game lines, through
``server.models.run_environment``: the run expectancy of the 24 base-out states, the season's
constants, each league's and each team's park factor. They are written to ``run_expectancy`` and
``run_constants`` and handed to the stat tables, whose formulas name them (wOBA, wRC+, FIP...).

Also the totals no game line carries, per game and player, from the same plays: ``RE24`` (each
plate appearance's run value to its batter, its negative to its pitcher) and ``HBPA`` (batters a
pitcher hit).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from server.catalog.phases import REGULAR
from server.models import run_environment as env
from server.models import winprob as wp

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


def compute(plays: pd.DataFrame, games: pd.DataFrame, players: pd.DataFrame,
            sublevels: pd.Series) -> Environment:
    """Every season of the level whose final games' plays hold the base-out state.
    ``plays``: ``season_plays``' frame; ``games``: ``_frames.read_games``'; ``players``: the
    player game lines (``_frames.read_lines``); ``sublevels``: each team's league."""
    if plays.empty or players.empty:
        return _empty()
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
                              **leagues.get(sublevels.get(team), {}), "PF": float(pf)})
        credit_parts.append(_credits(of_season, expectancy))
    if not re_rows:
        return _empty()
    credits = pd.concat(credit_parts).groupby(["game_id", "entity_id"]).sum()
    return Environment(pd.DataFrame(re_rows), pd.DataFrame(const_rows), pd.DataFrame(team_rows),
                       credits)


def _credits(plays: pd.DataFrame, expectancy: np.ndarray) -> pd.DataFrame:
    """RE24 to the batter and its negative to the pitcher, and HBPA to the pitcher, per
    plate appearance."""
    pa = plays[plays["event"].isin(wp.PLATE_APPEARANCES)]
    value = env.play_run_values(pa, expectancy)
    hit = pa["event"].isin(env.EVENTS["HBP"]).to_numpy(float)
    zero = np.zeros(len(pa))
    both = pd.DataFrame({
        "game_id": np.r_[pa["game_id"].to_numpy(), pa["game_id"].to_numpy()],
        "entity_id": np.r_[pa["player_id"].to_numpy(), pa["pitcher_id"].to_numpy()],
        "RE24": np.r_[value, -value], "HBPA": np.r_[zero, hit]}).dropna(subset=["entity_id"])
    both["entity_id"] = both["entity_id"].astype("int64")
    return both
