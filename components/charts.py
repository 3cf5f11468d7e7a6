"""Plotly chart builders: a DataFrame in, a ``go.Figure`` out; pages render them.

Built from ``plotly.graph_objects`` rather than plotly express: express validates and groups far
more than these small charts need, and a page's first chart waits for its builder.
"""
from __future__ import annotations

import textwrap
import zlib
from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from components import plain
from components.player_stats import stat_text
from components.plays import wpa_text
from services import ApiError, api

HEIGHT = 380
LEADERS_DRAWN = 25  # bars of a leaders chart
VIS_COLOR, HOME_COLOR, DIFF_COLOR, MUTED = "#EF553B", "#1f4e9c", "#AB63FA", "#9aa5b1"
SERIES_COLORS = ("#1f4e9c", "#EF553B", "#00A087", "#F39B12", "#7E57C2", "#17BECF", "#8C564B", "#E377C2")


# A chart's toolbars (Plotly's and Streamlit's full-screen button) show in a band across its top
# when it is hovered or tapped; the title starts below that band, so that on a phone, where the
# title runs under the icons, they never cover it.
TOOLBAR_BAND = 34
TOP_MARGIN = TOOLBAR_BAND + 40
# Plotly draws a title on one line, however long: past the chart's edges on a phone (390 px
# leaves a chart about 350 px). A title breaks at spaces into lines of at most TITLE_LINE
# characters (16 px bold type: about 7 px a character), and the chart's top margin grows by a line's
# height for each line after the first, so the plot never runs into the title.
TITLE_LINE = 46
TITLE_LINE_HEIGHT = 22
# Plotly sets a title of several lines 12 px higher than one of a single line under the same pad:
# the pad grows by as much, so a wrapped title starts where a short one does, below the band.
WRAPPED_RISE = 12


def wrapped(title: str) -> str:
    """``title`` broken at spaces into lines (``<br>``) of at most ``TITLE_LINE`` characters."""
    return "<br>".join(textwrap.wrap(title, TITLE_LINE, break_long_words=False, break_on_hyphens=False)) or title


def title_layout(title: str) -> dict[str, object]:
    """A chart title below the toolbar band, wrapped to fit a phone (every chart's, one rule)."""
    text = wrapped(title)
    pad = TOOLBAR_BAND + (WRAPPED_RISE if "<br>" in text else 0)
    return {"text": text, "yref": "container", "y": 1, "yanchor": "top", "pad": {"t": pad}}


def top_margin(title: str) -> int:
    """The top margin that holds the toolbar band and every line of ``title``."""
    return TOP_MARGIN + TITLE_LINE_HEIGHT * wrapped(title).count("<br>")


def _season_names(level: str) -> dict[int, str]:
    """The level's season names (``api.season_names``); none where the API cannot say, so a
    chart of data already fetched still gets its title, its seasons by ID."""
    try:
        return api.season_names(level)
    except ApiError:
        return {}


def scope(level: str, seasons: Iterable[object] = ()) -> str:
    """The level and every season a chart draws, for its title, each season as the level names
    it (``api.season_name``): "MLB 2023", "NBA 2022-23"; a run of seasons "MLB 2021-2023", "NBA
    2020-21 to 2022-23"; seasons apart "NHL 2018-19, 2020-21 and 2022-23"; the level alone
    without one."""
    held = sorted({int(str(s)) for s in seasons if s is not None and str(s).strip().isdigit()})
    if not held:
        return level
    names = _season_names(level)
    name = {s: names.get(s, str(s)) for s in held}
    if len(held) == 1:
        return f"{level} {name[held[0]]}"
    if held == list(range(held[0], held[-1] + 1)):
        spans = any("-" in n for n in name.values())
        return f"{level} {name[held[0]]}{' to ' if spans else '-'}{name[held[-1]]}"
    return f"{level} {', '.join(name[s] for s in held[:-1])} and {name[held[-1]]}"


