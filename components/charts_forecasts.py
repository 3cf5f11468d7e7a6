"""Chart builders of the forecasts page: calibration, scores over time, ELO vs market, lines."""
from __future__ import annotations

import pandas as pd
import plotly.express as px
import plotly.graph_objects as go

from components.charts import HOME_COLOR, VIS_COLOR, _finish, empty_figure


def _diagonal(fig: go.Figure) -> None:
    fig.add_scatter(x=[0, 1], y=[0, 1], mode="lines", name="Perfect", line={"dash": "dot", "color": "grey"})


def calibration(table: pd.DataFrame) -> go.Figure:
    """Predicted vs observed home-win rate per bin; marker size and label give the games."""
    title = "Calibration: ELO probability vs observed home-win rate"
    if table.empty:
        return empty_figure(title, "No finished games with a forecast")
    fig = go.Figure()
    _diagonal(fig)
    size = 8 + 30 * table["games"] / max(1, int(table["games"].max()))
    fig.add_scatter(x=table["predicted"], y=table["observed"], mode="markers+text", name="ELO",
                    text=table["games"].astype(str), textposition="top center",
                    marker={"size": size, "color": HOME_COLOR}, hovertemplate="predicted %{x:.2f}<br>"
                    "observed %{y:.2f}<br>games %{text}<extra></extra>")
    fig.update_layout(xaxis={"title": "Predicted", "range": [0, 1]}, yaxis={"title": "Observed", "range": [0, 1]})
    return _finish(fig, title)


def scores_over_time(table: pd.DataFrame) -> go.Figure:
    title = "Brier score and log loss by month (lower is better)"
    if table.empty:
        return empty_figure(title, "No finished games with a forecast")
    fig = px.line(table, x="period", y="value", color="model", facet_row="metric", markers=True,
                  color_discrete_map={"ELO": HOME_COLOR, "Home-win rate": VIS_COLOR}, hover_data=["games"])
    fig.update_yaxes(matches=None, title="")
    fig.for_each_annotation(lambda a: a.update(text=a.text.split("=")[-1]))
    fig = _finish(fig, title)
    fig.update_layout(height=520)
    return fig


def elo_vs_market(frame: pd.DataFrame) -> go.Figure:
    title = "ELO home-win probability vs money-line implied probability"
    data = frame.dropna(subset=["p_elo", "p_market"]) if not frame.empty else frame
    if data.empty:
        return empty_figure(title, "No games with both an ELO forecast and a money line")
    fig = go.Figure()
    _diagonal(fig)
    outcome = data["home_win"].map({1.0: "Home won", 0.0: "Home lost"}).fillna("Tie")
    for label, color in (("Home won", HOME_COLOR), ("Home lost", VIS_COLOR), ("Tie", "grey")):
        part = data[outcome == label]
        if len(part):
            fig.add_scatter(x=part["p_market"], y=part["p_elo"], mode="markers", name=label,
                            marker={"color": color, "opacity": 0.6},
                            text=part["Visitor"].astype(str) + " @ " + part["Home"].astype(str))
    fig.update_layout(xaxis={"title": "Money line (margin removed)", "range": [0, 1]},
                      yaxis={"title": "ELO", "range": [0, 1]})
    return _finish(fig, title)


def correctness(table: pd.DataFrame) -> go.Figure:
    title = "Lines called correctly, by season"
    if table.empty:
        return empty_figure(title, "No money lines, spreads or totals held for these seasons")
    fig = px.bar(table, x="Season", y="Correct", color="Line", barmode="group", hover_data=["Games"],
                 text=table["Correct"].map("{:.0%}".format))
    fig.update_yaxes(tickformat=".0%", range=[0, 1])
    return _finish(fig, title)
