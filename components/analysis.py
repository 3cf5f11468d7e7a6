"""Pure transforms behind the charts: no Streamlit, no HTTP, DataFrame in and out.

Scoring rules follow their usual definitions: Brier score (Brier 1950) is the mean squared
error of the probability; log loss is the mean negative log-likelihood, clipped at 1e-6.
"""
from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd

PROBABILITY_CLIP = 1e-6
CALIBRATION_BINS = 10


def column(frame: pd.DataFrame, *names: str) -> pd.Series:
    """The first of ``names`` that the frame has, as a Series (all-NaN when none is there)."""
    for name in names:
        if name in frame.columns:
            return frame[name]
    return pd.Series([np.nan] * len(frame), index=frame.index, dtype="float64")


def implied_probability(line: object) -> float:
    """American money line → implied win probability (with the bookmaker's margin)."""
    try:
        value = float(str(line).replace("+", ""))
    except ValueError:
        return math.nan
    if value == 0 or math.isnan(value):
        return math.nan
    return 100.0 / (value + 100.0) if value > 0 else -value / (-value + 100.0)


def finished(frame: pd.DataFrame) -> pd.DataFrame:
    status = column(frame, "GameStatus").fillna("").astype(str)
    return frame[status.str.lower().str.startswith("final")].copy()


def forecast_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """Final games with the home team's ELO probability, market probability and the outcome."""
    games = finished(frame)
    if games.empty:
        return pd.DataFrame(columns=["GameDay", "Season", "p_elo", "p_market", "home_win"])
    out = pd.DataFrame(index=games.index)
    out["ID"] = column(games, "ID")
    out["GameDay"] = pd.to_datetime(column(games, "GameDay"), errors="coerce")
    out["Season"] = column(games, "Season", "season").fillna(out["GameDay"].dt.year)
    out["Phase"] = column(games, "Phase")  # the game's phase, as the API gives it
    out["Visitor"] = column(games, "Visitor")
    out["Home"] = column(games, "Home")
    out["ScoreVis"] = pd.to_numeric(column(games, "ScoreVis"), errors="coerce")
    out["ScoreHome"] = pd.to_numeric(column(games, "ScoreHome"), errors="coerce")
    out["p_elo"] = pd.to_numeric(column(games, "elo.HELOWinExp", "HELOWinExp"), errors="coerce")
    home_ml = column(games, "moneyline.HomeMoneyLine", "HomeMoneyLine").map(implied_probability)
    vis_ml = column(games, "moneyline.VisMoneyLine", "VisMoneyLine").map(implied_probability)
    total = home_ml + vis_ml
    out["p_market"] = (home_ml / total).where(total > 0)  # remove the bookmaker's margin
    out["home_win"] = (out["ScoreHome"] > out["ScoreVis"]).astype(float)
    out.loc[out["ScoreHome"] == out["ScoreVis"], "home_win"] = 0.5
    for name, source in (("ml_correct", "moneyline.MoneyLineCorrect"), ("spread_correct", "spread.SpreadCorrect"),
                         ("ou_result", "overunder.OverUnderResult"), ("sim_correct", "simulation.PredictionCorrect")):
        out[name] = column(games, source)
    out["sim_total"] = column(games, "simulation.Prediction").map(_simulated_total)
    out["ou_line"] = pd.to_numeric(column(games, "overunder.OverUnder"), errors="coerce")
    return out.sort_values("GameDay").reset_index(drop=True)


def calibration(prob: pd.Series, outcome: pd.Series, bins: int = CALIBRATION_BINS) -> pd.DataFrame:
    """Mean predicted vs observed rate per probability bin, with the number of games in each.

    A draw (outcome 0.5) counts as half a home win, as the ELO expectation it is compared with
    counts it, and is counted apart (``draws``): never as a home loss."""
    data = pd.DataFrame({"p": prob, "y": outcome}).dropna()
    if data.empty:
        return pd.DataFrame(columns=["bin", "predicted", "observed", "games", "draws"])
    data["bin"] = np.minimum((data["p"] * bins).astype(int), bins - 1)
    data["draw"] = data["y"] == 0.5
    table = data.groupby("bin").agg(predicted=("p", "mean"), observed=("y", "mean"), games=("y", "size"),
                                    draws=("draw", "sum")).reset_index()
    bounds = [wilson_interval(o * n, n) for o, n in zip(table["observed"], table["games"], strict=True)]
    table["low"] = [b[0] for b in bounds]
    table["high"] = [b[1] for b in bounds]
    return table


WILSON_Z = 1.959964  # two-sided 95 %


