"""Glossary: levels, sublevels, stat codes (each with its formula) and nations, searchable
across every tab; for baseball, the season's run environment: the run expectancy table and the
constants the formulas name (docs/metrics.md)."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from components import chart_view, charts, column_help, filters, layout, page_sections, run_environment
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
RUN_ENVIRONMENT = "Run environment"  # a baseball level's tab: run expectancy and constants
TERMS = "Terms"  # the words the pages use (column_help's headings and terms)


def _terms() -> pd.DataFrame:
    return pd.DataFrame([{"Term": t, "Meaning": m} for t, m in column_help.terms().items()])


def _glossary(level: str, label: str) -> pd.DataFrame:
    return _terms() if label == TERMS else api.glossary(level, KINDS[label][0])


def _elsewhere(level: str, label: str, text: str) -> None:
    """A search the open tab has nothing for, found under the other tabs: their matches shown
    here, so "WPA" typed on Levels finds the stat code without a second look."""
    for other in (*KINDS, TERMS):
        if other == label:
            continue
        found = filter_rows(_glossary(level, other), text)
        if not found.empty:
            st.caption(f"Found under {other}: {len(found)} matching '{md(text)}'")
            show_table(found, name=f"glossary_found_{other.lower().replace(' ', '_')}")


def _show(level: str, label: str, text: str) -> None:
    kind, group, per_level = KINDS[label]
    table = filter_rows(api.glossary(level, kind), text)
    if kind == "nations" and "Name" in table.columns:
        table = table.assign(Initial=table["Name"].astype(str).str[:1])
    scope = f" of {level}" if per_level else ""
    st.caption(f"{len(table)} {label.lower()}{scope}" + (f" matching '{md(text)}'" if text else ""))
    # the entries first, their count one click below (a view opens on grids or on charts: page_sections.disclosure)
    show_table(table, name=f"glossary_{kind}", empty="Nothing matches this search here.")
    if table.empty:
        if text:
            _elsewhere(level, label, text)
        return
    box = page_sections.chart_below(f"Chart: {label.lower()} by {group.lower()}")
    if box.open:
        # a level's own codes name it first, as every chart names its level; levels and nations are every level's
        title = f"{level}: {label.lower()} by {group.lower()}" if per_level else f"{label} by {group.lower()}"
        chart_view.draw(charts.counts(table, group, title), key=f"glossary_{kind}_chart", where=box)


def _show_terms(level: str, text: str) -> None:
    """The words the pages use, each with its meaning; searchable like the other tabs."""
    table = filter_rows(_terms(), text)
    st.caption(f"{len(table)} terms the pages use" + (f" matching '{md(text)}'" if text else ""))
    show_table(table, name="glossary_terms", empty="Nothing matches this search here.")
    if table.empty and text:
        _elsewhere(level, TERMS, text)


def main() -> None:
    level = filters.current_level()
    text = filters.text_filter("Search", key="gloss_q", placeholder="code, name or description")
    st.title("Glossary")
    baseball = api.level_serves(level, "runexpectancy")
    tabs = page_sections.tabs([*KINDS, TERMS, *([RUN_ENVIRONMENT] if baseball else [])], key=TABS_KEY)
    for label, tab in tabs.items():
        if tab.open:
            with tab:
                if label == RUN_ENVIRONMENT:
                    season = filters.season_picker(api.season_ids(level, with_games=True))
                    run_environment.show(level, season)
                elif label == TERMS:
                    _show_terms(level, text)
                else:
                    _show(level, label, text)
    layout.copy_link()


try:
    main()
except ApiError as err:
    layout.show_error(err)
