"""A game's detail (docs/api/reference.md, ``games`` with id): line score, plays, chart, officials, forecast."""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pandas as pd
import streamlit as st

from components import analysis, box_score, chart_view, charts, column_help, page_sections, phases, plays, projections
from components.plain import md
from components.tables import markdown_table, pick_columns, records_frame as _frame, show_table
from services.api import BoxScore
from services.errors import NotOffered

CHARTS_KEY = "charts"  # a game's charts, a click below its box score (the Games list has its own chart box)
SWINGS_KEY = "swings"  # the win probability's largest swings, listed a click below its chart
PERIOD_LABELS = {"baseball": "Inning", "basketball": "Period", "hockey": "Period", "soccer": "Half"}


def team_names(detail: dict[str, Any]) -> tuple[str, str]:
    """(visitor, home) names of a game detail, "Visitor" and "Home" when it lacks them."""
    return str(detail.get("Visitor") or "Visitor"), str(detail.get("Home") or "Home")


def game_scope(level: str, detail: dict[str, Any]) -> str:
    """The level and season a game's charts name in their titles ("MLB 2023")."""
    return charts.scope(level, [detail.get("Season")])


def _forecast(detail: dict[str, Any]) -> dict[str, Any]:
    block = detail.get("forecast") or {}
    if isinstance(block, list):
        block = block[0] if block and isinstance(block[0], dict) else {}
    return block if isinstance(block, dict) else {}


def _percent(value: object) -> str:
    try:
        return f"{float(str(value)):.1%}"  # as every table prints a chance
    except ValueError:
        return "—"


def _text(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.1f}"
    return "—" if value is None or value == "" else md(value)


def _cell(value: object) -> str:
    """A line-score cell: runs as whole numbers; a half inning not played (the home side leading
    after the top of the ninth) reads "x"."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "x"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _called(flag: object) -> str:
    return {"Y": " ✓", "N": " ✗"}.get(str(flag), "")


def forecast_summary(detail: dict[str, Any]) -> None:
    """The forecast objects (docs/api/reference.md) in one line each: what was expected, and whether it was right."""
    fc = _forecast(detail)
    if not fc:
        st.caption("No forecast held for this game.")
        return
    visitor, home = (md(name) for name in team_names(detail))
    elo, ml = fc.get("elo") or {}, fc.get("moneyline") or {}
    sim, spread, ou = fc.get("simulation") or {}, fc.get("spread") or {}, fc.get("overunder") or {}
    rows: list[tuple[str, str, str]] = [
        ("ELO win expectation", f"{visitor} {_percent(elo.get('VELOWinExp'))} · {home} {_percent(elo.get('HELOWinExp'))}",
         (f"ratings before {_text(elo.get('VELOBefore'))} / {_text(elo.get('HELOBefore'))}, "
          f"change {_text(elo.get('HELOChange'))} for {home}")),
        ("Simulation", f"{_text(sim.get('Prediction'))}{_called(sim.get('PredictionCorrect'))}",
         "predicted score, visitor-home; ✓ when its favourite won"),
        ("Money line", (f"{_text(ml.get('VisMoneyLine'))} / {_text(ml.get('HomeMoneyLine'))}"
                        f"{_called(ml.get('MoneyLineCorrect'))}"),
         f"visitor / home; drift {_text(ml.get('MoneyLineDrift'))} ({_text(ml.get('MoneyLineMovement'))})"),
        ("Spread", f"{_text(spread.get('Spread'))}{_called(spread.get('SpreadCorrect'))}",
         "home team's spread; ✓ when the favourite covered"),
        ("Over/under", f"{_text(ou.get('OverUnder'))} → {_text(ou.get('OverUnderResult'))}", "total points line and result"),
    ]
    held = (bool(elo), bool(sim.get("Prediction")), bool(ml.get("HomeMoneyLine")), spread.get("Spread") is not None,
            ou.get("OverUnder") is not None)
    rows = [row for row, has in zip(rows, held, strict=True) if has]
    st.markdown("**Forecast**")
    # team names come from any feed: a name is text, never markup (``md`` above)
    st.markdown("\n".join(f"- **{name}:** {value} *({note})*" for name, value, note in rows))


def _line_score(detail: dict[str, Any], scores: pd.DataFrame, visitor: str, home: str) -> pd.DataFrame:
    table = analysis.line_score_from_detail(detail.get("LineScore"), visitor, home)
    if table.empty:
        table = analysis.line_score(scores)
        if not table.empty:
            table["Team"] = [visitor, home]
    return table.astype(object).map(_cell) if not table.empty else table


def running_score(detail: dict[str, Any]) -> pd.DataFrame:
    """Score after each event: the detail's basic play-by-play, else its in-game datapoints."""
    for block in ("playbyplay", "scores"):
        frame = _frame(detail.get(block))
        if {"ScoreVis", "ScoreHome"} <= set(frame.columns) and not frame.empty:
            return frame.sort_values("Sequence") if "Sequence" in frame.columns else frame
    return pd.DataFrame()


