"""The dashboard over the real data (``real_api``: Retrosheet 2021-2023, Lahman, NBA and NHL
2021-22 and 2022-23, WNBA): every page renders with no error and no None, and the player page's
numbers agree with Leaders for the same season, as an analyst checks them."""
from __future__ import annotations

import datetime as dt
import re

import pandas as pd
import pytest

from server.jobs import evaluate
from server.store.engine import make_engine
from services import api
from tests.dashboard._apptest import assert_clean, open_clean, open_page, printed, titles
from tests.dashboard._apptest import shown as rendered
from tests.dashboard.conftest import ApiServer, point_services_at
from tests.dashboard.test_every_page import PAGES

pytestmark = [pytest.mark.realdata, pytest.mark.slow, pytest.mark.timeout(1800)]

LEVELS = ("MLB", "NBA", "NHL")


@pytest.fixture()
def real_dashboard(real_api: ApiServer, monkeypatch: pytest.MonkeyPatch) -> ApiServer:
    return point_services_at(real_api, monkeypatch)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("page", PAGES)
def test_page_renders_over_real_data(real_dashboard: ApiServer, page: str, level: str) -> None:
    open_clean(page, {"level": level})


def test_the_2023_home_run_leader_as_leaders_and_his_profile_tell_it(real_dashboard: ApiServer) -> None:
    """Leaders' 2023 HR leader: his profile shows the same home runs and no more regular-season
    games than the season has, his game log holds exactly those games, and his Lahman seasons
    show their games (not 0) beside their at-bats."""
    leader = api.stats("MLB", "player", "HR", season=2023, size=1).frame.iloc[0]
    player, home_runs = int(leader["Player_ID"]), float(leader["Value"])
    link = {"level": "MLB", "player": str(player), "player_season": "2023"}
    log, stats, seasons = (next(printed(d) for d in open_clean("players", {**link, **section}).dataframe
                                if has(d.value.columns)) for section, has in (
        ({"log_table": "true"}, lambda c: "Phase" in c), ({"section": "Season statistics"}, lambda c: "Rank" in c),
        ({"section": "Seasons"}, lambda c: "Season" in c and "AVG" in c)))
    for table in (log, stats, seasons):
        assert "None" not in table.astype(str).to_numpy()
    by_stat = stats.set_index("Stat")["Value"]
    assert by_stat.loc["HR"] == f"{home_runs:.0f}"
    games = int(stats["GP"].iloc[0])
    assert games == int(leader["GP"]) and 0 < games <= 162, "Leaders and the profile count the same games"
    assert (log["Phase"] == "Regular season").sum() == games
    assert (log["Phase"] == "Postseason").sum() == log["Playoff"].astype(str).ne("").sum(), \
        "every game of a playoff round is a postseason game"
    said = [m.value for m in open_clean("players", link).markdown]
    assert any(line.startswith(f"- Played {games} games in 2023") for line in said), said[:2]
    assert not [line for line in said if re.search(r"\(-?\d+\.\d{4,}\)", line)], "rates as printed: .389"
    assert seasons.set_index("Season").loc["2023", "HR"] == f"{home_runs:.0f}"
    years = pd.to_numeric(seasons["Season"], errors="coerce")  # the career row is not a year
    earlier = seasons[(years < 2021) & (seasons["AB"].astype(str) != "")]
    assert not earlier.empty, "a 2023 leader has Lahman seasons before 2021"
    assert (earlier["G"].astype(str) != "0").all(), earlier


def test_a_surname_search_ranks_the_exact_surname_first(real_dashboard: ApiServer) -> None:
    at = open_page("players", {"level": "MLB", "q": "Olson"})
    assert_clean(at)
    names = [str(n) for n in at.dataframe[0].value["Name"]]
    assert names and names[0].split()[-1] == "Olson", names[:5]