def level_season_title(level: str, seasons: Iterable[object], what: str) -> str:
    """A chart title that names its level and seasons first: "MLB 2023: ELO rankings on ..."."""
    return f"{scope(level, seasons)}: {what}"


def _finish(fig: go.Figure, title: str, height: int = HEIGHT) -> go.Figure:
    """Every chart's last step: its title, size and legend; every name in it shown as text
    (``plain.figure``: a team's name is never a link or a style)."""
    extra = top_margin(title) - TOP_MARGIN
    fig.update_layout(title=title_layout(title), height=height + TOOLBAR_BAND + extra,
                      margin={"l": 10, "r": 10, "t": top_margin(title), "b": 10},
                      legend={"orientation": "h", "y": -0.2})
    return plain.figure(fig)


def empty_figure(title: str, message: str = "No data for these filters") -> go.Figure:
    fig = go.Figure()
    fig.add_annotation(text=message, showarrow=False, x=0.5, y=0.5, xref="paper", yref="paper")
    fig.update_xaxes(visible=False)
    fig.update_yaxes(visible=False)
    return _finish(fig, title, 240)


def _numbers(series: pd.Series) -> pd.Series:
    return pd.to_numeric(series, errors="coerce")


def tie_word(sport: str) -> str:
    """What a level game is called: a draw in soccer, a tie elsewhere."""
    return "Draw" if sport == "soccer" else "Tie"


def results(games: pd.DataFrame, title: str, tie: str = "Tie") -> go.Figure:
    """Each finished game as a point: date against home score minus visitor score, coloured by
    the winner, the matchup and score on hover (home advantage and blowouts at a glance)."""
    need = {"GameDay", "ScoreVis", "ScoreHome"}
    if games.empty or not need <= set(games.columns):
        return empty_figure(title)
    data = games.assign(ScoreVis=_numbers(games["ScoreVis"]), ScoreHome=_numbers(games["ScoreHome"]))
    data = data.dropna(subset=["ScoreVis", "ScoreHome"])
    if data.empty:
        return empty_figure(title, "No finished games among these")
    margin = data["ScoreHome"] - data["ScoreVis"]
    label = (data.get("Visitor", pd.Series("Visitor", index=data.index)).astype(str) + " "
             + data["ScoreVis"].astype(int).astype(str) + " @ "
             + data.get("Home", pd.Series("Home", index=data.index)).astype(str) + " "
             + data["ScoreHome"].astype(int).astype(str))
    fig = go.Figure()
    for name, mask, color in (("Home won", margin > 0, HOME_COLOR), ("Visitor won", margin < 0, VIS_COLOR),
                              (tie, margin == 0, MUTED)):
        if mask.any():
            fig.add_scatter(x=data.loc[mask, "GameDay"], y=margin[mask], mode="markers", name=name,
                            marker={"color": color, "size": 9, "opacity": 0.8}, text=label[mask],
                            hovertemplate="%{x}<br>%{text}<extra></extra>")
    fig.add_hline(y=0, line_color=MUTED, line_width=1)
    fig.update_layout(xaxis_title="Date", yaxis_title="Home − visitor")
    return _finish(fig, title)