def venue_place(venue: dict[str, Any]) -> str:
    """"Fenway Park, Boston, MA"; a city the park's name already says is not repeated
    ("Globe Life Field in Arlington, TX")."""
    name, where = str(venue.get("Name") or ""), str(venue.get("CityState") or "")
    city, _, state = where.partition(", ")
    if name and city and city in name:
        where = state
    return ", ".join(p for p in (name, where) if p)


def game_header(detail: dict[str, Any]) -> None:
    visitor, home = team_names(detail)
    score = f" {detail.get('ScoreVis')}" if detail.get("ScoreVis") is not None else ""
    home_score = f" {detail.get('ScoreHome')}" if detail.get("ScoreHome") is not None else ""
    neutral = detail.get("Neutral") == "Y"  # a final on neutral ground has no visitor: "vs"
    st.subheader(f"{md(visitor)}{md(score)} {'vs' if neutral else '@'} {md(home)}{md(home_score)}")
    found = detail.get("venue")
    venue: dict[str, Any] = found if isinstance(found, dict) else {}
    facts = [str(detail.get("GameDay") or ""), str(detail.get("GameStatus") or "not started"),
             venue_place(venue), "neutral ground" if neutral else ""]
    if detail.get("Attendance"):
        facts.append(f"attendance {int(detail['Attendance']):,}")
    if detail.get("Duration"):
        facts.append(f"{int(detail['Duration']) // 60}:{int(detail['Duration']) % 60:02d} long")
    if detail.get("Phase"):
        facts.append(phases.label(detail["Phase"]).lower())
    if detail.get("Playoff"):
        facts.append(f"round: {detail['Playoff']}")
    st.caption(md(" · ".join(f for f in facts if f) + f" · game {detail.get('ID', '')}"))
    if detail.get("Notice"):  # a listed game the source has no result for says so
        st.info(md(detail["Notice"]), icon=":material/event_busy:")


def _with_hits_and_errors(table: pd.DataFrame, totals: dict[str, dict[str, Any]]) -> pd.DataFrame:
    """The baseball line score's R/H/E: the total runs as R, hits and errors from the team totals."""
    sums = [box_score.hits_and_errors(totals, side) for side in ("visitor", "home")]
    if table.empty or any(h is None or e is None for h, e in sums):
        return table
    out = table.rename(columns={"Total": "R"})
    out["H"] = [str(h) for h, _ in sums]
    out["E"] = [str(e) for _, e in sums]
    return out


def show_box_score(players: pd.DataFrame, sport: str, visitor: str, home: str, played: bool = True,
                   scored: BoxScore | None = None) -> None:
    """Each side's player lines: for baseball the batting order and the pitching with their
    decisions, the notes under each side's box and the decisions in a line (``scored``: the box
    score they come from), the players' stats otherwise; without any, the reason that holds for
    this game (``played``: it has a score)."""
    st.markdown("**Box score**")
    if players.empty:
        st.caption("No player lines held for this game: its source records the score only." if played else
                   "No player lines yet: the game has not been played.")
        return
    decisions = scored.decisions if scored is not None else []
    notes = scored.notes if scored is not None else {}
    # grids, not Markdown: each code explains itself on hover (a pitcher's BB is his BBA), and a
    # line wider than a phone scrolls inside its own box
    for side, team in (("visitor", visitor), ("home", home)):
        if sport == "baseball":
            batting, pitching = box_score.baseball_lines(players, team, decisions)
            st.markdown(f"*{md(team)}: batting*")
            show_table(batting, name=f"box_{side}_batting", empty="No batting lines.", csv=False)
            if lines := box_score.note_lines(notes, side):
                st.caption("  \n".join(md(line) for line in lines))
            st.markdown(f"*{md(team)}: pitching*")
            show_table(pitching, name=f"box_{side}_pitching", empty="No pitching lines.", csv=False,
                       formats=column_help.renamed(box_score.PITCHING, sport))
        else:
            st.markdown(f"*{md(team)}*")
            show_table(box_score.player_lines(players, team), name=f"box_{side}_players",
                       empty="No player lines.", csv=False)
    if line := box_score.decision_line(decisions):
        st.markdown(f"**Decisions:** {md(line)}")


