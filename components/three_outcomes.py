"""Football's home, draw and away chances on the Forecasts vs outcomes page: ranked probability
score and log loss per league and season, ours beside FiveThirtyEight's SPI on the same matches,
and each outcome's calibration.

Every figure is the ``outcomes`` endpoint's (the service scores them, as ``evaluate --level FC``
prints them); the page only lays the records side by side.
"""
from __future__ import annotations

import pandas as pd
import streamlit as st

from components import chart_view, charts_forecasts, filters
from components.charts import level_season_title
from components.tables import show_table
from server.catalog import forecasters
from services import api

LEAGUE_KEY = "fc_league"
ALL = "All"
COLUMN_HELP = {
    "Season": "The season (the year it ends).",
    "League": "The league; All is every league together.",
    "Matches": "Final league-round matches scored: where SPI published chances, the matches both "
               "gave chances for; otherwise every one with ours.",
    "RPS": "Ranked probability score of the home, draw and away chances (lower is better): half "
           "the summed squared gaps between the cumulative chances and what happened.",
    "Log loss": "Mean of −ln(the chance given to what happened); lower is better.",
    "Brier": "Three-outcome Brier score, 0 to 2; lower is better.",
}
MEASURES = {"RPS": "RPS", "LogLoss": "Log loss", "Brier": "Brier"}


def _records(level: str, seasons: list[int]) -> pd.DataFrame:
    frames = [api.outcomes(level, season) for season in seasons]
    frames = [f for f in frames if not f.empty]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def score_table(records: pd.DataFrame) -> pd.DataFrame:
    """One row per season and league, each measure ours then each other forecaster's, side by
    side (the records as served, laid out)."""
    wide = records.pivot_table(index=["Season", "League", "Count"], columns="ForecasterName",
                               values=list(MEASURES), aggfunc="first", sort=False)
    names = list(dict.fromkeys(records["ForecasterName"]))
    out = wide.reset_index()[["Season", "League", "Count"]]
    out.columns = ["Season", "League", "Matches"]
    for code, label in MEASURES.items():
        for name in names:
            if (code, name) in wide.columns:
                out[f"{label} {name}"] = wide[(code, name)].to_numpy()
    out["_all"] = out["League"] == ALL
    out = out.sort_values(["Season", "_all", "League"], ascending=[False, True, True])
    return out.drop(columns="_all").reset_index(drop=True)


def _bins(records: pd.DataFrame) -> pd.DataFrame:
    rows = [{"Forecaster": r["ForecasterName"], **b} for r in records.to_dict("records")
            for b in r["calibration"]]
    return pd.DataFrame(rows)


def _verdict(row: pd.Series, names: list[str]) -> str:
    """Who is ahead on the season's RPS over every league, in words."""
    if len(names) < 2:
        return ""
    ours, theirs = row[f"RPS {names[0]}"], row[f"RPS {names[1]}"]
    ahead = names[0] if ours < theirs else names[1]
    return (f"{int(row['Season']) - 1}-{int(row['Season']) % 100:02d}: RPS {names[0]} "
            f"{ours:.4f}, {names[1]} {theirs:.4f} over {int(row['Matches']):,} matches; "
            f"{'ours' if ahead == names[0] else names[1]} ahead.")


def show(level: str, seasons: list[int]) -> None:
    """The tab: scores per league and season, then the calibration of one league's matches."""
    records = _records(level, seasons)
    if records.empty:
        st.info("No finished league matches with home, draw and away chances in these seasons.")
        return
    names = list(dict.fromkeys(records["ForecasterName"]))
    table = score_table(records)
    for _, row in table[table["League"] == ALL].iterrows():
        line = _verdict(row, names)
        if line:
            st.markdown(line)
    leagues = [ALL, *sorted(set(records["League"]) - {ALL})]
    league = filters.choice("League", leagues, key=LEAGUE_KEY, sidebar=False,
                            help="Whose matches the calibration chart pools")
    newest = max(int(s) for s in records["Season"])
    picked = records[(records["League"] == league) & (records["Season"] == newest)]
    chart_view.draw(charts_forecasts.three_outcome_calibration(
        _bins(picked), title=level_season_title(level, [newest], f"{league}: home, draw and away "
                                                           "chances against results")),
        key="three_outcome_calibration")
    beside = f"; dotted: {names[1]} on the same matches" if len(names) > 1 else ""
    st.caption(f"Solid lines: ours (ELO){beside}. A forecast is well calibrated where its line "
               "follows the diagonal.")
    help_ = {c: st.column_config.Column(help=next((h for k, h in COLUMN_HELP.items()
                                                   if c.startswith(k)), None))
             for c in table.columns}
    show_table(table, name="three_outcome_scores", formats=help_)
    for fc in forecasters.for_level(level):
        if fc.three_way and fc.name in names:
            st.caption(f"{fc.name}: {fc.credit}")