def team_margins(side: pd.DataFrame, team: str, *, scope: str) -> go.Figure:
    """A team's margin in each game from its own side (its score minus the opponent's), by
    date, coloured by result; opponent, score and venue on hover; ``scope`` the level and seasons
    drawn (``scope()``)."""
    title = f"{scope}: {team}, margin of each game"
    if side.empty:
        return empty_figure(title, "No finished games of this team among these")
    fig = go.Figure()
    for result, color in (("W", HOME_COLOR), ("L", VIS_COLOR)):
        part = side[side["Result"] == result]
        if len(part):
            fig.add_scatter(x=part["GameDay"], y=part["Margin"], mode="markers", name={"W": "Won", "L": "Lost"}[result],
                            marker={"color": color, "size": 9, "opacity": 0.8},
                            text=part["Where"] + " vs " + part["Opponent"] + ": " + part["For"].astype(str) + "-"
                            + part["Against"].astype(str), hovertemplate="%{x}<br>%{text}<extra></extra>")
    level = side[~side["Result"].isin(["W", "L"])]
    if len(level):
        fig.add_scatter(x=level["GameDay"], y=level["Margin"], mode="markers", name=str(level["Result"].iloc[0]),
                        marker={"color": MUTED, "size": 9}, text=level["Where"] + " vs " + level["Opponent"],
                        hovertemplate="%{x}<br>%{text}<extra></extra>")
    fig.add_hline(y=0, line_color=MUTED, line_width=1)
    fig.update_layout(xaxis_title="Date", yaxis_title=f"{team} − opponent")
    return _finish(fig, title)


def _period_axis(fig: go.Figure, data: pd.DataFrame, x: pd.Series, label: str) -> None:
    """Ticks at the first event of each period, labelled with the period (inning, quarter...)."""
    if "Period" in data.columns and data["Period"].notna().any():
        first = pd.DataFrame({"x": x.to_numpy(), "p": data["Period"].to_numpy()}).dropna().groupby("p")["x"].min()
        fig.update_xaxes(tickmode="array", tickvals=first.tolist(), ticktext=[str(int(p)) for p in first.index],
                         title=label)
    else:
        fig.update_xaxes(title="Event")


def in_game_scores(scores: pd.DataFrame, visitor: str, home: str, period_label: str = "Period", *,
                   scope: str) -> go.Figure:
    """The score of both sides over the game, from the detail's play-by-play or score datapoints;
    ``scope`` the game's level and season (``scope()``)."""
    return _score_chart(scores, visitor, home, period_label, f"{scope}: score over the game",
                        "No in-game datapoints for this game", difference=False)


def score_difference(events: pd.DataFrame, visitor: str, home: str, period_label: str = "Period", *,
                     scope: str) -> go.Figure:
    """Home minus visitor score after each event, with both scores (play-by-play); ``scope``
    the game's level and season."""
    return _score_chart(events, visitor, home, period_label, f"{scope}: score and difference over the game",
                        "No scores in this game's play-by-play", difference=True)


def _score_chart(scores: pd.DataFrame, visitor: str, home: str, period_label: str, title: str, empty: str,
                 *, difference: bool) -> go.Figure:
    """Both sides' scores as steps over the game's events (and, with ``difference``, home minus
    visitor as bars), the x axis ticked at each period's first event."""
    if scores.empty or not {"ScoreVis", "ScoreHome"} <= set(scores.columns):
        return empty_figure(title, empty)
    data = scores.reset_index(drop=True)
    x = data["Sequence"] if "Sequence" in data.columns else pd.Series(data.index + 1)
    fig = go.Figure()
    if difference:
        fig.add_bar(x=x, y=data["ScoreHome"] - data["ScoreVis"], name=f"{home} − {visitor}",
                    marker_color=DIFF_COLOR, opacity=0.45)
    fig.add_scatter(x=x, y=data["ScoreVis"], name=visitor, mode="lines", line_shape="hv", line_color=VIS_COLOR)
    fig.add_scatter(x=x, y=data["ScoreHome"], name=home, mode="lines", line_shape="hv", line_color=HOME_COLOR)
    fig.update_layout(yaxis_title="Score", hovermode="x unified", bargap=0)
    _period_axis(fig, data, x, period_label)
    return _finish(fig, title)


