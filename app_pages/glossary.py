"""Glossary: levels, sublevels, stat codes and nations; searchable."""
from __future__ import annotations

import streamlit as st

from components import charts, filters, layout
from components.tables import show_table
from services import ApiError, api

KINDS = ("levels", "sublevels", "stats", "nations")
GROUP_BY = {"levels": "Sport", "sublevels": "Type", "stats": "Type", "nations": "Code"}


def main() -> None:
    level = filters.current_level()
    kind = filters.choice("Glossary", KINDS, key="glossary")
    search = filters.text_filter("Search", key="gloss_q", placeholder="code, name or description")
    st.title(f"Glossary: {kind}" + ("" if kind in ("levels", "nations") else f" of {level}"))
    table = api.glossary(level, kind)
    if search and not table.empty:
        text = table.astype(str).agg(" ".join, axis=1)
        table = table[text.str.contains(search, case=False, regex=False)]
    group = GROUP_BY[kind]
    if kind == "nations" and "Code" in table.columns:
        table = table.assign(Initial=table["Name"].astype(str).str[:1])
        group = "Initial"
    st.plotly_chart(charts.counts(table, group, f"{kind.capitalize()} by {group.lower()}"), key="glossary_chart")
    show_table(table, name=f"glossary_{kind}", empty="Nothing matches this search.")
    layout.copy_link()


try:
    main()
except ApiError as err:
    layout.show_error(err)
