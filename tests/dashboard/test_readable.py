"""Simulated levels read for everyone: soccer's records are W-D-L wherever a record is written,
and "a draw counts half" is said only where the games shown hold draws. Empty states say why."""
from __future__ import annotations

import datetime as dt
import json

import pytest

from services import api
from tests.conftest import LiveServer
from tests.dashboard._apptest import assert_clean, figures, open_page, shown, titles
from tests.dashboard.conftest import ApiServer, point_services_at


def _grid(at: object, column: str) -> object:
    return next(g for g in at.dataframe if column in g.value.columns)  # type: ignore[attr-defined]


def test_soccer_records_read_wins_draws_losses(dashboard_env: ApiServer) -> None:
    projected = api.projections("FC").frame
    drawn = projected[(projected["T"] > 0) & (projected["T"] != projected["L"])].iloc[0]  # the order shows
    at = open_page("projections", {"level": "FC"})
    assert_clean(at)
    grid = _grid(at, "Record").value  # type: ignore[attr-defined]
    shown = grid[grid["Team"] == drawn["Team"]].iloc[0]
    assert shown["Record"] == f"{int(drawn['W'])}-{int(drawn['T'])}-{int(drawn['L'])}", (shown["Record"], drawn)
    table = open_page("standings", {"level": "FC"})
    assert_clean(table)
    standings = _grid(table, "W")
    columns = [c for c in standings.value.columns if c in ("W", "T", "L")]  # type: ignore[attr-defined]
    assert columns == ["W", "T", "L"], columns
    config = json.loads(standings.proto.columns)  # type: ignore[attr-defined]
    assert config["T"]["label"] == "D", config.get("T")
    nba = open_page("standings", {"level": "NBA"})
    assert [c for c in _grid(nba, "W").value.columns if c in ("W", "L")] == ["W", "L"]  # type: ignore[attr-defined]


def test_a_draw_counts_half_only_where_draws_are(dashboard_env: ApiServer) -> None:
    said = {}
    for level in ("MLB", "FC"):
        at = open_page("forecasts", {"level": level, "tab": "Calibration"})
        assert_clean(at)
        calibration = next(f for f, t in zip(figures(at), titles(at), strict=True) if ": calibration" in t)
        said[level] = calibration["layout"]["yaxis"]["title"]["text"]
    assert "draw" not in said["MLB"], said
    assert "a draw counts half" in said["FC"], said


def _info(at: object) -> str:
    return " ".join(i.value for i in at.info)  # type: ignore[attr-defined]


def test_projections_say_why_none_answer_for_a_day_before_the_first(dashboard_env: ApiServer) -> None:
    season = next(s for s in reversed(api.season_ids("NBA", with_games=True))
                  if not api.projections("NBA", season=s).frame.empty)
    newest = api.projections("NBA", season=season).frame
    series = api.projections("NBA", season=season, team_id=int(newest.iloc[0]["Team_ID"])).frame
    before = dt.date.fromisoformat(str(series["Date"].min())[:10]) - dt.timedelta(days=1)
    at = open_page("projections", {"level": "NBA", "season": str(season), "asof": before.isoformat()})
    assert_clean(at)
    said = _info(at)
    assert f"No projections as of {before}" in said and str(newest["Date"].max()) in said, said
    assert "start with" not in said, said