def pitches_per_plate_appearance(pas: pd.DataFrame, *, scope: str) -> go.Figure:
    """Pitches of each plate appearance, coloured by half inning; sequence and count on hover;
    ``scope`` the game's level and season."""
    title = f"{scope}: pitches per plate appearance"
    if pas.empty:
        return empty_figure(title, "No pitches held for this game")
    fig = go.Figure()
    hover = (pas["Inning"].astype(str) + " " + pas["Half"].astype(str) + " · " + pas["Batter"].astype(str)
             + " vs " + pas.get("Pitcher", pd.Series("", index=pas.index)).astype(str)
             + "<br>" + pas.get("Sequence", pd.Series("", index=pas.index)).astype(str)
             + " · count " + pas.get("Count", pd.Series("", index=pas.index)).astype(str))
    for half, color in (("top", VIS_COLOR), ("bottom", HOME_COLOR)):
        mask = pas["Half"].astype(str).str.lower() == half
        if mask.any():
            fig.add_bar(x=pas.loc[mask, "PA"], y=pas.loc[mask, "Pitches"], name=f"{half} (batting: "
                        f"{'visitor' if half == 'top' else 'home'})", marker_color=color, text=hover[mask],
                        hovertemplate="PA %{x}: %{y} pitches<br>%{text}<extra></extra>", textposition="none")
    fig.update_layout(xaxis_title="Plate appearance", yaxis_title="Pitches", bargap=0.15)
    return _finish(fig, title)


TEAM_PALETTE = (*SERIES_COLORS, "#BCBD22", "#2CA02C", "#D62728", "#9467BD", "#FF7F0E", "#1B9E77", "#666666",
                "#E7298A")


def team_color(team: str) -> str:
    """One colour per team name, the same on every page and in every session (a checksum of the
    name, not the order the teams were picked in)."""
    return TEAM_PALETTE[zlib.crc32(team.encode()) % len(TEAM_PALETTE)]


def team_colors(teams: Sequence[object]) -> dict[str, str]:
    """The colours of the teams one chart draws: each its own (``team_color``) unless a team
    before it by name took it, then the next free one of the palette; two teams of one chart never
    share a colour (the Aces and the Sun, the Rays and the Rangers hash to the same), and the
    same teams get the same colours whatever order they were picked in."""
    taken: dict[str, str] = {}
    for team in sorted({str(t) for t in teams}):
        start = TEAM_PALETTE.index(team_color(team))
        free = [TEAM_PALETTE[(start + k) % len(TEAM_PALETTE)] for k in range(len(TEAM_PALETTE))]
        used = set(taken.values())
        taken[team] = next((c for c in free if c not in used), team_color(team))
    return taken


def _hover_lines(part: pd.DataFrame) -> pd.Series:
    """Opponent, result and score of each rated game, as far as the series carries them."""
    text = pd.Series("", index=part.index)
    if "Opponent" in part.columns:
        text = "vs " + part["Opponent"].fillna("").astype(str)
    if "Result" in part.columns:
        text = text + " · " + part["Result"].fillna("").astype(str)
    if "Score" in part.columns:
        text = text + " " + part["Score"].fillna("").astype(str)
    return text


def rating_series(series: pd.DataFrame, *, value: str, title: str, axis: str | None = None,
                  season_ends: Sequence[object] = ()) -> go.Figure:
    """One line per team (its own colour everywhere) over one or more seasons: ``Team``, ``Date``,
    ``value``; opponent, result and score on hover; a break between seasons; a dotted line
    where each season's postseason starts (``season_ends``)."""
    if series.empty or value not in series.columns or "Date" not in series.columns:
        return empty_figure(title, "Pick teams in the sidebar to compare them")
    fig = go.Figure()
    decimals = ".1f" if value.startswith("ELO") else ".4f"
    colors = team_colors(series["Team"].unique().tolist())
    for team, part in series.sort_values("Date").groupby("Team", sort=False):
        if "Season" in part.columns and part["Season"].nunique() > 1:  # no line across an off-season
            gaps = part.groupby("Season").tail(1).assign(**{value: None})
            gaps["Date"] = pd.to_datetime(gaps["Date"]) + pd.Timedelta(days=1)
            part = pd.concat([part.assign(Date=pd.to_datetime(part["Date"])), gaps]).sort_values("Date")
        fig.add_scatter(x=part["Date"], y=_numbers(part[value]), name=str(team), mode="lines+markers",
                        marker={"size": 4}, line={"color": colors[str(team)]}, connectgaps=False,
                        text=_hover_lines(part), hovertemplate=f"%{{y:{decimals}}} %{{text}}")
    for end in season_ends:
        fig.add_vline(x=pd.Timestamp(str(end)).timestamp() * 1000, line_dash="dot", line_color=MUTED,
                      annotation_text="postseason", annotation_position="top left")
    fig.update_layout(xaxis_title="Date", yaxis_title=axis or value, hovermode="x unified")
    return _finish(fig, title, 420)


