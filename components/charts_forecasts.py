"""Chart builders of the forecasts page: calibration, scores over time, ELO vs market, lines.
Each takes the ``scope`` its title names first (``charts.scope``: the level and seasons drawn)."""
from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from components.charts import HOME_COLOR, MUTED, SERIES_COLORS, VIS_COLOR, _finish, empty_figure

MODEL_COLORS = {"ELO": HOME_COLOR, "Home-win rate": VIS_COLOR}


def _diagonal(fig: go.Figure) -> None:
    fig.add_scatter(x=[0, 1], y=[0, 1], mode="lines", name="Perfect", line={"dash": "dot", "color": "grey"},
                    hoverinfo="skip")


def calibration(table: pd.DataFrame, *, scope: str) -> go.Figure:
    """Predicted vs observed home-win rate per bin; marker size and label give the games."""
    title = f"{scope}: calibration of ELO vs observed home wins"
    if table.empty:
        return empty_figure(title, "No finished games with a forecast")
    fig = go.Figure()
    _diagonal(fig)
    size = 8 + 30 * table["games"] / max(1, int(table["games"].max()))
    fig.add_scatter(x=table["predicted"], y=table["observed"], mode="markers+text", name="ELO",
                    text=table["games"].astype(str), textposition="top center",
                    marker={"size": size, "color": HOME_COLOR}, hovertemplate="predicted %{x:.1%}<br>"
                    "observed %{y:.1%}<br>games %{text}<extra></extra>",
                    error_y={"type": "data", "symmetric": False, "array": table["high"] - table["observed"],
                             "arrayminus": table["observed"] - table["low"], "color": MUTED, "thickness": 1.5})
    # a draw counts half only where the games shown hold draws: elsewhere the words would puzzle
    draws = "draws" in table.columns and bool(pd.to_numeric(table["draws"], errors="coerce").fillna(0).gt(0).any())
    fig.update_layout(xaxis={"title": "Predicted (ELO)", "range": [0, 1], "tickformat": ".0%"},
                      yaxis={"title": "Observed home-win rate" + (" (a draw counts half)" if draws else ""),
                             "range": [0, 1.05], "tickformat": ".0%"})
    return _finish(fig, title, 420)


def scores_over_time(table: pd.DataFrame, *, scope: str) -> go.Figure:
    """Brier score (top) and log loss (bottom) per month, ELO against the baseline."""
    title = f"{scope}: Brier score and log loss by month (lower is better)"
    if table.empty:
        return empty_figure(title, "No finished games with a forecast")
    fig = make_subplots(rows=3, cols=1, shared_xaxes=True, vertical_spacing=0.07, row_heights=[0.4, 0.4, 0.2],
                        subplot_titles=("Brier score", "Log loss", "Games per month"))
    for row, metric in ((1, "Brier"), (2, "Log loss")):
        for model, color in MODEL_COLORS.items():
            part = table[(table["metric"] == metric) & (table["model"] == model)]
            fig.add_scatter(x=part["period"], y=part["value"], name=model, mode="lines+markers",
                            line_color=color, legendgroup=model, showlegend=row == 1, row=row, col=1,
                            customdata=part["games"], hovertemplate="%{x}: %{y:.4f} (%{customdata} games)")
    counts = table[(table["metric"] == "Brier") & (table["model"] == "ELO")]
    fig.add_bar(x=counts["period"], y=counts["games"], name="Games", marker_color=MUTED, showlegend=False,
                row=3, col=1, hovertemplate="%{x}: %{y} games<extra></extra>")
    fig.update_xaxes(type="category", row=3, col=1, title="Month (… marks the off-season)")
    fig.update_xaxes(type="category", row=2, col=1)
    fig.update_xaxes(type="category", row=1, col=1)
    return _finish(fig, title, 620)


