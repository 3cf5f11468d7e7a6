"""A two-legged cup tie's aggregate beside its second leg, as the reference sites print it
("Agg. 1-8, Manchester City through"): the API gives the second leg the tie's goals over both
legs (``AggregateVis``, ``AggregateHome``, in the list's visitor-home order) and the club that
went through (``TieWinner_ID``). Pure functions: no Streamlit, no HTTP."""
from __future__ import annotations

import pandas as pd

AGGREGATE = "Aggregate"
_FIELDS = ("AggregateVis", "AggregateHome", "TieWinner_ID", "Home_ID", "Visitor_ID", "Home",
           "Visitor")


def _said(row: pd.Series) -> str:
    if pd.isna(row["AggregateVis"]) or pd.isna(row["AggregateHome"]):
        return ""
    text = f"Agg. {int(row['AggregateVis'])}-{int(row['AggregateHome'])}"
    through = {row["Home_ID"]: row["Home"], row["Visitor_ID"]: row["Visitor"]}.get(
        row["TieWinner_ID"])
    return f"{text}, {through} through" if isinstance(through, str) else text


def mark(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` (game records) with an ``Aggregate`` column when any of its games is a tie's
    second leg; as given otherwise."""
    if frame.empty or not set(_FIELDS) <= set(frame.columns) \
            or frame["AggregateVis"].isna().all():
        return frame
    return frame.assign(**{AGGREGATE: frame.apply(_said, axis=1)})


def columns(names: tuple[str, ...], frame: pd.DataFrame) -> tuple[str, ...]:
    """The list's columns, the aggregate after the scores when the frame has one."""
    if AGGREGATE not in frame.columns:
        return names
    at = names.index("ScoreHome") + 1 if "ScoreHome" in names else len(names)
    return (*names[:at], AGGREGATE, *names[at:])
