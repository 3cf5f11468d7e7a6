"""Season projections on screen: the table's records and ranges, odds over the season, and what
one game changed in both teams' playoff odds.

The numbers are the projections endpoint's (a Monte Carlo over the remaining schedule, computed
by the service); this module only words and draws them.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from components import plain
from components.charts import MUTED, TOOLBAR_BAND, TOP_MARGIN, empty_figure, team_colors, title_layout, top_margin
from components.team_view import record_text
from services.errors import NotOffered

# football's places by final league position (declared per league and season by the service), top to bottom
PLACE_ODDS = ("ChampionsLeagueProb", "EuropeProb", "PromotionProb", "PromotionPlayoffProb", "RelegationPlayoffProb",
              "RelegationProb")
ODDS = ("PlayoffProb", "ByeProb", "TitleProb", *PLACE_ODDS)
ODDS_LABELS = {"PlayoffProb": "Playoff", "ByeProb": "Bye", "TitleProb": "Title", "ChampionsLeagueProb": "Champions L.",
               "EuropeProb": "Europe", "PromotionProb": "Promotion", "PromotionPlayoffProb": "Promotion PO",
               "RelegationPlayoffProb": "Relegation PO", "RelegationProb": "Relegation"}

PERCENT_COLUMNS = {c: f"{label} %" for c, label in ODDS_LABELS.items()}
ODDS_HELP = {"PlayoffProb": "Probability of making the playoff", "TitleProb": "Probability of the title (soccer: "
             "first in the league)", "ByeProb": "Probability of a first-round bye (NBA: a place without the play-in)",
             "ChampionsLeagueProb": "Probability of a Champions League place by league position (the top four in "
             "most big leagues; qualifying rounds included)",
             "EuropeProb": "Probability of any European place (Champions, Europa or Conference League) by league "
             "position",
             "PromotionProb": "Probability of direct promotion",
             "PromotionPlayoffProb": "Probability of a place in the promotion play-offs",
             "RelegationPlayoffProb": "Probability of a place in the relegation play-off (Italy's Serie B: play-out)",
             "RelegationProb": "Probability of direct relegation"}


def _whole(value: object) -> str:
    number = pd.to_numeric(pd.Series([value]), errors="coerce").iloc[0]
    return "" if pd.isna(number) else f"{number:.0f}"


def _record(wins: object, losses: object, ties: object, with_ties: bool, draws: bool = False) -> str:
    parts = [_whole(wins), _whole(losses)] + ([_whole(ties)] if with_ties or draws else [])
    if not all(parts):
        return ""
    return record_text(parts[0], parts[1], parts[2] if len(parts) > 2 else None, draws=draws)


def has_ties(table: pd.DataFrame) -> bool:
    """Whether the level's records carry a third number (draws, overtime losses)."""
    return "T" in table.columns and bool(pd.to_numeric(table["T"], errors="coerce").fillna(0).gt(0).any())


def is_league_table(table: pd.DataFrame) -> bool:
    """Soccer's projections (the only ones with a projected final position): a league table,
    its records W-D-L (hockey's projections count points too, beside wins and a playoff)."""
    return "ProjRank" in table.columns and bool(table["ProjRank"].notna().any())


def odds_held(table: pd.DataFrame) -> list[str]:
    """The probabilities the level's format gives (no bye column where the format has none)."""
    return [c for c in ODDS if c in table.columns and table[c].notna().any()]


def likeliest(table: pd.DataFrame, n: int) -> list[str]:
    """The ``n`` teams most likely to make the playoff (or, without one, with the most projected
    points or wins): the lines a fresh page follows."""
    if table.empty:
        return []
    by = next(c for c in ("PlayoffProb", "ProjPoints", "ProjW") if c in table.columns and table[c].notna().any())
    return [str(t) for t in table.sort_values(by, ascending=False, kind="stable")["Team"].head(n)]


def table_view(table: pd.DataFrame) -> pd.DataFrame:
    """The projections as an analyst reads them: ``Record`` so far (W-L, W-L-T, soccer's W-D-L), ``Projected``
    final record (rounded means), its 10-90 ``Range`` of wins and the odds in percent
    (``PERCENT_COLUMNS``); soccer ranked by points."""
    if table.empty:
        return table
    ties = has_ties(table)
    draws = is_league_table(table)  # soccer: W-D-L
    out = table.copy()
    out["Record"] = [_record(w, lo, t, ties, draws) for w, lo, t in
                     zip(out["W"], out["L"], out.get("T", pd.Series(0, index=out.index)), strict=True)]
    out["Projected"] = [_record(w, lo, t, ties, draws) for w, lo, t in
                        zip(out["ProjW"], out["ProjL"], out.get("ProjT", pd.Series(0, index=out.index)), strict=True)]
    out["Range"] = [f"{_whole(lo)}-{_whole(hi)}" if _whole(lo) and _whole(hi) else ""
                    for lo, hi in zip(out["ProjW10"], out["ProjW90"], strict=True)]
    for column, percent in PERCENT_COLUMNS.items():  # shown and downloaded as 81.7, not 0.8165
        if column in out.columns:
            out[percent] = (pd.to_numeric(out[column], errors="coerce") * 100).round(1)
    if draws:  # a league table ranks by points
        out = out.sort_values("ProjPoints", ascending=False, kind="stable")
    return out


