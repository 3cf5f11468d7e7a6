"""openfootball league files: parsing (rounds, extra time, shoot-outs, games to come), one club
one ID through the alias table, re-runs, operator errors; and the real files whole."""
from __future__ import annotations

import datetime as dt
import itertools
import json
import re
from pathlib import Path

import pytest
import sqlalchemy as sa

from server.catalog.football import clubs
from server.errors import UserError
from server.ingest.football import openfootball as of
from server.ingest.football import spi
from server.store import schema
from tests.fixtures.digest import store_checksum
from tests.server.models import realdata

DATA = realdata.DATA / "soccer" / "openfootball"  # ../shared/data, beside the checkout
SPI = DATA.parent / "fivethirtyeight"
FIRST_ROUND = re.compile(r"(?:^|\D)(?:Matchday 1|1\. Round)$")  # not "21. Round"


def _match(rnd: str, day: str, home: str, away: str, **score: list[int]) -> dict[str, object]:
    return {"round": rnd, "date": day, "time": "15:00", "team1": home, "team2": away,
            "score": score}


def _league_file(tmp_path: Path) -> Path:
    folder = tmp_path / "2022-23"
    folder.mkdir()
    path = folder / "en.2.json"
    path.write_text(json.dumps({"name": "English Championship 2022/23", "matches": [
        _match("Matchday 1", "2022-07-29", "Huddersfield Town AFC", "Burnley FC",
               ht=[0, 1], ft=[0, 1]),
        # the same club spelt two ways is one club
        _match("Matchday 2", "2022-08-06", "Burnley FC", "Huddersfield Town",
               ht=[1, 1], ft=[2, 2]),
        {"stage": "Playoffs", "date": "2023-05-27", "team1": "Coventry City FC",
         "team2": "Luton Town FC", "score": {"ht": [0, 1], "ft": [1, 1], "et": [1, 1],
                                              "p": [5, 6]}},
        _match("Matchday 46", "2099-05-08", "Burnley FC", "Coventry City FC"),
        _match("Matchday 45", "2023-05-01", "Luton Town FC", "Burnley FC"),
    ]}), encoding="utf-8")
    return path


def _games(engine: sa.Engine) -> list[sa.Row[tuple[object, ...]]]:
    g = schema.games.c
    with engine.connect() as conn:
        return list(conn.execute(sa.select(g.game_day, g.home_id, g.visitor_id, g.score_home,
                                           g.score_vis, g.state, g.phase, g.playoff, g.overtime,
                                           g.winner_id, g.game_status, g.season)
                                 .order_by(g.game_day)).all())


def test_matches_become_games_with_phases_extra_time_and_shootouts(
        engine: sa.Engine, tmp_path: Path) -> None:
    assert of.ingest(engine, [_league_file(tmp_path)]) == 5
    games = _games(engine)
    first, second, unplayed, final_, future = games
    assert first.season == 2023 and (first.score_home, first.score_vis) == (0, 1)
    assert first.home_id == second.visitor_id  # Huddersfield, spelt two ways, one club
    assert second.winner_id is None and second.state == "final"
    assert (final_.phase, final_.playoff, final_.overtime) == ("postseason", "Playoffs", "PSO")
    assert (final_.score_home, final_.score_vis) == (1, 1)
    assert final_.winner_id == final_.visitor_id and final_.game_status == "Final (pens)"
    assert (unplayed.state, unplayed.game_status) == ("noresult", "No result")
    assert future.state == "scheduled" and first.phase == "regular"
    with engine.connect() as conn:
        sub = conn.execute(sa.select(schema.sublevels.c.name, schema.sublevels.c.league_type,
                                     schema.sublevels.c.nation)).all()
        clubs_stored = conn.execute(sa.select(sa.func.count()).select_from(schema.teams)).scalar()
    assert sub == [("EFL Championship", "Domestic", "England")] and clubs_stored == 4


def test_rerun_changes_nothing(engine: sa.Engine, tmp_path: Path) -> None:
    path = _league_file(tmp_path)
    of.ingest(engine, [path])
    before = store_checksum(engine)
    of.ingest(engine, [path])
    assert store_checksum(engine) == before


