"""A baseball season's run environment as the reference sites print it: the run expectancy of
the 24 base-out states as a table (runners down, outs across) and as a heatmap, and the
season's constants the stat codes' formulas name (docs/metrics.md). Pure functions but ``show``.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from components import chart_view, page_sections
from components.plain import md
from components.tables import printed_as, show_table
from services import ApiError, api

BASES = ("___", "1__", "_2_", "12_", "__3", "1_3", "_23", "123")
RUNNERS = {"___": "Bases empty", "1__": "1st", "_2_": "2nd", "12_": "1st and 2nd", "__3": "3rd",
           "1_3": "1st and 3rd", "_23": "2nd and 3rd", "123": "Bases loaded"}
# the season's constants in the order FanGraphs' Guts prints them, with what each is
CONSTANTS = (
    ("lgwOBA", "League wOBA (its OBP without intentional walks)"),
    ("wOBAscale", "wOBA scale: run values to the OBP scale"),
    ("wBB", "wOBA weight: unintentional walk"), ("wHBP", "wOBA weight: hit by pitch"),
    ("w1B", "wOBA weight: single"), ("w2B", "wOBA weight: double"),
    ("w3B", "wOBA weight: triple"), ("wHR", "wOBA weight: home run"),
    ("RPA", "Runs per plate appearance"), ("mlbERA", "League ERA"),
    ("cFIP", "FIP constant (the league's FIP equals its ERA)"),
)


def matrix(states: pd.DataFrame) -> pd.DataFrame:
    """Runners down (bases empty to loaded), outs across: the runs expected to the end of the
    half inning, as the sites print the RE24 table."""
    if states.empty or not {"Bases", "Outs", "RunExpectancy"} <= set(states.columns):
        return pd.DataFrame()
    table = states.pivot(index="Bases", columns="Outs", values="RunExpectancy").reindex(BASES)
    table.columns = [f"{int(o)} out" if int(o) == 1 else f"{int(o)} outs" for o in table.columns]
    out = table.rename(index=RUNNERS).rename_axis("Runners").reset_index()
    # three decimals in every cell, as the sites print the table (0.320, not 0.32)
    return printed_as(out, {c: _three_decimals for c in table.columns})


def _three_decimals(value: object) -> str:
    return f"{float(value):.3f}"  # type: ignore[arg-type]


def heatmap(table: pd.DataFrame, title: str) -> go.Figure:
    """The table as a picture: darker where more runs are expected, each cell's value on it."""
    values = table.drop(columns="Runners")
    fig = go.Figure(go.Heatmap(
        z=values.to_numpy(float), x=list(values.columns), y=list(table["Runners"]),
        colorscale="Blues", colorbar={"title": "Runs"},
        text=values.map(lambda v: "" if pd.isna(v) else f"{v:.3f}").to_numpy(),
        texttemplate="%{text}", hovertemplate="%{y}, %{x}: %{z:.3f} runs<extra></extra>"))
    fig.update_layout(title=title, yaxis={"autorange": "reversed"}, height=420)
    return fig


def constants_table(constants: Mapping[str, Any]) -> pd.DataFrame:
    """The season's constants: name, value (three decimals), what it is."""
    table = pd.DataFrame([{"Constant": name, "Value": constants[name], "Meaning": meaning}
                          for name, meaning in CONSTANTS if name in constants])
    return printed_as(table, {"Value": _three_decimals})  # as FanGraphs' Guts prints them


def show(level: str, season: int | None) -> None:
    """The run environment of ``season``: the table, the heatmap and the constants."""
    try:
        env = api.run_environment(level, season)
    except ApiError as err:
        st.caption(f"Run environment: not available here ({md(err.message)}).")
        return
    table = matrix(env.states)
    if table.empty:
        st.info(f"No run environment for {md(level)} {season}: it is derived from plays with "
                "the base-out state by re-tabulation.")
        return
    st.caption(f"Runs expected from each base-out state to the end of the half inning, "
               f"{md(level)} {season}, from the season's own plate appearances; the constants "
               "below are those the stat codes' formulas name (docs/metrics.md).")
    show_table(table, name="run_expectancy")
    # the table first, its picture a click below (a view opens on grids or on charts)
    box = page_sections.chart_below("Chart: run expectancy as a heatmap")
    if box.open:
        chart_view.draw(heatmap(table, f"{level} {api.season_name(level, season)}: run expectancy by base-out state"),
                        key="run_expectancy_chart", where=box)
    st.markdown("**The season's constants**")
    show_table(constants_table(env.constants), name="run_constants")
    leagues = pd.DataFrame(env.constants.get("leagues") or [])
    if not leagues.empty:
        st.markdown("**Each league's averages** (the bases of OPS+, ERA+ and wRC+)")
        show_table(leagues.drop(columns=["ID"], errors="ignore"), name="run_leagues")
    parks = pd.DataFrame(env.constants.get("parks") or [])
    if not parks.empty:
        st.markdown("**Park factors** (1.000 neutral; above 1 a park that adds runs)")
        show_table(parks.drop(columns=["ID"], errors="ignore"), name="run_parks")
