"""A team's-eye view of a list of games: its opponent, its score first, its margin and result.

Pure functions: no Streamlit, no HTTP.
"""
from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

SIDE_COLUMNS = ["ID", "GameDay", "Opponent", "Where", "For", "Against", "Margin", "Result"]


def team_side(games: pd.DataFrame, team: str, tie: str = "T") -> pd.DataFrame:
    """The finished games of ``team`` seen from its side: For and Against, Margin = For − Against,
    Result W, L or ``tie`` (T, or D for a soccer draw); Where is home or away."""
    need = {"Home", "Visitor", "ScoreHome", "ScoreVis"}
    if games.empty or not need <= set(games.columns):
        return pd.DataFrame(columns=SIDE_COLUMNS)
    played = games[(games["Home"].astype(str) == team) | (games["Visitor"].astype(str) == team)].copy()
    home = played["Home"].astype(str) == team
    ours = pd.to_numeric(played["ScoreHome"].where(home, played["ScoreVis"]), errors="coerce")
    theirs = pd.to_numeric(played["ScoreVis"].where(home, played["ScoreHome"]), errors="coerce")
    side = pd.DataFrame({
        "ID": played.get("ID"), "GameDay": played.get("GameDay"),
        "Opponent": played["Visitor"].where(home, played["Home"]).astype(str),
        "Where": home.map({True: "home", False: "away"}), "For": ours, "Against": theirs,
    }, index=played.index).dropna(subset=["For", "Against"])
    side["Margin"] = side["For"] - side["Against"]
    side["Result"] = ["W" if m > 0 else "L" if m < 0 else tie for m in side["Margin"]]
    return side.astype({"For": int, "Against": int, "Margin": int}).reset_index(drop=True)


def record(side: pd.DataFrame) -> dict[str, int]:
    """Wins, losses, ties (or draws) and the points/runs/goals difference of a team_side table."""
    results = side["Result"].value_counts() if not side.empty else pd.Series(dtype=int)
    return {"W": int(results.get("W", 0)), "L": int(results.get("L", 0)),
            "T": int(len(side) - results.get("W", 0) - results.get("L", 0)),
            "Diff": int(side["Margin"].sum()) if not side.empty else 0}


def record_text(wins: str, losses: str, level: str | None = None, *, draws: bool = False) -> str:
    """A record as analysts write it: W-L, with ``level`` games (ties, hockey's overtime losses)
    after them, or soccer's W-D-L, the draws in the middle (``draws``), always said."""
    if draws:
        return f"{wins}-{level or 0}-{losses}"
    return "-".join([wins, losses] + ([level] if level else []))


POSTSEASON_COLUMNS = ("PostWins", "PostLosses", "PostUnplayed")


def _count(value: object) -> int | None:
    number = pd.to_numeric(pd.Series([value]), errors="coerce").iloc[0]
    return None if pd.isna(number) else int(number)


def seasons_table(seasons: pd.DataFrame) -> pd.DataFrame:
    """A team's seasons (the API's ``seasons``) with its postseason record beside the regular
    season's, as "W-L" ("" where it played no postseason game the store holds); the name each
    season was played under where the API holds one, and ties where a season has any."""
    if "Name" in seasons.columns and not seasons["Name"].astype("string").fillna("").str.strip().astype(bool).any():
        seasons = seasons.drop(columns=["Name"])  # no season's own name held (a results source): no empty column
    if seasons.empty or not {"PostWins", "PostLosses"} <= set(seasons.columns):
        return seasons
    post = []
    for w, lost in zip(seasons["PostWins"], seasons["PostLosses"]):
        wins, losses = _count(w), _count(lost)
        post.append("" if wins is None or losses is None else f"{wins}-{losses}")
    shown = seasons.drop(columns=[c for c in POSTSEASON_COLUMNS if c in seasons.columns])
    at = list(shown.columns).index("Ties") + 1 if "Ties" in shown.columns else len(shown.columns)
    shown.insert(at, "Postseason", post)
    ties = pd.to_numeric(shown.get("Ties", pd.Series(dtype=float)), errors="coerce").fillna(0)
    return shown.drop(columns=["Ties"]) if "Ties" in shown.columns and not ties.any() else shown


def postseason_notes(seasons: pd.DataFrame, names: Mapping[int, str] | None = None) -> list[str]:
    """What the data holds of each season's postseason, where it stops short: "2022-23: 12-3 in
    the rounds the data holds; the data stops before the Finals (no result for it)"; each season
    by its name in ``names`` (``api.season_names``), else its ID."""
    if seasons.empty or "PostUnplayed" not in seasons.columns:
        return []
    notes = []
    for _, row in seasons.iterrows():
        rounds = row["PostUnplayed"] if isinstance(row["PostUnplayed"], list) else []
        wins, losses = _count(row.get("PostWins")), _count(row.get("PostLosses"))
        if rounds and wins is not None and losses is not None:
            season = (names or {}).get(int(row["Season"]), row["Season"]) if str(row["Season"]).isdigit() \
                else row["Season"]
            notes.append(f"{season}: {wins}-{losses} in the postseason rounds the data "
                         f"holds; the data stops before the {', '.join(str(r) for r in rounds)} "
                         "(listed without a result)")
    return notes