def careers(seasons: pd.DataFrame, *, stat: str, title: str) -> go.Figure:
    """One line per player (``Player``) of a stat by season (``Season``), each value as the stat
    reads on hover; a season a player missed is a gap, not a line across it."""
    if seasons.empty or not {"Player", "Season", stat} <= set(seasons.columns):
        return empty_figure(title, "No seasons of this stat for these players")
    fig = go.Figure()
    for index, (player, part) in enumerate(seasons.groupby("Player", sort=False)):
        by_season = part.assign(_v=_numbers(part[stat])).groupby("Season")["_v"].sum(min_count=1)
        years = range(int(by_season.index.min()), int(by_season.index.max()) + 1)
        values = by_season.reindex(years)
        fig.add_scatter(x=list(years), y=values, name=str(player), mode="lines+markers", connectgaps=False,
                        line={"color": SERIES_COLORS[index % len(SERIES_COLORS)]},
                        text=[stat_text(stat, v) for v in values],
                        hovertemplate=f"{player}, %{{x}}: %{{text}} {stat}<extra></extra>")
    fig.update_layout(xaxis={"title": "Season", "dtick": 1, "tickformat": "d"}, yaxis_title=stat,
                      hovermode="x unified")
    return _finish(fig, title, 420)


def rating_bars(table: pd.DataFrame, *, value: str, title: str, top: int = 30,
                highlight: Sequence[str] = ()) -> go.Figure:
    """The top teams by rating, picked teams highlighted; the axis starts near the lowest rating
    (ratings sit far from zero, ELO near 1500: the differences matter, not the offset)."""
    if table.empty or value not in table.columns or "Team" not in table.columns:
        return empty_figure(title)
    data = table.assign(_v=_numbers(table[value])).dropna(subset=["_v"])
    if data.empty:
        return empty_figure(title)
    data = data.sort_values("_v", ascending=False).head(top).iloc[::-1]
    colors = [VIS_COLOR if t in set(highlight) else HOME_COLOR for t in data["Team"].astype(str)]
    fig = go.Figure(go.Bar(x=data["_v"], y=data["Team"].astype(str), orientation="h", marker_color=colors,
                           hovertemplate="%{y}: %{x:.1f}<extra></extra>" if value == "ELO" else
                           "%{y}: %{x:.4f}<extra></extra>"))
    spread = float(data["_v"].max() - data["_v"].min()) or 1.0
    fig.update_xaxes(title=value, range=[float(data["_v"].min()) - 0.1 * spread,
                                         float(data["_v"].max()) + 0.05 * spread])
    fig.update_yaxes(dtick=1)
    return _finish(fig, title, max(HEIGHT, 20 * len(data) + 90))


def leaders(table: pd.DataFrame, *, stat: str, title: str, top: int = LEADERS_DRAWN) -> go.Figure:
    """The leading players or teams of a stat, best first, every name labelled, each value as
    the stat reads (54 home runs, a .389 average)."""
    if table.empty or "Value" not in table.columns:
        return empty_figure(title)
    data = table.head(top).iloc[::-1]
    names = data["Name"] if "Name" in data.columns else data.get("Team", pd.Series(data.index.astype(str)))
    label = names.astype(str) + (" (" + data["Team"].astype(str) + ")" if "Team" in data.columns
                                 and "Name" in data.columns else "")
    fig = go.Figure(go.Bar(x=_numbers(data["Value"]), y=label, orientation="h", marker_color=HOME_COLOR,
                           text=[stat_text(stat, v) for v in data["Value"]], textposition="outside",
                           cliponaxis=False))
    fig.update_layout(xaxis_title=stat)
    fig.update_yaxes(dtick=1)
    return _finish(fig, title, max(HEIGHT, 22 * len(data) + 90))


