"""Ratings: ELO rankings (or on a date), several teams' ELO over a season; RPI for college levels."""
from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import streamlit as st

from components import charts, filters, layout, links
from components.tables import show_table
from services import ApiError, api

DEFAULT_TEAMS = 3
RANK_COLUMNS = ("Rank", "Team", "ELO", "RPI", "WP", "OWP", "OOWP", "Wins", "Losses", "Date")
SERIES_COLUMNS = ("Date", "Team", "Opponent", "Result", "ELOBefore", "ELOAfter", "Change", "WinExp", "RPI", "WP",
                  "OWP", "OOWP", "Game_ID")
TABS_KEY, RANKINGS_TAB, SERIES_TAB = "tab", "Rankings", "Over the season"
FORMATS = {name: st.column_config.NumberColumn(format=fmt) for name, fmt in (
    ("ELO", "%.1f"), ("ELOBefore", "%.1f"), ("ELOAfter", "%.1f"), ("Change", "%+.1f"), ("WinExp", "percent"),
    ("RPI", "%.4f"), ("WP", "%.3f"), ("OWP", "%.3f"), ("OOWP", "%.3f"))}
Fetch = Callable[..., pd.DataFrame]


def _series(fetch: Fetch, level: str, season: int | None, chosen: list[str], ids: dict[str, int]) -> pd.DataFrame:
    parts = [fetch(level, season=season, team_id=ids[name]).assign(Team=name) for name in chosen if name in ids]
    parts = [p for p in parts if not p.empty]
    series = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()
    if not series.empty and "Date" not in series.columns and "GameDay" in series.columns:
        series = series.rename(columns={"GameDay": "Date"})
    return series


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
    top = [str(t) for t in current.get("Team", pd.Series(dtype=str)).head(DEFAULT_TEAMS)]
    chosen = filters.teams_picker(list(ids), top)
    st.title(f"{level} {kind} ratings" + (f", {season}" if season else ""))
    tabs = filters.tabs([RANKINGS_TAB, SERIES_TAB], key=TABS_KEY)
    if tabs[RANKINGS_TAB].open:
        with tabs[RANKINGS_TAB]:
            table = fetch(level, season=season, date=snapshot) if snapshot else current
            when = f"on {snapshot}" if snapshot else "latest"
            st.plotly_chart(charts.rating_bars(table, value=kind, title=f"{kind} rankings, {when}",
                                               highlight=chosen), key=f"{kind}_bars")
            show_table(links.with_link(table, "Team", "team", level), name=f"{kind.lower()}_rankings",
                       columns=(*RANK_COLUMNS, links.LINK_COLUMN), formats={**FORMATS, **links.link_format("team")},
                       empty=f"No {kind} ratings held for this season or date.")
    if tabs[SERIES_TAB].open:
        with tabs[SERIES_TAB]:
            series = _series(fetch, level, season, chosen, ids)
            value = "ELOAfter" if kind == "ELO" else "RPI"
            st.plotly_chart(charts.rating_series(series, value=value, title=f"{kind} over the season", axis=kind),
                            key=f"{kind}_series")
            show_table(links.with_link(series, "Game_ID", "game", level), name=f"{kind.lower()}_series",
                       columns=(*SERIES_COLUMNS, links.LINK_COLUMN), formats={**FORMATS, **links.link_format("game")},
                       hidden=("Game_ID",),
                       empty="Pick teams in the sidebar to see their series.")
    layout.copy_link()


try:
    main()
except ApiError as err:
    layout.show_error(err)