def show_win_probability(line: pd.DataFrame, detail: dict[str, Any], sport: str, key: str,
                         play_id: int | None = None, *, level: str) -> None:
    """The game's win probability chart and its largest swings, listed with their WPA; a play a
    link names (``play_id``) ringed on the chart and said in words."""
    visitor, home = team_names(detail)
    if line.empty:
        st.caption("No win probability held for this game: its plays carry no line (a results-only source, "
                   "or plays without the base-out state).")
        return
    swings = plays.largest_swings(line)
    selected = line[pd.to_numeric(line["Play_ID"], errors="coerce") == play_id] if play_id else line.head(0)
    if play_id and selected.empty:
        st.warning(f"Play {play_id} is not a play of this game with a line: the chart shows the whole game.")
    chart_view.draw(charts.win_probability(line, visitor, home, swings, scope=game_scope(level, detail),
                                           soccer=sport == "soccer", selected=selected,
                                           period_label=PERIOD_LABELS.get(sport, "Period")), key=key)
    if not selected.empty:
        row = selected.iloc[0]
        st.caption(f"Play {int(row['Sequence'])}: {md(row['Explanation'])} ({row['ScoreVis']}-{row['ScoreHome']}); "
                   f"{md(home)} win chance {float(row['WP_Home']):.1%} after it, WPA {plays.wpa_text(float(row['WPA']))}")
    # numbered on the chart; listed a click below (a table beside the chart costs its first view)
    box = page_sections.disclosure("The largest swing, listed" if len(swings) == 1 else
                                   f"The {len(swings)} largest swings, listed", key=SWINGS_KEY, icon=":material/list:")
    if box.open:
        first = line.iloc[0]
        teams = {int(first["Visitor_ID"]): visitor, int(first["Home_ID"]): home}
        with box:
            st.markdown(f"**Largest swings** (WPA: the change in the chance to win of the team that made the play, as {plays.WPA_UNIT})")
            markdown_table(plays.swing_table(swings, teams), empty="No plays with a line.")


FOOTBALL_PERIODS = {"1": "1st half", "2": "2nd half", "3": "Extra time"}


def show_game(detail: dict[str, Any], sport: str = "", box: Callable[[], BoxScore] | None = None,
              odds: Callable[[int], pd.DataFrame] | None = None,
              line: Callable[[], pd.DataFrame] | None = None, *, level: str) -> None:
    """A box score, as analysts read one: header, line score, box score (``box`` fetches it from
    the API's ``boxscores``), scoring plays, forecast and what the game changed in the playoff
    odds (``odds``: a team ID -> its projections over the season), officials; the charts of the
    score and (with ``line``, the API's ``winprob``) the win probability one click below, as the
    game's play-by-play opens on them (a view opens on grids or on charts: page_sections.disclosure)."""
    visitor, home = team_names(detail)
    game_header(detail)
    if page_sections.is_open(CHARTS_KEY):
        chart_view.load_early()
    period = PERIOD_LABELS.get(sport, "Period")
    table = _line_score(detail, _frame(detail.get("scores")), visitor, home)
    scored = None
    if box is not None:
        try:
            scored = box()
        except NotOffered:
            st.caption("Box score: not offered by this backend (a NatStat backend has none).")
    if sport == "baseball" and scored is not None:
        table = _with_hits_and_errors(table, scored.totals)
    if sport == "soccer":  # the API's periods of a football match: the halves, then extra time
        table = table.rename(columns=FOOTBALL_PERIODS)
    if not table.empty:
        st.markdown("**Line score**")
        markdown_table(table)
    pens = detail.get("Penalties")
    if isinstance(pens, dict):
        st.markdown(f"**Penalties:** {md(visitor)} {pens.get('visitor')}, {md(home)} {pens.get('home')}")
    if scored is not None:
        show_box_score(scored.players, sport, visitor, home, played=detail.get("ScoreHome") is not None,
                       scored=scored)
    st.markdown("**Scoring plays**")
    show_table(_frame(detail.get("scoring")), name=f"scoring_plays_{detail.get('ID', '')}", empty="No scoring plays held.",
               columns={"Period": period, "Explanation": "Play", "ScoreVis": visitor, "ScoreHome": home})
    drawn = page_sections.disclosure("Charts: the score" + (" and the win probability" if line is not None else "")
                                     + " over the game", key=CHARTS_KEY, icon=":material/show_chart:")
    if drawn.open:
        with drawn:
            running = running_score(detail)
            if running.empty:  # a results-only source (FiveThirtyEight): no chart to draw, say why
                st.caption("No in-game scores held for this game: its source records the final score only.")
            else:
                chart_view.draw(charts.in_game_scores(running, visitor, home, period, scope=game_scope(level, detail)),
                                key="game_scores_chart")
            if line is not None:
                show_win_probability(line(), detail, sport, key="game_winprob_chart", level=level)
    left, right = st.columns([3, 2])
    with left:
        forecast_summary(detail)
        if odds is not None:
            projections.show_odds_change(detail, odds)
    with right:
        st.markdown("**Officials**")
        officials = _frame(detail.get("officials"))
        markdown_table(pick_columns(officials, ("Role", "Name")) if not officials.empty else officials,
                       empty="No officials held.")
        venue = detail.get("venue")
        if isinstance(venue, dict) and venue:
            bits = [f"capacity {int(venue['Capacity']):,}" if venue.get("Capacity") else "",
                    f"{venue['Latitude']:.3f}, {venue['Longitude']:.3f}"
                    if venue.get("Latitude") is not None and venue.get("Longitude") is not None else ""]
            st.caption(f"**Venue:** {md(venue_place(venue)) or '—'} " + " · ".join(b for b in bits if b))
