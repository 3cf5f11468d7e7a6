"""Standings: the table by league and division as of any day, with games behind, last 10,
streak, run or point differential and clinch marks, and each team's projected wins (or points) and playoff
odds beside its record. A thin reader of the API's standings and projections."""
from __future__ import annotations

import datetime as dt
from functools import partial
from typing import Any

import pandas as pd
import streamlit as st

from components import bracket, chart_view, filters, layout, link_pins, links, season_facts
from components import projections as view
from components.plain import md
from components.tables import show_table
from server.catalog.football.places import AT_BEST, AT_LEAST, MARKS
from server.catalog.tables import SPORT_TABLES, TableRules
from services import ApiError, NotOffered, api

NO_DIVISION = "All teams"
# the columns a level's table has are the API's (its sport's row of server.catalog.tables: GB or
# PointsBack, RunDiff, PointDiff or GoalDiff, GF and GA, Pct or none, Last10 or Form); this is
# their order on the page, the record's columns (W, L, T, OTL) in the order its sport prints them
AFTER_RECORD = ("GF", "GA", "GoalDiff", "Points", "Pct", "GB", "PointsBack", "Home", "Away",
                "Last10", "Form", "Streak", "RunDiff", "PointDiff", "Clinched", "ProjW",
                "ProjPoints", "Playoff %")
# a table's W and L are the team's (a box score's W is the pitcher of record's): said here
FORMATS = {"G": st.column_config.NumberColumn(help="Games played"),
           "W": st.column_config.NumberColumn(help="Wins"), "L": st.column_config.NumberColumn(help="Losses"),
           "Pct": st.column_config.NumberColumn(format="%.3f"),
           "GB": st.column_config.NumberColumn(format="%.1f", help="Games behind the division leader"),
           "PointsBack": st.column_config.NumberColumn(
               "Pts back", help="Table points behind the leader"),
           "Last10": st.column_config.TextColumn("Last 10"),
           "Form": st.column_config.TextColumn(help="The last five results, the newest at the "
                                                    "right end"),
           "Clinched": st.column_config.TextColumn(help="Certain, never projected: Division, Bye, "
                                                        "Wild Card, Playoff, Play-In or Title"),
           "ProjW": st.column_config.NumberColumn("Proj. wins", format="%.1f",
                                                  help="Projected final wins as of the same day"),
           "ProjPoints": st.column_config.NumberColumn("Proj. points", format="%.1f",
                                                       help="Projected final table points as of "
                                                            "the same day"),
           # the projections' own odds bars: one percent format wherever playoff odds show
           **view.odds_columns(["PlayoffProb"])}
# football's marks (the API's, from the places each league declares): what each one says
FOOTBALL_CLINCHED = (
    "Clinched, certain and never projected: Title (champions); "
    + ", ".join(MARKS[k] for k in AT_LEAST) + " (at least that place); "
    + ", ".join(MARKS[k] for k in reversed(AT_BEST)) + " (at best that place). "
    + "Europa League and Conference League places are not marked: the domestic cup winners "
      "can move them.")



def record_columns(rules: TableRules | None) -> tuple[tuple[str, ...], dict[str, Any]]:
    """The page's column order for a sport's table and the formats its rules add (the label of
    a draw: football's ``D``)."""
    record = rules.record if rules is not None else TableRules.record  # the default order
    extra = ({"T": st.column_config.NumberColumn(rules.draw, help="Draws")}
             if rules is not None and rules.draw != "T" else {})
    return ("Team", *record, *AFTER_RECORD), extra


def projected_measure(projected: pd.DataFrame) -> str:
    """What a team's projection is read as beside its record: final table points where the
    level ranks by them (hockey, football), final wins otherwise."""
    held = "ProjPoints" in projected.columns and projected["ProjPoints"].notna().any()
    return "ProjPoints" if held else "ProjW"


