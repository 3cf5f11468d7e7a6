"""Ratings page: ELO rankings and several teams' ELO over a season, all from the URL."""
from __future__ import annotations

from services import api
from tests.dashboard._apptest import assert_clean, figures, open_page, titles
from tests.dashboard.conftest import ApiServer


def _season_with_ratings(level: str) -> int:
    # the newest season may have just begun: take the newest with a full table of ratings
    return next(s for s in api.season_ids(level, with_games=True) if len(api.elo(level, season=s)) >= 4)


def test_rankings_highlight_the_picked_teams(dashboard_env: ApiServer) -> None:
    season = _season_with_ratings("NBA")
    names = sorted(api.teams("NBA", season)["Name"].astype(str))[:2]
    at = open_page("ratings", {"level": "NBA", "season": str(season), "teams": names, "chart": "true"})
    assert_clean(at)
    bars = figures(at)[0]
    newest = api.elo("NBA", season=season)["Date"].max()
    assert titles(at)[0] == f"NBA {api.season_name('NBA', season)}: ELO rankings on {newest}", "the latest rankings name their day"
    shown = list(bars["data"][0]["y"])
    colors = dict(zip(shown, bars["data"][0]["marker"]["color"], strict=True))
    assert len({colors[n] for n in names if n in colors}) == 1
    assert len(set(colors.values())) == 2, "picked teams stand out"
    assert len(at.dataframe[0].value) == len(api.elo("NBA", season=season))
    table_only = open_page("ratings", {"level": "NBA", "season": str(season), "teams": names})
    assert table_only.dataframe and not figures(table_only), "the rankings open on the table, the chart a click below"


def test_elo_series_for_teams_in_the_url(dashboard_env: ApiServer) -> None:
    season = _season_with_ratings("NBA")
    names = sorted(api.teams("NBA", season)["Name"].astype(str))[:2]
    at = open_page("ratings", {"level": "NBA", "season": str(season), "teams": names, "tab": "Over the season",
                               "series_table": "true"})
    assert_clean(at)
    assert at.multiselect(key="teams").value == names
    assert titles(at) == [f"NBA {api.season_name('NBA', season)}: ELO over the season"], "only the open tab is drawn"
    series = figures(at)[0]
    assert {trace["name"] for trace in series["data"]} == set(names)
    assert set(at.dataframe[0].value["Team"]) == set(names)
    chart_only = open_page("ratings", {"level": "NBA", "season": str(season), "teams": names, "tab": "Over the season"})
    assert figures(chart_only) and not chart_only.dataframe, "the series opens on its chart, the games a click below"


def test_snapshot_date_ranks_as_of_that_day(dashboard_env: ApiServer) -> None:
    season = _season_with_ratings("NBA")
    day = str(api.elo("NBA", season=season)["Date"].min())
    at = open_page("ratings", {"level": "NBA", "season": str(season), "snapshot": day, "chart": "true"})
    assert_clean(at)
    assert titles(at) == [f"NBA {api.season_name('NBA', season)}: ELO rankings on {day}"]
    assert at.dataframe, "the snapshot's table"


def test_rpi_offered_for_college_levels(dashboard_env: ApiServer) -> None:
    at = open_page("ratings", {"level": "MBB", "rating": "RPI", "chart": "true"})
    assert_clean(at)
    assert at.selectbox(key="rating").value == "RPI"
    assert titles(at)[0].startswith("MBB ") and "RPI rankings" in titles(at)[0]
    assert "RPI" not in [s.label for s in open_page("ratings", {"level": "NBA"}).selectbox]


def test_two_teams_of_one_chart_never_share_a_colour() -> None:
    from components.charts import team_color, team_colors

    assert team_color("Las Vegas Aces") == team_color("Connecticut Sun"), "the two names hash alike"
    both = team_colors(["Las Vegas Aces", "Connecticut Sun"])
    assert both["Las Vegas Aces"] != both["Connecticut Sun"]
    assert team_colors(["Connecticut Sun", "Las Vegas Aces"]) == both, "whatever order they were picked in"


def test_elo_lines_keep_a_teams_colour_and_span_seasons(dashboard_env: ApiServer) -> None:
    from components.charts import team_colors

    seasons = [str(s) for s in api.season_ids("MLB", with_games=True)[:2]]
    at = open_page("ratings", {"level": "MLB", "tab": "Over the season", "rating_seasons": seasons})
    assert_clean(at)
    lines = figures(at)[0]["data"]
    colors = team_colors([t["name"] for t in lines])
    assert lines and all(t["line"]["color"] == colors[t["name"]] for t in lines)
    assert len({t["line"]["color"] for t in lines}) == len(lines), "two teams never share a colour"
    assert all(" · W " in " ".join(t["text"]) or " · L " in " ".join(t["text"]) for t in lines), \
        "opponent, result and score on hover"
    assert len(figures(at)[0]["layout"]["shapes"]) == 2, "each season's postseason start is marked"
    first = min(lines, key=lambda t: t["name"])  # the first by name keeps its own colour
    profile = open_page("players", {"level": "MLB", "tab": "Teams", "team": first["name"], "team_section": "ELO"})
    assert figures(profile)[0]["data"][0]["line"]["color"] == first["line"]["color"], "the same colour on every page"
