"""Compare: two to four players (or teams) side by side: their season lines, a chosen stat over
their careers (players) or a season's ELO (teams) as one chart, and one link that reopens it."""
from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from components import chart_view, charts, compare_pickers, filters, layout, links, page_sections, people, player_stats
from components.tables import markdown_table, show_table
from server.catalog.parameters import SEARCH_MIN  # shorter text is searched as a surname
from services import ApiError, NotFound, api

KIND_KEY, PLAYERS, TEAMS = "compare", "players", "teams"
WHO_KEY = "who"  # the players compared, by ID (compare_pickers.id_picker)
SEARCH_KEY = "who_q"
LINES_KEY = "lines"  # the season lines, a click below the chart
FOUND_SHOWN = 20
MAX_SEASON_LINES = 6  # one request each, for the seasons a profile lists without their stats
# the stat a career chart opens on: the first of these the players recorded
PREFERRED_STATS = ("HR", "PTS", "G", "H", "K", "GP")
# season columns that are not stats
NOT_STATS = frozenset({"Player", "Season", "Team", "Position", "Jersey", "Games", "PostseasonGames", "Team_ID"})
FORMATS = {"ELOAfter": st.column_config.NumberColumn("ELO after", format="%.1f"),
           "ELOBefore": st.column_config.NumberColumn("ELO before", format="%.1f"),
           "ELO": st.column_config.NumberColumn("ELO at the end", format="%.1f"),
           "Peak ELO": st.column_config.NumberColumn(format="%.1f")}


def _missing_lines(level: str, player_id: int, seasons: list[dict[str, Any]]) -> dict[int, dict[str, str]]:
    """Stat lines of the seasons the profile lists without one (seasons held game by game)."""
    missing = [int(r["Season"]) for r in seasons if not r.get("Stats") and isinstance(r.get("Season"), int)
               and (r.get("Games") or 0) > 0][:MAX_SEASON_LINES]
    return {s: player_stats.season_line(api.player(level, player_id, s).get("stats")) for s in missing}


def _career(level: str, player_id: int) -> tuple[dict[str, Any], pd.DataFrame]:
    """A player's record (his name, seasons played, last team) and his seasons, one row each
    (his name in ``Player``)."""
    detail = api.player(level, player_id)
    name = str(detail.get("Name") or f"Player {player_id}")
    raw = [r for r in detail.get("seasons") or [] if isinstance(r, dict)]
    table = player_stats.seasons_table(raw, _missing_lines(level, player_id, raw))
    return {**detail, "ID": player_id, "Name": name}, table.assign(Player=name) if not table.empty else table


def _summary(level: str, careers: list[tuple[dict[str, Any], pd.DataFrame]], stat: str) -> None:
    """The players compared, one line each (who, seasons held, best season at the chart's
    stat), as Markdown above the chart: a shared link's first useful sight. Text draws once the
    page's script is in (about 1 s on a fresh page); the chart waits for plotly.js to be parsed
    too (components/chart_view.py), docs/dashboard.md "A fresh page"."""
    labels = people.person_labels(level, [record for record, _ in careers])
    rows = []
    for record, table in careers:
        values = pd.to_numeric(table[stat].astype(str).str.rstrip("%"), errors="coerce") \
            if stat in table.columns else pd.Series(dtype=float)
        best = "—"
        if values.notna().any() and "Season" in table.columns:
            top = int(values.fillna(float("-inf")).to_numpy().argmax())  # the first season at the most
            season = int(pd.to_numeric(table["Season"], errors="coerce").iloc[top])
            best = f"{table[stat].iloc[top]} ({api.season_name(level, season)})"
        held = table["Season"].nunique() if "Season" in table.columns else 0
        rows.append({"Player": labels.get(int(record["ID"]), str(record["Name"])), "Seasons held": held,
                     f"Best season, {stat}": best})
    markdown_table(pd.DataFrame(rows))