@pytest.mark.parametrize("level,season", [("MLB", 2022), ("NBA", 2023), ("NHL", 2023)])
def test_regular_season_calibration_reproduces_the_evaluation(real_dashboard: ApiServer, level: str,
                                                             season: int) -> None:
    """The Forecasts page on a season's regular season shows the Brier score that
    ``python -m server evaluate`` (the README's table) gives for the same games."""
    engine = make_engine(real_dashboard.database_url)
    with engine.connect() as conn:
        p, y = evaluate.season_outcomes(conn, level, season)
    engine.dispose()
    at = open_page("forecasts", {"level": level, "fc_seasons": str(season)})
    assert_clean(at)
    shown = {m.label: m.value for m in at.metric}
    assert shown["Games scored"] == f"{len(p):,}"
    assert shown["ELO Brier"] == f"{float(((p - y) ** 2).mean()):.4f}"


def test_mlb_2022_projections_as_of_july_and_at_the_end(real_dashboard: ApiServer) -> None:
    """On 1 July 2022 the odds share out the 12 places of the new format (and 4 byes); at the
    season's end the 12 teams that made it stand at 100 % and the rest at 0."""
    july = open_page("projections", {"level": "MLB", "season": "2022", "asof": "2022-07-01"})
    assert_clean(july)
    table = july.dataframe[0].value
    assert len(table) == 30
    assert table["Playoff %"].sum() == pytest.approx(1200, abs=1.5)  # 30 figures rounded to 0.1
    assert table["Bye %"].sum() == pytest.approx(400, abs=1.5)
    assert table["Title %"].sum() == pytest.approx(100, abs=1.5)
    assert any("As of the end of 2022-07-01" in c.value for c in july.caption)
    end = open_page("projections", {"level": "MLB", "season": "2022"}).dataframe[0].value
    made = end.loc[end["Playoff %"] == 100, "Team"]
    assert len(made) == 12 and (end["Playoff %"].isin([0, 100])).all()
    assert {"Los Angeles Dodgers", "Houston Astros", "New York Yankees", "Atlanta Braves"} <= set(made)


def test_the_pages_count_each_phase_as_the_source_gives_it(real_dashboard: ApiServer) -> None:
    """NBA 2022-23: the Games page's postseason is the 6 play-in and 79 playoff games the results
    file scores plus its 7 unscored Finals rows (No result); the Nuggets' postseason record is
    12-3, and its team page says so beside the regular season's 53-29; the Forecasts page scores 85 postseason games, NHL 88; the page says the data stops."""
    at = open_page("games", {"level": "NBA", "season": "2023", "games_phase": "Postseason", "tab": "Games"})
    assert_clean(at)
    assert any(c.value.startswith("92 games") for c in at.caption), [c.value for c in at.caption]
    listed = at.dataframe[0].value
    assert set(listed["Phase"]) == {"Play-in", "Postseason"}
    assert int((listed["GameStatus"] == "No result").sum()) == 7
    assert any("stops on 29 May 2023" in i.value and "7 games" in i.value for i in at.info)
    # the season said in words as the API names it (services.api.season_name)
    assert any(rendered(i.value).startswith("The NBA 2022-23 data stops on 29 May 2023") for i in at.info)
    nuggets = open_page("games", {"level": "NBA", "season": "2023", "team": "Denver Nuggets",
                                  "games_phase": "Postseason", "tab": "Games"})
    assert_clean(nuggets)
    assert {m.label: m.value for m in nuggets.metric}["Record"] == "12-3"
    team = open_page("players", {"level": "NBA", "tab": "Teams", "team": "Denver Nuggets"})
    assert_clean(team)
    seasons = team.dataframe[0].value
    assert seasons.loc[seasons["Season"] == "2022-23", ["Wins", "Losses", "Postseason"]].values.tolist() == [
        [53, 29, "12-3"]], "the postseason's record beside the regular season's"
    assert any(rendered(c.value).startswith("2022-23: 12-3 in the postseason rounds the data holds; the data stops "
                                  "before the Finals") for c in team.caption), [rendered(c.value) for c in team.caption]
    # a regular season the source stops short of: NHL 2021-22's file has no result for its last 66 games, so
    # the Bruins' 47-25-5 is short of their 51-26-5, and the page says why
    bruins = open_page("players", {"level": "NHL", "tab": "Teams", "team": "Boston Bruins"})
    assert_clean(bruins)
    held = bruins.dataframe[0].value
    assert held.loc[held["Season"] == "2021-22", ["Wins", "Losses", "OTL"]].values.tolist() == [[47, 25, 5]]
    assert [rendered(i.value)[:34] for i in bruins.info] == ["The NHL 2021-22 data stops on 22 A"], \
        [rendered(i.value) for i in bruins.info]
    assert "66 games" in bruins.info[0].value
    play_in = open_page("games", {"level": "NBA", "season": "2023", "games_phase": "Play-in", "tab": "Games"})
    assert any(c.value.startswith("6 games") for c in play_in.caption), "the play-in, a choice of its own"
    assert set(play_in.dataframe[0].value["Phase"]) == {"Play-in"}
    regular = open_page("games", {"level": "NBA", "season": "2023", "games_phase": "Regular season",
                                  "tab": "Games"})
    assert any(c.value.startswith("1,230 games") for c in regular.caption)
    for level, games in (("NBA", "85"), ("NHL", "88")):
        scored = open_page("forecasts", {"level": level, "fc_seasons": "2023", "fc_phase": "Postseason"})
        assert_clean(scored)
        assert {m.label: m.value for m in scored.metric}["Games scored"] == games


