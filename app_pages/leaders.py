"""Leaders: a stat code's ranking for players or teams, with qualifiers."""
from __future__ import annotations

import re
from functools import partial

import pandas as pd
import streamlit as st

from components import chart_view, charts, filters, layout, links, page_sections, phases, season_facts
from components.plain import md
from components.player_stats import stat_column
from components.search import fold
from components.tables import printed_as, show_table
from server.catalog import figures
from services import ApiError, api

TOP = 100
# the stat a level's leaders open on: the first of these its glossary has (baseball, basketball
# and hockey, soccer)
PREFERRED_STATS = ("HR", "PTS", "G")


def _described(codes: pd.DataFrame) -> dict[str, str]:
    names = codes.get("Name", codes["Code"]).astype(str)
    return dict(zip(codes["Code"].astype(str), names, strict=True))


def _caption(name: str, description: str) -> str:
    """The stat's name and description said once: "Home runs (season total)", not "Home runs:
    Season total: home runs."."""
    text = description.strip().rstrip(".")
    if name and fold(name) in fold(text):
        rest = re.sub(re.escape(name), "", text, flags=re.IGNORECASE).strip(" :.,-")
        return f"{name} ({rest.lower()})" if rest else name
    return f"{name}: {text}" if name and text else name or text


def _tabulated(level: str, kind: str, stat: str, season: int | None) -> bool:
    """Whether the season's regular-season table of the stat has rows, whatever the filters."""
    return not api.stats(level, kind, stat, season=season, size=1).frame.empty


def _why_none(level: str, kind: str, stat: str, season: int | None, team: str | None, qualified: bool,
              phase: str) -> str:
    """Why the table is empty: the page's filters (a team, qualifiers, the postseason), or the
    season's own cause (still loading, not started, not tabulated)."""
    asked = ([f"team {team}"] if team else []) + (["qualified only"] if qualified else []) \
        + ([phase.lower()] if phase != phases.REGULAR else [])
    # a player's statistics are made of his game lines: a season of results alone has none to
    # make them of (re-tabulating would not help), unless the season holds them whole (Lahman's)
    lines = "PlayerPerfs" if kind == "player" and not _tabulated(level, kind, stat, season) else ""
    return season_facts.why_empty(level, season, f"{stat} statistics", filters=", ".join(asked), needs=lines,
                                  unfiltered=partial(_tabulated, level, kind, stat, season) if asked else None,
                                  computed_by=season_facts.RETABULATED)


def main() -> None:
    level = filters.current_level()
    kind = filters.choice("Leaders of", ["player", "team"], key="stat_type")
    codes = api.glossary(level, "stats")
    if "Type" in codes.columns:
        codes = codes[codes["Type"].astype(str).str.lower() == kind]
    if codes.empty or "Code" not in codes.columns:
        st.info(f"No {kind} stat codes in the glossary of {level}.")
        return
    names = _described(codes)
    options = list(names)
    default = next((options.index(c) for c in PREFERRED_STATS if c in names), 0)
    stat = filters.choice("Stat", options, key="stat", index=default, help="A stat code of the glossary.")
    season = filters.season_picker(api.season_ids(level))
    phase = filters.choice("Season phase", list(phases.TABLES), key="stat_phase",
                           help="Each phase is tabulated apart: the regular season, or the postseason's games alone.")
    row = codes[codes["Code"].astype(str) == stat].iloc[0]
    found = row.get("Qualifier")
    qualifier = found if isinstance(found, str) and found else None
    qualified = filters.toggle("Qualified only", key="qualified") if kind == "player" and qualifier else False
    ids = filters.name_to_id(api.teams(level, season))
    team = filters.team_picker(list(ids))
    st.title(f"{level} leaders: {md(stat)}" + (f", {layout.title_season(level, season)}" if season else "")
             + (f" {phase.lower()}" if phase != phases.REGULAR else ""))
    st.caption(md(_caption(str(row.get("Name") or stat), str(row.get("Description") or "")))
               + (f" · qualifier: {md(qualifier)}" if qualifier else "")
               + (f" · ranked {'lowest' if row.get('Order') == 'asc' else 'highest'} first" if row.get("Order") else ""))
    page = api.stats(level, kind, stat, season=season, team_id=ids.get(team or ""), qualifiers=qualified,
                     phase=phases.TABLES[phase], size=TOP)
    layout.note_page(page)
    table = page.frame
    if table.empty:  # why, in words true to the cause: nothing to draw
        st.info(_why_none(level, kind, stat, season, team, qualified, phase))
        layout.copy_link()
        return
    # the board first, its chart one click below (a view opens on grids or on charts: page_sections.disclosure)
    ranked = (links.with_link(table, "Player_ID", "player", level, season) if kind == "player"
              else links.with_link(table, "Team", "team", level, season))
    # the values stay numbers (a click on Value sorts 131 above 98), printed as the sites print
    # the stat (.458, 207, 3.16)
    printed_as(ranked, {"Value": partial(figures.text, stat)})
    show_table(ranked, name=f"leaders_{stat}_{season}",
               columns=("Rank", "Name", "Team", "Value", "GP", "Qualified", links.LINK_COLUMN, "Player_ID", "Team_ID"),
               hidden=("Player_ID", "Team_ID"),
               formats={**links.link_format("profile" if kind == "player" else "team"),
                        "Value": stat_column(stat, ranked.get("Value", pd.Series(dtype=float)))})
    top = min(len(table), charts.LEADERS_DRAWN)
    box = page_sections.chart_below(f"Chart: the top {top}")
    if box.open:
        what = f"{stat} leaders" + (f", {phase.lower()}" if phase != phases.REGULAR else "")
        chart_view.draw(charts.leaders(table, stat=stat, title=charts.level_season_title(level, [season], what)),
                        key="leaders_chart", where=box)
    layout.copy_link()


try:
    main()
except ApiError as err:
    layout.show_error(err)
