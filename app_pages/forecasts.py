"""Forecasts vs outcomes: calibration, scores over time vs a baseline, ELO vs market, lines, upsets."""
from __future__ import annotations

from functools import partial

import pandas as pd
import streamlit as st

from components import analysis, chart_view, charts, charts_forecasts, comparison, filters, layout, links, page_sections, phases
from components import column_help, season_facts, three_outcomes, winprob_calibration
from components.tables import percent_column, show_table
from services import ApiError, api

DEFAULT_SEASONS = 2
TABS_KEY = "tab"
BINS_KEY = "bins_table"  # the calibration's bins, a click below its charts (page_sections.disclosure)
CALIBRATION, SCORES, INGAME, MARKET, LINES, UPSETS = ("Calibration", "Scores over time", "In-game", "ELO vs market",
                                                      "Lines by season", "Biggest upsets")
THREE = "Home, draw, away"  # football: a draw is an outcome (the outcomes endpoint)
# What each column of the page's tables means, shown on hover (codes are column_help's)
HELP = {
    "Probability": "The bin of the ELO forecast's home-win chance the games fall in",
    "Predicted": "The bin's mean ELO home-win chance",
    "Observed": "How often the home team won the bin's games",
    "95% from": "Lower end of the Wilson 95% interval of the observed rate",
    "95% to": "Upper end of the Wilson 95% interval of the observed rate",
    "Line": "Whose call is scored: the ELO favourite (over 50%), the money line's and the spread's "
            f"favourites, the simulation winner ({column_help.TERMS['Simulation winner'].lower()}) and "
            "its total against the over/under line",
    "Correct": "Share of the season's calls that were right (pushes and ties left out)",
    "Games": "Games counted",
    "Winner": "The team that won although ELO favoured the other",
    "Winner ELO prob": "The chance ELO gave the winner before the game",
    "ScoreVis": "Visitor's final score",
    "ScoreHome": "Home team's final score",
}
PERCENT = percent_column("Correct", help=HELP["Correct"])


def _helped(headings: list[str], **given: object) -> dict[str, object]:
    """A table's column config: ``given`` formats, and each other heading's words from ``HELP``."""
    return {**{h: st.column_config.Column(help=HELP[h]) for h in headings if h in HELP}, **given}


def _load(level: str, seasons: list[int], team_id: int | None, phase: str | None) -> pd.DataFrame:
    """The finished games of the seasons with their forecasts, of the phases asked (filtered by
    the API), each row's phase in words."""
    frames = []
    for season in seasons:
        page = api.forecasts(level, season=season, team_id=team_id, phase=phase)
        layout.note_page(page)
        frames.append(page.frame.assign(Season=season))
    raw = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    return phases.mark(analysis.forecast_frame(raw))


def _held(level: str, season: int) -> bool:
    """Whether the season has finished games with a forecast, whatever the team and phase."""
    return bool(analysis.forecast_frame(api.forecasts(level, season=season).frame)["p_elo"].notna().any())


def _why_none(level: str, seasons: list[int], team: str | None, phase: str) -> str:
    """Why no finished game with a forecast answers, season by season."""
    if not seasons:
        return "Pick one or more seasons in the sidebar."
    asked = ([f"team {team}"] if team else []) + ([phase.lower()] if phase != phases.BOTH else [])
    return " ".join(season_facts.why_empty(level, season, "forecasts", filters=", ".join(asked),
                                           unfiltered=partial(_held, level, season) if asked else None,
                                           computed_by=season_facts.RETABULATED)
                    for season in sorted(seasons, reverse=True))


def _metrics(data: pd.DataFrame) -> None:
    y = data["home_win"]
    baseline = analysis.home_rate_baseline(y)
    cols = st.columns(5)
    cols[0].metric("Games scored", f"{len(data):,}")
    cols[1].metric("ELO Brier", f"{analysis.brier(data['p_elo'], y):.4f}")
    cols[2].metric("Baseline Brier", f"{analysis.brier(baseline, y):.4f}",
                   help="Home-win rate of the games before each one (Laplace-smoothed)")
    cols[3].metric("ELO log loss", f"{analysis.log_loss(data['p_elo'], y):.4f}")
    cols[4].metric("Baseline log loss", f"{analysis.log_loss(baseline, y):.4f}")


def _teams_of(level: str, seasons: list[int]) -> dict[str, int]:
    """The teams that played in the chosen seasons (every team of the level's history where none
    is chosen), each once under its newest name: the Guardians, not also the Indians of 2021."""
    every = api.teams(level)
    if not seasons or every.empty:
        return filters.name_to_id(every)
    played = {int(i) for season in seasons for i in api.teams(level, season).get("ID", [])}
    return filters.name_to_id(every[every["ID"].astype(int).isin(played)])


