"""A game's box score from the API's ``boxscores`` endpoint (``services.api.BoxScore``).

Baseball: each side's batting lines (AB R H RBI BB SO HR) and pitching lines (IP H R ER BB K HR
pitches), and the line score's R/H/E from the team totals; other sports: each side's players with
the stats any of them recorded. Pure functions: no Streamlit, no HTTP.
"""
from __future__ import annotations

from typing import Any

import pandas as pd

BATTING = {"AB": "AB", "R": "R", "H": "H", "RBI": "RBI", "BB": "BB", "SO": "SO", "HR": "HR"}
PITCHING = {"IP": "IP", "HA": "H", "RA": "R", "ER": "ER", "BBA": "BB", "K": "K", "HRA": "HR", "PIT": "Pitches"}
NOT_STATS = frozenset({"ID", "Name", "Team_ID", "Team", "Home", "Starter", "Position"})


def innings(outs: object) -> str:
    """Outs as innings pitched, the way box scores print them: 20 outs -> "6.2"."""
    try:
        whole = int(float(str(outs)))
    except ValueError:
        return ""
    return f"{whole // 3}.{whole % 3}"


def _numbers(frame: pd.DataFrame, columns: list[str]) -> pd.DataFrame:
    numbers: pd.DataFrame = frame[columns].apply(pd.to_numeric, errors="coerce").fillna(0).astype(int)
    return numbers


def baseball_lines(players: pd.DataFrame, team: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(batting, pitching) of one side: batters who came to the plate, pitchers who pitched."""
    side = players[players["Team"].astype(str) == team] if "Team" in players.columns else players.iloc[0:0]
    if side.empty:
        return pd.DataFrame(), pd.DataFrame()
    batting_columns = [c for c in BATTING if c in side.columns]
    numbers = _numbers(side, [c for c in {*batting_columns, "PA", "OUTS", "BF", *PITCHING} if c in side.columns])
    batted = side[numbers.get("PA", numbers.get("AB", pd.Series(0, index=side.index))) > 0]
    batting = pd.concat([batted[["Name"]], numbers.loc[batted.index, batting_columns]], axis=1).rename(columns=BATTING)
    pitched_mask = (numbers.get("OUTS", 0) > 0) | (numbers.get("BF", 0) > 0)
    pitched = side[pitched_mask]
    pitching = pd.DataFrame({"Name": pitched["Name"]})
    for column, heading in PITCHING.items():
        if column == "IP" and "OUTS" in side.columns:
            pitching[heading] = [innings(o) for o in numbers.loc[pitched.index, "OUTS"]]
        elif column in numbers.columns:
            pitching[heading] = numbers.loc[pitched.index, column]
    return batting.reset_index(drop=True), pitching.reset_index(drop=True)


def player_lines(players: pd.DataFrame, team: str) -> pd.DataFrame:
    """One side's players and every stat any player of the game recorded (basketball, hockey,
    soccer lines)."""
    side = players[players["Team"].astype(str) == team] if "Team" in players.columns else players.iloc[0:0]
    stats = [c for c in players.columns if c not in NOT_STATS and pd.api.types.is_numeric_dtype(players[c])
             and pd.to_numeric(players[c], errors="coerce").fillna(0).astype(bool).any()]
    if side.empty:
        return pd.DataFrame()
    return pd.concat([side[["Name"]], _numbers(side, stats)], axis=1).reset_index(drop=True)


def hits_and_errors(totals: dict[str, dict[str, Any]], side: str) -> tuple[int | None, int | None]:
    """A side's (``visitor`` or ``home``) hits and errors from its team totals (None when the
    source holds no team line for the game)."""
    line = totals.get(side) or {}
    if not line:
        return None, None
    hits, errors = line.get("H"), line.get("E")
    return (None if hits is None else int(hits)), (None if errors is None else int(errors))
