"""Men's internationals and the World Cups: one game per match across the files, shoot-outs,
goals as scoring plays, a nation's name as it was on the day, one nation one ID through the
alias table; and the real files whole (every name matched, the finals, the first match)."""
from __future__ import annotations

import csv
import datetime as dt
import json
from pathlib import Path

import pytest
import sqlalchemy as sa

from server.catalog.football.internationals import competition_of, nations
from server.errors import UserError
from server.ingest.football import internationals as intl
from server.ingest.football import openfootball as of
from server.store import schema
from tests.fixtures.digest import store_checksum
from tests.server.models import realdata

DATA = realdata.DATA / "soccer"  # ../shared/data, beside the checkout
RESULTS = ("date,home_team,away_team,home_score,away_score,tournament,city,country,neutral\n"
           "1935-05-08,Republic of Ireland,Hungary,2,4,Friendly,Dublin,Irish Free State,FALSE\n"
           "2022-12-13,Argentina,Croatia,3,0,FIFA World Cup,Lusail,Qatar,TRUE\n"
           "2022-12-18,Argentina,France,3,3,FIFA World Cup,Lusail,Qatar,TRUE\n"
           "2023-03-23,Benin,Rwanda,1,1,African Cup of Nations qualification,Cotonou,Benin,FALSE\n")
SHOOTOUTS = "date,home_team,away_team,winner,first_shooter\n2022-12-18,Argentina,France,Argentina,\n"
GOALS = ("date,home_team,away_team,team,scorer,minute,own_goal,penalty\n"
         "1935-05-08,Republic of Ireland,Hungary,Hungary,Somebody,10,FALSE,FALSE\n"
         "2023-03-23,Benin,Rwanda,Rwanda,Someone,30,TRUE,FALSE\n"
         "2023-03-23,Benin,Rwanda,Benin,Other,90+3,FALSE,TRUE\n"
         # the World Cup file's goals are preferred for a World Cup match
         "2022-12-18,Argentina,France,Argentina,L. Messi,23,FALSE,TRUE\n")
FORMER = ("current,former,start_date,end_date\n"
          "Republic of Ireland,Irish Free State,1924-05-28,1936-12-06\n")
FINAL = {"round": "Final", "date": "2022-12-18", "team1": "Argentina", "team2": "France",
         "score": {"p": [4, 2], "et": [3, 3], "ft": [2, 2], "ht": [2, 0]},
         "goals1": [{"name": "Lionel Messi", "minute": 23, "penalty": True},
                    {"name": "Lionel Messi", "minute": 108},
                    {"name": "Ángel Di María", "minute": 36}],
         "goals2": [{"name": "Kylian Mbappé", "minute": 80, "penalty": True},
                    {"name": "Kylian Mbappé", "minute": 81},
                    {"name": "Kylian Mbappé", "minute": 118, "penalty": True}]}
# the World Cup file names the sides the other way round: still one game
SEMI = {"round": "Semi-final", "date": "2022-12-13", "team1": "Croatia", "team2": "Argentina",
        "score": {"ft": [0, 3], "ht": [0, 2]}, "goals1": [],
        "goals2": [{"name": "Lionel Messi", "minute": 34, "penalty": True},
                   {"name": "Julián Álvarez", "minute": 39}, {"name": "Julián Álvarez",
                                                              "minute": 69}]}


def _files(tmp_path: Path, cup: list[dict[str, object]] | None = None) -> list[Path]:
    intl_dir, cup_dir = tmp_path / "international", tmp_path / "worldcup" / "2022"
    intl_dir.mkdir(exist_ok=True)
    cup_dir.mkdir(parents=True, exist_ok=True)
    out = []
    for name, text in (("results.csv", RESULTS), ("shootouts.csv", SHOOTOUTS),
                       ("goalscorers.csv", GOALS), ("former_names.csv", FORMER)):
        (intl_dir / name).write_text(text, encoding="utf-8")
        out.append(intl_dir / name)
    (cup_dir / "worldcup.json").write_text(json.dumps({"matches": cup or [SEMI, FINAL]}),
                                           encoding="utf-8")
    return [*out, cup_dir / "worldcup.json"]


def _game(engine: sa.Engine, day: str) -> dict[str, object]:
    g, sl = schema.games.c, schema.sublevels.c
    home = schema.teams.alias("h")
    home_season = schema.team_seasons.alias("hs")
    with engine.connect() as conn:
        row = conn.execute(
            sa.select(g.id, g.score_home, g.score_vis, g.overtime, g.winner_id, g.home_id,
                      g.visitor_id, g.phase, g.playoff, g.neutral, g.game_status, g.season,
                      sl.name.label("league"), sl.league_type,
                      sa.func.coalesce(home_season.c.name, home.c.name).label("home"))
            .join_from(schema.games, schema.sublevels, sl.id == g.sublevel_id)
            .join(home, home.c.id == g.home_id)
            .join(home_season, (home_season.c.team_id == g.home_id)
                  & (home_season.c.season == g.season), isouter=True)
            .where(g.game_day == dt.date.fromisoformat(day))).one()
    return dict(row._mapping)