def main() -> None:
    level = filters.current_level()
    available = api.season_ids(level, with_games=True)
    seasons = filters.seasons_picker(available, key="fc_seasons", default=available[:DEFAULT_SEASONS])
    ids = _teams_of(level, seasons)
    team = filters.team_picker(list(ids))
    st.title(f"{level} forecasts vs outcomes")
    phase = filters.choice("Games of", phases.choices(level), key="fc_phase",
                           help="Calibration and scores on the regular season by default, as the model is tuned.")
    layout.note_data_ends(level, seasons)
    data = _load(level, seasons, ids.get(team or ""), phases.asked(phase))
    if data.empty:
        st.info(_why_none(level, seasons, team, phase))
        layout.copy_link()
        return
    _metrics(data)
    comparison.show(level, seasons, ids.get(team or ""), phases.asked(phase))
    has_odds = bool(data["p_market"].notna().any())
    tie = charts.tie_word(api.level_sport(level))
    scope = charts.scope(level, seasons)
    if not has_odds:
        st.caption(f"ELO vs market: no money lines held for {level} in these seasons (its source carries no odds).")
    # one chart a tab: a second chart in the first view costs it a tenth of a one-chart page (bench/dashboard.py)
    three = [THREE] if api.level_sport(level) == "soccer" else []
    tabs = page_sections.tabs([*three, CALIBRATION, SCORES, INGAME, MARKET, LINES, UPSETS] if has_odds
                              else [*three, CALIBRATION, SCORES, INGAME, LINES, UPSETS], key=TABS_KEY)
    if THREE in tabs and tabs[THREE].open:
        with tabs[THREE]:
            three_outcomes.show(level, seasons)
    if tabs[CALIBRATION].open:
        with tabs[CALIBRATION]:
            table = analysis.calibration(data["p_elo"], data["home_win"])
            chart_view.draw(charts_forecasts.calibration(table, scope=scope), key="calibration")
            bins = table.assign(bin=[f"{b * 100 // analysis.CALIBRATION_BINS}–{(b + 1) * 100 // analysis.CALIBRATION_BINS}%"
                                     for b in table["bin"]])
            headings = {"bin": "Probability", "predicted": "Predicted", "observed": "Observed", "games": "Games",
                        "draws": tie + "s", "low": "95% from", "high": "95% to"}
            if not table["draws"].any():
                bins = bins.drop(columns="draws")
            shown = bins.rename(columns=headings)
            st.caption("Bars: the Wilson 95% interval of each bin's observed rate; a forecast is well calibrated "
                       "where the diagonal crosses the bar.")
            box = page_sections.disclosure(f"The {len(shown)} bins, as a table", key=BINS_KEY, icon=":material/table:")
            if box.open:
                with box:
                    show_table(shown, name="calibration",
                               formats=_helped(list(shown.columns), **{
                                   n: percent_column(help=HELP[n])
                                   for n in ("Predicted", "Observed", "95% from", "95% to")}))
            if table["draws"].any():
                st.caption(f"A {tie.lower()} counts as half a home win, as the ELO expectation counts it.")
    if tabs[SCORES].open:
        with tabs[SCORES]:
            chart_view.draw(charts_forecasts.scores_over_time(analysis.scores_over_time(data), scope=scope),
                            key="scores_over_time")
    if tabs[INGAME].open:
        with tabs[INGAME]:
            winprob_calibration.show(level, seasons, phases.asked(phase))
    if MARKET in tabs and tabs[MARKET].open:
        with tabs[MARKET]:
            chart_view.draw(charts_forecasts.elo_vs_market(data, tie, scope=scope), key="elo_vs_market")
            both = data.dropna(subset=["p_elo", "p_market"])
            if len(both):
                y = both["home_win"]
                st.caption(f"{len(both):,} games with both: Brier ELO {analysis.brier(both['p_elo'], y):.4f}, "
                           f"money line {analysis.brier(both['p_market'], y):.4f}.")
    if tabs[LINES].open:
        with tabs[LINES]:
            correct = analysis.correctness_by_season(data)
            chart_view.draw(charts_forecasts.correctness(correct, scope=scope), key="correctness")
            missing = [line for line in ("Money line", "Spread", "Over/under") if line not in set(correct["Line"])]
            if missing:
                st.caption(f"Not held for these seasons: {', '.join(missing).lower()} (the source carries no odds).")
            show_table(correct, name="line_correctness", formats=_helped(list(correct.columns), Correct=PERCENT),
                       empty="No lines or simulations held for these seasons.")
    if tabs[UPSETS].open:
        with tabs[UPSETS]:
            st.caption("Games the ELO favourite lost, the surest forecasts first.")
            upsets = analysis.upsets(data, top=50)
            upsets = links.with_link(upsets.assign(Season=upsets["ID"].map(dict(zip(data["ID"], data["Season"],
                                                                                      strict=True)))),
                                     "ID", "game", level)
            show_table(upsets, name="upsets", hidden=("ID", "Season"),
                       formats=_helped(list(upsets.columns), **{
                           "Winner ELO prob": percent_column("Winner's ELO chance", help=HELP["Winner ELO prob"]),
                           **links.link_format("game")}),
                       empty="No upsets: the ELO favourite won every game.")
    layout.copy_link()


try:
    main()
except ApiError as err:
    layout.show_error(err)
