"""Projections: where will the season end? Projected records, playoff, bye and title odds as of
any day of a season (football: final position, European places, promotion and relegation), and
the odds over the season per team."""
from __future__ import annotations

import datetime as dt

import pandas as pd
import streamlit as st

from components import chart_view, charts, filters, layout, link_pins, links, page_sections, season_facts
from components import projections as view
from components.tables import show_table
from services import ApiError, api

DEFAULT_TEAMS = 4
ALL_GROUPS = "All"
COLUMNS = ("Team", "Sublevel", "Record", "Points", "ELO", "Projected", "ProjW", "Range", "ProjPoints")
# a league table: points and final position instead of wins and the projected record, so that at 1440 px
# every place's odds (up to four bars for a top flight) are in view
TABLE_COLUMNS = ("Team", "Sublevel", "Record", "Points", "ELO", "ProjPoints", "ProjRank")
FORMATS = {"ELO": st.column_config.NumberColumn(format="%.1f"),
           "ProjW": st.column_config.NumberColumn("Proj. wins", format="%.1f", help="Mean of the simulated seasons"),
           "ProjPoints": st.column_config.NumberColumn("Proj. points", format="%.1f"),
           "ProjRank": st.column_config.NumberColumn("Proj. pos.", format="%.1f",
                                                     help="Mean final position in the league"),
           "Range": st.column_config.TextColumn("Wins 10-90 %", help="10th to 90th percentile of the final wins"),
           "Projected": st.column_config.TextColumn(help="Projected final record (rounded means)"),
           "Sublevel": st.column_config.TextColumn(help="League, conference or division")}


def _table_columns(group: str) -> tuple[str, ...]:
    """A league table's columns: its league's name only while every league is listed."""
    return TABLE_COLUMNS if group == ALL_GROUPS else tuple(c for c in TABLE_COLUMNS if c != "Sublevel")


def _series(level: str, season: int | None, chosen: list[str], ids: dict[str, int]) -> pd.DataFrame:
    parts = [api.projections(level, season=season, team_id=ids[name]).frame.assign(Team=name)
             for name in chosen if name in ids]
    parts = [p for p in parts if not p.empty]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def _why_none(level: str, season: int | None, as_of: dt.date | None) -> str:
    """Why no projection answers, in words true to the cause: a day before the season's first
    projection, or the season's own cause (still loading, not started, never projected)."""
    held = api.projections(level, season=season).frame if as_of is not None else pd.DataFrame()
    if not held.empty:
        return (f"No projections as of {as_of}: the season's first projection held is of a later day. "
                f"Clear the day to see the newest ({held['Date'].max()}).")
    return season_facts.why_empty(level, season, "projections", day=as_of,
                                  computed_by="`python -m server projections --history` projects every past season")


def main() -> None:
    level = filters.current_level()
    season = filters.season_picker(api.season_ids(level, with_games=True))
    as_of = filters.date_picker("As of", key="asof",
                                help="The odds as they stood at the end of this day; empty: the newest.")
    page = api.projections(level, season=season, date=as_of)
    layout.note_page(page)
    if as_of is None and not page.frame.empty:  # "the newest day" moves with every game day
        link_pins.pin("asof", page.frame["Date"].max())
    table = view.table_view(page.frame)
    groups = sorted({str(g) for g in table.get("Sublevel", pd.Series(dtype=str)).dropna()})
    group = (filters.choice("Sublevel", [ALL_GROUPS, *groups], key="group", help="A league, conference or division")
             if groups else ALL_GROUPS)
    if group != ALL_GROUPS:
        table = table[table["Sublevel"].astype(str) == group]
    ids = {str(n): int(i) for n, i in zip(table.get("Team", []), table.get("Team_ID", []), strict=True)}
    chosen = filters.teams_picker(list(ids), view.likeliest(table, DEFAULT_TEAMS))
    st.title(f"{level} season projections" + (f", {layout.title_season(level, season)}" if season else ""))
    if table.empty:
        st.info(_why_none(level, season, as_of))
        layout.copy_link()
        return
    day = str(table["Date"].max())
    league_table = view.is_league_table(table)
    if league_table:
        st.caption(f"As of the end of {day}: each club's remaining league matches simulated with the ELO's home, "
                   "draw and away chances, ratings updated inside each simulated season; the tables ranked by points "
                   "(deductions included) and each league's tiebreakers; places by final position as declared for "
                   "the league and season.")
    else:
        st.caption(f"As of the end of {day}: each team's remaining regular-season games simulated with the ELO win "
                   "expectation, ratings updated inside each simulated season, then the level's playoff format.")
    held = view.odds_held(table)
    # the table first, its chart one click below (a view opens on grids or on charts: page_sections.disclosure)
    show_table(links.with_link(table, "Team", "team", level, season), name=f"{level.lower()}_projections_{day}",
               columns=(*(_table_columns(group) if league_table else COLUMNS), *(view.PERCENT_COLUMNS[c] for c in held),
                        links.LINK_COLUMN),
               formats={**FORMATS, **view.odds_columns(held), **links.link_format("team")},
               empty="No projections held for this season or day.")
    if held:
        odds = next(c for c in ("PlayoffProb", "TitleProb", *held) if c in held)
        label = view.ODDS_LABELS[odds].lower()
        box = page_sections.chart_below(f"Chart: {label} odds over the season, the teams picked in the sidebar",
                                        icon=":material/show_chart:")
        if box.open:
            chart_view.draw(view.odds_series(_series(level, season, chosen, ids), value=odds, as_of=day,
                                             title=charts.level_season_title(level, [season], f"{label} odds over the season")),
                            key="odds_series", where=box)
    layout.copy_link()


try:
    main()
except ApiError as err:
    layout.show_error(err)
