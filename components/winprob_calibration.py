"""In-game calibration on the Forecasts vs outcomes page: the win probability line after each play
against the observed home-win rate by tenth, with its Brier score and log loss beside the
pre-game forecast's over the same games (the ``calibration`` endpoint, stored by re-tabulation).
"""
from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from components import chart_view, filters
from components.charts import HOME_COLOR, MUTED, _finish, empty_figure, level_season_title
from services import api
from services.errors import NotOffered

INGAME, PREGAME = "ingame", "pregame"  # the endpoint's ``Forecast`` values
NAMES = {INGAME: "In-game (after each play)", PREGAME: "Pre-game (ELO)"}
TITLE = "in-game win probability calibration (after each play)"


def chart(table: pd.DataFrame, title: str) -> go.Figure:
    """Predicted against observed home-win rate per bin, the in-game line's and the pre-game
    forecast's; marker size gives the bin's count."""
    shown = table.dropna(subset=["Predicted", "Observed"]) if not table.empty else table
    if shown.empty:
        return empty_figure(title, "No final games with a win probability line")
    fig = go.Figure()
    fig.add_scatter(x=[0, 1], y=[0, 1], mode="lines", name="Perfect",
                    line={"dash": "dot", "color": "grey"}, hoverinfo="skip")
    for forecast, color in ((INGAME, HOME_COLOR), (PREGAME, MUTED)):
        part = shown[shown["Forecast"] == forecast]
        what = "plays" if forecast == INGAME else "games"
        size = 8 + 30 * part["Count"] / max(1, int(part["Count"].max())) if len(part) else 8
        fig.add_scatter(x=part["Predicted"], y=part["Observed"], mode="markers+lines",
                        name=NAMES[forecast], customdata=part["Count"],
                        marker={"size": size, "color": color}, line={"color": color, "width": 1},
                        hovertemplate=f"predicted %{{x:.1%}}<br>observed %{{y:.1%}}<br>"
                                      f"%{{customdata:,}} {what}<extra></extra>")
    fig.update_layout(xaxis={"title": "Predicted home-win chance", "range": [0, 1],
                             "tickformat": ".0%"},
                      yaxis={"title": "Observed home-win rate (a draw counts half)",
                             "range": [0, 1.05], "tickformat": ".0%"})
    return _finish(fig, title, 420)


def _scores(table: pd.DataFrame, forecast: str) -> pd.Series | None:
    if table.empty:
        return None
    part = table[table["Forecast"] == forecast]
    return None if part.empty else part.iloc[0]


def show(level: str, seasons: Sequence[int], phase: str | None) -> None:
    """The section: a season of those picked (the newest by default), its chart and the two
    forecasts' Brier scores and log losses."""
    st.subheader("In-game win probability")
    if not api.level_serves(level, "playbyplay"):
        st.caption(f"{level} has no play-by-play: no in-game win probability to score.")
        return
    if not seasons:
        return
    choices = [str(s) for s in sorted(seasons, reverse=True)]
    season = int(filters.choice("Season scored in-game", choices, key="wp_season", sidebar=False))
    try:
        table = api.calibration(level, season, phase)
    except NotOffered:
        st.caption("In-game calibration: not offered by this backend (a NatStat backend has none).")
        return
    ingame, pregame = _scores(table, INGAME), _scores(table, PREGAME)
    if ingame is None or pregame is None:
        st.info(f"No final {level} games of {season} with a win probability line (results "
                "files carry no play-by-play).")
        return
    cols = st.columns(4)
    cols[0].metric("In-game Brier", f"{ingame['scores.Brier']:.4f}",
                   help=f"Over {int(ingame['scores.Count']):,} plays: the chance after each "
                        "play but a game's last")
    cols[1].metric("Pre-game Brier", f"{pregame['scores.Brier']:.4f}",
                   help=f"Over the same {int(pregame['scores.Count']):,} games' ELO forecasts")
    cols[2].metric("In-game log loss", f"{ingame['scores.LogLoss']:.4f}")
    cols[3].metric("Pre-game log loss", f"{pregame['scores.LogLoss']:.4f}")
    chart_view.draw(chart(table, level_season_title(level, [season], TITLE)), key="winprob_calibration")
    st.caption("The line as served, learnt from every season held (this one included), so these "
               "figures are in-sample; `python -m server evaluate --winprob` scores it on a "
               "season it never saw. The in-game score falls as games go on and the outcome "
               "nears; all teams, whatever the team filter.")
