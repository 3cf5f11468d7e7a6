"""A baseball player's seasons as analysts read them: the batting and pitching lines in their
order, his own line first, a career row summed from the seasons with its rates recomputed, 0
where a count is 0, rates printed .311, 1.111 and 3.45, a caption naming every column."""
from __future__ import annotations

import re

import pandas as pd
from streamlit.testing.v1 import AppTest

from services import api
from tests.dashboard._apptest import assert_clean, open_page, printed
from tests.dashboard.conftest import ApiServer

BATTING = ("G", "PA", "AB", "R", "H", "2B", "3B", "HR", "RBI", "SB", "BB", "SO", "AVG", "OBP", "SLG", "OPS")
PITCHING = ("W", "L", "ERA", "G", "GS", "SV", "IP", "H", "R", "ER", "HR", "BB", "SO", "WHIP")
THREE = re.compile(r"^(\d+)?\.\d{3}$")  # .311, 1.111
TWO = re.compile(r"^\d+\.\d{2}$")  # 3.45
WHIP = re.compile(r"^\d+\.\d{3}$")  # 1.084 and 0.950, as Baseball-Reference prints WHIP
# the sites' metrics after each line, from the season's run environment (the demo's MLB plays)
BATTING_METRICS = ("ISO", "BABIP", "K%", "BB%", "wOBA", "OPS+", "wRC+")
PITCHING_METRICS = ("FIP", "xFIP", "ERA+", "PK%", "PBB%")
WHOLE = re.compile(r"^\d+$")  # wRC+ 207
PERCENT = re.compile(r"^\d+\.\d%$")  # K% 25.1%


def _leader(code: str) -> tuple[int, int]:
    season = api.season_ids("MLB", with_games=True)[0]
    row = api.stats("MLB", "player", code, season=season, size=1).frame.iloc[0]
    return int(row["Player_ID"]), season


def _line_tables(at: AppTest) -> dict[str, pd.DataFrame]:
    """The page's season-line tables by their heading's first word (Batting, Pitching), in
    page order."""
    headings = [m.value for m in at.markdown if " by season** (regular season)" in m.value]
    tables = [printed(d) for d in at.dataframe if "Season" in d.value.columns and "Team" in d.value.columns
              and "Career" in set(d.value["Season"].astype(str))]
    assert len(headings) == len(tables), (headings, [list(t.columns) for t in tables])
    return {h.strip("*").split()[0]: t for h, t in zip(headings, tables, strict=True)}


def _career_totals(player: int) -> dict[str, float]:
    """The player's regular-season totals summed over every season the API lists."""
    out: dict[str, float] = {}
    for season in api.player("MLB", player).get("seasons") or []:
        for code, value in (season.get("Stats") or {}).items():
            out[code] = out.get(code, 0.0) + float(value)
    return out


