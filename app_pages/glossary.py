"""Glossary: levels, sublevels, stat codes and nations; searchable."""
from __future__ import annotations

import streamlit as st

from components import charts, filters, layout
from components.plain import md
from components.search import filter_rows
from components.tables import show_table
from services import ApiError, api

TABS_KEY = "tab"
# tab label -> (glossary type, column the chart counts by, whether the level matters)
KINDS: dict[str, tuple[str, str, bool]] = {
    "Levels": ("levels", "Sport", False),
    "Sublevels": ("sublevels", "Type", True),
    "Stat codes": ("stats", "Type", True),
    "Nations": ("nations", "Initial", False),
}


def _show(level: str, label: str, text: str) -> None:
    kind, group, per_level = KINDS[label]
    table = filter_rows(api.glossary(level, kind), text)
    if kind == "nations" and "Name" in table.columns:
        table = table.assign(Initial=table["Name"].astype(str).str[:1])
    scope = f" of {level}" if per_level else ""
    st.caption(f"{len(table)} {label.lower()}{scope}" + (f" matching '{md(text)}'" if text else ""))
    # the entries first, their count one click below (a view opens on grids or on charts: filters.disclosure)
    show_table(table, name=f"glossary_{kind}", empty="Nothing matches this search.")
    if table.empty:
        return
    box = filters.chart_below(f"Chart: {label.lower()} by {group.lower()}")
    if box.open:
        # a level's own codes name it first, as every chart names its level; levels and nations are every level's
        title = f"{level}: {label.lower()} by {group.lower()}" if per_level else f"{label} by {group.lower()}"
        box.plotly_chart(charts.counts(table, group, title), key=f"glossary_{kind}_chart")


def main() -> None:
    level = filters.current_level()
    text = filters.text_filter("Search", key="gloss_q", placeholder="code, name or description")
    st.title("Glossary")
    tabs = filters.tabs(list(KINDS), key=TABS_KEY)
    for label, tab in tabs.items():
        if tab.open:
            with tab:
                _show(level, label, text)
    layout.copy_link()


try:
    main()
except ApiError as err:
    layout.show_error(err)