def _players(level: str) -> None:
    search = filters.text_filter("Find players", key=SEARCH_KEY, placeholder="a name, or part of one",
                                 help="Part of a name (5 letters or more), or a surname of any length; "
                                      "then pick the players below the box.")
    careers: dict[int, tuple[dict[str, Any], pd.DataFrame]] = {}
    for player_id in compare_pickers.picked_ids(WHO_KEY):
        try:
            careers[player_id] = _career(level, player_id)
        except NotFound:  # an ID of another level, or a mistyped link
            st.sidebar.warning(f"No player {player_id} in {level}: left out.", icon=":material/link_off:")
    records = [record for record, _ in careers.values()]
    if search:
        found = api.players(level, search=search if len(search) >= SEARCH_MIN else None,
                            name=None if len(search) >= SEARCH_MIN else search, size=FOUND_SHOWN).frame
        if {"ID", "Name"} <= set(found.columns):
            records += [{str(k): v for k, v in r.items()} for r in found.to_dict("records")
                        if int(r["ID"]) not in careers]
    chosen = compare_pickers.id_picker("Players", people.person_labels(level, records), key=WHO_KEY,
                                       placeholder="Find players above, then pick 2 to 4")
    for player_id in chosen:  # one found by the search just now
        if player_id not in careers:
            careers[player_id] = _career(level, player_id)
    picked = [(str(careers[i][0]["Name"]), careers[i][1]) for i in chosen]
    if len(picked) < 2:
        st.info("Pick two to four players in the sidebar: type part of a name in 'Find players', then choose.")
        return
    names = [name for name, _ in picked]
    seasons = pd.concat([table for _, table in picked if not table.empty], ignore_index=True) \
        if any(not t.empty for _, t in picked) else pd.DataFrame()
    recorded = player_stats.compare_order(
        [c for c in seasons.columns if c not in NOT_STATS
         and pd.to_numeric(seasons[c].astype(str).str.rstrip("%"), errors="coerce").notna().any()],
        api.level_sport(level))
    if recorded:  # a season's line leaves out what was 0; a season without a line stays blank
        lined = seasons[recorded].notna().any(axis=1)
        zero = {c: 0 if pd.api.types.is_numeric_dtype(seasons[c]) else "0" for c in recorded}  # Lahman's are numbers
        seasons.loc[lined, recorded] = seasons.loc[lined, recorded].fillna(zero)
    default = next((recorded.index(c) for c in PREFERRED_STATS if c in recorded), 0)
    stat = filters.choice("Stat over the careers", recorded or ["—"], key="career_stat", index=default,
                          drifts=True)  # a new season may add the stat the chart opens on
    _summary(level, [careers[i] for i in chosen], stat)
    held = sorted({int(s) for s in seasons.get("Season", pd.Series(dtype=int)).dropna()})
    span = range(held[0], held[-1] + 1) if held else range(0)  # the axis runs through every season between
    chart_view.draw(charts.careers(seasons, stat=stat, title=charts.level_season_title(level, span, f"{stat} by season, "
                                                                                       f"{', '.join(names)}")),
                    key="careers_chart")
    # the chart first, the lines one click below (a view opens on charts or on grids: page_sections.disclosure)
    box = page_sections.disclosure(f"Season lines ({len(seasons)} seasons), as a table", key=LINES_KEY,
                                   icon=":material/table:")
    if box.open:
        with box:
            show_table(seasons, name="compare_players", empty="No seasons held for these players.",
                       columns=("Player", "Season", "Team", "Games", *recorded))


def _teams(level: str) -> None:
    season = filters.season_picker(api.season_ids(level, with_games=True))
    ids = filters.name_to_id(api.teams(level, season))
    chosen = compare_pickers.compare_picker("Teams", list(ids), key="teams", placeholder="Pick 2 to 4 teams")
    if len(chosen) < 2:
        st.info("Pick two to four teams in the sidebar.")
        return
    series = pd.concat([api.elo(level, season=season, team_id=ids[name]).assign(Team=name) for name in chosen],
                       ignore_index=True)
    ends = api.season_ends(level)
    chart_view.draw(charts.rating_series(series, value="ELOAfter", title=charts.level_season_title(level, [season], "ELO over the season"), axis="ELO",
                                         season_ends=[ends[season]] if season in ends else []),
                    key="compare_elo")
    box = page_sections.disclosure(f"{season} season lines, as a table", key=LINES_KEY, icon=":material/table:")
    if not box.open:
        return
    table = pd.DataFrame([_team_line(level, season, name, ids[name], series) for name in chosen])
    with box:
        show_table(links.with_link(table, "Team", "team", level, season), name="compare_teams",
                   empty="No season lines held for these teams.", formats={**FORMATS, **links.link_format("team")},
                   columns=("Team", "Wins", "Losses", *(["Ties"] if table.get("Ties", pd.Series()).any() else []),
                            "Sublevel", "ELO", "Peak ELO", links.LINK_COLUMN))


def _team_line(level: str, season: int | None, name: str, team_id: int, series: pd.DataFrame) -> dict[str, Any]:
    """A team's record in the season, its division, and its ELO at the end and at its peak."""
    rows = [r for r in api.team(level, team_id).get("seasons") or [] if isinstance(r, dict) and r.get("Season") == season]
    elo = pd.to_numeric(series.loc[series["Team"] == name, "ELOAfter"], errors="coerce").dropna() \
        if "ELOAfter" in series.columns else pd.Series(dtype=float)
    return {"Team": name, **{k: (rows[0] if rows else {}).get(k) for k in ("Wins", "Losses", "Ties", "Sublevel")},
            "ELO": float(elo.iloc[-1]) if len(elo) else None, "Peak ELO": float(elo.max()) if len(elo) else None}


def main() -> None:
    level = filters.current_level()
    kind = filters.choice("Compare", [PLAYERS, TEAMS], key=KIND_KEY)
    st.title(f"{level}: compare {kind}")
    if kind == PLAYERS:
        _players(level)
    else:
        _teams(level)
    layout.copy_link()


try:
    main()
except ApiError as err:
    layout.show_error(err)