def test_an_unknown_club_is_an_error_naming_it_and_loads_nothing(
        engine: sa.Engine, tmp_path: Path) -> None:
    path = _league_file(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["matches"][0]["team1"] = "Huddersfeld Town"
    path.write_text(json.dumps(data), encoding="utf-8")
    before = store_checksum(engine)
    with pytest.raises(UserError, match="Huddersfeld Town"):
        of.ingest(engine, [path])
    assert store_checksum(engine) == before


def test_a_file_outside_a_season_folder_is_a_user_error(tmp_path: Path) -> None:
    path = tmp_path / "en.1.json"
    path.write_text('{"matches": []}', encoding="utf-8")
    with pytest.raises(UserError, match="season"):
        of.read_file(path)


@pytest.mark.realdata
def test_every_club_name_in_the_files_is_in_the_alias_table() -> None:
    files = sorted(DATA.glob("20*/*.json"))
    if not files:
        pytest.skip("../shared/data/soccer not present")
    known = clubs()
    names = {m[k] for p in files if of.FILE_NAME.fullmatch(p.name)
             for m in json.loads(p.read_text(encoding="utf-8"))["matches"]
             for k in ("team1", "team2")}
    assert sorted(names - set(known)) == []
    assert len({known[n].key for n in names}) < len(names)  # spellings do merge


@pytest.mark.realdata
def test_each_finished_league_season_is_a_double_round_robin_of_one_id_per_club() -> None:
    """Every club of a complete league season plays every other twice in the league rounds:
    a club split in two by its spellings would play half as many."""
    for season in ("2021-22", "2022-23", "2023-24"):
        for path in sorted((DATA / season).glob("*.json")):
            league = [m for m in of.read_file(path) if m.phase == "regular"]
            if path.name == "at.1.json":  # Austria splits into two groups of six after 22 rounds
                groups = [m for m in league if int(m.round.split()[-1]) > 22]
                assert len(groups) == 2 * 6 * 5, path  # each group a double round robin
                league = [m for m in league if int(m.round.split()[-1]) <= 22]
            pairs = {(m.home.key, m.visitor.key) for m in league}
            teams = {c for p in pairs for c in p}
            n = len(teams)
            assert len(pairs) == n * (n - 1), (path, n, len(pairs))


@pytest.mark.realdata
def test_no_league_match_is_dated_before_its_season_began() -> None:
    """A league's rounds are played in order: no match is dated before the first round's first
    day (a postponed match comes later, never earlier). League One 2025-26's file dates rounds
    24 to 46 a year early; the declared correction puts them in 2026."""
    files = sorted(p for p in DATA.glob("20*/*.json") if of.FILE_NAME.fullmatch(p.name))
    if not files:
        pytest.skip("../shared/data/soccer not present")
    early = {}
    for path in files:
        matches = [m for m in of.read_file(path) if m.phase == "regular"]
        firsts = [m.day for m in matches if FIRST_ROUND.search(m.round)]
        if firsts:
            before = [m for m in matches if m.day < min(firsts)]
            if before:
                early[str(path.relative_to(DATA))] = len(before)
    assert early == {}
    league_one = [m.day for m in of.read_file(DATA / "2025-26" / "en.3.json")]
    assert min(league_one) >= dt.date(2025, 8, 1) and max(league_one) <= dt.date(2026, 5, 31)


@pytest.mark.realdata
def test_a_club_keeps_its_id_when_a_later_file_spells_it_long() -> None:
    """From one season to the next a league changes only the clubs promotion and relegation
    move (a top flight at most 4, a lower league, moved both ways, at most 7): a club whose
    later files spell it long ("Olympique de Marseille", "Sport Lisboa e Benfica") but that the
    table held as two clubs would show up as one more newcomer."""
    clubs_in: dict[str, dict[str, set[str]]] = {}
    for path in sorted(DATA.glob("20*/*.json")):
        if of.FILE_NAME.fullmatch(path.name) and not path.name.startswith("uefa"):
            season = clubs_in.setdefault(path.stem, {}).setdefault(path.parent.name, set())
            season.update(c.key for m in of.read_file(path) for c in (m.home, m.visitor))
    if not clubs_in:
        pytest.skip("../shared/data/soccer not present")
    for league, seasons in clubs_in.items():
        order = sorted(seasons)
        most = 4 if league.endswith(".1") else 7
        for before, after in itertools.pairwise(order):
            newcomers = seasons[after] - seasons[before]
            assert len(newcomers) <= most, (league, after, sorted(newcomers))


SPI_HEADER = ("season,date,league_id,league,team1,team2,spi1,spi2,prob1,prob2,probtie,"
              "proj_score1,proj_score2,importance1,importance2,score1,score2,xg1,xg2,nsxg1,"
              "nsxg2,adj_score1,adj_score2\n")


def _spi_file(tmp_path: Path, *rows: str) -> Path:
    path = tmp_path / "spi_matches_latest.csv"
    path.write_text(SPI_HEADER + "".join(r + "\n" for r in rows), encoding="utf-8")
    return path


def _spi_row(day: str, league: str, home: str, away: str, probs: str, score: str) -> str:
    """A row in FiveThirtyEight's layout: probs "home,away,draw", score "h,a" or ",". """
    return f"2022,{day},2411,{league},{home},{away},60.1,55.2,{probs},1.3,1.1,30,30,{score}" \
           ",1.1,0.9,1.0,1.0,1.1,0.9"


def test_spi_chances_join_the_matches_they_forecast(engine: sa.Engine, tmp_path: Path) -> None:
    """FiveThirtyEight's own spellings (Burnley, Luton Town) name the stored clubs; a match it
    dates a week off (rearranged) is still found by its clubs and score; other leagues are left
    out; the chances are stored apart, never as a result."""
    of.ingest(engine, [_league_file(tmp_path)])
    championship = "English League Championship"
    path = _spi_file(
        tmp_path,
        _spi_row("2022-07-29", championship, "Huddersfield Town", "Burnley", "0.35,0.38,0.27",
                 "0,1"),
        _spi_row("2022-08-13", championship, "Burnley", "Huddersfield Town", "0.55,0.2,0.25",
                 "2,2"),
        _spi_row("2022-07-29", "Chinese Super League", "Shandong Luneng", "Guizhou Renhe",
                 "0.5,0.2,0.3", "1,0"))
    assert spi.ingest(engine, [path]) == (2, 0)
    c, g = schema.comparison_forecasts.c, schema.games.c
    with engine.connect() as conn:
        rows = conn.execute(sa.select(g.game_day, c.forecaster, c.home_win_prob, c.draw_prob,
                                      c.vis_win_prob, c.season, g.score_home)
                            .join_from(schema.comparison_forecasts, schema.games, g.id == c.game_id)
                            .order_by(g.game_day)).all()
    assert [tuple(r) for r in rows] == [
        (dt.date(2022, 7, 29), "fte_spi", 0.35, 0.27, 0.38, 2023, 0),
        (dt.date(2022, 8, 6), "fte_spi", 0.55, 0.25, 0.2, 2023, 2)]
    before = store_checksum(engine)
    spi.ingest(engine, [path])
    assert store_checksum(engine) == before, "a re-run changes nothing"


def test_an_spi_club_not_in_the_alias_table_stops_the_ingest(
        engine: sa.Engine, tmp_path: Path) -> None:
    of.ingest(engine, [_league_file(tmp_path)])
    path = _spi_file(tmp_path, _spi_row("2022-07-29", "English League Championship",
                                        "Huddersfield", "Burnly", "0.35,0.38,0.27", "0,1"))
    before = store_checksum(engine)
    with pytest.raises(UserError, match="Burnly"):
        spi.ingest(engine, [path])
    assert store_checksum(engine) == before


@pytest.mark.realdata
def test_every_spi_row_of_our_leagues_names_a_known_club() -> None:
    """Both SPI files whole: every club of the ten leagues we share is in the alias table (an
    unknown one raises), 2021-22 and 2022-23 each, and a known match's chances as printed."""
    files = sorted(SPI.glob("*/spi_matches*.csv"))
    if not files:
        pytest.skip("../shared/data/soccer/fivethirtyeight not present")
    chances = spi.read_files(files)
    by_season = {s: sum(c.season == s for c in chances) for s in (2022, 2023)}
    assert by_season == {2022: 3496, 2023: 3496}
    opening = [c for c in chances if c.day == dt.date(2022, 8, 5) and c.league == "en.1"]
    assert [(c.home.name, c.visitor.name, c.home_win, c.draw, c.away_win) for c in opening] == [
        ("Crystal Palace FC", "Arsenal FC", 0.3159, 0.2636, 0.4205)]


@pytest.mark.parametrize(("season", "final"), [("2021-22", {"Huddersfield Town AFC", "Nottingham Forest FC"}),
                                               ("2022-23", {"Coventry City FC", "Luton Town FC"}),
                                               ("2023-24", {"Leeds United FC", "Southampton FC"})])
def test_the_championship_play_off_final_is_on_neutral_ground(season: str, final: set[str]) -> None:
    """The play-off semi-finals are home and away; the final is one match at Wembley (EFL
    Regulations): on neutral ground, no side has a home advantage in the ratings."""
    matches = of.read_files([DATA / season / "en.2.json"])
    offs = sorted((m for m in matches if m.phase == "postseason"), key=lambda m: m.day)
    assert len(offs) == 5
    assert [m.neutral for m in offs] == [False] * 4 + [True]
    assert {offs[-1].home.name, offs[-1].visitor.name} == final
    assert not any(m.neutral for m in matches if m.phase == "regular")