def test_leaders_tabulate_the_postseason_apart(real_dashboard: ApiServer) -> None:
    """MLB 2023's postseason home-run leader on Leaders: his postseason games and home runs,
    as his postseason game lines sum them, not his regular season's."""
    at = open_page("leaders", {"level": "MLB", "season": "2023", "stat": "HR", "stat_phase": "Postseason"})
    assert_clean(at)
    top = at.dataframe[0].value.iloc[0]
    lines = real_dashboard.get_json("/v1/playerperfs/MLB/", season=2023, phase="postseason",
                                    player=int(top["Player_ID"]), max=100)["playerperfs"]
    assert int(top["GP"]) == len(lines) and 0 < len(lines) <= 22, "a postseason is at most 22 games"
    assert top["Value"] == sum(line["HR"] for line in lines)
    regular = open_page("leaders", {"level": "MLB", "season": "2023", "stat": "HR"})
    assert int(regular.dataframe[0].value.iloc[0]["GP"]) > 100, "the regular season by default"


@pytest.mark.parametrize("typed", ["Acuna", "acuña"])
def test_a_search_finds_acuna_with_or_without_the_tilde(real_dashboard: ApiServer, typed: str) -> None:
    at = open_page("players", {"level": "MLB", "q": typed})
    assert_clean(at)
    found = at.dataframe[0].value
    assert str(found["Name"].iloc[0]).startswith("Ronald Acu"), list(found["Name"])[:5]


def test_every_plate_appearance_of_a_real_game_says_how_it_ended(real_dashboard: ApiServer) -> None:
    """Toronto at the Angels, 2023-04-08 (ANA202304080): a third of its plate appearances carry
    Retrosheet's markers (``*BCBF1S``, ``CFB1N.S``), and each still shows its outcome; a pickoff
    throw is listed but not counted as a pitch."""
    day = dt.date(2023, 4, 8)
    games = api.games("MLB", start=day, end=day, size=30).frame
    game = games[games["Visitor"].str.contains("Blue Jays") & games["Home"].str.contains("Angels")]
    assert len(game) == 1
    at = open_page("playbyplay", {"level": "MLB", "game": str(int(game["ID"].iloc[0])),
                                  "tab": "Pitches per plate appearance"})
    assert_clean(at)
    table = at.dataframe[0].value
    assert len(table) > 60 and (table["Outcome"] != "").all(), table[table["Outcome"] == ""]
    guerrero = table[(table["Inning"] == 5) & table["Batter"].str.contains("Guerrero")].iloc[0]
    assert guerrero["Sequence"] == "B C B F 1 S" and guerrero["Pitches"] == 5  # play,5,0,guerv002,22,*BCBF1S,K
    assert guerrero["Outcome"] == "Guerrero struck out swinging"