def _plays(engine: sa.Engine, game_id: object) -> list[tuple[object, ...]]:
    p, pl = schema.plays.c, schema.players.c
    with engine.connect() as conn:
        return [tuple(r) for r in conn.execute(
            sa.select(pl.name, p.clock, p.period, p.event, p.score_home, p.score_vis, p.tags)
            .join_from(schema.plays, schema.players, pl.id == p.player_id)
            .where(p.game_id == game_id).order_by(p.seq))]


def test_a_world_cup_final_is_one_game_won_on_penalties_with_its_goals(
        engine: sa.Engine, tmp_path: Path) -> None:
    assert intl.ingest(engine, _files(tmp_path)) == 4
    with engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(schema.games)).scalar() == 4
    final = _game(engine, "2022-12-18")
    assert (final["score_home"], final["score_vis"], final["overtime"]) == (3, 3, "PSO")
    assert final["winner_id"] == final["home_id"] and final["game_status"] == "Final (pens)"
    assert (final["phase"], final["playoff"], final["neutral"]) == ("postseason", "Final", True)
    assert (final["league"], final["league_type"], final["season"]) == \
        ("FIFA World Cup", "International", 2022)
    plays = _plays(engine, final["id"])
    assert [(n, c, e) for n, c, _, e, *_ in plays if n == "Lionel Messi"] == [
        ("Lionel Messi", "23'", "goal"), ("Lionel Messi", "108'", "goal")]
    assert plays[-1][1:] == ("118'", 4, "goal", 3, 3, "goal|penalty")
    # the semi-final, named the other way round in the World Cup file, has the results' sides
    semi = _game(engine, "2022-12-13")
    assert (semi["score_home"], semi["score_vis"], semi["home_id"]) == (3, 0, final["home_id"])
    assert [p[4:6] for p in _plays(engine, semi["id"])] == [(1, 0), (2, 0), (3, 0)]


def test_a_nation_is_named_as_it_was_and_goals_and_own_goals_are_plays(
        engine: sa.Engine, tmp_path: Path) -> None:
    intl.ingest(engine, _files(tmp_path))
    old = _game(engine, "1935-05-08")
    assert old["home"] == "Irish Free State" and old["phase"] == "regular"
    with engine.connect() as conn:
        assert conn.execute(sa.select(schema.teams.c.name)
                            .where(schema.teams.c.id == old["home_id"])).scalar() \
            == "Republic of Ireland"
    benin = _game(engine, "2023-03-23")
    assert benin["league"] == "Africa Cup of Nations qualification"
    plays = _plays(engine, benin["id"])
    # the file credits the own goal to Rwanda, the side it counts for: a Benin player put it
    # in his own net; then Benin's penalty in stoppage time
    assert plays == [("Someone", "30'", 1, "own_goal", 0, 1, "goal|own_goal"),
                     ("Other", "90+3'", 2, "goal", 1, 1, "goal|penalty")]


def test_rerun_changes_nothing_and_an_unknown_nation_loads_nothing(
        engine: sa.Engine, tmp_path: Path) -> None:
    files = _files(tmp_path)
    intl.ingest(engine, files)
    before = store_checksum(engine)
    intl.ingest(engine, files)
    assert store_checksum(engine) == before
    files[0].write_text(RESULTS.replace("Hungary,2,4", "Hungry,2,4"), encoding="utf-8")
    with pytest.raises(UserError, match="Hungry"):
        intl.ingest(engine, files)
    assert store_checksum(engine) == before


def test_a_world_cup_score_that_disagrees_with_the_results_is_an_error(
        engine: sa.Engine, tmp_path: Path) -> None:
    wrong = {**FINAL, "score": {"et": [3, 2], "ft": [2, 2]}}
    with pytest.raises(UserError, match="results file"):
        intl.ingest(engine, _files(tmp_path, [wrong]))


def test_tournaments_group_into_competitions() -> None:
    assert competition_of("FIFA World Cup").elo_k == 60
    assert competition_of("Friendly").elo_k == 20
    assert competition_of("Gold Cup").name == competition_of("CONCACAF Championship").name
    assert competition_of("Muratti Vase").name == "Other international tournaments"


# ---------------------------------------------------------------- the real files


@pytest.fixture(scope="module")
def real() -> intl.Internationals:
    files = [p for p in sorted(DATA.rglob("*")) if intl.FILE_NAME.fullmatch(p.name)]
    if not files:
        pytest.skip("../shared/data/soccer not present")
    return intl.read_files(files)


