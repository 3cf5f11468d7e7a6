"""Play-by-play page: a game from the URL, filtered events, score chart, pitches per PA."""
from __future__ import annotations

from services import api
from tests.dashboard._apptest import assert_clean, open_page, titles
from tests.dashboard.conftest import ApiServer


def _final_game(level: str) -> int:
    games = api.games(level, size=20).frame
    final = games[games["GameStatus"].astype(str).str.startswith("Final")]
    return int(final.iloc[0]["ID"])


def test_game_events_and_charts(dashboard_env: ApiServer) -> None:
    game = _final_game("MLB")
    at = open_page("playbyplay", {"level": "MLB", "game": str(game)})
    assert_clean(at)
    assert at.number_input(key="game").value == game
    assert "Score and difference over the game" in titles(at)
    assert "Pitches per plate appearance" in titles(at)
    everything = len(at.dataframe[0].value)
    scoring = open_page("playbyplay", {"level": "MLB", "game": str(game), "scoring": "true"})
    assert scoring.checkbox(key="scoring").value is True
    assert len(scoring.dataframe[0].value) <= everything


def test_no_game_offers_a_pick_list(dashboard_env: ApiServer) -> None:
    at = open_page("playbyplay", {"level": "NBA"})
    assert_clean(at)
    assert at.info and at.dataframe