def test_a_players_splits_against_left_and_right_show_the_apis(real_dashboard: ApiServer) -> None:
    """The 2023 home run leader's line against left- and right-handed pitchers, read from the
    play-by-play: the page prints what the API serves, and the two add up to his season."""
    leader = api.stats("MLB", "player", "HR", season=2023, size=1).frame.iloc[0]
    player = int(leader["Player_ID"])
    at = open_page("players", {"level": "MLB", "player": str(player), "player_season": "2023",
                               "section": "Splits", "split": "Against left and right"})
    assert_clean(at)
    heading = next(i for i, m in enumerate(at.markdown) if m.value.startswith("**Batting splits, 2023**"))
    assert "against left and right" in at.markdown[heading].value
    shown = next(printed(d) for d in at.dataframe if list(d.value.columns[:1]) == ["Split"])
    served = api.splits("MLB", "hand", 2023, player_id=player)
    assert list(shown["Split"]) == ["Left-handed", "Right-handed"] and list(served["Value"]) == ["L", "R"]
    for code in ("PA", "AB", "H", "2B", "HR", "RBI", "BB", "SO"):
        assert list(shown[code].astype(int)) == list(served[code]), code
    assert list(shown["AVG"]) == [f"{h / ab:.3f}".lstrip("0") for h, ab in zip(served["H"], served["AB"], strict=True)]
    assert shown["HR"].astype(int).sum() == float(leader["Value"]), "left + right = his season's home runs"


def test_a_pitchers_split_by_hand_leaves_what_a_game_credits_blank(real_dashboard: ApiServer) -> None:
    """Against left- and right-handed batters a pitcher's innings, hits and strikeouts are his
    plays'; W, L, GS, SV, ER and ERA belong to whole games, so the page leaves them blank
    rather than print 0."""
    leader = api.stats("MLB", "player", "OUTS", season=2023, size=1).frame.iloc[0]
    player = int(leader["Player_ID"])
    at = open_page("players", {"level": "MLB", "player": str(player), "player_season": "2023",
                               "section": "Splits", "split": "Against left and right"})
    assert_clean(at)
    shown = next(printed(d) for d in at.dataframe if list(d.value.columns[:2]) == ["Split", "W"])
    served = api.splits("MLB", "hand", 2023, player_id=player)
    assert list(shown["Split"]) == ["Left-handed", "Right-handed"]
    assert (shown[["W", "L", "ERA", "GS", "SV", "ER"]] == "").all().all()
    assert list(shown["SO"].astype(int)) == list(served["K"]) and list(shown["H"].astype(int)) == list(served["HA"])
    outs = sum(int(i.split(".")[0]) * 3 + int(i.split(".")[1]) for i in shown["IP"])
    assert outs == float(leader["Value"]), "left + right = his season's outs"


def test_two_real_careers_compared_from_a_link(real_dashboard: ApiServer) -> None:
    """Compare from a shared link over real data: the 2023 home-run leaders' careers, their
    Lahman seasons (numbers) beside their Retrosheet ones (lines of text), as one chart and one
    table."""
    leaders = api.stats("MLB", "player", "HR", season=2023, size=2).frame
    who = [str(int(i)) for i in leaders["Player_ID"]]
    names = {str(api.player("MLB", int(i)).get("Name")) for i in who}
    chart = open_clean("compare", {"level": "MLB", "who": who})
    assert not chart.dataframe, "the careers' chart first, the season lines a click below"
    at = open_clean("compare", {"level": "MLB", "who": who, "lines": "true"})
    assert titles(at)[0].startswith("MLB ") and ": HR by season, " in titles(at)[0], titles(at)
    seasons = at.dataframe[0].value
    assert set(seasons["Player"]) == names
    assert (pd.to_numeric(seasons["Season"]) < 2021).any(), "the Lahman seasons before Retrosheet's"


