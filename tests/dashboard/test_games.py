"""Games page: filters seeded from the URL, the server-side status filter, every matched game, the game detail."""
from __future__ import annotations

import re

import pandas as pd
import pytest

from components.game_detail import venue_place
from services import api
from tests.dashboard._apptest import assert_clean, figures, open_page, shown, trace_values, titles, trace_points
from tests.dashboard.conftest import ApiServer


def test_filters_and_game_come_from_the_url(dashboard_env: ApiServer) -> None:
    seasons = api.season_ids("MLB", with_games=True)
    season = seasons[-1]
    game = api.games("MLB", season=season, status="final", size=5).frame.iloc[0]
    at = open_page("games", {"level": "MLB", "season": str(season), "team": str(game["Home"]),
                             "game": str(int(game["ID"])), "status": "Final"})
    assert_clean(at)
    assert at.selectbox(key="season").value == season
    assert at.selectbox(key="team").value == game["Home"]
    assert at.selectbox(key="status").value == "Final"
    assert at.number_input(key="game").value == int(game["ID"])
    assert any(str(game["Home"]) in h.value for h in at.subheader), "a link with a game opens on the game's detail"
    assert not titles(at) and at.expander[0].label == "Charts: the score and the win probability over the game", \
        "a box score first, the game's charts a click below"
    charts = open_page("games", {"level": "MLB", "season": str(season), "game": str(int(game["ID"])), "charts": "true"})
    assert titles(charts) == [f"MLB {season}: score over the game", f"MLB {season}: win probability"]
    assert trace_points(figures(charts)[0]) > 0
    assert any("Line score" in m.value for m in at.markdown)
    line_score = next(m.value for m in at.markdown if m.value.startswith("| Team |"))
    assert str(game["Home"]) in line_score and "| R | H | E |" in line_score, "baseball's R/H/E"


def test_status_is_filtered_by_the_api_so_totals_are_exact(dashboard_env: ApiServer) -> None:
    season = api.season_ids("MLB", with_games=True)[0]
    expected = api.games("MLB", season=season, status="final", size=1).total
    at = open_page("games", {"level": "MLB", "season": str(season), "status": "Final", "tab": "Games",
                             "chart": "true"})
    assert_clean(at)
    table = at.dataframe[0].value
    # "Final", or "Final (11 innings)" for a game that went past its scheduled innings
    assert len(table) == expected and all(s.startswith("Final") for s in table["GameStatus"])
    assert "Overtime" not in table.columns and any(
        re.fullmatch(r"Final \(1\d innings\)", s) for s in table["GameStatus"]), \
        "extra innings read '10 innings' (the status), never as an 'Overtime' count"
    assert any(c.value.startswith(f"{expected:,} games") for c in at.caption)
    assert f"MLB {season}: home margin of the listed games" in titles(at), "the title names the season drawn"
    scheduled = open_page("games", {"level": "MLB", "status": "Scheduled", "tab": "Games"})
    assert_clean(scheduled)
    if scheduled.dataframe:
        assert set(scheduled.dataframe[0].value["GameStatus"].fillna("")) == {""}


def test_chart_and_table_cover_every_matched_game(dashboard_env: ApiServer) -> None:
    season = api.season_ids("MLB", with_games=True)[0]
    matched = api.all_games("MLB", season=season)
    listed = open_page("games", {"level": "MLB", "season": str(season), "tab": "Games"})
    assert_clean(listed)
    assert not figures(listed) and listed.expander[0].label == "Chart: home margins", \
        "the list opens on its table, the chart one click below it"
    at = open_page("games", {"level": "MLB", "season": str(season), "tab": "Games", "chart": "true"})
    assert_clean(at)
    table = at.dataframe[0].value
    assert len(table) == matched.total > 50, "the whole season, not one page of 50"
    finished = int(pd.to_numeric(matched.frame["ScoreHome"], errors="coerce").notna().sum())
    assert trace_points(figures(at)[0]) == finished
    assert not at.warning


