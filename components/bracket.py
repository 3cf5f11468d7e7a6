"""A knock-out bracket as a picture: a tournament's knock-out games, from its first knock-out
round to its final, each match a box joined to the match its winner played next.

The games list carries no round names, so the tree is read from the results: the final is the
tournament's last knock-out game; each finalist came from the latest earlier knock-out game it
won, and so back to the first round. A game outside that tree (the match for third place) is
left out. Built from ``plotly.graph_objects`` like every chart (``components.charts``).

A European cup's rounds are two-legged ties: ``ties`` turns its knock-out games into one row per
tie (the second leg's record, which carries the aggregate and the club through, with the first
leg's score beside it), so the same tree is read from the ties; the final is one match.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd
import plotly.graph_objects as go

from components import charts

# short, so that five fit a phone's width unturned
ROUND_NAMES = {1: "Final", 2: "SF", 3: "QF", 4: "R16", 5: "R32"}
ROW_HEIGHT = 44  # px per first-round match
NAME_CHARS = 14  # a name longer than this is cut on a phone-sized box
# A cup's qualifying rounds end in August, its knock-out rounds begin in February: a gap this
# long between two knock-out games separates the two, and the bracket is the part after it.
STAGE_GAP_DAYS = 60


def ties(games: pd.DataFrame) -> pd.DataFrame:
    """One cup's knock-out games as one row per tie, after its qualifying rounds: a two-legged
    tie is its second leg's row with the aggregate as the score, the club through as the
    winner and ``Legs`` (both legs' scores, each from its home side); a first leg is dropped;
    a one-match round (the final) stays as it is."""
    if games.empty or "TieWinner_ID" not in games.columns:
        return games
    frame = games.assign(_day=pd.to_datetime(games["GameDay"])).sort_values(["_day", "ID"]) \
        .reset_index(drop=True)
    gaps = frame["_day"].diff().dt.days.fillna(0)
    after = gaps.to_numpy() > STAGE_GAP_DAYS
    if after.any():
        frame = frame.iloc[int(after.nonzero()[0][-1]):].reset_index(drop=True)
    first_of: dict[int, int] = {}
    for i in frame.index[frame["TieWinner_ID"].notna()]:
        row = frame.iloc[int(i)]
        pair = {row["Home_ID"], row["Visitor_ID"]}
        earlier = frame[(frame["_day"] < row["_day"]) & frame["TieWinner_ID"].isna()
                        & frame["Home_ID"].isin(pair) & frame["Visitor_ID"].isin(pair)]
        if not earlier.empty:
            first_of[int(i)] = int(earlier.index[-1])
    out = frame.drop(index=list(first_of.values())).copy()
    out["Legs"] = None
    for i, j in first_of.items():
        leg1, leg2 = frame.iloc[j], frame.iloc[i]
        out.loc[i, "Legs"] = (f"{_score(leg1['ScoreHome'])}-{_score(leg1['ScoreVis'])}, "
                              f"{_score(leg2['ScoreHome'])}-{_score(leg2['ScoreVis'])}")
        out.loc[i, ["ScoreHome", "ScoreVis", "Winner_ID"]] = [
            leg2["AggregateHome"], leg2["AggregateVis"], leg2["TieWinner_ID"]]
    return out.drop(columns="_day")


def _score(value: object) -> str:
    return "" if pd.isna(value) else str(int(value))  # type: ignore[call-overload]


@dataclass
class Match:
    """One knock-out game and the two games its sides won to reach it (none in round one)."""
    row: pd.Series
    feeders: list[Match] = field(default_factory=list)
    x: int = 0  # rounds from the first (0) to the final
    y: float = 0.0  # position down the picture, first-round matches at 0, 1, 2, ...


def tree(games: pd.DataFrame) -> Match | None:
    """The bracket of ``games`` (one tournament's knock-out games, any order), or None when they
    hold no final with two sides that reached it by winning."""
    if games.empty:
        return None
    frame = games.assign(_day=pd.to_datetime(games["GameDay"])).sort_values(["_day", "ID"]) \
        .reset_index(drop=True)

    def build(i: int, depth: int) -> Match:
        match = Match(frame.iloc[i])
        before = frame.iloc[:i]
        for side in ("Home_ID", "Visitor_ID"):
            team = match.row[side]
            won = before[(before["Winner_ID"] == team)
                         & ((before["Home_ID"] == team) | (before["Visitor_ID"] == team))
                         & (before["_day"] < match.row["_day"])]
            if not won.empty and depth < len(ROUND_NAMES):
                match.feeders.append(build(int(won.index[-1]), depth + 1))
        return match

    final = build(len(frame) - 1, 1)
    if len(final.feeders) != 2:
        return None
    _place(final)
    return final


def _depth(match: Match) -> int:
    return 1 + max((_depth(f) for f in match.feeders), default=0)


def _place(final: Match) -> None:
    """x by round (the first round 0), y: leaves 0, 1, ... in bracket order, a match between
    the two it came from."""
    rounds = _depth(final)
    leaf = [0]

    def walk(m: Match, level: int) -> None:
        m.x = rounds - level
        for f in m.feeders:
            walk(f, level + 1)
        if m.feeders:
            m.y = sum(f.y for f in m.feeders) / len(m.feeders)
        else:
            m.y = float(leaf[0])
            leaf[0] += 1

    walk(final, 1)


def _all(m: Match) -> list[Match]:
    return [m, *(x for f in m.feeders for x in _all(f))]


def _short(name: object) -> str:
    text = str(name)
    return text if len(text) <= NAME_CHARS else text[:NAME_CHARS - 1] + "."


def _label(row: pd.Series) -> str:
    """Two lines, home then visitor, the winner marked ``>``; extra time and a shoot-out said
    (every name is shown as text, ``components.plain``: no bold)."""
    lines = []
    for side, score in (("Home", "ScoreHome"), ("Visitor", "ScoreVis")):
        text = f"{_short(row[side])} {'' if pd.isna(row[score]) else int(row[score])}"
        lines.append(f"> {text}" if row["Winner_ID"] == row[f"{side}_ID"] else f"  {text}")
    extra = {"PSO": " (pens)", "ET": " (a.e.t.)"}.get(str(row.get("Overtime") or ""), "")
    if _legs(row):
        extra = " agg." + extra
    return "<br>".join(lines) + extra


def _legs(row: pd.Series) -> str:
    """A tie's legs (``1-1, 7-0``), or '' for a one-match round."""
    legs = row.get("Legs")
    return "" if legs is None or pd.isna(legs) else str(legs)


def figure(games: pd.DataFrame, title: str) -> go.Figure:
    """The bracket of one tournament's knock-out games; an empty figure when none is whole."""
    final = tree(games)
    if final is None:
        return charts.empty_figure(title, "No complete knock-out bracket")
    matches = _all(final)
    fig = go.Figure()
    for m in matches:
        for f in m.feeders:  # an elbow from each feeder to the match its winner played
            mid = (f.x + m.x) / 2
            fig.add_trace(go.Scatter(x=[f.x, mid, mid, m.x], y=[f.y, f.y, m.y, m.y],
                                     mode="lines", line={"color": charts.MUTED, "width": 1},
                                     hoverinfo="skip", showlegend=False))
    fig.add_trace(go.Scatter(
        x=[m.x for m in matches], y=[m.y for m in matches], mode="markers+text",
        marker={"size": 6, "color": charts.HOME_COLOR}, text=[_label(m.row) for m in matches],
        textposition="middle right", textfont={"size": 10}, showlegend=False,
        hovertext=[f"{m.row['GameDay']}: {m.row['Home']} {_score(m.row['ScoreHome'])}-"
                   f"{_score(m.row['ScoreVis'])} {m.row['Visitor']}"
                   + (f" on aggregate (legs {_legs(m.row)})" if _legs(m.row) else "")
                   for m in matches],
        hoverinfo="text"))
    rounds = final.x + 1
    # room left of the first round's markers and right of the final's label
    fig.update_xaxes(range=[-0.3, rounds + 0.5], tickvals=list(range(rounds)),
                     ticktext=[ROUND_NAMES.get(rounds - i, "") for i in range(rounds)],
                     side="top", showgrid=False, zeroline=False, fixedrange=True)
    leaves = sum(1 for m in matches if not m.feeders)
    fig.update_yaxes(range=[leaves - 0.5, -0.7], visible=False, fixedrange=True)
    return charts._finish(fig, title, height=max(240, ROW_HEIGHT * leaves))