def test_a_hitter_reads_his_batting_line_first_with_a_true_career_row(dashboard_env: ApiServer) -> None:
    player, season = _leader("HR")
    at = open_page("players", {"level": "MLB", "player": str(player), "player_season": str(season),
                               "section": "Seasons"})
    assert_clean(at)
    lines = _line_tables(at)
    assert next(iter(lines)) == "Batting", "a hitter's batting line comes first"
    batting = lines["Batting"]
    assert list(batting.columns) == ["Season", "Team", *BATTING, *BATTING_METRICS]
    assert (batting[list(BATTING)] != "").all().all(), "a count of 0 reads 0, never a blank"
    metrics = batting[batting["Season"] == str(season)].iloc[0]
    assert THREE.match(metrics["wOBA"]) and WHOLE.match(metrics["wRC+"]), metrics.to_dict()
    assert PERCENT.match(metrics["K%"]) and WHOLE.match(metrics["OPS+"]), metrics.to_dict()
    assert batting.iloc[-1][list(BATTING_METRICS)].eq("").all(), "a career's metrics are blank"
    seasons, career = batting.iloc[:-1], batting.iloc[-1]
    for code in ("PA", "AB", "R", "H", "2B", "3B", "HR", "RBI", "SB", "BB", "SO"):
        assert int(career[code]) == seasons[code].astype(int).sum(), code
    totals = _career_totals(player)
    assert int(career["H"]) == totals["H"] and int(career["AB"]) == totals["AB"]
    avg = totals["H"] / totals["AB"]
    obp = (totals["H"] + totals["BB"] + totals.get("HBP", 0)) / (
        totals["AB"] + totals["BB"] + totals.get("HBP", 0) + totals.get("SF", 0))
    slg = (totals["H"] + totals.get("2B", 0) + 2 * totals.get("3B", 0) + 3 * totals["HR"]) / totals["AB"]
    assert career["AVG"] == f"{avg:.3f}".lstrip("0"), "the career average is H / AB of the summed line"
    assert career["OBP"] == f"{obp:.3f}".lstrip("0") and career["SLG"] == f"{slg:.3f}".lstrip("0")
    assert float(career["OPS"]) == float(f"{obp + slg:.3f}")
    for code in ("AVG", "OBP", "SLG", "OPS"):
        assert batting[code].map(lambda v: bool(THREE.match(v))).all(), batting[code].tolist()
    # a click on a heading sorts numbers, never text ("98" above "131"), each printed as above
    data = next(d.value for d in at.dataframe if "Career" in set(d.value["Season"].astype(str)))
    for code in (*BATTING, "wOBA", "OPS+"):
        assert data[code].dtype.kind in "if", f"{code} is {data[code].dtype}, not numbers"
    by_ops = data.iloc[:-1].sort_values("OPS", ascending=False)
    assert [float(v) for v in batting.loc[by_ops.index, "OPS"]] == sorted(
        [float(v) for v in batting.loc[by_ops.index, "OPS"]], reverse=True)
    caption = next(c.value for c in at.caption if c.value.startswith("G games played"))
    assert all(re.search(rf"(^|[ (/+]){re.escape(code)}\b", caption) for code in BATTING), caption
    statistics = open_page("players", {"level": "MLB", "player": str(player), "player_season": str(season),
                                       "section": "Season statistics"})
    ranked = next(d.value for d in statistics.dataframe if {"Stat", "Rank"} <= set(d.value.columns))
    assert list(ranked["Stat"][:3]) == ["PA", "AB", "R"], "a hitter's ranks open on his batting line"


def test_a_pitcher_reads_his_pitching_line_first(dashboard_env: ApiServer) -> None:
    player, season = _leader("OUTS")
    at = open_page("players", {"level": "MLB", "player": str(player), "player_season": str(season),
                               "section": "Seasons"})
    assert_clean(at)
    lines = _line_tables(at)
    assert next(iter(lines)) == "Pitching", "a pitcher's pitching line comes first"
    pitching = lines["Pitching"]
    assert list(pitching.columns) == ["Season", "Team", *PITCHING, *PITCHING_METRICS]
    metrics = pitching[pitching["Season"] == str(season)].iloc[0]
    assert TWO.match(metrics["FIP"]) and WHOLE.match(metrics["ERA+"]), metrics.to_dict()
    data = next(d.value for d in at.dataframe if "Career" in set(d.value["Season"].astype(str)))
    for code in ("IP", "ERA", "WHIP", "FIP", "ERA+"):
        assert data[code].dtype.kind in "if", f"{code} is {data[code].dtype}, not numbers"
    assert (pitching[[c for c in PITCHING if c not in ("ERA", "WHIP")]] != "").all().all()
    seasons, career = pitching.iloc[:-1], pitching.iloc[-1]
    totals = _career_totals(player)
    for label, code in (("H", "HA"), ("R", "RA"), ("ER", "ER"), ("HR", "HRA"), ("BB", "BBA"), ("SO", "K")):
        assert int(career[label]) == totals.get(code, 0) == seasons[label].astype(int).sum(), label
    outs = int(totals["OUTS"])
    assert career["IP"] == f"{outs // 3}.{outs % 3}", "innings in thirds"
    assert career["ERA"] == f"{27 * totals.get('ER', 0) / outs:.2f}", "ERA from the summed line"
    assert career["WHIP"] == f"{3 * (totals.get('BBA', 0) + totals.get('HA', 0)) / outs:.3f}"
    for code, pattern in (("ERA", TWO), ("WHIP", WHIP)):
        assert all(pattern.match(v) for v in pitching[code]), pitching[code].tolist()
    games = [int(s.get("PitchingGames") or 0) for s in api.player("MLB", player).get("seasons") or []]
    assert int(career["G"]) == sum(games) > 0, "G counts the games he pitched in"
    statistics = open_page("players", {"level": "MLB", "player": str(player), "player_season": str(season),
                                       "section": "Season statistics"})
    ranked = next(d.value for d in statistics.dataframe if {"Stat", "Rank"} <= set(d.value.columns))
    assert list(ranked["Stat"][:3]) == ["W", "L", "ERA"], "a pitcher's ranks open on his pitching line"