def test_namesakes_read_apart_by_seasons_and_team_never_by_id(real_dashboard: ApiServer) -> None:
    """Compare's picker offers the two Buck Freemans of MLB as their seasons and last team, the
    ID in the link alone ("Buck Freeman (1891-1907, BOS)"); a pick keeps its label and the
    address names the ID."""
    found = api.players("MLB", name="Buck Freeman").frame
    assert len(found) == 2, found
    at = open_clean("compare", {"level": "MLB", "who_q": "Buck Freeman"})
    offered = list(at.sidebar.multiselect[0].options)
    expected = sorted(f"Buck Freeman ({r.CareerStart}-{r.CareerEnd}, {r.TeamAbbrev})"
                      if r.CareerStart != r.CareerEnd else f"Buck Freeman ({r.CareerStart}, {r.TeamAbbrev})"
                      for r in found.itertuples())
    assert sorted(offered) == expected and len(set(offered)) == 2, offered
    assert not any(str(i) in " ".join(offered) for i in found["ID"]), offered
    at.sidebar.multiselect[0].select(int(found.iloc[0]["ID"])).run()
    assert at.query_params["who"] == str(int(found.iloc[0]["ID"])), at.query_params  # the ID alone


def test_a_football_league_table_reads_as_football_tables_do(real_dashboard: ApiServer) -> None:
    """Premier League 2022-23 on Standings: draws, goals for and against, goal difference and
    points back from the leader, no games behind; City first on 89, Southampton last on 25."""
    at = open_page("standings", {"level": "FC", "season": "2023"})
    assert_clean(at)
    assert "Premier League" in [h.value for h in at.subheader]
    table = next(t.value for t in at.dataframe if "Manchester City FC" in set(t.value["Team"]))
    assert {"GF", "GA", "GoalDiff", "PointsBack", "Points"} <= set(table.columns)
    assert "GB" not in table.columns and "PointDiff" not in table.columns
    columns = list(table.columns)
    assert columns.index("W") < columns.index("T") < columns.index("L")  # W-D-L, draws labelled D
    first, last = table.iloc[0], table.iloc[-1]
    assert (first["Team"], first["Points"], first["PointsBack"]) == ("Manchester City FC", 89, 0)
    assert (last["Team"], last["Points"], last["GoalDiff"]) == ("Southampton FC", 25, -37)


def test_a_world_series_box_score_reads_as_the_reference_sites_print_it(real_dashboard: ApiServer) -> None:
    """Game 1 of the 2023 World Series (TEX202310270, ../shared/data/retrosheet/postseason/2023/2023WS.EVE):
    info,wp,leclj001 and info,lp,castm002 (Leclerc's postseason before it: one loss, three saves);
    Carter's two doubles (D8/L89XD+, D7/G5); Heim's place in the order taken by a pinch runner, then a
    catcher (sub,smitj007,"Josh H. Smith",1,6,12; sub,hedga001,"Austin Hedges",1,6,2)."""
    day = dt.date(2023, 10, 27)
    game = api.games("MLB", start=day, end=day, size=5).frame.iloc[0]
    at = open_page("games", {"level": "MLB", "game": str(int(game["ID"]))})
    assert_clean(at)
    texts = [rendered(m.value) for m in at.markdown]
    assert "**Decisions:** W: Jose Leclerc (1-1) · L: Miguel Castro (0-1)" in texts
    grids = [d.value for d in at.dataframe]
    batting = [g for g in grids if list(g.columns[:3]) == ["#", "Name", "Pos"]]
    texas = batting[1]
    assert texas["#"].tolist()[:6] == ["1", "2", "3", "4", "5", "6"]
    sixth = texas["Name"].tolist()[5:8]
    assert sixth[0] == "Jonah Heim" and [n.strip() for n in sixth[1:]] == ["Josh Smith", "Austin Hedges"]
    assert all(n != n.strip() for n in sixth[1:]), "who took the place is indented under its starter"
    pitching = [g for g in grids if list(g.columns[:2]) == ["Name", "IP"]]
    assert "Jose Leclerc, W (1-1)" in pitching[1]["Name"].tolist()
    # Arizona's 6th to 8th: each kept a 5-3 lead (holds, with the postseason's count)
    assert {"Ryan Thompson, H (5)", "Joe Mantiply, H (2)", "Kevin Ginkel, H (6)"} <= \
        set(pitching[0]["Name"].tolist())
    notes = [rendered(c.value) for c in at.caption]
    assert any("2B: Evan Carter 2" in n and "HR: Corey Seager, Adolis Garcia" in n for n in notes), notes