def game_log(perf: pd.DataFrame, *, stat: str, title: str) -> go.Figure:
    """A stat per game over the season (game 1, 2, ... so gaps between games do not stretch the
    line), with its 5-game rolling mean; date and opponent on hover."""
    if perf.empty or stat not in perf.columns or "GameDay" not in perf.columns:
        return empty_figure(title, "No game log for this selection")
    data = perf.sort_values([c for c in ("GameDay", "Game_ID") if c in perf.columns])
    values = _numbers(data[stat]).fillna(0)  # a stat the source left empty for a game counted none
    opponent = data.get("Opponent", pd.Series("", index=data.index)).astype(str)
    x = list(range(1, len(data) + 1))
    label = data["GameDay"].astype(str) + " vs " + opponent
    fig = go.Figure(go.Bar(x=x, y=values, name=stat, marker_color=HOME_COLOR, text=label, textposition="none",
                           hovertemplate="game %{x}, %{text}: %{y}<extra></extra>"))
    fig.add_scatter(x=x, y=values.rolling(5, min_periods=1).mean(), name="5-game mean", line_color=VIS_COLOR,
                    mode="lines", hoverinfo="skip")
    fig.update_layout(xaxis_title="Game of the season", yaxis_title=stat)
    return _finish(fig, title)


def win_loss(seasons: pd.DataFrame, title: str, bars_up_to: int = 15) -> go.Figure:
    """Wins and losses by season; past ``bars_up_to`` seasons (a franchise's century), the
    winning percentage as a line against .500, which stays readable."""
    if seasons.empty or not {"Season", "Wins", "Losses"} <= set(seasons.columns):
        return empty_figure(title)
    data = seasons.sort_values("Season")
    wins, losses = _numbers(data["Wins"]), _numbers(data["Losses"])
    pct = wins / (wins + losses)
    fig = go.Figure()
    if len(data) > bars_up_to:
        fig.add_scatter(x=data["Season"], y=pct, mode="lines+markers", name="Winning percentage",
                        marker={"size": 4}, line_color=HOME_COLOR, customdata=np.stack([wins, losses], axis=1),
                        hovertemplate="%{x}: %{y:.3f} (%{customdata[0]}-%{customdata[1]})<extra></extra>")
        fig.add_hline(y=0.5, line_dash="dot", line_color=MUTED)
        fig.update_layout(xaxis_title="Season", yaxis={"title": "Winning percentage", "tickformat": ".3f"})
        return _finish(fig, title)
    x = data["Season"].astype(str)
    fig.add_bar(x=x, y=wins, name="Wins", marker_color=HOME_COLOR, text=pct.round(3).astype(str),
                textposition="none", hovertemplate="%{x}: %{y} wins (pct %{text})<extra></extra>")
    fig.add_bar(x=x, y=losses, name="Losses", marker_color=VIS_COLOR)
    fig.update_layout(barmode="group", xaxis={"title": "Season", "type": "category"})
    return _finish(fig, title)


def counts(table: pd.DataFrame, by: str, title: str) -> go.Figure:
    """How many rows fall in each value of ``by``, most first."""
    if table.empty or by not in table.columns:
        return empty_figure(title)
    data = table[by].fillna("—").astype(str).value_counts()
    fig = go.Figure(go.Bar(x=data.index.tolist(), y=data.to_numpy(), marker_color=HOME_COLOR,
                           text=data.to_numpy(), textposition="outside", cliponaxis=False))
    fig.update_layout(xaxis={"title": by, "type": "category"}, yaxis_title="Count")
    return _finish(fig, title, 320)


