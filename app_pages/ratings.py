"""Ratings: ELO rankings (or on a date), several teams' ELO over a season; RPI for college levels."""
from __future__ import annotations

from collections.abc import Sequence, Callable
from functools import partial

import pandas as pd
import streamlit as st

from components import chart_view, charts, filters, layout, link_pins, links, page_sections, season_facts
from server.catalog.football.internationals import NATIONAL_POOL
from components.tables import percent_column, show_table
from services import ApiError, api

DEFAULT_TEAMS = 3
RANK_COLUMNS = ("Rank", "Team", "LeagueName", "ELO", "RPI", "WP", "OWP", "OOWP", "Wins", "Losses", "Date")
ALL_LEAGUES = "All leagues"  # football: one pool of clubs, shown league by league (the API's League)
SERIES_COLUMNS = ("Date", "Team", "Opponent", "Result", "Score", "ELOBefore", "ELOAfter", "Change", "WinExp", "RPI", "WP",
                  "OWP", "OOWP", "Game_ID")
TABS_KEY, RANKINGS_TAB, SERIES_TAB = "tab", "Rankings", "Over the season"
TABLE_KEY = "series_table"  # the series' games, a click below its chart
FORMATS = {name: st.column_config.NumberColumn(format=fmt) for name, fmt in (
    ("ELO", "%.1f"), ("ELOBefore", "%.1f"), ("ELOAfter", "%.1f"), ("Change", "%+.1f"),
    ("RPI", "%.4f"), ("WP", "%.3f"), ("OWP", "%.3f"), ("OOWP", "%.3f"))} | {"WinExp": percent_column()}
Fetch = Callable[..., pd.DataFrame]


def _scores(level: str, season: int | None, team_id: int) -> dict[int, str]:
    """Game ID -> the score from the rated team's side ("5-3"), for the series' hover."""
    games = api.all_games(level, season=season, team_id=team_id, status="final").frame
    if games.empty or not {"ID", "Home_ID", "ScoreHome", "ScoreVis"} <= set(games.columns):
        return {}
    home = games["Home_ID"] == team_id
    ours = games["ScoreHome"].where(home, games["ScoreVis"])
    theirs = games["ScoreVis"].where(home, games["ScoreHome"])
    return {int(g): f"{int(a)}-{int(b)}" for g, a, b in zip(games["ID"], ours, theirs, strict=True)
            if pd.notna(a) and pd.notna(b)}


def _series(fetch: Fetch, level: str, seasons: Sequence[int | None], chosen: list[str],
            ids: dict[str, int]) -> pd.DataFrame:
    parts = []
    for season in seasons:
        for name in chosen:
            if name not in ids:
                continue
            part = fetch(level, season=season, team_id=ids[name]).assign(Team=name)
            if "Game_ID" in part.columns and not part.empty:
                part = part.assign(Score=part["Game_ID"].map(_scores(level, season, ids[name])))
            parts.append(part)
    parts = [p for p in parts if not p.empty]
    series = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()
    if not series.empty and "Date" not in series.columns and "GameDay" in series.columns:
        series = series.rename(columns={"GameDay": "Date"})
    return series


def _why_no_series(fetch: Fetch, level: str, drawn: Sequence[int | None], chosen: list[str], kind: str) -> str:
    """Why the chosen teams have no series in the seasons drawn: none chosen, or each season's
    own cause (the teams are not rated there while others are, or the season has no ratings)."""
    if not chosen:
        return "Pick teams in the sidebar to see their series."
    return " ".join(season_facts.why_empty(level, s, f"{kind} ratings", computed_by=season_facts.RETABULATED,
                                      filters=f"teams {', '.join(chosen)}",
                                      unfiltered=partial(_rated, fetch, level, s))
                    for s in drawn)


def _rated(fetch: Fetch, level: str, season: int | None) -> bool:
    return not fetch(level, season=season).empty


def _newest_day(ratings: pd.DataFrame) -> str | None:
    """The day the latest rankings stand on (their newest rating), or None without ratings."""
    days = ratings.get("Date", pd.Series(dtype=str)).dropna()
    return str(days.max()) if len(days) else None


def _league_picker(ratings: pd.DataFrame) -> str | None:
    """The league whose clubs the rankings show, or the national teams' pool, where the ratings
    name leagues (football: the API's ``League`` and ``Pool``); None for every club."""
    if "LeagueName" not in ratings.columns:
        return None
    leagues = sorted(str(n) for n in ratings["LeagueName"].dropna().unique())
    if len(leagues) < 2:
        return None
    nations = [NATIONAL_POOL] if NATIONAL_POOL in set(ratings.get("Pool", ())) else []
    picked = filters.choice("League", [ALL_LEAGUES, *leagues, *nations], key="league",
                            help="Every club is rated in one pool across the leagues (with the "
                                 "clubs met only in the European cups), national teams in a "
                                 "pool of their own; pick one league's clubs or the national "
                                 "teams.")
    return None if picked == ALL_LEAGUES else picked


