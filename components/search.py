"""Text search the way an analyst types it: case, accents and apostrophes do not matter.

``Zoe`` finds "Zoë", ``oneil`` and ``O’Neil`` find "O'Neil", and a table with missing cells or
numbers (a glossary's empty qualifier, a sublevel's parent ID) is searched as text without
failing. Pure functions: no Streamlit, no HTTP.
"""
from __future__ import annotations

import pandas as pd

from server.catalog.names import fold as fold_name

# exact name, then last name, then a name that starts with the text, then anywhere
RANK_EXACT, RANK_LAST_NAME, RANK_PREFIX, RANK_CONTAINS, RANK_NONE = 0, 1, 2, 3, 4


def fold(text: object) -> str:
    """``text`` lower-cased, without accents or apostrophes, spaces collapsed ('' for missing):
    the API's folding (``server.catalog.names``), so a page finds what the API finds."""
    if text is None or (isinstance(text, float) and pd.isna(text)):
        return ""
    return fold_name(str(text))


def filter_rows(table: pd.DataFrame, text: str) -> pd.DataFrame:
    """The rows where any cell contains ``text`` (folded); the table itself for an empty search."""
    needle = fold(text)
    if not needle or table.empty:
        return table
    haystack = table.apply(lambda row: " ".join(fold(v) for v in row), axis=1)
    return table[haystack.str.contains(needle, regex=False)]


def name_rank(name: object, text: str) -> int:
    """How well ``name`` answers a search for ``text``: RANK_EXACT (the whole name),
    RANK_LAST_NAME (its last word), RANK_PREFIX (it or one of its words starts with the text),
    RANK_CONTAINS, or RANK_NONE."""
    folded, needle = fold(name), fold(text)
    if not needle or not folded:
        return RANK_NONE
    words = folded.split()
    if folded == needle:
        return RANK_EXACT
    if words and (words[-1] == needle or folded.endswith(" " + needle)):
        return RANK_LAST_NAME
    if folded.startswith(needle) or any(w.startswith(needle) for w in words):
        return RANK_PREFIX
    return RANK_CONTAINS if needle in folded else RANK_NONE


def rank_by_name(frame: pd.DataFrame, text: str, column: str = "Name") -> pd.DataFrame:
    """``frame`` re-ordered so that the best matches of ``text`` come first (the API orders a
    search by its own key: 'Olson' listed Bill Nicholson before Matt Olson); ties keep the
    API's order."""
    if frame.empty or column not in frame.columns or not fold(text):
        return frame
    ranks = frame[column].map(lambda n: name_rank(n, text))
    order = sorted(range(len(frame)), key=lambda i: (int(ranks.iloc[i]), i))
    return frame.iloc[order].reset_index(drop=True)
