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


# the columns that hold a row's code, which a search for that code must find first
CODE_COLUMNS = ("Code", "ID", "Abbrev")


def filter_rows(table: pd.DataFrame, text: str) -> pd.DataFrame:
    """The rows where any cell contains ``text`` (folded), best first: the row whose code is the
    text ("ERA" finds the ERA before "average", which only contains it), then a code starting
    with it, then names as ``name_rank`` orders them, then the rest in the table's order; the
    table itself for an empty search."""
    needle = fold(text)
    if not needle or table.empty:
        return table
    haystack = table.apply(lambda row: " ".join(fold(v) for v in row), axis=1)
    found = table[haystack.str.contains(needle, regex=False)]
    codes = [c for c in CODE_COLUMNS if c in found.columns]

    def rank(position: int) -> tuple[int, int]:
        row = found.iloc[position]
        folded = [fold(row[c]) for c in codes]
        if needle in folded:
            return 0, position
        if any(f.startswith(needle) for f in folded):
            return 1, position
        named = name_rank(row["Name"], text) if "Name" in found.columns else RANK_NONE
        return 2 + named, position

    return found.iloc[sorted(range(len(found)), key=rank)]


def name_rank(name: object, text: str) -> int:
    """How well ``name`` answers a search for ``text``: RANK_EXACT (the whole name),
    RANK_LAST_NAME (its last word), RANK_PREFIX (it or one of its words starts with the text),
    RANK_CONTAINS, or RANK_NONE."""
    folded, needle = fold(name), fold(text)
    if not needle or not folded:
        return RANK_NONE
    # a name in another script ends with its Latin form in parentheses: "김하성 (Ha-seong Kim)"
    words = folded.replace("(", " ").replace(")", " ").split()
    if folded == needle or folded.endswith(f"({needle})"):
        return RANK_EXACT
    if words and (words[-1] == needle or folded.removesuffix(")").endswith(" " + needle)):
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
