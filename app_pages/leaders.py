"""Leaders: a stat code's ranking for players or teams, with qualifiers."""
from __future__ import annotations

import streamlit as st

from components import charts, filters, layout
from components.tables import show_table
from services import ApiError, api

TOP = 100


def main() -> None:
    level = filters.current_level()
    kind = filters.choice("Leaders of", ["player", "team"], key="stat_type")
    codes = api.glossary(level, "stats")
    if "Type" in codes.columns:
        codes = codes[codes["Type"].astype(str).str.lower() == kind]
    options = [str(c) for c in codes.get("Code", [])]
    if not options:
        st.info(f"No {kind} stat codes in the glossary of {level}.")
        return
    stat = filters.choice("Stat", options, key="stat")
    season = filters.season_picker(api.seasons(level).get("ID", []))
    qualifiers = filters.toggle("Qualified players only", key="qualified") if kind == "player" else False
    ids = filters.name_to_id(api.teams(level, season))
    team = filters.team_picker(list(ids))
    row = codes[codes["Code"].astype(str) == stat].iloc[0] if "Code" in codes.columns else None
    st.title(f"{level} leaders: {stat}")
    if row is not None:
        st.caption(f"{row.get('Name', '')} — {row.get('Description', '')}"
                   + (f" · qualifier: {row.get('Qualifier')}" if row.get("Qualifier") else ""))
    page = api.stats(level, kind, stat, season=season, team_id=ids.get(team or ""), qualifiers=qualifiers, size=TOP)
    layout.note_sources(page.sources)
    st.plotly_chart(charts.leaders(page.frame, stat=stat), key="leaders_chart")
    show_table(page.frame, name=f"leaders_{stat}", empty="No statistics for these filters.",
               columns=("Rank", "Name", "Team", "Value", "GP", "Qualified", "Player_ID", "Team_ID"))
    layout.copy_link()


try:
    main()
except ApiError as err:
    layout.show_error(err)
