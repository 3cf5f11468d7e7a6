"""The win probability line of every game with play-by-play, computed by re-tabulation.

For each play of a level's final and in-progress games: the home team's chance to win after it
(``wp_home``; soccer also the chance of a draw, ``wp_draw``) and the win probability added
(``wpa``): the change the play made to the chance of the team credited with it (the batting team
in baseball, the acting team elsewhere), from the state the play before it left, or from the
pre-game forecast for a game's first play. Soccer's chance is the ELO expectation's, a draw
counting half (win + draw / 2), so a play's WPA is the same size for both sides, as in the
other sports.

The models are ``server.models.winprob`` (baseball) and ``server.models.winprob_clock``, fitted
by the same functions ``python -m server evaluate --winprob`` scores them with, here on every
season of the level the store holds (serving uses all it knows; the evaluation is the honest
out-of-sample check). Each game's prior is the fresh pre-game ELO forecast of the same
re-tabulation. The last play of a final game is the result itself: 1 for a home win, 0 for a
loss (0.5 a tie, soccer's draw 1 on ``wp_draw``), so a game's WPA sums to the winner's 1 minus
its pre-game chance.

Credits for the season tables (``credits``): a play's WPA to its player and team, and in
baseball its negative to the pitcher; a team's own total is its change in chance over all plays
(its plays' WPA less its opponents'), which over a season is its wins above the forecasts.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import sqlalchemy as sa

from server.jobs import winprob_scores as scores
from server.models import winprob as wp

STATES = ("final", "inprogress")  # games whose plays get a line
COLUMNS = ["play_id", "game_id", "wp_home", "wp_draw", "wpa"]


def _empty() -> pd.DataFrame:
    return pd.DataFrame(columns=[*COLUMNS, "team_id", "opponent_id", "player_id", "pitcher_id",
                                 "season"])


def compute(conn: sa.Connection, level: str, sport: str, prior: pd.Series,
            baseball: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per play with a line: ``COLUMNS`` plus the credited team, opponent, player and
    pitcher and the season (for ``credits``). ``prior``: the pre-game home win chance by
    game_id, this re-tabulation's; a game without one keeps the stored forecast's, or even.
    ``baseball``: the level's ``baseball_plays``, when the caller has read them."""
    if sport == "baseball":
        return _baseball(baseball_plays(conn, level) if baseball is None else baseball, prior)
    return _clock(conn, level, sport, prior)


def baseball_plays(conn: sa.Connection, level: str) -> pd.DataFrame:
    """The plays of a baseball level's final and in-progress games with the state each began in
    (``winprob_scores.season_plays``); empty when no season's plays hold the base-out state."""
    seasons = scores.seasons_with_states(conn, level)
    return scores.season_plays(conn, level, seasons, STATES) if seasons else pd.DataFrame()


def _with_prior(df: pd.DataFrame, prior: pd.Series) -> np.ndarray:
    fresh = df["game_id"].map(prior).astype(float)
    out: np.ndarray = fresh.fillna(df["helo_win_exp"].astype(float)).to_numpy(float)
    return out


def _finish(df: pd.DataFrame, home: np.ndarray, draw: np.ndarray | None, start: np.ndarray,
            home_side: np.ndarray) -> pd.DataFrame:
    """The rows of ``df`` (plays in game order) with their line: the last play of a final game
    set to its result, WPA from the previous play's (or the game's ``start``) chance, signed for
    the credited team (``home_side`` +1 home, -1 visitor, 0 none)."""
    game = df["game_id"].to_numpy()
    last = np.r_[game[1:] != game[:-1], True] & df["final"].to_numpy(bool)
    result = df["home_win"].to_numpy(float)
    if draw is not None:
        draw = np.where(last, (result == 0.5).astype(float), draw)
        home = np.where(last, (result == 1.0).astype(float), home)
        value = home + 0.5 * draw
    else:
        home = np.where(last, result, home)
        value = home
    first = np.r_[True, game[1:] != game[:-1]]
    before = np.where(first, start, np.r_[0.0, value[:-1]])
    wpa = (value - before) * home_side
    return pd.DataFrame({
        "play_id": df["id"].to_numpy(np.int64), "game_id": game.astype(np.int64),
        "wp_home": home, "wp_draw": draw if draw is not None else np.full(len(df), np.nan),
        "wpa": wpa, "team_id": df["team_id"].to_numpy(), "opponent_id": df["opponent_id"].to_numpy(),
        "player_id": df["player_id"].to_numpy(), "pitcher_id": df["pitcher_id"].to_numpy(),
        "season": df["season"].to_numpy(np.int64)})