def test_a_plays_outs_and_runners_before_it_in_extra_innings(real_dashboard: ApiServer) -> None:
    """Toronto at the Angels, 2023-04-09 (ANA202304090), the 10th: radj,biggc002,2 then
    play,10,0,kirka001,32,....FBBFFBX,63/G6.2-3 (nobody out, the runner placed on second) and
    play,10,0,kierk001,01,SX,DGR/F9LD.3-H(UR) (one out, a runner on third; 11-10 after it)."""
    day = dt.date(2023, 4, 9)
    games = api.games("MLB", start=day, end=day, size=30).frame
    game = games[games["Visitor"].str.contains("Blue Jays") & games["Home"].str.contains("Angels")]
    at = open_page("playbyplay", {"level": "MLB", "game": str(int(game["ID"].iloc[0])), "period": "Top 10",
                                  "tab": "Events"})
    assert_clean(at)
    events = at.dataframe[0].value
    kirk = events[events["Player"].str.contains("Kirk")].iloc[0]
    kiermaier = events[events["Player"].str.contains("Kiermaier")].iloc[0]
    assert (kirk["Outs"], kirk["RoB"]) == ("0", "-2-")
    assert (kiermaier["Outs"], kiermaier["RoB"], kiermaier["Score after"]) == ("1", "--3", "11-10")
    assert kiermaier["WPA batter"].startswith("+") and kiermaier["WPA pitcher"].startswith("-")


def test_leaders_of_a_season_of_results_alone_say_its_source_has_no_player_lines(real_dashboard: ApiServer) -> None:
    """NBA 2022-23 holds FiveThirtyEight's results alone: its player leaders are empty because the
    source has no player lines, not for want of a re-tabulation (which would make none)."""
    at = open_page("leaders", {"level": "NBA", "season": "2023"})
    assert_clean(at)
    said = " ".join(i.value for i in at.info)
    assert "holds no game-by-game player lines (its source has none)" in said, said
    assert "retabulate" not in said, said


def test_a_name_two_clubs_share_reaches_todays_and_the_other_is_a_choice(real_dashboard: ApiServer) -> None:
    """MLB holds two Baltimore Orioles, today's and the National League club of the 1890s: a link
    naming the team reaches today's (its forecasts: 324 regular-season games of 2022-2023), and the old club
    is a choice of its own, labelled with its abbreviation."""
    scored = open_page("forecasts", {"level": "MLB", "team": "Baltimore Orioles"})
    assert_clean(scored)
    assert {m.label: m.value for m in scored.metric}["Games scored"] == "324"
    picked_from = scored.selectbox(key="team").options  # the chosen seasons' 30 clubs, not 120
    assert len(picked_from) == 30 and "Cleveland Guardians" in picked_from
    old = open_page("players", {"level": "MLB", "tab": "Teams", "team": "Baltimore Orioles (BLN)"})
    assert_clean(old)
    assert "Baltimore Orioles (BLN)" in old.selectbox(key="team").options
    seasons = old.dataframe[0].value["Season"].astype(int)
    assert seasons.min() >= 1882 and seasons.max() <= 1899, list(seasons)
