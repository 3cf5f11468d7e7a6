"""Forecasts vs outcomes beside the comparison forecasters: ours against the models a source
published (``server.catalog.forecasters``: FiveThirtyEight's NBA Elo and RAPTOR, its NHL Elo,
Neil Paine's WNBA Elo, its football SPI as an expected score), per season, on the same games.

Every figure is computed here from the forecasts endpoint's records (``elo.HELOWinExp`` and
``comparison``), the same pages the rest of the page reads (the client keeps them), so what is
shown is what the API serves. Each forecaster is scored only on the games it published a chance
for, and ours on those same games. The section says in words where ours loses, credits each
source as its licence asks, and explains every column in its tooltip.
"""
from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from components import analysis, chart_view, page_sections
from components.charts import HOME_COLOR, MUTED, SERIES_COLORS, _finish, level_season_title
from components.tables import show_table
from server.catalog import forecasters
from server.catalog.forecasters import Forecaster
from services import api

OURS = "Ours (ELO)"
SCORES_KEY = "scores_table"
COLUMN_HELP = {
    "Season": "The season (the year it ends).",
    "Forecaster": "Whose pre-game home-win chances: ours (the service's ELO, elo.HELOWinExp) or a "
                  "model its source published (the forecasts endpoint's comparison object).",
    "Games": "Finished games of the season and phase chosen that this forecaster gave a chance "
             "for; ours is scored on the same games.",
    "Brier": "Mean squared difference between the home-win chance and the result (1 a home win, "
             "0 a loss, a draw half); lower is better. Always saying 50% scores 0.25.",
    "Log loss": "Mean of −ln(the chance given to what happened); lower is better. Punishes a "
                "confident miss far more than Brier does. Always saying 50% scores 0.693.",
    "Brier vs ours": "This forecaster's Brier score minus ours on the same games: below 0 it beat "
                     "ours, above 0 ours beat it.",
    "Source": "Where the chances come from, credited as its licence asks.",
}
SIMULATION_WINNER = ("**Simulation winner** (Lines by season): the team our game simulation "
                     "favours before the game (simulation.PredictionFavourite); Correct is the "
                     "share of games that team won.")


def _frame(level: str, seasons: list[int], team_id: int | None, phase: str | None,
           declared: tuple[Forecaster, ...]) -> pd.DataFrame:
    """The finished games of the seasons: ours, each forecaster's chance (by its name; NaN where
    it published none) and the result (a draw half)."""
    frames = []
    for season in seasons:
        games = analysis.finished(api.forecasts(level, season=season, team_id=team_id, phase=phase).frame)
        home = pd.to_numeric(analysis.column(games, "ScoreHome"), errors="coerce")
        vis = pd.to_numeric(analysis.column(games, "ScoreVis"), errors="coerce")
        out = pd.DataFrame({
            "Season": season,
            OURS: pd.to_numeric(analysis.column(games, "elo.HELOWinExp", "HELOWinExp"), errors="coerce"),
            "home_win": (home > vis).astype(float).where(home != vis, 0.5),
        }, index=games.index)
        for fc in declared:
            out[fc.name] = pd.to_numeric(analysis.column(games, f"comparison.{fc.field}", fc.field),
                                         errors="coerce")
            if fc.three_way:  # football: its expected score, as ours is (a draw half a win)
                draw = analysis.column(games, f"comparison.{fc.field}Draw", f"{fc.field}Draw")
                out[fc.name] += 0.5 * pd.to_numeric(draw, errors="coerce")
        frames.append(out)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def scores(data: pd.DataFrame, declared: tuple[Forecaster, ...]) -> pd.DataFrame:
    """Per season and forecaster that published chances: games, Brier, log loss, the Brier gap
    to ours on the same games, and the source; ours first in each season."""
    rows: list[dict[str, object]] = []
    for season, group in data.groupby("Season", sort=False):
        for fc in declared:
            both = group.dropna(subset=[OURS, fc.name])
            if both.empty:
                continue
            y = both["home_win"]
            ours, theirs = analysis.brier(both[OURS], y), analysis.brier(both[fc.name], y)
            if not any(r["Season"] == season and r["Forecaster"] == OURS and r["Games"] == len(both)
                       for r in rows):
                rows.append({"Season": season, "Forecaster": OURS, "Games": len(both), "Brier": ours,
                             "Log loss": analysis.log_loss(both[OURS], y), "Brier vs ours": 0.0,
                             "Source": "this service's ELO"})
            rows.append({"Season": season, "Forecaster": fc.name, "Games": len(both), "Brier": theirs,
                         "Log loss": analysis.log_loss(both[fc.name], y), "Brier vs ours": theirs - ours,
                         "Source": fc.credit.removeprefix("Source: ")})
    return pd.DataFrame(rows, columns=list(COLUMN_HELP))