def _in_pool(table: pd.DataFrame, league: str | None) -> pd.DataFrame:
    """The rankings of the picked league or pool: every club for all leagues (the national teams
    are ranked apart, ``Rank`` from 1 in each pool, and shown on their own)."""
    if "Pool" not in table.columns:
        return table
    if league == NATIONAL_POOL:
        return table[table["Pool"] == NATIONAL_POOL]
    clubs = table[table["Pool"] != NATIONAL_POOL]
    return clubs[clubs["LeagueName"] == league] if league else clubs


def main() -> None:
    level = filters.current_level()
    season = filters.season_picker(api.season_ids(level, with_games=True))
    snapshot = filters.date_picker("Snapshot date", key="snapshot",
                                   help="Rankings as they stood after this day's games; empty: the latest.")
    ids = filters.name_to_id(api.teams(level, season))
    kinds = ["ELO", "RPI"] if api.level_serves(level, "rpi") else ["ELO"]
    kind = filters.choice("Rating", kinds, key="rating") if len(kinds) > 1 else "ELO"
    fetch: Fetch = api.rpi if kind == "RPI" else api.elo
    current = fetch(level, season=season)
    day = str(snapshot) if snapshot else _newest_day(current)
    link_pins.pin("snapshot", day)  # "the latest" moves with every game day
    top = [str(t) for t in current.get("Team", pd.Series(dtype=str)).head(DEFAULT_TEAMS)]
    chosen = filters.teams_picker(list(ids), top)
    league = _league_picker(current)
    st.title(f"{level} {kind} ratings" + (f", {layout.title_season(level, season)}" if season else ""))
    tabs = page_sections.tabs([RANKINGS_TAB, SERIES_TAB], key=TABS_KEY)
    if tabs[RANKINGS_TAB].open:
        with tabs[RANKINGS_TAB]:
            table = fetch(level, season=season, date=snapshot) if snapshot else current
            table = _in_pool(table, league)
            if table.empty:  # why, in words true to the cause: nothing to draw
                st.info(season_facts.why_empty(level, season, f"{kind} ratings", day=snapshot, computed_by=season_facts.RETABULATED,
                                          unfiltered=(lambda: not current.empty) if snapshot else None))
            else:
                # the table first, its chart one click below (a view opens on grids or on charts: page_sections.disclosure)
                show_table(links.with_link(table, "Team", "team", level, season), name=f"{kind.lower()}_rankings",
                           columns=(*RANK_COLUMNS, links.LINK_COLUMN), formats={**FORMATS, **links.link_format("team")})
                box = page_sections.chart_below(f"Chart: {kind} rankings")
                if box.open:
                    when = f"on {day}" if day else "latest"  # the same words whether the day was picked or pinned
                    chart_view.draw(charts.rating_bars(table, value=kind, highlight=chosen,
                                                       title=charts.level_season_title(level, [season], f"{league + ': ' if league else ''}{kind} rankings {when}")),
                                    key=f"{kind}_bars", where=box)
    if tabs[SERIES_TAB].open:
        with tabs[SERIES_TAB]:
            held = api.season_ids(level, with_games=True)
            shown = filters.seasons_picker(held, key="rating_seasons", default=[season] if season else [],
                                           label="Seasons on the chart")
            drawn = sorted(shown) if shown else [season]
            series = _series(fetch, level, drawn, chosen, ids)
            if series.empty:
                st.info(_why_no_series(fetch, level, drawn, chosen, kind))
            else:
                value = "ELOAfter" if kind == "ELO" else "RPI"
                ends = api.season_ends(level)
                over = "the season" if len(drawn) == 1 else "the seasons"
                chart_view.draw(charts.rating_series(series, value=value, axis=kind,
                                                     title=charts.level_season_title(level, drawn, f"{kind} over {over}"),
                                                     season_ends=[ends[s] for s in shown if s in ends]),
                                key=f"{kind}_series")
                box = page_sections.disclosure(f"{kind} game by game, as a table ({len(series):,} rows)", key=TABLE_KEY,
                                               icon=":material/table:")
                if box.open:
                    with box:
                        show_table(links.with_link(series, "Game_ID", "game", level), name=f"{kind.lower()}_series",
                                   columns=(*SERIES_COLUMNS, links.LINK_COLUMN),
                                   formats={**FORMATS, **links.link_format("game")}, hidden=("Game_ID",))
    layout.copy_link()


try:
    main()
except ApiError as err:
    layout.show_error(err)