def wilson_interval(successes: float, trials: int, z: float = WILSON_Z) -> tuple[float, float]:
    """The Wilson score interval of a rate (Wilson 1927): where the observed home-win rate of a
    bin of ``trials`` games could lie by chance; narrow for many games, wide for few, never
    outside 0..1. ``successes`` may be fractional (a draw counts half)."""
    if trials <= 0:
        return math.nan, math.nan
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def brier(prob: pd.Series, outcome: pd.Series) -> float:
    data = pd.DataFrame({"p": prob, "y": outcome}).dropna()
    return float(((data["p"] - data["y"]) ** 2).mean()) if len(data) else math.nan


def log_loss(prob: pd.Series, outcome: pd.Series) -> float:
    data = pd.DataFrame({"p": prob, "y": outcome}).dropna()
    if data.empty:
        return math.nan
    p = data["p"].clip(PROBABILITY_CLIP, 1 - PROBABILITY_CLIP)
    return float(-(data["y"] * np.log(p) + (1 - data["y"]) * np.log(1 - p)).mean())


def home_rate_baseline(outcome: pd.Series) -> pd.Series:
    """The home-win rate of the games before each one (no look-ahead), Laplace-smoothed:
    (home wins + 1) / (games + 2), so it starts at 0.5 and never says 0 or 1 after a few games."""
    before = outcome.reset_index(drop=True)
    wins = before.cumsum().shift(1).fillna(0.0)
    games = pd.Series(range(len(before)), dtype="float64")
    return pd.Series(((wins + 1) / (games + 2)).to_numpy(), index=outcome.index)


def scores_over_time(frame: pd.DataFrame) -> pd.DataFrame:
    """Brier score and log loss per month with games, for ELO and the home-win-rate baseline.

    ``period`` is the month as ``YYYY-MM`` text: months without games (the off-season) are
    absent, not drawn as a line across the gap.
    """
    columns = ["period", "model", "metric", "value", "games"]
    if frame.empty:
        return pd.DataFrame(columns=columns)
    data = frame.dropna(subset=["GameDay"]).copy()
    data["baseline"] = home_rate_baseline(data["home_win"])
    rows: list[dict[str, object]] = []
    months = sorted(set(data["GameDay"].dt.strftime("%Y-%m")))
    for previous, month in itertools.pairwise(months):
        if pd.Period(month, "M").ordinal - pd.Period(previous, "M").ordinal > 1:  # the off-season
            for model in ("ELO", "Home-win rate"):
                for metric in ("Brier", "Log loss"):
                    rows.append({"period": f"{previous} … {month}", "model": model, "metric": metric,
                                 "value": math.nan, "games": 0})
    for period, group in data.groupby(data["GameDay"].dt.strftime("%Y-%m"), sort=True):
        for model, prob in (("ELO", group["p_elo"]), ("Home-win rate", group["baseline"])):
            rows.append({"period": period, "model": model, "metric": "Brier",
                         "value": brier(prob, group["home_win"]), "games": len(group)})
            rows.append({"period": period, "model": model, "metric": "Log loss",
                         "value": log_loss(prob, group["home_win"]), "games": len(group)})
    return pd.DataFrame(rows, columns=columns).sort_values("period", kind="stable").reset_index(drop=True)


def _simulated_total(prediction: object) -> float:
    """Total points of a simulated score written ``visitor-home`` (``"4-3"`` -> 7)."""
    parts = str(prediction).split("-")
    try:
        return float(parts[0]) + float(parts[1]) if len(parts) == 2 else math.nan
    except ValueError:
        return math.nan


def correctness_by_season(frame: pd.DataFrame) -> pd.DataFrame:
    """Share of correct calls per season: the ELO, money-line and spread favourites, the
    simulation's winner, and its over/under call (simulated total against the line; pushes and
    ties left out)."""
    rows = []
    for season_id, group in frame.groupby("Season"):
        season = f"{season_id:.0f}"  # a number, 2024 or 2024.0
        called = group[(group["p_elo"] != 0.5) & group["p_elo"].notna() & (group["home_win"] != 0.5)]
        if len(called):
            right = (called["p_elo"] > 0.5) == (called["home_win"] == 1.0)
            rows.append({"Season": season, "Line": "ELO favourite", "Correct": float(right.mean()),
                         "Games": len(called)})
        for label, name in (("Money line", "ml_correct"), ("Spread", "spread_correct"),
                            ("Simulation winner", "sim_correct")):
            calls = group[name].dropna().astype(str).str.upper()
            calls = calls[calls.isin(["Y", "N"])]
            if len(calls):
                rows.append({"Season": season, "Line": label, "Correct": float((calls == "Y").mean()),
                             "Games": len(calls)})
        result = group["ou_result"].astype(str).str.lower().str[:1]
        total, line = group["sim_total"], group["ou_line"]
        decided = (total != line) & total.notna() & line.notna() & result.isin(["o", "u"])
        if decided.any():
            call = pd.Series(np.where(total > line, "o", "u"), index=group.index)[decided]
            rows.append({"Season": season, "Line": "Over/under", "Correct":
                         float((call == result[decided]).mean()), "Games": int(decided.sum())})
    return pd.DataFrame(rows, columns=["Season", "Line", "Correct", "Games"])