def test_projections_say_when_a_season_was_never_projected(live_server: LiveServer, api_key: str,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The small real store holds MLB's games and no projection at all."""
    point_services_at(ApiServer(live_server.base_url, api_key, ""), monkeypatch)
    season = api.season_ids("MLB", with_games=True)[-1]
    assert api.projections("MLB", season=season).frame.empty
    assert not api.games("MLB", season=season, status="final", size=1).frame.empty
    at = open_page("projections", {"level": "MLB", "season": str(season)})
    assert_clean(at)
    said = _info(at)
    assert f"Projections were not computed for the MLB {season} season" in said, said
    assert "start with" not in said, said


def test_a_game_to_come_says_its_box_score_waits_for_it(dashboard_env: ApiServer) -> None:
    game = api.games("NBA", status="scheduled", size=1).frame.iloc[0]
    at = open_page("games", {"level": "NBA", "tab": "Game detail", "game": str(int(game["ID"]))})
    assert_clean(at)
    said = [c.value for c in at.caption if c.value.startswith("No player lines")]
    assert said == ["No player lines yet: the game has not been played."], said


def test_playoff_odds_read_in_one_percent_format(dashboard_env: ApiServer) -> None:
    formats = []
    for page in ("standings", "projections"):
        at = open_page(page, {"level": "MLB"})
        assert_clean(at)
        config = json.loads(_grid(at, "Playoff %").proto.columns)  # type: ignore[attr-defined]
        formats.append(config["Playoff %"]["type_config"])
    assert formats[0] == formats[1], formats


def test_a_game_to_come_says_its_play_by_play_waits_for_it(dashboard_env: ApiServer) -> None:
    game = api.games("NBA", status="scheduled", size=1).frame.iloc[0]
    at = open_page("playbyplay", {"level": "NBA", "game": str(int(game["ID"]))})
    assert_clean(at)
    assert "No play-by-play yet: the game has not been played." in _info(at), _info(at)



def test_a_filter_that_leaves_nothing_says_so(dashboard_env: ApiServer) -> None:
    """Not "no statistics": the season has them, the postseason asked for has not begun (a
    season never tabulated says so instead: ``test_projections_say_when_a_season_was_never_projected``)."""
    season = api.season_ids("NBA", with_games=True)[0]
    # the season under way has its regular-season lines and no postseason yet
    assert api.stats("NBA", "player", "PTS", season=season, phase="postseason").frame.empty
    assert not api.stats("NBA", "player", "PTS", season=season).frame.empty
    leaders = open_page("leaders", {"level": "NBA", "season": str(season), "stat": "PTS", "stat_phase": "Postseason"})
    assert_clean(leaders)
    said = [i.value for i in leaders.main.info]
    why = f"No PTS statistics match your filters (postseason): the NBA {api.season_name('NBA', season)} season has some without them."
    assert said == [why], said
    assert not figures(leaders) and not leaders.dataframe, "nothing drawn: the words say why"


def test_each_cause_of_an_empty_view_reads_its_own_words(dashboard_env: ApiServer) -> None:
    """The causes the small stores cannot show, from seasons as the API lists them: a season
    still loading (a first build), one not started, a day before its first, one of totals."""
    from components.season_facts import Season, said

    def season(**facts: object) -> Season:
        whole = {"id": 2024, "start": dt.date(2024, 3, 28), "games": 2430, "data_end": dt.date(2024, 10, 30),
                 "results_known": True, "loading": "", "holds": {"PlayerPerfs": "Y"}}
        return Season(**{**whole, **facts})  # type: ignore[arg-type]

    def why(found: Season, **asked: object) -> str:
        return said({found.id: found}, "MLB", found.id, "ELO ratings", **asked)  # type: ignore[arg-type]

    assert shown(why(season(loading="MLB 2021-2024 loading, 2 of 4 seasons"))).startswith(
        "Still loading: MLB 2021-2024 loading, 2 of 4 seasons. ")
    assert why(season(games=0)).startswith("The MLB 2024 season has not started: no games are held for it yet")
    assert why(season(data_end=None)).startswith("The MLB 2024 season has not started: none of its 2,430 games")
    assert why(season(), day=dt.date(2024, 3, 1)) == "No ELO ratings as of 2024-03-01: the MLB 2024 season starts on 2024-03-28."
    assert why(season(), filters="team Boston", unfiltered=lambda: True).startswith("No ELO ratings match your filters (team Boston)")
    assert why(season(), computed_by="retabulate").startswith("ELO ratings were not computed for the MLB 2024 season: its 2,430 games")
    totals = season(id=1990, start=None, games=0, data_end=None, holds={"PlayerPerfs": "N"})
    assert why(totals, needs="PlayerPerfs").startswith("The MLB 1990 season holds no game-by-game player lines")
    assert said({}, "MLB", None, "ELO ratings") == "No MLB season is held yet, so no ELO ratings."