def elo_vs_market(frame: pd.DataFrame, tie: str = "Tie", *, scope: str) -> go.Figure:
    """Each game: the money line's implied home-win probability against ELO's, by outcome."""
    title = f"{scope}: ELO home-win probability vs money-line implied probability"
    data = frame.dropna(subset=["p_elo", "p_market"]) if not frame.empty else frame
    if data.empty:
        return empty_figure(title, "No games with both an ELO forecast and a money line")
    fig = go.Figure()
    _diagonal(fig)
    outcome = data["home_win"].map({1.0: "Home won", 0.0: "Home lost"}).fillna(tie)
    for label, color in (("Home won", HOME_COLOR), ("Home lost", VIS_COLOR), (tie, MUTED)):
        part = data[outcome == label]
        if len(part):
            fig.add_scatter(x=part["p_market"], y=part["p_elo"], mode="markers", name=label,
                            marker={"color": color, "opacity": 0.6, "size": 6},
                            text=part["Visitor"].astype(str) + " @ " + part["Home"].astype(str),
                            hovertemplate="%{text}<br>market %{x:.1%} · ELO %{y:.1%}<extra></extra>")
    fig.update_layout(xaxis={"title": "Money line (margin removed)", "range": [0, 1], "tickformat": ".0%"},
                      yaxis={"title": "ELO", "range": [0, 1], "tickformat": ".0%"})
    return _finish(fig, title, 420)


def correctness(table: pd.DataFrame, *, scope: str) -> go.Figure:
    """Share of correct calls per season and line, 50 % marked (a coin's score)."""
    title = f"{scope}: lines called correctly, by season"
    if table.empty:
        return empty_figure(title, "No money lines, spreads, totals or simulations held for these seasons")
    fig = go.Figure()
    for i, (line, part) in enumerate(table.groupby("Line", sort=False)):
        fig.add_bar(x=part["Season"].astype(str), y=part["Correct"], name=str(line),
                    marker_color=SERIES_COLORS[i % len(SERIES_COLORS)],
                    text=part["Correct"].map("{:.1%}".format), textposition="outside", customdata=part["Games"],
                    hovertemplate="%{x}: %{y:.1%} of %{customdata} games<extra></extra>")
    fig.add_hline(y=0.5, line_dash="dot", line_color=MUTED)
    fig.update_layout(barmode="group", xaxis={"title": "Season", "type": "category"}, showlegend=True)
    fig.update_yaxes(tickformat=".0%", range=[0, 1.05], title="Correct")
    return _finish(fig, title)


OUTCOME_COLORS = {"home": HOME_COLOR, "draw": MUTED, "away": VIS_COLOR}
FORECASTER_DASH = ("solid", "dot", "dash")  # ours first, then each comparison forecaster


def three_outcome_calibration(bins: pd.DataFrame, *, title: str) -> go.Figure:
    """Each outcome's chance given against how often it happened, per tenth (the outcomes
    endpoint's ``calibration`` lists: columns Forecaster, Outcome, Predicted, Observed, Count);
    colour the outcome, line style the forecaster (ours solid)."""
    shown = bins.dropna(subset=["Predicted", "Observed"]) if not bins.empty else bins
    if shown.empty:
        return empty_figure(title, "No finished league matches with three chances")
    fig = go.Figure()
    _diagonal(fig)
    for i, who in enumerate(dict.fromkeys(shown["Forecaster"])):
        for outcome, color in OUTCOME_COLORS.items():
            part = shown[(shown["Forecaster"] == who) & (shown["Outcome"] == outcome)]
            if part.empty:
                continue
            fig.add_scatter(x=part["Predicted"], y=part["Observed"], mode="lines+markers",
                            name=f"{who}: {outcome}", customdata=part["Count"],
                            line={"color": color, "dash": FORECASTER_DASH[i % len(FORECASTER_DASH)]},
                            marker={"color": color},
                            hovertemplate=f"{who}, {outcome}<br>predicted %{{x:.1%}}<br>observed "
                                          "%{y:.1%}<br>matches %{customdata:,}<extra></extra>")
    fig.update_layout(xaxis={"title": "Chance given", "range": [0, 1], "tickformat": ".0%"},
                      yaxis={"title": "How often it happened", "range": [0, 1.05],
                             "tickformat": ".0%"})
    return _finish(fig, title, 460)
