"""Tables with a CSV download beside each, and the empty state an analyst expects."""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from typing import Any, Literal

import pandas as pd
import streamlit as st

from components import column_help, links
from components.filters import current_level
from components.row_selection import PICK_MODES, picked_row, select_id
from components.plain import csv_text, md
from server.catalog import figures
from services import api

CSV_MIME = "text/csv"
# A chance or a share (0 to 1) reads one way in every table: 61.3%, one decimal always (the grid's
# "percent" alone prints 61%, 61.3% or 61.35% as the value falls, row by row). The step's three
# decimals fix the percent's one; the values stay 0 to 1, so a CSV keeps the API's numbers.
# Playoff odds, served as 61.3 (``components.projections.odds_columns``), print the same way.
PERCENT_STEP = 0.001


def percent_column(label: str | None = None, *, help: str | None = None) -> Any:
    """A grid column of chances or shares (0 to 1), printed as 61.3%."""
    return st.column_config.NumberColumn(label, format="percent", step=PERCENT_STEP, help=help)


# A frame's ``attrs`` key: heading -> how its cells print (a function of the value, or the stat
# code of each row as a Series, a ranked-stats table of many stats in one column). The cells stay
# numbers, so a click on the heading sorts .458 above .390 and 207 above 98 (text sorts "98"
# above "207"), while each prints as the sites print it (.458, 207, 3.16, 200.1 innings):
# ``show_table`` hands the grid a Styler whose display text is the print and whose data the
# numbers (docs/metrics.md).
PRINTED = "printed"
Printer = Callable[[object], str] | pd.Series


def printed_as(frame: pd.DataFrame, printers: Mapping[str, Printer]) -> pd.DataFrame:
    """``frame`` with ``printers`` (heading -> ``Printer``) for ``show_table`` to print with."""
    frame.attrs[PRINTED] = {**frame.attrs.get(PRINTED, {}), **printers}
    return frame


def _styled(shown: pd.DataFrame, printers: Mapping[str, Printer]) -> Any:
    """The grid's data: ``shown`` itself, or a Styler printing the ``printers``' columns (an
    empty cell for a missing value) over the same numbers."""
    printers = {c: p for c, p in printers.items() if c in shown.columns}
    if not printers:
        return shown
    styler = shown.style
    for heading, printer in printers.items():
        if callable(printer):
            styler = styler.format(printer, subset=[heading], na_rep="")
            continue
        codes = printer.reindex(shown.index)
        for code in codes.dropna().unique():
            rows = codes.index[codes == code]
            styler = styler.format(partial(figures.text, str(code)),
                                   subset=pd.IndexSlice[rows, [heading]], na_rep="")
    return styler


def _unformatted(config: Mapping[str, Any], headings: Iterable[str]) -> dict[str, Any]:
    """The grid's column config without a number format on ``headings`` (a config's format
    would print over the Styler's)."""
    out = dict(config)
    for heading in headings:
        column = out.get(heading)
        if isinstance(column, dict) and isinstance(column.get("type_config"), dict):
            type_config = {k: v for k, v in column["type_config"].items() if k != "format"}
            out[heading] = {**column, "type_config": type_config}
    return out


def records_frame(value: object) -> pd.DataFrame:
    """A nested list of records from a detail document (``seasons``, ``scoring``...) as a DataFrame."""
    if isinstance(value, list):
        return pd.json_normalize([v for v in value if isinstance(v, dict)])
    if isinstance(value, dict):
        return pd.json_normalize([value])
    return pd.DataFrame()


def pick_columns(frame: pd.DataFrame, columns: Sequence[str] | Mapping[str, str]) -> pd.DataFrame:
    """The listed columns that exist, in order (the API may add fields; never fail on one missing);
    a mapping also renames them (API name -> heading)."""
    shown = frame[[c for c in columns if c in frame.columns]]
    return shown.rename(columns=dict(columns)) if isinstance(columns, Mapping) else shown