def win_probability(line: pd.DataFrame, visitor: str, home: str, swings: pd.DataFrame | None = None,
                    *, scope: str, soccer: bool = False, selected: pd.DataFrame | None = None,
                    period_label: str = "Period") -> go.Figure:
    """A game's win probability line (the winprob endpoint's records, the pre-game forecast
    first): the home side's chance, shaded in the home colour above 50% ("favoured": the chance,
    not the score) and the visitor's below (soccer: home, draw and away as three lines); the
    play, the score and the WPA on hover; the largest swings (``swings``) marked and numbered,
    large enough to tap on a phone; a play a link names (``selected``) ringed; the x axis ticked
    at each period's first play (innings, as the score chart); ``scope`` the game's level and
    season."""
    title = f"{scope}: win probability"
    if line.empty or "WP_Home" not in line.columns:
        return empty_figure(title, "No win probability held for this game")
    data = line.reset_index(drop=True)
    x = _numbers(data["Sequence"])
    home_p = _numbers(data["WP_Home"])
    wpa = _numbers(data.get("WPA", pd.Series(np.nan, index=data.index)))
    text = (data["Explanation"].fillna("").astype(str) + "<br>" + data["ScoreVis"].astype(str) + "-"
            + data["ScoreHome"].astype(str) + (" · WPA " + wpa.map(wpa_text)).where(
                wpa.notna(), ""))
    fig = go.Figure()
    if soccer:
        draw = _numbers(data.get("WP_Draw", pd.Series(np.nan, index=data.index)))
        for name, values, color in ((home, home_p, HOME_COLOR), (tie_word("soccer"), draw, MUTED),
                                    (visitor, 1 - home_p - draw.fillna(0), VIS_COLOR)):
            fig.add_scatter(x=x, y=values, name=name, mode="lines", line={"color": color, "shape": "hv"},
                            text=text, hovertemplate="%{y:.1%} · %{text}<extra>" + name + "</extra>")
    else:
        for name, side, color in ((home, home_p.clip(lower=0.5), HOME_COLOR),
                                  (visitor, home_p.clip(upper=0.5), VIS_COLOR)):
            fig.add_scatter(x=x, y=np.full(len(x), 0.5), mode="lines", line={"width": 0, "shape": "hv"},
                            hoverinfo="skip", showlegend=False)
            fig.add_scatter(x=x, y=side, name=f"{name} favoured", mode="lines", fill="tonexty",
                            line={"width": 0, "shape": "hv"}, fillcolor=color, opacity=0.5, hoverinfo="skip")
        fig.add_scatter(x=x, y=home_p, name=f"{home} win chance", mode="lines", line={"color": "#222", "shape": "hv"},
                        text=text, hovertemplate="%{y:.1%} · %{text}<extra></extra>")
    if swings is not None and not swings.empty:
        sx = _numbers(swings["Sequence"])
        fig.add_scatter(x=sx, y=_numbers(swings["WP_Home"]), name="Largest swings", mode="markers+text",
                        marker={"size": 16, "color": "#F39B12", "line": {"color": "#222", "width": 1}},
                        text=[str(k) for k in range(1, len(swings) + 1)], textposition="top center",
                        hoverinfo="skip")
    if selected is not None and not selected.empty:
        fig.add_scatter(x=_numbers(selected["Sequence"]), y=_numbers(selected["WP_Home"]), name="Selected play",
                        mode="markers", marker={"size": 22, "color": "rgba(0,0,0,0)",
                                                "line": {"color": DIFF_COLOR, "width": 3}}, hoverinfo="skip")
    fig.update_layout(yaxis={"title": f"{home} win chance" if not soccer else "Chance", "range": [0, 1],
                             "tickformat": ".0%"}, hovermode="x")
    _period_axis(fig, data, x, period_label)
    return _finish(fig, title, 420)