def upsets(frame: pd.DataFrame, top: int = 15) -> pd.DataFrame:
    """Games the ELO favourite lost, by how sure the forecast was."""
    data = frame.dropna(subset=["p_elo"]).copy()
    data["winner_prob"] = np.where(data["home_win"] >= 1, data["p_elo"], 1 - data["p_elo"])
    data = data[data["home_win"] != 0.5]
    data = data[data["winner_prob"] < 0.5].sort_values("winner_prob").head(top)
    data["Winner"] = np.where(data["home_win"] >= 1, data["Home"], data["Visitor"])
    data["Winner ELO prob"] = data["winner_prob"]
    data["GameDay"] = data["GameDay"].dt.date
    return data[["ID", "GameDay", "Visitor", "ScoreVis", "Home", "ScoreHome", "Winner", "Winner ELO prob"]]


def line_score(scores: pd.DataFrame) -> pd.DataFrame:
    """Points per period per side from the in-game score datapoints (``scores`` of a game detail)."""
    if scores.empty or not {"Period", "ScoreVis", "ScoreHome"} <= set(scores.columns):
        return pd.DataFrame()
    data = scores.sort_values([c for c in ("Sequence", "Period") if c in scores.columns])
    last = data.groupby("Period", sort=True)[["ScoreVis", "ScoreHome"]].max().cummax()
    per = last.diff().fillna(last).astype(int)
    table = per.T
    table.index = ["Visitor", "Home"]
    table.columns = [str(c) for c in table.columns]
    table["Total"] = last.iloc[-1].astype(int).to_numpy()
    return table.reset_index(names="Team")


def line_score_from_detail(line: object, visitor: str, home: str) -> pd.DataFrame:
    """The ``LineScore`` block of a game detail (``{"visitor": [...], "home": [...]}``) as a table."""
    if not isinstance(line, dict):
        return pd.DataFrame()
    vis, hom = line.get("visitor") or line.get("Visitor"), line.get("home") or line.get("Home")
    if not isinstance(vis, list) or not isinstance(hom, list) or not vis:
        return pd.DataFrame()
    periods = max(len(vis), len(hom))
    rows = []
    for team, scores in ((visitor, vis), (home, hom)):
        padded = [*scores, *([None] * (periods - len(scores)))]
        row: dict[str, object] = {"Team": team, **{str(i + 1): v for i, v in enumerate(padded)}}
        row["Total"] = sum(v for v in scores if isinstance(v, int | float))
        rows.append(row)
    return pd.DataFrame(rows)


def plate_appearances(pitches: pd.DataFrame) -> pd.DataFrame:
    """Pitches grouped into plate appearances: the codes in order (pickoff throws among them), how
    many were pitches, the final count and the outcome the API names (the play that ended it)."""
    need = {"Inning", "Half", "Batter", "Number"}
    columns = ["PA", "Inning", "Half", "Batter", "Pitcher", "Pitches", "Sequence", "Count", "Outcome"]
    if pitches.empty or not need <= set(pitches.columns):
        return pd.DataFrame(columns=columns)
    data = pitches.sort_values("ID" if "ID" in pitches.columns else "Number").reset_index(drop=True)
    data["PA"] = (data["Number"].astype(int) == 1).cumsum()
    is_pitch = data["Pitch"].astype(str) != "N" if "Pitch" in data.columns else pd.Series(True, index=data.index)
    grouped = data.groupby("PA")
    table = grouped.agg(Inning=("Inning", "first"), Half=("Half", "first"), Batter=("Batter", "first"))
    table["Pitcher"] = grouped["Pitcher"].first() if "Pitcher" in data.columns else None
    table["Pitches"] = is_pitch.groupby(data["PA"]).sum().astype(int)
    codes = data["Code"] if "Code" in data.columns else data.get("Result", pd.Series("", index=data.index))
    table["Sequence"] = codes.fillna("?").astype(str).groupby(data["PA"]).agg(" ".join)
    if {"Balls", "Strikes"} <= set(data.columns):
        last = data[is_pitch].groupby("PA").last()
        table["Count"] = (last["Balls"].astype(str) + "-" + last["Strikes"].astype(str)).reindex(table.index).fillna("")
    if "Outcome" in data.columns:
        table["Outcome"] = grouped["Outcome"].last().fillna("").astype(str)
    return table.reset_index()
