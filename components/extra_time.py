"""Extra innings as analysts write them: a baseball game that went past its scheduled innings
reads "Final (10 innings)" in its status (``server.catalog.innings``), never "Overtime 1" or "2".

The API's ``Overtime`` counts the periods past regulation (baseball: innings past the scheduled
nine, or seven in 2021's doubleheaders), which a reader takes for overtimes: a baseball list
leaves that column out, its status saying the innings. Pure functions: no Streamlit, no HTTP.
"""
from __future__ import annotations

import pandas as pd

OVERTIME = "Overtime"


def mark(frame: pd.DataFrame, sport: str | None) -> pd.DataFrame:
    """``frame`` (game records) without baseball's ``Overtime`` count; other sports' as given."""
    if sport != "baseball" or OVERTIME not in frame.columns:
        return frame
    return frame.drop(columns=[OVERTIME])


def columns(names: tuple[str, ...], sport: str | None) -> tuple[str, ...]:
    """A page's game columns, baseball's without ``Overtime`` (its status says the innings)."""
    return names if sport != "baseball" else tuple(n for n in names if n != OVERTIME)
