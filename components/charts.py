"""Plotly chart builders: a DataFrame in, a ``go.Figure`` out; pages render them."""
from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import plotly.express as px
import plotly.graph_objects as go

HEIGHT = 380
VIS_COLOR, HOME_COLOR = "#EF553B", "#636EFA"


def _finish(fig: go.Figure, title: str) -> go.Figure:
    fig.update_layout(title=title, height=HEIGHT, margin={"l": 10, "r": 10, "t": 50, "b": 10},
                      legend={"orientation": "h", "y": -0.2})
    return fig


def empty_figure(title: str, message: str = "No data for these filters") -> go.Figure:
    fig = go.Figure()
    fig.add_annotation(text=message, showarrow=False, x=0.5, y=0.5, xref="paper", yref="paper")
    fig.update_xaxes(visible=False)
    fig.update_yaxes(visible=False)
    return _finish(fig, title)


def game_scores(games: pd.DataFrame) -> go.Figure:
    """Visitor and home score of each listed game, by date."""
    title = "Scores of the listed games"
    if games.empty or "GameDay" not in games.columns:
        return empty_figure(title)
    data = games.dropna(subset=["ScoreVis", "ScoreHome"]) if "ScoreHome" in games.columns else games.iloc[0:0]
    if data.empty:
        return empty_figure(title, "No finished games on this page")
    data = data.sort_values([c for c in ("GameDay", "ID") if c in data.columns])
    fig = go.Figure()
    label = data["Visitor"].astype(str) + " @ " + data["Home"].astype(str)
    # one category per game: several games share a date, and bars on one x would stack
    x = data["GameDay"].astype(str) + " #" + (data["ID"].astype(str) if "ID" in data.columns else "")
    fig.add_bar(x=x, y=data["ScoreHome"], name="Home", marker_color=HOME_COLOR, hovertext=label)
    fig.add_bar(x=x, y=data["ScoreVis"], name="Visitor", marker_color=VIS_COLOR, hovertext=label)
    fig.update_layout(barmode="group", xaxis={"title": "Game", "type": "category"}, yaxis_title="Score")
    return _finish(fig, title)


def in_game_scores(scores: pd.DataFrame, visitor: str, home: str) -> go.Figure:
    """The score of both sides over the game (the ``scores`` datapoints of a game detail)."""
    title = "Score over the game"
    if scores.empty or not {"ScoreVis", "ScoreHome"} <= set(scores.columns):
        return empty_figure(title, "No in-game datapoints for this game")
    data = scores.reset_index(drop=True)
    x = data["Sequence"] if "Sequence" in data.columns else data.index
    fig = go.Figure()
    fig.add_scatter(x=x, y=data["ScoreVis"], name=visitor, mode="lines", line_shape="hv", line_color=VIS_COLOR)
    fig.add_scatter(x=x, y=data["ScoreHome"], name=home, mode="lines", line_shape="hv", line_color=HOME_COLOR)
    fig.update_layout(xaxis_title="Sequence", yaxis_title="Score")
    return _finish(fig, title)


def score_difference(events: pd.DataFrame, visitor: str, home: str) -> go.Figure:
    """Home minus visitor score after each event, with both scores (play-by-play)."""
    title = "Score and difference over the game"
    if events.empty or not {"ScoreVis", "ScoreHome"} <= set(events.columns):
        return empty_figure(title, "No scores in this game's play-by-play")
    data = events.reset_index(drop=True)
    x = data["Sequence"] if "Sequence" in data.columns else data.index
    diff = data["ScoreHome"] - data["ScoreVis"]
    fig = go.Figure()
    fig.add_bar(x=x, y=diff, name=f"{home} − {visitor}", marker_color="#AB63FA", opacity=0.45)
    fig.add_scatter(x=x, y=data["ScoreVis"], name=visitor, line_shape="hv", line_color=VIS_COLOR)
    fig.add_scatter(x=x, y=data["ScoreHome"], name=home, line_shape="hv", line_color=HOME_COLOR)
    fig.update_layout(xaxis_title="Event", yaxis_title="Score")
    return _finish(fig, title)


