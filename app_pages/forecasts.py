"""Forecasts vs outcomes: calibration, scores over time vs a baseline, ELO vs market, lines, upsets."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from components import analysis, charts_forecasts, filters, layout
from components.tables import show_table
from services import ApiError, api


def _load(level: str, seasons: list[int], team_id: int | None) -> pd.DataFrame:
    frames = []
    for season in seasons:
        page = api.forecasts(level, season=season, team_id=team_id)
        layout.note_sources(page.sources)
        frames.append(page.frame.assign(Season=season))
    raw = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    return analysis.forecast_frame(raw)


def main() -> None:
    level = filters.current_level()
    st.title(f"{level} forecasts vs outcomes")
    seasons = filters.seasons_picker(api.seasons(level).get("ID", []), key="fc_seasons")
    ids = filters.name_to_id(api.teams(level))
    team = filters.team_picker(list(ids))
    data = _load(level, seasons, ids.get(team or ""))
    if data.empty:
        st.info("No finished games with forecasts for these seasons: pick other seasons or a level with data.")
        layout.copy_link()
        return
    y = data["home_win"]
    cols = st.columns(4)
    cols[0].metric("Games scored", len(data))
    cols[1].metric("ELO Brier", f"{analysis.brier(data['p_elo'], y):.4f}")
    cols[2].metric("Baseline Brier", f"{analysis.brier(analysis.home_rate_baseline(y), y):.4f}",
                   help="Home-win rate of the games before each game")
    cols[3].metric("ELO log loss", f"{analysis.log_loss(data['p_elo'], y):.4f}")
    left, right = st.columns(2)
    left.plotly_chart(charts_forecasts.calibration(analysis.calibration(data["p_elo"], y)), key="calibration")
    right.plotly_chart(charts_forecasts.elo_vs_market(data), key="elo_vs_market")
    st.plotly_chart(charts_forecasts.scores_over_time(analysis.scores_over_time(data)), key="scores_over_time")
    correct = analysis.correctness_by_season(data)
    st.plotly_chart(charts_forecasts.correctness(correct), key="correctness")
    show_table(correct, name="line_correctness", empty="No lines held for these seasons.")
    st.subheader("Biggest upsets")
    show_table(analysis.upsets(data), name="upsets", empty="No upsets: the ELO favourite won every game.")
    layout.copy_link()


try:
    main()
except ApiError as err:
    layout.show_error(err)
