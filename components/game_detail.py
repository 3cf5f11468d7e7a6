"""A game's detail (contract 6, ``games`` with id): line score, plays, chart, officials, forecast."""
from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from components import analysis, charts
from components.tables import records_frame as _frame, show_table


def _forecast(detail: dict[str, Any]) -> dict[str, Any]:
    block = detail.get("forecast") or {}
    if isinstance(block, list):
        block = block[0] if block and isinstance(block[0], dict) else {}
    return block if isinstance(block, dict) else {}


def _percent(value: object) -> str:
    try:
        return f"{float(str(value)):.0%}"
    except ValueError:
        return "—"


def forecast_summary(detail: dict[str, Any]) -> None:
    fc = _forecast(detail)
    if not fc:
        st.caption("No forecast held for this game.")
        return
    elo, ml = fc.get("elo") or {}, fc.get("moneyline") or {}
    sim, spread, ou = fc.get("simulation") or {}, fc.get("spread") or {}, fc.get("overunder") or {}
    cols = st.columns(4)
    cols[0].metric("ELO home win", _percent(elo.get("HELOWinExp")), help="ELO win expectation before the game")
    cols[1].metric("Money line (V / H)", f"{ml.get('VisMoneyLine') or '—'} / {ml.get('HomeMoneyLine') or '—'}",
                   help=f"Correct: {ml.get('MoneyLineCorrect') or '—'}")
    cols[2].metric("Simulation", str(sim.get("Prediction") or "—"),
                   help=f"Favourite {sim.get('PredictionFavourite') or '—'}; correct {sim.get('PredictionCorrect') or '—'}")
    cols[3].metric("Spread / total", f"{spread.get('Spread') or '—'} / {ou.get('OverUnder') or '—'}",
                   help=f"Spread correct {spread.get('SpreadCorrect') or '—'}; total {ou.get('OverUnderResult') or '—'}")


def show_game(detail: dict[str, Any]) -> None:
    visitor, home = str(detail.get("Visitor") or "Visitor"), str(detail.get("Home") or "Home")
    status = detail.get("GameStatus") or "not started"
    st.subheader(f"{visitor} {detail.get('ScoreVis', '')} @ {home} {detail.get('ScoreHome', '')}")
    venue = detail.get("venue") if isinstance(detail.get("venue"), dict) else {}
    st.caption(f"{detail.get('GameDay', '')} · {status} · {venue.get('Name') or detail.get('VenueName') or ''}"
               f" {venue.get('CityState') or ''}")
    scores = _frame(detail.get("scores"))
    table = analysis.line_score_from_detail(detail.get("LineScore"), visitor, home)
    if table.empty:
        table = analysis.line_score(scores)
        if not table.empty:
            table["Team"] = [visitor, home]
    if not table.empty:
        st.markdown("**Line score**")
        show_table(table, name="line_score")
    st.plotly_chart(charts.in_game_scores(scores, visitor, home), key="game_scores_chart")
    forecast_summary(detail)
    left, right = st.columns([3, 2])
    with left:
        st.markdown("**Scoring plays**")
        show_table(_frame(detail.get("scoring")), name="scoring_plays", empty="No scoring plays held.")
    with right:
        st.markdown("**Officials**")
        show_table(_frame(detail.get("officials")), name="officials", empty="No officials held.")
        if venue:
            st.markdown("**Venue**")
            st.json(venue, expanded=False)