def with_projections(table: pd.DataFrame, projected: pd.DataFrame) -> pd.DataFrame:
    """``table`` with each team's projected wins or points and playoff odds (percent) beside
    its record, where the level holds projections for that day."""
    if table.empty or projected.empty or "Team_ID" not in projected.columns:
        return table
    odds = projected[["Team_ID", projected_measure(projected)]].copy()
    if "PlayoffProb" in projected.columns and projected["PlayoffProb"].notna().any():
        odds["Playoff %"] = (projected["PlayoffProb"].astype(float) * 100).round(1)
    return table.merge(odds, on="Team_ID", how="left")


def _held(level: str, season: int | None) -> bool:
    """Whether the season has a table on its newest day (a day asked may be before its first)."""
    return not api.standings(level, season=season).frame.empty


def main() -> None:
    level = filters.current_level()
    season = filters.season_picker(api.season_ids(level, with_games=True))
    as_of = filters.date_picker("As of", key="asof",
                                help="The table at the end of this day; empty: the season so far.")
    page = api.standings(level, season=season, date=as_of)
    layout.note_page(page)
    table = page.frame
    if as_of is None and not table.empty and table["Date"].notna().any():  # "so far" moves daily
        link_pins.pin("asof", table["Date"].max())
    st.title(f"{level} standings" + (f", {layout.title_season(level, season)}" if season else ""))
    if table.empty:
        st.info(season_facts.why_empty(level, season, "standings", day=as_of,
                                  unfiltered=partial(_held, level, season) if as_of else None))
        layout.copy_link()
        return
    day = str(table["Date"].dropna().max()) if table["Date"].notna().any() else None
    try:
        projected = api.projections(level, season=season,
                                    date=dt.date.fromisoformat(day[:10]) if day else None).frame
        offered = True
    except NotOffered:  # a NatStat backend has standings but no projections: the table alone
        projected, offered = pd.DataFrame(), False
    table = links.with_link(with_projections(table, projected), "Team", "team", level, season)
    measure = "points" if "ProjPoints" in table.columns else "wins"
    if not offered:
        beside = "projected wins and playoff odds are not offered by this backend."
    elif "ProjW" in table.columns or "ProjPoints" in table.columns:
        beside = (f"projected {measure}" + (" and playoff odds" if "Playoff %" in table.columns else "")
                  + " are the projections' of the same day.")
    elif not projected.empty:  # columns of their own (football's points and places)
        beside = "the projections of the same day are on Projections."
    else:
        beside = "no projection for this day."  # a finished season, or none computed
    within = "within a division " if table.get("Division", pd.Series(dtype=str)).notna().any() else ""
    st.caption((f"As of the end of {day}. " if day else "")
               + f"Ranks {within}follow the league's tiebreakers; clinch marks are certain, " + beside)
    record, drawn = record_columns(SPORT_TABLES.get(api.level_sport(level)))
    formats = {**FORMATS, **drawn, **links.link_format("team")}
    if api.level_sport(level) == "soccer":
        formats["Clinched"] = st.column_config.TextColumn(help=FOOTBALL_CLINCHED)
        if table["Clinched"].notna().any():
            st.caption(FOOTBALL_CLINCHED)
    _tables(table, level, day, record, formats)
    if api.level_sport(level) == "soccer" and season is not None:
        cup_tables(level, season, as_of, record, formats)
    if api.level_sport(level) == "soccer" and season is not None:
        knockout_brackets(level, season)
    layout.copy_link()


def by_division(rows: pd.DataFrame) -> pd.DataFrame:
    """A league's rows division by division, in the order the API lists the divisions, each in
    rank order."""
    order = {name: n for n, name in enumerate(dict.fromkeys(rows["Division"]))}
    keyed = rows.assign(_division_order=rows["Division"].map(order))
    return keyed.sort_values(["_division_order", "DivRank"], kind="stable").drop(columns="_division_order")


