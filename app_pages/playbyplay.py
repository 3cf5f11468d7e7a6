"""Play-by-play: pick a game; its events with filters; score over the game; pitches per PA."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from components import analysis, charts, filters, layout
from components.tables import records_frame, show_table
from services import ApiError, api

RECENT_GAMES = 25
EVENT_COLUMNS = ("ID", "game.Half", "game.Inning", "Explanation", "primary.Name", "pitcher.Name", "team.Team",
                 "ScoringPlay", "TheCount", "game.Sequence", "game.ScoreVis", "game.ScoreHome", "TheDiff", "Tags")
PITCH_LEVELS = frozenset({"MLB", "MiLB"})  # contract 1: levels the pitch endpoint serves


def _events(level: str, game_id: int) -> pd.DataFrame:
    page = api.playbyplay(level, game_id)
    layout.note_sources(page.sources)
    frame = page.frame
    return frame.sort_values("ID").reset_index(drop=True) if not frame.empty else frame  # API: newest first


def _running_score(detail: dict[str, object]) -> pd.DataFrame:
    """Score after each event: the detail's basic play-by-play, else its in-game datapoints."""
    for block in ("playbyplay", "scores"):
        frame = records_frame(detail.get(block))
        if {"ScoreVis", "ScoreHome"} <= set(frame.columns):
            return frame.sort_values("Sequence") if "Sequence" in frame.columns else frame
    return pd.DataFrame()


def _filter(frame: pd.DataFrame) -> pd.DataFrame:
    scoring = filters.toggle("Scoring plays only", key="scoring")
    player = filters.text_filter("Player", key="pbp_player", placeholder="part of a name")
    periods = sorted(analysis.column(frame, "game.Half").dropna().astype(str).unique(), key=lambda p: (len(p), p))
    period = filters.choice("Period", ["All", *periods], key="period")
    shown = frame
    if scoring:
        shown = shown[analysis.column(shown, "ScoringPlay").astype(str).str.upper() == "Y"]
    if player:
        names = analysis.column(shown, "primary.Name").fillna("") + " " + analysis.column(shown, "pitcher.Name").fillna("")
        shown = shown[names.str.contains(player, case=False, regex=False)]
    if period != "All":
        shown = shown[analysis.column(shown, "game.Half").astype(str) == period]
    return shown


def main() -> None:
    level = filters.current_level()
    st.title(f"{level} play-by-play")
    game_id = filters.id_input("Game ID", key="game", help="Pick a game below or type its ID.")
    if not game_id:
        recent = api.games(level, size=RECENT_GAMES).frame
        st.info("Pick a game: click a row of the latest games.")
        show_table(recent, name="pbp_games", select_into="game",
                   columns=("ID", "GameDay", "Visitor", "ScoreVis", "Home", "ScoreHome", "GameStatus"))
        layout.copy_link()
        return
    detail = api.game(level, game_id)
    visitor, home = str(detail.get("Visitor") or "Visitor"), str(detail.get("Home") or "Home")
    st.subheader(f"{visitor} {detail.get('ScoreVis', '')} @ {home} {detail.get('ScoreHome', '')} · {detail.get('GameDay', '')}")
    events = _events(level, game_id)
    if events.empty:
        st.info("No play-by-play held for this game.")
        layout.copy_link()
        return
    shown = _filter(events)
    st.plotly_chart(charts.score_difference(_running_score(detail), visitor, home), key="pbp_chart")
    st.caption(f"{len(shown)} of {len(events)} events")
    show_table(shown, name="playbyplay", columns=EVENT_COLUMNS, height=420)
    if level in PITCH_LEVELS:
        st.subheader("Counts and pitch sequences per plate appearance")
        pas = analysis.plate_appearances(api.pitches(level, game_id))
        st.plotly_chart(charts.pitches_per_plate_appearance(pas), key="pitch_chart")
        show_table(pas, name="plate_appearances", empty="No pitches held for this game.")
    layout.copy_link()


try:
    main()
except ApiError as err:
    layout.show_error(err)
