"""Play-by-play page: a game from the URL, filtered events, score chart, pitches per PA."""
from __future__ import annotations

from services import api
from tests.dashboard._apptest import assert_clean, figures, open_page, titles, trace_points
from tests.dashboard.conftest import ApiServer


def _final_game(level: str) -> int:
    return int(api.games(level, status="final", size=1).frame.iloc[0]["ID"])


def _scope(level: str, game: int) -> str:
    """The level and season a game's charts name first."""
    return f"{level} {api.season_name(level, api.game(level, game)['Season'])}"


def test_game_events_and_chart(dashboard_env: ApiServer) -> None:
    game = _final_game("MLB")
    at = open_page("playbyplay", {"level": "MLB", "game": str(game)})
    assert_clean(at)
    assert at.number_input(key="game").value == game
    scope = _scope("MLB", game)
    assert titles(at) == [f"{scope}: win probability"], "the game opens on its chances, one chart a tab"
    score = open_page("playbyplay", {"level": "MLB", "game": str(game), "tab": "Score over the game"})
    assert titles(score) == [f"{scope}: score and difference over the game"]
    assert trace_points(figures(score)[0]) > 0
    assert not at.dataframe, "the game opens on its story, the events a tab away"
    opened = open_page("playbyplay", {"level": "MLB", "game": str(game), "tab": "Events"})
    events = opened.dataframe[0].value
    assert {"Period", "Outs", "RoB", "Play", "Player", "Pitcher", "Count", "Pitches", "Score after", "WPA batter",
            "WPA pitcher"} <= set(events.columns)
    swung = events[events["WPA batter"] != ""]
    assert len(swung) > len(events) / 2, "the plays' WPA, the batter's and the pitcher's"
    assert all(float(b) == -float(p) for b, p in zip(swung["WPA batter"], swung["WPA pitcher"], strict=True))
    legend = next(c.value for c in opened.caption if c.value.startswith("Pitch codes: "))
    for code in {c for entries in events["Pitches"] for c in entries.split()}:
        assert f"**{code}** " in legend, f"{code} has no words in the legend: {legend}"
    assert "**X** in play" in legend and "**C** called strike" in legend
    scoring = open_page("playbyplay", {"level": "MLB", "game": str(game), "scoring": "true", "tab": "Events"})
    assert scoring.checkbox(key="scoring").value is True
    shown = scoring.dataframe[0].value
    assert 0 < len(shown) < len(events) and set(shown["Scoring"]) == {"Y"}
    top1 = open_page("playbyplay", {"level": "MLB", "game": str(game), "period": "Top 1", "tab": "Events"})
    assert set(top1.dataframe[0].value["Period"]) == {"Top 1"}
    at.selectbox(key="period").select("Top 1").run()  # picked on the chart's tab: the events it filters show
    assert_clean(at)
    assert set(at.dataframe[0].value["Period"]) == {"Top 1"}, "the period picked opens the events"


def test_pitches_per_plate_appearance(dashboard_env: ApiServer) -> None:
    game = _final_game("MLB")
    at = open_page("playbyplay", {"level": "MLB", "game": str(game), "tab": "Pitches per plate appearance"})
    assert_clean(at)
    scope = _scope("MLB", game)
    assert titles(at) == [f"{scope}: pitches per plate appearance"], "only the open tab is drawn"
    pas = at.dataframe[0].value
    assert (pas["Pitches"] == pas["Sequence"].str.split().str.len()).all(), "one code per pitch"
    pitcher = str(pas["Pitcher"].iloc[0])
    one = open_page("playbyplay", {"level": "MLB", "game": str(game), "tab": "Pitches per plate appearance",
                                   "pbp_player": pitcher.split()[-1].lower()})
    mine = one.dataframe[0].value
    assert 0 < len(mine) < len(pas), "the player filter narrows the plate appearances too"
    assert (mine["Batter"] + " " + mine["Pitcher"]).str.contains(pitcher.split()[-1]).all()


def test_no_game_offers_a_pick_list(dashboard_env: ApiServer) -> None:
    at = open_page("playbyplay", {"level": "NBA", "chart": "true"})
    assert_clean(at)
    assert at.info and at.dataframe
    listed = api.games("NBA", status="final", size=25).frame["ID"]  # the pick list's games, newest first
    newest, oldest = (api.game("NBA", int(listed.iloc[k]))["Season"] for k in (0, -1))
    # each season as the level names it ("2025-26"); a run of them "2025-26 to 2026-27"
    span = (f"{api.season_name('NBA', oldest)} to {api.season_name('NBA', newest)}" if oldest != newest
            else api.season_name("NBA", newest))
    assert titles(at) == [f"NBA {span}: latest results"], "every season the chart draws"


def test_a_level_the_endpoint_skips_shows_the_games_own_events(dashboard_env: ApiServer) -> None:
    """The playbyplay endpoint does not serve EuroBB (docs/api/index.md), but its game details hold the
    events with the running score: the page shows those instead of the endpoint's refusal."""
    assert not api.level_serves("EuroBB", "playbyplay")
    game = _final_game("EuroBB")
    held = len(api.game("EuroBB", game).get("playbyplay") or [])
    at = open_page("playbyplay", {"level": "EuroBB", "game": str(game), "tab": "Events"})
    assert_clean(at)
    assert not at.error
    assert held > 0 and len(at.dataframe[0].value) == held
    story = open_page("playbyplay", {"level": "EuroBB", "game": str(game)})
    assert story.tabs[0].label == "Score over the game", "no win probability served for EuroBB"
    assert titles(story) == [f"{_scope('EuroBB', game)}: score and difference over the game"]


def test_each_plate_appearance_says_how_it_ended(dashboard_env: ApiServer) -> None:
    game = int(api.games("MLB", status="final", size=1).frame.iloc[0]["ID"])
    at = open_page("playbyplay", {"level": "MLB", "game": str(game), "tab": "Pitches per plate appearance"})
    assert_clean(at)
    table = at.dataframe[0].value
    assert (table["Outcome"] != "").all(), "every plate appearance matched to the play that ended it"
    last_name = table["Batter"].str.split().str[-1]
    assert all(name in outcome for name, outcome in zip(last_name, table["Outcome"], strict=True))
    assert any("Pitch codes: **B** ball" in c.value for c in at.caption)