def calibration_chart(data: pd.DataFrame, level: str, season: int, names: list[str]) -> go.Figure:
    """One season's calibration: predicted against observed home-win rate per 10% bin, ours and
    each forecaster beside it on the same games; the label gives the bin's games."""
    fig = go.Figure()
    fig.add_scatter(x=[0, 1], y=[0, 1], mode="lines", name="Perfect", line={"dash": "dot", "color": MUTED},
                    hoverinfo="skip")
    colors = {OURS: HOME_COLOR, **{n: SERIES_COLORS[1 + i % (len(SERIES_COLORS) - 1)]
                                   for i, n in enumerate(names[1:])}}
    shared = data.dropna(subset=names)
    for name in names:
        table = analysis.calibration(shared[name], shared["home_win"])
        fig.add_scatter(x=table["predicted"], y=table["observed"], mode="lines+markers", name=name,
                        marker={"color": colors[name]}, line={"color": colors[name]},
                        customdata=table["games"], hovertemplate=f"{name}<br>predicted %{{x:.1%}}<br>"
                        "observed %{y:.1%}<br>games %{customdata}<extra></extra>")
    fig.update_layout(xaxis={"title": "Predicted home-win chance", "range": [0, 1], "tickformat": ".0%"},
                      yaxis={"title": "Observed home-win rate", "range": [0, 1.05], "tickformat": ".0%"})
    return _finish(fig, level_season_title(level, [season], f"calibration, ours beside {', '.join(names[1:])}"), 420)


def show(level: str, seasons: list[int], team_id: int | None, phase: str | None) -> None:
    """The section, for a level a comparison forecaster covers; nothing for the others."""
    declared = forecasters.for_level(level)
    if not declared or not seasons:
        return
    st.subheader("Beside other forecasters")
    data = _frame(level, seasons, team_id, phase, declared)
    table = scores(data, declared) if not data.empty else pd.DataFrame(columns=list(COLUMN_HELP))
    if table.empty:
        st.info(f"No chances from {' or '.join(fc.name for fc in declared)} are held for these games: "
                "nothing to set beside ours. The results files cover only the seasons published; a store "
                "built before they were kept gets them by ingesting the same results files again.")
        st.caption(SIMULATION_WINNER)
        return
    for season, part in table.groupby("Season", sort=False):
        theirs = part[part["Forecaster"] != OURS]
        ours = part[part["Forecaster"] == OURS]
        said = forecasters.verdict(float(ours["Brier"].iloc[0]), dict(zip(theirs["Forecaster"], theirs["Brier"])))
        lost = forecasters.verdict(float(ours["Log loss"].iloc[0]),
                                   dict(zip(theirs["Forecaster"], theirs["Log loss"])), "log loss")
        st.markdown(f"**{api.season_name(level, season)}** ({int(ours['Games'].iloc[0]):,} games). {said} {lost}")
    box = page_sections.disclosure("The scores, as a table", key=SCORES_KEY, icon=":material/table:")
    if box.open:  # the sentences above say them; the charts below open the view (page_sections.disclosure)
        with box:
            named = table.assign(Season=[api.season_name(level, int(s)) for s in table["Season"]])
            show_table(named, name="comparison_scores", formats={
                name: (st.column_config.NumberColumn(name, help=text, format="%.4f")
                       if name in ("Brier", "Log loss", "Brier vs ours")
                       else st.column_config.Column(name, help=text)) for name, text in COLUMN_HELP.items()})
    for season in table["Season"].unique():
        names = [OURS, *[fc.name for fc in declared
                         if fc.name in set(table.loc[table["Season"] == season, "Forecaster"])]]
        chart_view.draw(calibration_chart(data[data["Season"] == season], level, int(season), names),
                        key=f"comparison_calibration_{season}")
    credits = sorted({fc.credit for fc in declared if fc.name in set(table["Forecaster"])})
    st.caption(" ".join(f"{fc.name}: {fc.about}." for fc in declared if fc.name in set(table["Forecaster"]))
               + " " + " ".join(c if c.endswith(".") else c + "." for c in credits))
    st.caption(SIMULATION_WINNER)