def _baseball(df: pd.DataFrame, prior: pd.Series) -> pd.DataFrame:
    if df.empty:
        return _empty()
    model = scores.fit(df[df["final"]])
    p = _with_prior(df, prior)
    rules = (df["regulation"].to_numpy(), df["automatic_runner"].to_numpy())
    last = df["last_inning"].to_numpy()
    after = wp.home_win_probabilities(
        model, p, *rules, df["period"].to_numpy(), df["bottom"].to_numpy(),
        df["outs"].to_numpy(np.int64), df["bases"].to_numpy(np.int64),
        (df["score_home"] - df["score_vis"]).to_numpy(np.int64), last_inning=last)
    zero = np.zeros(len(df), dtype=np.int64)
    start = wp.home_win_probabilities(model, p, *rules, zero + 1, zero.astype(bool), zero, zero,
                                      zero, last_inning=last)
    home_side = np.where(df["bottom"].to_numpy(bool), 1.0, -1.0)
    return _finish(df, after, None, start, home_side)


def _clock(conn: sa.Connection, level: str, sport: str, prior: pd.Series) -> pd.DataFrame:
    seasons = scores.seasons_with_plays(conn, level)
    if not seasons:
        return _empty()
    df = scores.clock_plays(conn, level, sport, seasons, STATES)
    if df.empty:
        return _empty()
    games = scores.clock_fitting_games(conn, level, seasons, df[df["final"]])
    if games.empty:
        return _empty()
    df = df.assign(helo_win_exp=_with_prior(df, prior))
    fitting = df[df["final"]]
    home, draw, _ = scores.clock_forecast(df, sport, games, fitting)
    firsts = df.drop_duplicates("game_id")
    opening = firsts.assign(lead=0, left=1.0, overtime=False, ball=0.0, pp=0.0)
    start_home, start_draw, _ = scores.clock_forecast(opening, sport, games, fitting)
    start_value = start_home + 0.5 * start_draw if start_draw is not None else start_home
    start = df["game_id"].map(pd.Series(start_value, index=firsts["game_id"].to_numpy()))
    team = df["team_id"].to_numpy()
    home_id = df["home_id"].to_numpy()
    home_side = np.where(pd.isna(team), 0.0, np.where(team == home_id, 1.0, -1.0))
    return _finish(df, home, draw, start.to_numpy(float), home_side)


def credits(lines: pd.DataFrame, sport: str) -> tuple[pd.Series, pd.Series]:
    """Each play's WPA summed per (game_id, player) and per (game_id, team): the player credited
    with the play, and in baseball the negative to its pitcher; the team credited, and the
    negative to its opponent."""
    def total(ids: list[str], signs: list[float]) -> pd.Series:
        parts = [pd.DataFrame({"game_id": lines["game_id"], "entity_id": lines[c],
                               "wpa": lines["wpa"] * sign}) for c, sign in zip(ids, signs)]
        both = pd.concat(parts, ignore_index=True).dropna(subset=["entity_id"])
        both["entity_id"] = both["entity_id"].astype("int64")
        summed: pd.Series = both.groupby(["game_id", "entity_id"])["wpa"].sum()
        return summed

    if lines.empty:
        empty = pd.Series(dtype=float)
        return empty, empty
    players = total(["player_id", "pitcher_id"], [1.0, -1.0]) if sport == "baseball" \
        else total(["player_id"], [1.0])
    teams = total(["team_id", "opponent_id"], [1.0, -1.0])
    return players, teams
