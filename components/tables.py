"""Tables with a CSV download beside each, and the empty state an analyst expects."""
from __future__ import annotations

from collections.abc import Sequence
from functools import partial

import pandas as pd
import streamlit as st

from components.filters import select_id


def records_frame(value: object) -> pd.DataFrame:
    """A nested list of records from a detail document (``seasons``, ``scoring``...) as a DataFrame."""
    if isinstance(value, list):
        return pd.json_normalize([v for v in value if isinstance(v, dict)])
    if isinstance(value, dict):
        return pd.json_normalize([value])
    return pd.DataFrame()


def pick_columns(frame: pd.DataFrame, columns: Sequence[str]) -> pd.DataFrame:
    """The listed columns that exist, in order (the API may add fields; never fail on one missing)."""
    return frame[[c for c in columns if c in frame.columns]]


def show_table(frame: pd.DataFrame, *, name: str, columns: Sequence[str] | None = None,
               empty: str = "No records match these filters.", height: int | None = None,
               select_into: str | None = None, id_column: str = "ID") -> None:
    """Render ``frame`` with a CSV download; ``select_into`` makes a row click set that URL widget."""
    if frame.empty:
        st.info(empty)
        return
    shown = pick_columns(frame, columns) if columns else frame
    table_key = f"{name}_table"
    if select_into and id_column in frame.columns:
        ids = [int(v) for v in frame[id_column].tolist()]
        st.dataframe(shown, hide_index=True, height=height or "auto", key=table_key,
                     on_select=partial(select_id, select_into, ids, table_key), selection_mode="single-row")
    else:
        st.dataframe(shown, hide_index=True, height=height or "auto")
    st.download_button("Download CSV", shown.to_csv(index=False).encode(), file_name=f"{name}.csv",
                       mime="text/csv", key=f"{name}_csv", icon=":material/download:")