# an odds bar's width in pixels: its bar and "100.0%" beside it, no wider, so that at 1440 px the
# last odds column (Title %) is in view beside the record, not past the table's right edge
ODDS_WIDTH = 76


def odds_columns(held: list[str]) -> dict[str, Any]:
    """The percent columns of ``held`` probabilities as bars from 0 to 100, one decimal each."""
    return {PERCENT_COLUMNS[c]: st.column_config.ProgressColumn(min_value=0.0, max_value=100.0, format="%.1f%%",
                                                                help=ODDS_HELP[c], width=ODDS_WIDTH)
            for c in held}


def odds_series(series: pd.DataFrame, *, value: str, title: str, as_of: object = None) -> go.Figure:
    """One line per team of ``value`` (a probability) over the season, in the team's own colour;
    a dotted line on the day the table is shown as of."""
    if series.empty or value not in series.columns or "Date" not in series.columns:
        return empty_figure(title, "Pick teams in the sidebar to follow their odds")
    fig = go.Figure()
    colors = team_colors(series["Team"].unique().tolist())
    for team, part in series.sort_values("Date").groupby("Team", sort=False):
        fig.add_scatter(x=pd.to_datetime(part["Date"]), y=pd.to_numeric(part[value], errors="coerce"),
                        name=str(team), mode="lines", line={"color": colors[str(team)], "shape": "hv"},
                        hovertemplate=f"{team}: %{{y:.1%}}<extra></extra>")
    if as_of:
        fig.add_vline(x=pd.Timestamp(str(as_of)).timestamp() * 1000, line_dash="dot", line_color=MUTED,
                      annotation_text="as of", annotation_position="top left")
    fig.update_yaxes(range=[0, 1.02], tickformat=".0%", title=f"{ODDS_LABELS.get(value, value)} odds")
    fig.update_layout(title=title_layout(title), xaxis_title="Date", hovermode="x unified",
                      height=420 + TOOLBAR_BAND + top_margin(title) - TOP_MARGIN,
                      margin={"t": top_margin(title), "l": 10, "r": 10, "b": 10})
    return plain.figure(fig)


def odds_change(series: pd.DataFrame, game_day: str) -> tuple[float | None, float | None]:
    """A team's playoff probability before a game's day (its newest snapshot before it) and at the
    end of that day; ``None`` where the season's snapshots do not reach."""
    if series.empty or "PlayoffProb" not in series.columns:
        return None, None
    days = series.assign(Date=series["Date"].astype(str)).sort_values("Date")
    before = days[days["Date"] < game_day]["PlayoffProb"].dropna()
    after = days[days["Date"] == game_day]["PlayoffProb"].dropna()
    return (float(before.iloc[-1]) if len(before) else None, float(after.iloc[-1]) if len(after) else None)


def show_odds_change(detail: dict[str, Any], series_of: Callable[[int], pd.DataFrame]) -> None:
    """What the game's day changed in both teams' playoff odds (``series_of``: a team ID -> its
    projections over the season). Nothing to say for a playoff game or a season not projected."""
    day = str(detail.get("GameDay") or "")
    sides = [(detail.get("Visitor"), detail.get("Visitor_ID")), (detail.get("Home"), detail.get("Home_ID"))]
    if detail.get("Playoff") or not day or any(i is None for _, i in sides):
        return
    lines = []
    for name, team_id in sides:
        try:
            series = series_of(int(str(team_id)))
        except NotOffered:  # a NatStat backend: no projections to compare
            return
        before, after = odds_change(series, day)
        if before is not None and after is not None:
            lines.append(f"- **{plain.md(name)}:** {before:.1%} → {after:.1%} ({(after - before) * 100:+.1f} points)")
    if lines:
        st.markdown("**Playoff odds**")
        st.markdown("\n".join(lines))
        st.caption("Each team's projected playoff probability the day before and at the end of the game's day "
                   "(other games of the day count too).")
