"""Play-by-play: pick a game; its events with filters; score over the game; pitches per PA."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from components import analysis, chart_view, charts, filters, layout, links, page_sections, plays, season_facts
from components.game_detail import (PERIOD_LABELS, game_header, game_scope, running_score, show_win_probability,
                                    team_names)
from components.plain import md
from components.tables import records_frame, show_table
from services import ApiError, api

RECENT_GAMES = 25
TABS_KEY, EVENTS_TAB, PITCHES_TAB = "tab", "Events", "Pitches per plate appearance"
WINPROB_TAB, SCORE_TAB = "Win probability", "Score over the game"  # the story; the first where the level has it


def _held(level: str) -> bool:
    """Whether any season of the level holds play-by-play (the seasons' ``Granularity``)."""
    seasons = api.seasons(level)
    flags = seasons.get("Granularity.PlayByPlay", pd.Series(dtype=str)).astype(str)
    return seasons.empty or "Granularity.PlayByPlay" not in seasons.columns or bool((flags == "Y").any())


def _legend(codes: list[tuple[str, str]]) -> str:
    """The pitch codes a table shows and what each means in words (``plays.pitch_legend``)."""
    return " · ".join(f"**{md(code)}** {md(meaning)}" for code, meaning in codes)


def _show_events() -> None:
    """A filter of the events changed on a chart's tab: show the events it filters (the pitches'
    tab, which the player filter narrows too, stays)."""
    if st.session_state.get(TABS_KEY) != PITCHES_TAB:
        st.session_state[TABS_KEY] = EVENTS_TAB


def _pick_game(level: str) -> None:
    recent = api.games(level, status="final", size=RECENT_GAMES)
    layout.note_page(recent)
    if _held(level):
        st.info("Pick a game: click a row of the latest results, or type a game ID in the sidebar.")
    else:
        st.warning(f"No season of {level} holds play-by-play (its source has results only): the events of "
                   "these games cannot be shown. Pick a level with play-by-play, such as MLB.")
    # the list first, its chart one click below (a view opens on grids or on charts: page_sections.disclosure)
    show_table(recent.frame, name="pbp_games", select_into="game",
               columns=("ID", "GameDay", "Visitor", "ScoreVis", "Home", "ScoreHome", "GameStatus"))
    box = page_sections.chart_below("Chart: home margins")
    if box.open:
        title = charts.level_season_title(level, season_facts.of_days(level, recent.frame.get("GameDay", [])), "latest results")
        chart_view.draw(charts.results(recent.frame, title, tie=charts.tie_word(api.level_sport(level))),
                        key="pbp_recent", where=box)


def main() -> None:
    level = filters.current_level()
    game_id = filters.id_input("Game ID", key="game", sidebar=True, help="Pick a game from the list or type its ID.")
    st.title(f"{level} play-by-play")
    if not game_id:
        _pick_game(level)
        layout.copy_link()
        return
    play_id = filters.id_input("Play ID", key="play", sidebar=True,
                               help="The play the win probability chart rings; a shared link carries it.")
    scoring = filters.toggle("Scoring plays only", key="scoring", on_change=_show_events)
    player = filters.text_filter("Player", key="pbp_player", placeholder="part of a name", on_change=_show_events)
    detail = api.game(level, game_id)
    basic = records_frame(detail.get("playbyplay"))
    if api.level_serves(level, "playbyplay"):
        page = api.playbyplay(level, game_id)
        layout.note_page(page)
        events = plays.events(page.frame, basic)
    else:  # the endpoint skips this level (docs/api/index.md): the game's own basic entries, no players
        events = plays.events(basic, basic)
    period = filters.choice("Period", ["All", *plays.periods(events)], key="period", on_change=_show_events)
    sport = api.level_sport(level)
    visitor, home = team_names(detail)
    game_header(detail)
    links.open_button("Box score and game detail", links.game_url(level, game_id, detail.get("Season")),
                      icon=":material/scoreboard:")
    if events.empty:  # why: a game to come has no plays yet; a finished one's source kept none
        st.info("No play-by-play held for this game: its source records the final score only."
                if detail.get("ScoreHome") is not None else "No play-by-play yet: the game has not been played.")
        layout.copy_link()
        return
    # the game's story first, one chart a tab (a view opens on one chart or on grids: page_sections.disclosure),
    # its records a tab away
    chances = api.level_serves(level, "winprob")
    labels = [*([WINPROB_TAB] if chances else []), SCORE_TAB, EVENTS_TAB,
              *([PITCHES_TAB] if api.level_serves(level, "pitch") else [])]
    tabs = page_sections.tabs(labels, key=TABS_KEY)
    if chances and tabs[WINPROB_TAB].open:
        with tabs[WINPROB_TAB]:
            show_win_probability(api.winprob(level, game_id), detail, sport, key="pbp_winprob_chart",
                                 play_id=play_id, level=level)
    if tabs[SCORE_TAB].open:
        with tabs[SCORE_TAB]:
            chart_view.draw(charts.score_difference(running_score(detail), visitor, home,
                                                    PERIOD_LABELS.get(sport, "Period"), scope=game_scope(level, detail)),
                            key="pbp_chart")
    shown = plays.filter_events(events, scoring=scoring, player=player, period=None if period == "All" else period)
    if tabs[EVENTS_TAB].open:
        with tabs[EVENTS_TAB]:
            st.caption(f"{len(shown)} of {len(events)} events")
            show_table(shown, name=f"playbyplay_{game_id}", columns=plays.EVENT_COLUMNS, height=460, hidden=("ID",),
                       empty="No event matches these filters.")
            if key := _legend(plays.pitch_legend(shown)):
                st.caption(f"Pitch codes: {key}. Outs and RoB (runners on base: 1-3 is first and third) before "
                           f"the play; the score after it; WPA as {plays.WPA_UNIT}, the pitcher's the "
                           "batter's turned round.")
    if PITCHES_TAB in tabs and tabs[PITCHES_TAB].open:
        with tabs[PITCHES_TAB]:
            pitches = api.pitches(level, game_id)
            pas = analysis.plate_appearances(pitches)
            if not pas.empty:
                pas = plays.with_player(pas, player, ("Batter", "Pitcher"))
            chart_view.draw(charts.pitches_per_plate_appearance(pas, scope=game_scope(level, detail)), key="pitch_chart")
            if key := _legend(plays.pitch_legend(pas, "Sequence")):
                st.caption(f"Pitch codes: {key}. Pitches counts pitches to the batter, not pickoff throws; "
                           "Count: balls-strikes before the last pitch.")
            show_table(pas, name=f"plate_appearances_{game_id}", empty="No pitches held for this game.")
    layout.copy_link()


try:
    main()
except ApiError as err:
    layout.show_error(err)
