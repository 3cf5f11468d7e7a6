"""Ratings: ELO rankings, ELO over a season for several teams, a date snapshot; RPI for college."""
from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import streamlit as st

from components import charts, filters, layout
from components.tables import show_table
from services import ApiError, api

RPI_LEVELS = frozenset({"MBB", "MB2", "MB3", "WBB", "CBB"})  # contract 1: levels rpi serves
DEFAULT_TEAMS = 3
RANK_COLUMNS = ("Rank", "Team", "ELO", "RPI", "WP", "OWP", "OOWP", "Wins", "Losses", "Date")


def _series(fetch: Callable[..., pd.DataFrame], level: str, season: int | None,
            chosen: list[str], ids: dict[str, int]) -> pd.DataFrame:
    parts = [fetch(level, season=season, team_id=ids[name]).assign(Team=name) for name in chosen if name in ids]
    return pd.concat([p for p in parts if not p.empty], ignore_index=True) if any(
        not p.empty for p in parts) else pd.DataFrame()


def _rating(kind: str, fetch: Callable[..., pd.DataFrame], level: str, season: int | None,
            snapshot: object, chosen: list[str], ids: dict[str, int]) -> None:
    value = kind.upper()
    table = fetch(level, season=season, date=snapshot)
    left, right = st.columns([2, 3])
    with left:
        st.subheader(f"{value} rankings" + (f" on {snapshot}" if snapshot else ""))
        show_table(table, name=f"{kind}_rankings", columns=RANK_COLUMNS, height=420,
                   empty=f"No {value} ratings held for this season or date.")
    with right:
        st.plotly_chart(charts.rating_bars(table, value=value, title=f"Top teams by {value}"), key=f"{kind}_bars")
    series = _series(fetch, level, season, chosen, ids)
    date_col = "Date" if "Date" in series.columns else "GameDay"
    if not series.empty and date_col != "Date":
        series = series.rename(columns={date_col: "Date"})
    after = "ELOAfter" if kind == "elo" else "RPI"
    st.plotly_chart(charts.rating_series(series, value=after, title=f"{value} over the season"),
                    key=f"{kind}_series")
    show_table(series, name=f"{kind}_series", empty="Pick teams in the sidebar to see their series.")


def main() -> None:
    level = filters.current_level()
    st.title(f"{level} ratings")
    season = filters.season_picker(api.seasons(level).get("ID", []))
    snapshot = filters.date_picker("Snapshot date", key="snapshot")
    ids = filters.name_to_id(api.teams(level, season))
    current = api.elo(level, season=season)
    default = [str(t) for t in current.get("Team", pd.Series(dtype=str)).head(DEFAULT_TEAMS)]
    chosen = filters.teams_picker(list(ids), default)
    tabs = ["ELO", "RPI"] if level in RPI_LEVELS else ["ELO"]
    kind = filters.choice("Rating", tabs, key="rating")
    if kind == "RPI":
        _rating("rpi", api.rpi, level, season, snapshot, chosen, ids)
    else:
        _rating("elo", api.elo, level, season, snapshot, chosen, ids)
    layout.copy_link()


try:
    main()
except ApiError as err:
    layout.show_error(err)