def _split_tables(at: AppTest) -> dict[str, pd.DataFrame]:
    """The page's split tables by their heading's first word (Batting, Pitching)."""
    headings = [m.value for m in at.markdown if " splits, " in m.value]
    tables = [printed(d) for d in at.dataframe if list(d.value.columns[:1]) == ["Split"]]
    assert len(headings) == len(tables) > 0, (headings, len(tables))
    return {h.strip("*").split()[0]: t for h, t in zip(headings, tables, strict=True)}


def test_a_players_splits_show_what_the_api_serves(dashboard_env: ApiServer) -> None:
    player, season = _leader("HR")
    at = open_page("players", {"level": "MLB", "player": str(player), "player_season": str(season),
                               "section": "Splits", "split": "By month"})
    assert_clean(at)
    batting = _split_tables(at)["Batting"]
    assert list(batting.columns) == ["Split", *BATTING], "the season line's columns"
    served = api.splits("MLB", "month", season, player_id=player)
    assert len(batting) == len(served)
    for (_, shown), (_, part) in zip(batting.iterrows(), served.iterrows(), strict=True):
        assert shown["Split"] == pd.Timestamp(f"{part['Value']}-01").strftime("%B %Y")
        assert [int(shown[c]) for c in ("G", "PA", "AB", "H", "HR", "BB", "SO")] == \
            [int(part[c]) for c in ("G", "PA", "AB", "H", "HR", "BB", "SO")]
        assert shown["AVG"] == (f"{part['H'] / part['AB']:.3f}".lstrip("0") if part["AB"] else "")
    seasons = open_page("players", {"level": "MLB", "player": str(player), "player_season": str(season),
                                    "section": "Seasons"})
    season_line = _line_tables(seasons)["Batting"].set_index("Season").loc[str(season)]
    assert sum(batting["HR"].astype(int)) == int(season_line["HR"]), "the months add up to the season"


def test_a_teams_splits_show_home_and_away_as_the_api_serves_them(dashboard_env: ApiServer) -> None:
    season = api.season_ids("MLB", with_games=True)[1]  # a whole season
    teams = api.teams("MLB")
    # a team that played at home and away (the small demo's schedules are short)
    team, served = next((t, parts) for t, parts in (
        (t, api.splits("MLB", "homeaway", season, team_id=int(t["ID"]))) for _, t in teams.iterrows())
        if len(parts) == 2)
    at = open_page("players", {"level": "MLB", "tab": "Teams", "team": str(team["Name"]),
                               "team_season": str(season), "team_section": "Splits",
                               "split": "Home and away"})
    assert_clean(at)
    tables = _split_tables(at)
    assert list(tables) == ["Batting", "Pitching"]
    assert list(tables["Batting"]["Split"]) == ["Home", "Away"] == [v.title() for v in served["Value"]]
    assert list(tables["Batting"]["HR"].astype(int)) == list(served["HR"])
    assert list(tables["Pitching"]["SO"].astype(int)) == list(served["K"]), "pitching SO: strikeouts thrown"


def _traded_hitter() -> tuple[int, dict[str, object]]:
    """A demo hitter who played for two teams in a season, and that season's total."""
    for season in api.season_ids("MLB", with_games=True):
        for pid in api.stats("MLB", "player", "PA", season=season, size=300).frame["Player_ID"]:
            detail = api.player("MLB", int(pid))
            if detail.get("totals"):
                return int(pid), detail["totals"][0]
    raise AssertionError("no traded hitter in the demo")


def test_a_traded_season_reads_its_total_above_its_teams(dashboard_env: ApiServer) -> None:
    """Baseball-Reference's way: the season's line over both teams ("2 teams", with the season's
    metrics) above a line per team; the career row counts each game once."""
    player, total = _traded_hitter()
    at = open_page("players", {"level": "MLB", "player": str(player), "section": "Seasons"})
    assert_clean(at)
    batting = _line_tables(at)["Batting"]
    season = batting[batting["Season"] == str(total["Season"])]
    assert season["Team"].iloc[0] == f"{total['Teams']} teams" and len(season) == int(total["Teams"]) + 1
    whole, teams = season.iloc[0], season.iloc[1:]
    for code in ("PA", "H", "HR"):
        assert int(whole[code]) == teams[code].astype(int).sum() == int(total["Stats"].get(code, 0)), code
    assert WHOLE.match(whole["OPS+"]) and THREE.match(whole["wOBA"]), whole.to_dict()
    career = batting.iloc[-1]
    lines = batting[(batting["Season"] != "Career") & ~batting["Team"].str.endswith(" teams")]
    assert int(career["PA"]) == lines["PA"].astype(int).sum(), "each game counted once"