@pytest.mark.realdata
def test_every_nation_name_in_the_files_is_in_the_alias_table() -> None:
    """Every spelling of every file (results, scorers, shoot-outs, former names' current
    names, both World Cups and the squads): reading them all raises on the first unknown."""
    known = nations()
    names: set[str] = set()
    for path in sorted((DATA / "international").glob("*.csv")):
        text = path.read_text(encoding="utf-8").splitlines()
        header = text[0].split(",")
        cols = [i for i, c in enumerate(header) if c in ("home_team", "away_team", "team",
                                                         "winner", "current")]
        for row in csv.reader(text[1:]):
            names.update(row[i] for i in cols if row[i])
    for path in sorted((DATA / "worldcup").glob("*/worldcup.json")):
        names.update(n for m in json.loads(path.read_text(encoding="utf-8"))["matches"]
                     for n in (m["team1"], m["team2"]))
    if not names:
        pytest.skip("../shared/data/soccer not present")
    assert sorted(names - set(known)) == []
    assert len({known[n].key for n in names}) < len(names)  # "USA" is the United States


@pytest.mark.realdata
def test_the_2022_final_and_its_goals(real: intl.Internationals) -> None:
    final = [m for m in real.matches if m.day == dt.date(2022, 12, 18)
             and m.tournament == intl.WORLD_CUP]
    assert len(final) == 1
    m = final[0]
    assert (m.home.name, m.visitor.name, m.score, m.ft, m.pens) == \
        ("Argentina", "France", (3, 3), (2, 2), (4, 2))
    assert m.shootout_winner is not None and m.shootout_winner.name == "Argentina"
    assert [(g.minute, g.penalty) for g in m.goals if g.scorer == "Lionel Messi"] == \
        [(23, True), (108, False)]
    assert m.round == "Final" and m.phase == "postseason" and m.neutral


@pytest.mark.realdata
def test_the_2026_world_cup_whole(real: intl.Internationals) -> None:
    """104 matches, every one joined to its World Cup file entry (rounds, goals); the final
    Spain 1-0 Argentina after extra time, Ferran Torres in the 106th minute."""
    cup = [m for m in real.matches if m.tournament == intl.WORLD_CUP and m.day.year == 2026]
    assert len(cup) == 104 and all(m.round for m in cup)
    assert sum(m.phase == "regular" for m in cup) == 72
    assert all(sum(g.nation == m.home for g in m.goals) == m.score[0] for m in cup)
    final = next(m for m in cup if m.round == "Final")
    assert (final.home.name, final.visitor.name, final.score, final.ft) == \
        ("Spain", "Argentina", (1, 0), (0, 0))
    assert [(g.scorer, g.minute, g.period) for g in final.goals] == [("Ferran Torres", 106, 4)]
    assert len(real.squads[2026]) == 1248 and len({p.nation for p in real.squads[2026]}) == 48


@pytest.mark.realdata
def test_the_first_international_and_a_former_name(real: intl.Internationals) -> None:
    first = real.matches[0]
    assert (first.day, first.home.name, first.visitor.name, first.score, first.neutral) == \
        (dt.date(1872, 11, 30), "Scotland", "England", (0, 0), False)
    assert competition_of(first.tournament).code == "friendly"
    soviet = next(m for m in real.matches if m.day.year == 1958 and m.tournament ==
                  intl.WORLD_CUP and "russia" in (m.home.key, m.visitor.key))
    russia = soviet.home if soviet.home.key == "russia" else soviet.visitor
    assert intl.name_on(russia, soviet.day, real.former) == "Soviet Union"
    assert intl.name_on(russia, dt.date(2018, 6, 14), real.former) == "Russia"
    assert real.partial_goals == 0  # every match with goals has them all


def _league_season_file(tmp_path: Path) -> Path:
    """A 2022-23 league file whose rounds end before the internationals of March 2023."""
    folder = tmp_path / "2022-23"
    folder.mkdir(exist_ok=True)
    path = folder / "en.2.json"
    path.write_text(json.dumps({"matches": [
        {"round": f"Matchday {n}", "date": day, "team1": home, "team2": away,
         "score": {"ft": [1, 0]}}
        for n, day, home, away in ((1, "2022-07-29", "Huddersfield Town AFC", "Burnley FC"),
                                   (2, "2022-08-06", "Burnley FC", "Huddersfield Town AFC"))]}),
        encoding="utf-8")
    return path


@pytest.mark.parametrize("leagues_first", [True, False])
def test_a_season_spans_its_league_and_its_years_internationals_in_any_order(
        engine: sa.Engine, tmp_path: Path, leagues_first: bool) -> None:
    """Season 2023 is the 2022-23 league season and the internationals of 2023: its row ends
    with its last game (an international of March 2023), whichever file was loaded first, and
    keeps the league season's name; a year without a league season is named by the year."""
    league, internationals = [_league_season_file(tmp_path)], _files(tmp_path)
    steps = [(of.ingest, league), (intl.ingest, internationals)]
    for ingest, files in steps if leagues_first else steps[::-1]:
        ingest(engine, files)
    s = schema.seasons.c
    with engine.connect() as conn:
        rows = {r.season: (r.name, r.start.isoformat(), r.end.isoformat(), r.source)
                for r in conn.execute(sa.select(s.season, s.name, s.start, s.end, s.source)
                                      .where(s.level == "FC", s.season >= 2022))}
    assert rows == {2022: ("2022", "2022-12-13", "2022-12-18", "internationals"),
                    2023: ("2022-23", "2022-07-29", "2023-03-23", "openfootball")}
