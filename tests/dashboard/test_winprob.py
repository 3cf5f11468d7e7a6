"""The win probability chart of a game: the play-by-play page and the game page draw the line from
the pre-game forecast to the result, the home side shaded above 50% (favoured), by innings, the play on hover, the five
largest swings marked and listed with their WPA; soccer draws its three outcomes."""
from __future__ import annotations

import re
from typing import Any

from services import api
from services.client import fetch
from tests.dashboard._apptest import _decoded, assert_clean, figures, open_page, shown, titles
from tests.dashboard.conftest import ApiServer

CHART = ": win probability"  # after the game's level and season


def _final_game(level: str) -> dict[str, Any]:
    game: dict[str, Any] = api.games(level, status="final", size=1).frame.iloc[0].to_dict()
    return game


class _Trace:
    """One trace of the chart, its arrays decoded."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self.name, self.mode, self.fill = spec.get("name"), spec.get("mode"), spec.get("fill")
        self.fillcolor = spec.get("fillcolor")
        self.y = _decoded(spec.get("y"))
        self.text = _decoded(spec.get("text")) if not isinstance(spec.get("text"), str) else []


class _Chart:
    def __init__(self, spec: dict[str, Any]) -> None:
        self.data = [_Trace(t) for t in spec.get("data", [])]


def _chart(at: Any) -> _Chart:
    return _Chart(next(f for f, t in zip(figures(at), titles(at), strict=True) if t.endswith(CHART)))


def test_play_by_play_draws_the_line_and_lists_the_swings(dashboard_env: ApiServer) -> None:
    game = _final_game("MLB")
    at = open_page("playbyplay", {"level": "MLB", "game": str(int(game["ID"])), "swings": "true"})
    assert_clean(at)
    fig = _chart(at)
    line = next(t for t in fig.data if str(t.name).endswith("win chance"))
    forecast = float(fetch("forecasts", "MLB", {"id": int(game["ID"])}, version="v2")
                     .frame.iloc[0]["elo.HELOWinExp"])
    assert abs(line.y[0] - forecast) < 0.001, "the line starts at the pre-game forecast"
    home_won = game["ScoreHome"] > game["ScoreVis"]
    assert line.y[-1] == (1.0 if home_won else 0.0), "and ends at the result"
    assert "Pre-game forecast" in line.text[0] and "WPA" in line.text[-1], "the play on hover"
    assert re.search(r"WPA [+-]\d\.\d{3}$", line.text[-1]), "in the one unit, a share of a win"
    shaded = {t.name: t.fillcolor for t in fig.data if t.fill == "tonexty"}
    assert set(shaded) == {f"{game['Home']} favoured", f"{game['Visitor']} favoured"}, \
        "the shading is the chance, not the score (a tied game has a favourite)"
    marked = next(t for t in fig.data if t.name == "Largest swings")
    assert list(marked.text) == ["1", "2", "3", "4", "5"]
    assert marked.spec["marker"]["size"] >= 16, "large enough to tap on a phone"
    axis = next(f for f, t in zip(figures(at), titles(at), strict=True) if t.endswith(CHART))["layout"]["xaxis"]
    assert axis["title"]["text"] == "Inning" and list(axis["ticktext"][:3]) == ["1", "2", "3"], \
        "the x axis by innings, as the score chart above it"
    listed = next(shown(m.value) for m in at.markdown if shown(m.value).startswith("| # |"))
    rows = listed.strip().splitlines()[2:]
    assert len(rows) == 5
    wpa = [abs(float(r.split("|")[5])) for r in rows]
    assert wpa == sorted(wpa, reverse=True) and wpa[0] > 0, "biggest swing first, by WPA"


def test_game_page_draws_the_line(dashboard_env: ApiServer) -> None:
    game = _final_game("MLB")
    at = open_page("games", {"level": "MLB", "game": str(int(game["ID"])), "charts": "true", "swings": "true"})
    assert_clean(at)
    assert any(t.endswith(CHART) for t in titles(at))
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


def test_leaders_offer_wpa(dashboard_env: ApiServer) -> None:
    at = open_page("leaders", {"level": "MLB", "stat": "WPA"})
    assert_clean(at)
    assert at.selectbox(key="stat").value == "WPA"
    assert any("Win probability added" in c.value for c in at.caption)
    values = at.dataframe[0].value["Value"]
    assert len(values) > 10 and values.is_monotonic_decreasing
    assert values.iloc[0] > 1.0, "a season's best batter adds more than a win"


def test_player_page_shows_season_wpa_and_biggest_plays(dashboard_env: ApiServer) -> None:
    leader = api.stats("MLB", "player", "WPA", size=1).frame.iloc[0]
    at = open_page("players", {"level": "MLB", "player": str(int(leader["Player_ID"])),
                               "player_season": str(int(leader["Season"])), "section": "Season statistics"})
    assert_clean(at)
    metric = next(m for m in at.metric if m.label.startswith("Win probability added"))
    assert float(metric.value) == round(float(leader["Value"]), 2)
    table = next(m.value for m in at.markdown if m.value.startswith("| GameDay |"))
    rows = table.strip().splitlines()[2:]
    assert len(rows) == 5
    wpa = [abs(float(shown(r.split("|")[5]))) for r in rows]
    assert wpa == sorted(wpa, reverse=True) and wpa[0] > 0.1, "his biggest play moved a tenth of a win"
    # one unit for WPA, a share of a win, on every page: the plays to three places as the season's sum
    assert all(re.fullmatch(r"[+-]\d\.\d{3}", shown(r.split("|")[5]).strip()) for r in rows), rows
    assert any("as a share of a win" in m.value for m in at.markdown)


def test_a_link_with_a_play_rings_it(dashboard_env: ApiServer) -> None:
    game = _final_game("MLB")
    line = api.winprob("MLB", int(game["ID"]))
    play = line.iloc[10]
    at = open_page("playbyplay", {"level": "MLB", "game": str(int(game["ID"])),
                                  "play": str(int(play["Play_ID"]))})
    assert_clean(at)
    assert at.number_input(key="play").value == int(play["Play_ID"])
    ring = next(t for t in _chart(at).data if t.name == "Selected play")
    assert ring.y == [float(play["WP_Home"])]
    assert any(shown(c.value).startswith(f"Play {int(play['Sequence'])}: {play['Explanation']}")
               for c in at.caption)
