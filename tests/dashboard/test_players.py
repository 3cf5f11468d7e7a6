"""Players and teams page: search, profile with game log chart; a team's seasons and ELO."""
from __future__ import annotations

from services import api
from tests.dashboard._apptest import assert_clean, open_page, titles
from tests.dashboard.conftest import ApiServer


def test_player_profile_from_url(dashboard_env: ApiServer) -> None:
    player = api.players("NBA", size=1).frame.iloc[0]
    at = open_page("players", {"level": "NBA", "player": str(int(player["ID"]))})
    assert_clean(at)
    assert at.number_input(key="player").value == int(player["ID"])
    assert any(str(player["Name"]) in s.value for s in at.subheader)
    assert any(t.startswith("Game log") for t in titles(at))


def test_team_profile_from_url(dashboard_env: ApiServer) -> None:
    team = str(api.teams("NBA")["Name"].iloc[0])
    at = open_page("players", {"level": "NBA", "pt_mode": "Teams", "team": team})
    assert_clean(at)
    assert at.selectbox(key="team").value == team
    assert any("wins and losses" in t for t in titles(at))
    assert any("ELO" in t for t in titles(at))
