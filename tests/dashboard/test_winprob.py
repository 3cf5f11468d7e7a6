"""The win probability chart of a game: the play-by-play page and the game page draw the line from
the pre-game forecast to the result, the home side shaded above 50%, the play on hover, the five
largest swings marked and listed with their WPA; soccer draws its three outcomes."""
from __future__ import annotations

from typing import Any

from services import api
from services.client import fetch
from tests.dashboard._apptest import _decoded, assert_clean, figures, open_page, titles
from tests.dashboard.conftest import ApiServer

CHART = "Win probability"


def _final_game(level: str) -> dict[str, Any]:
    game: dict[str, Any] = api.games(level, status="final", size=1).frame.iloc[0].to_dict()
    return game


class _Trace:
    """One trace of the chart, its arrays decoded."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.name, self.mode, self.fill = spec.get("name"), spec.get("mode"), spec.get("fill")
        self.fillcolor = spec.get("fillcolor")
        self.y = _decoded(spec.get("y"))
        self.text = _decoded(spec.get("text")) if not isinstance(spec.get("text"), str) else []


class _Chart:
    def __init__(self, spec: dict[str, Any]) -> None:
        self.data = [_Trace(t) for t in spec.get("data", [])]


def _chart(at: Any) -> _Chart:
    return _Chart(figures(at)[titles(at).index(CHART)])


def test_play_by_play_draws_the_line_and_lists_the_swings(dashboard_env: ApiServer) -> None:
    game = _final_game("MLB")
    at = open_page("playbyplay", {"level": "MLB", "game": str(int(game["ID"]))})
    assert_clean(at)
    fig = _chart(at)
    line = next(t for t in fig.data if str(t.name).endswith("win chance"))
    forecast = float(fetch("forecasts", "MLB", {"id": int(game["ID"])}, version="v2")
                     .frame.iloc[0]["elo.HELOWinExp"])
    assert abs(line.y[0] - forecast) < 0.001, "the line starts at the pre-game forecast"
    home_won = game["ScoreHome"] > game["ScoreVis"]
    assert line.y[-1] == (1.0 if home_won else 0.0), "and ends at the result"
    assert "Pre-game forecast" in line.text[0] and "WPA" in line.text[-1], "the play on hover"
    shaded = {t.name: t.fillcolor for t in fig.data if t.fill == "tonexty"}
    assert set(shaded) == {f"{game['Home']} ahead", f"{game['Visitor']} ahead"}
    marked = next(t for t in fig.data if t.name == "Largest swings")
    assert list(marked.text) == ["1", "2", "3", "4", "5"]
    listed = next(m.value for m in at.markdown if m.value.startswith("| # |"))
    rows = listed.strip().splitlines()[2:]
    assert len(rows) == 5
    wpa = [abs(float(r.split("|")[5])) for r in rows]
    assert wpa == sorted(wpa, reverse=True) and wpa[0] > 0, "biggest swing first, by WPA"


def test_game_page_draws_the_line(dashboard_env: ApiServer) -> None:
    game = _final_game("MLB")
    at = open_page("games", {"level": "MLB", "game": str(int(game["ID"]))})
    assert_clean(at)
    assert CHART in titles(at)
    assert any("Largest swings" in m.value for m in at.markdown)


def test_soccer_draws_three_outcomes(dashboard_env: ApiServer) -> None:
    game = _final_game("FC")
    at = open_page("playbyplay", {"level": "FC", "game": str(int(game["ID"]))})
    assert_clean(at)
    fig = _chart(at)
    names = [t.name for t in fig.data if t.mode == "lines"]
    assert names == [game["Home"], "Draw", game["Visitor"]]
    home, draw, away = (t.y for t in fig.data if t.mode == "lines")
    assert all(abs(h + d + a - 1.0) < 0.002 for h, d, a in zip(home[1:], draw[1:], away[1:]))