def test_the_bound_on_matched_games_is_said(dashboard_env: ApiServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(api, "LIST_PAGE_SIZE", 20)  # 5 pages of 20: fewer than a season holds
    season = api.season_ids("MLB", with_games=True)[0]
    at = open_page("games", {"level": "MLB", "season": str(season), "tab": "Games"})
    assert_clean(at)
    assert len(at.dataframe[0].value) == 100
    assert any("the chart and table hold the newest 100" in w.value for w in at.warning)
    labels = [b.proto.label for b in at.get("download_button")]
    assert any(label.startswith("Download all") for label in labels), labels


def test_scheduled_games_show_blank_scores(dashboard_env: ApiServer) -> None:
    assert api.games("NBA", status="scheduled", size=1).total, "the demo's current NBA season has games to come"
    at = open_page("games", {"level": "NBA", "status": "Scheduled", "tab": "Games"})
    assert_clean(at)
    table = at.dataframe[0].value
    assert len(table) and set(table["ScoreHome"]) == {""} and set(table["ScoreVis"]) == {""}


def test_scores_with_games_to_come_still_sort_as_numbers(dashboard_env: ApiServer) -> None:
    """Final and scheduled games in one list: the scores known are numbers (a click on the
    heading sorts 10 above 9), the scores to come missing and drawn blank."""
    at = open_page("games", {"level": "NBA", "tab": "Games"})
    assert_clean(at)
    grid = at.dataframe[0]
    scores = grid.value["ScoreHome"]
    assert scores.isna().any() and scores.notna().any(), "the current season: played and to come"
    assert str(scores.dtype) == "Int64"
    assert sorted(scores.dropna().tolist()) == scores.dropna().sort_values().tolist()
    assert grid.proto.HasField("placeholder") and grid.proto.placeholder == ""


def test_box_score_from_the_apis_boxscores(dashboard_env: ApiServer) -> None:
    game = api.games("MLB", status="final", size=1).frame.iloc[0]
    box = api.boxscore("MLB", int(game["ID"]))
    at = open_page("games", {"level": "MLB", "game": str(int(game["ID"]))})
    assert_clean(at)
    texts = [m.value for m in at.markdown]
    assert "**Box score**" in texts
    assert texts.index(f"*{game['Visitor']}: batting*") < texts.index(f"*{game['Home']}: batting*")
    grids = [d.value for d in at.dataframe]
    batting = [g for g in grids if list(g.columns[:6]) == ["#", "Name", "Pos", "AB", "R", "H"]]
    pitching = [g for g in grids if list(g.columns[:5]) == ["Name", "IP", "H", "R", "ER"]]
    assert len(batting) == len(pitching) == 2, "each side's batting and pitching, the visitor first"
    for team, lines in zip((game["Visitor"], game["Home"]), batting, strict=True):
        side = box.players[box.players["Team"] == team]
        assert len(lines) == int((side["PA"] > 0).sum()), "one row per batter"
    # the decisions as box scores print them: in a line under the box, and beside the pitcher's name
    assert [d["Decision"] for d in box.decisions][:2] == ["W", "L"], box.decisions
    winner = box.decisions[0]
    said = f"W: {winner['Name']} ({winner['Wins']}-{winner['Losses']})"
    assert any(t.startswith("**Decisions:** ") and said in shown(t) for t in texts), texts
    pitchers = pd.concat(pitching)["Name"].tolist()
    assert f"{winner['Name']}, W ({winner['Wins']}-{winner['Losses']})" in pitchers
    # the notes under each side's batting: who hit the home runs, doubles ... (names from the lines)
    notes = " ".join(shown(c.value) for c in at.caption)
    for side in ("visitor", "home"):
        for note in box.notes.get(side, []):
            assert f"{note['Code']}: {note['Players'][0]['Name']}" in notes, (note, notes)
    line_score = next(t for t in texts if t.startswith("| Team |"))
    home_row = [c.strip() for c in next(r for r in line_score.splitlines()
                                        if r.startswith(f"| {game['Home']} |")).split("|")]
    assert home_row[-4:-1] == [str(int(game["ScoreHome"])), str(box.totals["home"]["H"]),
                               str(box.totals["home"]["E"])], "R/H/E: the score and the team totals"
    assert box.totals["home"]["H"] == int(batting[1]["H"].sum()), "the line score's H sums the batting lines"
    nba = api.games("NBA", status="final", size=1).frame.iloc[0]
    basketball = open_page("games", {"level": "NBA", "game": str(int(nba["ID"]))})
    assert_clean(basketball)
    assert any("PTS" in d.value.columns for d in basketball.dataframe)


def test_a_teams_eye_view(dashboard_env: ApiServer) -> None:
    season = api.season_ids("MLB", with_games=True)[0]
    games = api.all_games("MLB", season=season, status="final").frame
    team = str(games["Home"].iloc[0])
    mine = games[(games["Home"] == team) | (games["Visitor"] == team)]
    home = mine["Home"] == team
    margin = (mine["ScoreHome"] - mine["ScoreVis"]).where(home, mine["ScoreVis"] - mine["ScoreHome"])
    at = open_page("games", {"level": "MLB", "season": str(season), "team": team, "status": "Final", "tab": "Games",
                             "chart": "true"})
    assert_clean(at)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Record"] == f"{int((margin > 0).sum())}-{int((margin < 0).sum())}"
    assert metrics["Differential"] == f"{int(margin.sum()):+d}"
    assert titles(at) == [f"MLB {season}: {team}, margin of each game"]
    plotted = sorted(int(y) for y in trace_values(figures(at)[0]))
    assert plotted == sorted(int(m) for m in margin), "margins from the team's side"
    opponent = str(mine["Visitor"].where(home, mine["Home"]).iloc[0])
    versus = open_page("games", {"level": "MLB", "season": str(season), "team": team, "status": "Final",
                                 "tab": "Games", "opponent": opponent})
    table = versus.dataframe[0].value
    assert len(table) and ((table["Home"] == opponent) | (table["Visitor"] == opponent)).all()


def test_the_postseason_apart_on_games(dashboard_env: ApiServer) -> None:
    season = api.season_ids("MLB", with_games=True)[0]
    counts = {}
    for phase in ("Regular season", "Postseason", "Both"):
        at = open_page("games", {"level": "MLB", "season": str(season), "tab": "Games", "games_phase": phase})
        assert_clean(at)
        counts[phase] = len(at.dataframe[0].value)
        assert phase == "Both" or set(at.dataframe[0].value["Phase"]) == {phase}
    assert counts["Postseason"] > 0 and counts["Regular season"] + counts["Postseason"] == counts["Both"]


def test_venue_reads_as_a_place() -> None:
    assert venue_place({"Name": "Fenway Park", "CityState": "Boston, MA"}) == "Fenway Park, Boston, MA"
    assert venue_place({"Name": "Globe Life Field in Arlington", "CityState": "Arlington, TX"}) \
        == "Globe Life Field in Arlington, TX"
    assert venue_place({"Name": "Wrigley Field"}) == "Wrigley Field"
    assert venue_place({}) == ""