def markdown_table(frame: pd.DataFrame, *, empty: str = "") -> None:
    """A small fixed table (a line score, a crew of officials) as Markdown: far lighter in the
    browser than an interactive grid, which a handful of rows does not need."""
    if frame.empty:
        if empty:
            st.caption(empty)
        return

    def cell(value: object) -> str:  # names come from data: text, never markup
        return "" if value is None or (isinstance(value, float) and math.isnan(value)) else md(value)

    head = "| " + " | ".join(cell(c) for c in frame.columns) + " |"
    rule = "|" + "|".join(":--" if i == 0 else "--:" for i in range(len(frame.columns))) + "|"
    rows = ["| " + " | ".join(cell(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    st.markdown("\n".join([head, rule, *rows]))


def _csv_cell(value: object) -> object:
    """A cell as a spreadsheet reads it: a list (a level's endpoints, a team's leagues) as its
    items joined by commas, never Python's ``['a', 'b']``; text that would start a formula
    (a team named ``=HYPERLINK(...)``) as text (``plain.csv_text``); numbers as they are."""
    if isinstance(value, list | tuple):
        value = ", ".join("" if v is None else str(v) for v in value)
    elif isinstance(value, dict):
        value = ", ".join(f"{k}: {v}" for k, v in value.items())
    return csv_text(value) if isinstance(value, str) else value


def csv_bytes(frame: pd.DataFrame) -> bytes:
    """``frame`` as a CSV download: every download of the dashboard is written here."""
    texts = {str(c): frame[c].map(_csv_cell) for c in frame.columns
             if frame[c].dtype == object or pd.api.types.is_string_dtype(frame[c])}
    out = (frame.assign(**texts) if texts else frame).rename(columns=lambda c: _csv_cell(str(c)))
    return str(out.to_csv(index=False)).encode()


def download(label: str, data: Callable[[], bytes], *, name: str) -> None:
    """A CSV download built when clicked (not on every run), without rerunning the page."""
    st.download_button(label, data, file_name=f"{name}.csv", mime=CSV_MIME, key=f"{name}_csv",
                       icon=":material/download:", on_click="ignore")


def _blank_missing_text(frame: pd.DataFrame) -> pd.DataFrame:
    """Missing text as empty cells (a grid would print "None": a game without overtime is not a
    game whose overtime is unknown). Numbers stay numbers, so a click on a heading sorts them as
    numbers (131 above 98); a column of whole numbers with gaps (the scores of a list holding
    games to come) becomes whole numbers that may be missing, drawn blank (the grid's
    ``placeholder``). A column with nothing known yet is blank text: nothing to sort."""
    changed: dict[str, pd.Series] = {}
    for name in frame.columns:
        values = frame[name]
        if not values.isna().any():
            continue
        present = values.dropna()
        if present.empty:  # nothing known yet (a scheduled game's scores): blank cells
            changed[str(name)] = pd.Series("", index=values.index, dtype=object)
        elif pd.api.types.is_string_dtype(values) and all(isinstance(v, str) for v in present):
            changed[str(name)] = values.where(values.notna(), "")
        elif pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values) \
                and (present % 1 == 0).all():
            changed[str(name)] = values.astype("Int64")
    return frame.assign(**changed) if changed else frame


def _open_row(urls: Sequence[object], table_key: str) -> None:
    """Selection callback of a table of links: a click on a row opens that row's link in this
    tab, as the link itself would in a new one (the same page, level, record and season)."""
    row = picked_row(st.session_state.get(table_key))
    if row is None or not 0 <= row < len(urls) or not isinstance(urls[row], str):
        return
    links.open_link(str(urls[row]))


def _named_seasons(frame: pd.DataFrame, level: str) -> pd.DataFrame:
    """A ``Season`` column as the level names its seasons (``api.season_name``: "2022-23" where
    a season spans two years), one rule for every table; other cells ("Career") as they are."""
    if "Season" not in frame.columns:
        return frame
    names = api.season_names(level)
    if not names:
        return frame
    def named(value: object) -> object:
        text = str(value).strip()
        return names.get(int(text), text) if text.isdigit() else value
    return frame.assign(Season=frame["Season"].map(named))


def show_table(frame: pd.DataFrame, *, name: str, columns: Sequence[str] | Mapping[str, str] | None = None,
               empty: str = "No records match these filters.", height: int | Literal["content"] | None = None,
               select_into: str | None = None, id_column: str = "ID", open_tab: tuple[str, str] | None = None,
               formats: Mapping[str, Any] | None = None, csv: bool = True,
               hidden: Sequence[str] = ()) -> None:
    """Render ``frame`` with a CSV download; ``select_into`` makes a row click set that URL widget
    (and ``open_tab``, a ``(tabs key, label)``, switch to the tab that shows the picked record);
    without it, a click on a row of a table with a ``links.LINK_COLUMN`` opens its link here;
    ``hidden`` columns (internal IDs a row click needs) stay in the CSV but not on screen;
    ``height`` in pixels, or "content" for every row in view (the default shows ten, then scrolls)."""
    if frame.empty:
        st.info(empty)
        return
    shown = _named_seasons(_blank_missing_text(pick_columns(frame, columns) if columns else frame).copy(deep=False),
                           current_level())
    printers = frame.attrs.get(PRINTED, {})
    shown.attrs = {}  # the grid serialises a frame's attrs as JSON: functions are not
    config = _unformatted(column_help.dataframe_config(
        shown.columns, {**dict(formats or {}), **{c: None for c in hidden}},
        api.level_sport(current_level())), printers)
    options: dict[str, Any] = {"hide_index": True, "height": height or "auto", "placeholder": "",
                               "column_config": config}
    table_key = f"{name}_table"
    data = _styled(shown, printers)
    if select_into and id_column in frame.columns:
        ids = [int(v) for v in frame[id_column].tolist()]
        st.dataframe(data, key=table_key, selection_mode=list(PICK_MODES),
                     on_select=partial(select_id, select_into, ids, table_key, open_tab), **options)
    elif links.LINK_COLUMN in shown.columns:
        st.dataframe(data, key=table_key, selection_mode=list(PICK_MODES),
                     on_select=partial(_open_row, shown[links.LINK_COLUMN].tolist(), table_key), **options)
    else:
        st.dataframe(data, **options)
    if csv:
        download("Download CSV", partial(csv_bytes, shown), name=name)