def pitches_per_plate_appearance(pas: pd.DataFrame) -> go.Figure:
    title = "Pitches per plate appearance"
    if pas.empty:
        return empty_figure(title, "No pitches held for this game")
    fig = px.bar(pas, x="PA", y="Pitches", color=pas["Half"].astype(str),
                 hover_data=[c for c in ("Inning", "Batter", "Pitcher", "Sequence", "Count") if c in pas.columns])
    fig.update_layout(xaxis_title="Plate appearance", legend_title="Half")
    return _finish(fig, title)


def rating_series(series: pd.DataFrame, *, value: str, title: str) -> go.Figure:
    """One line per team over a season: ``Team``, ``Date`` and the ``value`` column."""
    if series.empty or value not in series.columns:
        return empty_figure(title)
    fig = px.line(series.sort_values("Date"), x="Date", y=value, color="Team", markers=True)
    return _finish(fig, title)


def rating_bars(table: pd.DataFrame, *, value: str, title: str, top: int = 25) -> go.Figure:
    if table.empty or value not in table.columns:
        return empty_figure(title)
    data = table.sort_values(value, ascending=False).head(top).iloc[::-1]
    values = pd.to_numeric(data[value], errors="coerce")
    if values.isna().all():
        return empty_figure(title)
    fig = go.Figure(go.Bar(x=values, y=data["Team"], orientation="h", marker_color=HOME_COLOR))
    spread = float(values.max() - values.min()) or 1.0
    # ratings sit far from zero (ELO near 1500): show the differences, not the offset
    fig.update_xaxes(title=value, range=[float(values.min()) - 0.1 * spread, float(values.max()) + 0.05 * spread])
    fig = _finish(fig, title)
    fig.update_layout(height=max(HEIGHT, 18 * len(data) + 80))
    return fig


def leaders(table: pd.DataFrame, *, stat: str, top: int = 20) -> go.Figure:
    title = f"Leaders: {stat}"
    if table.empty or "Value" not in table.columns:
        return empty_figure(title)
    data = table.head(top).iloc[::-1]
    names = data["Name"] if "Name" in data.columns else data.get("Team", data.index.astype(str))
    fig = go.Figure(go.Bar(x=pd.to_numeric(data["Value"], errors="coerce"), y=names.astype(str), orientation="h",
                           marker_color=HOME_COLOR))
    fig.update_layout(xaxis_title=stat)
    return _finish(fig, title)


def game_log(perf: pd.DataFrame, *, stat: str, title: str) -> go.Figure:
    if perf.empty or stat not in perf.columns or "GameDay" not in perf.columns:
        return empty_figure(title, "No game log for this selection")
    data = perf.sort_values("GameDay")
    fig = go.Figure(go.Bar(x=data["GameDay"], y=pd.to_numeric(data[stat], errors="coerce"), name=stat,
                           marker_color=HOME_COLOR))
    rolling = pd.to_numeric(data[stat], errors="coerce").rolling(5, min_periods=1).mean()
    fig.add_scatter(x=data["GameDay"], y=rolling, name="5-game mean", line_color=VIS_COLOR)
    fig.update_layout(xaxis_title="Date", yaxis_title=stat)
    return _finish(fig, title)


def win_loss(seasons: pd.DataFrame, title: str) -> go.Figure:
    if seasons.empty or not {"Season", "Wins", "Losses"} <= set(seasons.columns):
        return empty_figure(title)
    fig = go.Figure()
    x = seasons["Season"].astype(str)
    fig.add_bar(x=x, y=seasons["Wins"], name="Wins", marker_color=HOME_COLOR)
    fig.add_bar(x=x, y=seasons["Losses"], name="Losses", marker_color=VIS_COLOR)
    fig.update_layout(barmode="group", xaxis_title="Season")
    return _finish(fig, title)


def counts(table: pd.DataFrame, by: str, title: str, order: Sequence[str] | None = None) -> go.Figure:
    if table.empty or by not in table.columns:
        return empty_figure(title)
    data = table[by].fillna("—").astype(str).value_counts().rename_axis(by).reset_index(name="Count")
    fig = px.bar(data, x=by, y="Count", category_orders={by: list(order)} if order else None)
    return _finish(fig, title)
