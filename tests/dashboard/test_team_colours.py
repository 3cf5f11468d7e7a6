"""Two teams in one chart never share a colour, on every chart that draws teams: ELO over a
season (Ratings, Compare), playoff odds (Projections), a game's score and win probability (a game's
charts, play-by-play). Eight teams at once on the pickers that take eight, so that names whose
own colours coincide meet in one chart."""
from __future__ import annotations

from typing import Any

import pytest

from services import api
from tests.dashboard._apptest import assert_clean, figures, open_page
from tests.dashboard.conftest import ApiServer

LEVEL = "MLB"
MANY = 8  # the most teams a teams picker takes (components/filters.py)


def _colour(trace: dict[str, Any]) -> object:
    """The colour a trace shows its team in: its line's, its markers', or its shading's."""
    return (trace.get("line") or {}).get("color") or (trace.get("marker") or {}).get("color") \
        or trace.get("fillcolor")


def _team_colours(fig: dict[str, Any], teams: set[str]) -> dict[str, set[object]]:
    """Team -> the colours of the traces named after it ("Texas Rangers", "Texas Rangers favoured")."""
    out: dict[str, set[object]] = {}
    for trace in fig.get("data", []):
        name = str(trace.get("name") or "").removesuffix(" favoured")
        if name in teams:
            out.setdefault(name, set()).add(_colour(trace))
    return out


def _season() -> int:
    return next(s for s in api.season_ids(LEVEL, with_games=True) if len(api.elo(LEVEL, season=s)) >= MANY)


def _game() -> int:
    return int(api.games(LEVEL, status="final", size=1).frame.iloc[0]["ID"])


def _views() -> dict[str, tuple[str, dict[str, str | list[str]]]]:
    season = _season()
    names = sorted(api.teams(LEVEL, season)["Name"].astype(str))[:MANY]
    projected = sorted(api.projections(LEVEL, season=season).frame["Team"].astype(str))[:MANY]
    game = str(_game())
    return {
        "ratings": ("ratings", {"level": LEVEL, "season": str(season), "teams": names, "tab": "Over the season",
                                "rating_seasons": [str(season)]}),
        "compare": ("compare", {"level": LEVEL, "compare": "teams", "season": str(season), "teams": names[:4]}),
        "projections": ("projections", {"level": LEVEL, "season": str(season), "teams": projected, "chart": "true"}),
        "game": ("games", {"level": LEVEL, "tab": "Game detail", "game": game, "charts": "true"}),
        "playbyplay": ("playbyplay", {"level": LEVEL, "game": game}),
    }


@pytest.mark.parametrize("view", ["ratings", "compare", "projections", "game", "playbyplay"])
def test_two_teams_in_one_chart_never_share_a_colour(dashboard_env: ApiServer, view: str) -> None:
    page, params = _views()[view]
    at = open_page(page, params)
    assert_clean(at)
    teams = set(api.teams(LEVEL)["Name"].astype(str))
    drawn = [colours for colours in (_team_colours(fig, teams) for fig in figures(at)) if len(colours) >= 2]
    assert drawn, f"{view}: no chart drew two teams"
    for colours in drawn:
        assert all(len(c) == 1 for c in colours.values()), f"{view}: a team drawn in two colours: {colours}"
        each = [next(iter(c)) for c in colours.values()]
        assert len(set(each)) == len(each), f"{view}: two teams share a colour: {colours}"