def _tables(table: pd.DataFrame, level: str, day: str | None, record: tuple[str, ...],
            formats: dict[str, Any], division: str = "Division") -> None:
    """A table per league (a cup) in the order the API lists them (the leagues' printed order).
    A league of divisions is one table, its Division column first (``division``: a cup's groups
    are headed Group), division by division in the API's order, each in rank order, every row in
    view; a league without divisions (a football league's 18 or 20 clubs), in rank order, every
    row in view too.

    One grid a league, not one a division: each grid is a canvas the browser sets up apart, and
    MLB's six brought a fresh page's first table later than its two do (bench/dashboard.py
    --against the code before, the real store: 2172 -> 2015 ms and 2208 -> 2043 ms, pair ratios
    median 0.94 and 0.93; docs/benchmarks.md)."""
    for league, in_league in table.groupby(table["League"].fillna(""), sort=False, dropna=False):
        if league:
            st.subheader(md(league))
        columns = (*[c for c in record if c in in_league.columns], links.LINK_COLUMN)
        if in_league["Division"].notna().any():
            rows = by_division(in_league.assign(Division=in_league["Division"].fillna(NO_DIVISION)))
            show_table(rows, name=f"{level.lower()}_standings_{day}_{league}",
                       columns={"Division": division, **{c: c for c in columns}}, formats=formats,
                       height="content")
            continue
        st.markdown(f"**{NO_DIVISION}**")
        show_table(in_league.sort_values("DivRank"), name=f"{level.lower()}_standings_{day}_{league}_{NO_DIVISION}",
                   columns=columns, formats=formats, height="content")


def cup_tables(level: str, season: int, as_of: dt.date | None, record: tuple[str, ...],
               formats: dict[str, Any]) -> None:
    """Each European cup's groups (to 2023-24, one table a cup, its Group column first) or
    league phase (from 2024-25) that season, below the league tables: the cups count in no
    league's table, so each is its own (the standings of the cup's sublevel, its group games
    only)."""
    sublevels = api.glossary(level, "sublevels")
    if sublevels.empty or "LeagueType" not in sublevels.columns:
        return
    cups = sublevels[sublevels["LeagueType"] == CUP].sort_values("Name")
    for cup_id, name in zip(cups["ID"].astype(int), cups["Name"].astype(str), strict=True):
        table = api.standings(level, season=season, date=as_of, sublevel=int(cup_id)).frame
        if table.empty:
            continue
        day = str(table["Date"].dropna().max()) if table["Date"].notna().any() else None
        table = links.with_link(table, "Team", "team", level, season)
        _tables(table.assign(League=f"{name} {api.season_name(level, season)}"), level, day,
                record, formats, division="Group")


WORLD_CUP = "FIFA World Cup"
CUP = "Cup"  # LeagueType of a club competition played in rounds (the European cups)


def knockout_brackets(level: str, season: int) -> None:
    """The knock-out bracket of each cup the season held: the World Cup (a calendar year of
    internationals) and each European cup, whose two-legged ties are drawn as one box each
    with the aggregate (``components.bracket.ties``)."""
    games = api.all_games(level, season=season, phase="postseason").frame
    if games.empty or "LeagueName" not in games.columns:
        return
    cups = [WORLD_CUP] if (games["LeagueName"] == WORLD_CUP).any() else []
    if "LeagueType" in games.columns:
        cups += sorted(set(games.loc[games["LeagueType"] == CUP, "LeagueName"].dropna()))
    for n, name in enumerate(cups):
        played = games[games["LeagueName"] == name]
        label = f"{name} {season if name == WORLD_CUP else api.season_name(level, season)}"
        st.subheader(f"{label}: knock-out")
        chart_view.draw(bracket.figure(bracket.ties(played), f"{label}: knock-out bracket"),
                        key="bracket" if n == 0 else f"bracket_{n}")


try:
    main()
except ApiError as err:
    layout.show_error(err)
