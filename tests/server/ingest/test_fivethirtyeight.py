"""FiveThirtyEight-style results: counts per league, phases, games to come and games without a
result, re-runs, operator errors."""
from __future__ import annotations

import argparse
from pathlib import Path

import pytest
import sqlalchemy as sa

from server.errors import UserError
from server.ingest import fivethirtyeight as fte
from server.store import schema
from tests.fixtures.digest import store_checksum

DATA = Path(__file__).resolve().parents[4] / "shared" / "data" / "other_leagues"
FILES = {"NBA": "nba/nba_elo_latest.csv", "NHL": "nhl/nhl_elo_latest.csv", "WNBA": "wnba/wnba_elo.csv"}


def _file(level: str) -> Path:
    path = DATA / FILES[level]
    if not path.is_file():
        pytest.skip(f"../shared/data not present: {path}")
    return path


def _phases(engine: sa.Engine, level: str) -> dict[str, int]:
    g = schema.games.c
    with engine.connect() as conn:
        return dict(conn.execute(sa.select(g.phase, sa.func.count()).where(g.level == level)  # type: ignore[arg-type]
                                 .group_by(g.phase)).all())


def _counts(engine: sa.Engine, level: str) -> dict[tuple[str | None, str], int]:
    g = schema.games.c
    with engine.connect() as conn:
        rows = conn.execute(sa.select(g.playoff, g.state, sa.func.count()).where(g.level == level)
                            .group_by(g.playoff, g.state)).all()
    return {(p, s): n for p, s, n in rows}


@pytest.mark.realdata
def test_nba(engine: sa.Engine) -> None:
    assert fte.ingest(engine, _file("NBA"), "nba") == 1322
    counts = _counts(engine, "NBA")
    assert counts[(None, "final")] == 1230
    assert counts[("Finals", "noresult")] == 7, "the Finals are listed unscored, on past days"
    assert sum(n for (p, s), n in counts.items() if p and s == "final") == 6 + 43 + 25 + 11
    assert _phases(engine, "NBA") == {"regular": 1230, "playin": 6, "postseason": 43 + 25 + 11 + 7}
    with engine.connect() as conn:
        finals = conn.execute(sa.select(schema.games).where(schema.games.c.playoff == "Finals")).all()
        assert all(f.score_home is None and f.game_status == "No result" and f.winner_id is None
                   for f in finals)
        bos = conn.execute(sa.text(
            "select ts.wins + ts.losses from team_seasons ts join teams t on t.id = ts.team_id "
            "where t.abbrev = 'BOS' and t.level = 'NBA'")).scalar()
        assert bos == 82
        assert conn.execute(sa.text("select name from teams where abbrev = 'GSW'")
                            ).scalar() == "Golden State Warriors"


@pytest.mark.realdata
def test_nhl(engine: sa.Engine) -> None:
    fte.ingest(engine, _file("NHL"), "NHL")
    assert _counts(engine, "NHL") == {(None, "final"): 1312, ("Playoffs", "final"): 88}
    with engine.connect() as conn:
        ot = dict(conn.execute(sa.text("select overtime, count(*) from games group by 1")).all())
    assert ot == {None: 1074, "OT": 228, "SO": 95, "2OT": 2, "4OT": 1}


@pytest.mark.realdata
@pytest.mark.parametrize(("level", "size"), [("NBA", 15), ("NHL", 16)])
def test_every_team_plays_in_its_conference(engine: sa.Engine, level: str, size: int) -> None:
    """The files name no conferences; the declared alignment gives every team one, and a game
    the home side's (the spec's sublevel, so ``games?sublevel=`` finds a conference's games)."""
    fte.ingest(engine, _file(level), level)
    with engine.connect() as conn:
        subs = dict(conn.execute(sa.text(
            "select abbrev, id from sublevels where level = :l and type = 'Conference'"),
            {"l": level}).all())
        assert set(subs) == {"EAST", "WEST"}
        members = dict(conn.execute(sa.text(
            "select s.abbrev, count(*) from teams t join sublevels s on s.id = t.sublevel_id "
            "where t.level = :l group by s.abbrev"), {"l": level}).all())
        assert members == {"EAST": size, "WEST": size}
        unaligned = conn.execute(sa.text(
            "select count(*) from team_seasons where level = :l and sublevel_id is null"),
            {"l": level}).scalar()
        assert unaligned == 0
        home_side = conn.execute(sa.text(
            "select count(*) from games g join teams h on h.id = g.home_id "
            "where g.level = :l and g.sublevel_id is not h.sublevel_id"), {"l": level}).scalar()
        assert home_side == 0
        east = {r[0] for r in conn.execute(sa.text(
            "select t.abbrev from teams t where t.sublevel_id = :s"), {"s": subs["EAST"]})}
    assert {"BOS", "PHI", "TOR"} <= east and not {"LAL", "DAL"} & east


@pytest.mark.realdata
def test_wnba_conferences_are_left_unknown(engine: sa.Engine) -> None:
    """Franchises moved between conferences over 28 seasons: none is declared, none guessed."""
    fte.ingest(engine, _file("WNBA"), "WNBA")
    with engine.connect() as conn:
        assert conn.execute(sa.text(
            "select count(*) from games where level = 'WNBA' and sublevel_id is not null")
        ).scalar() == 0
        assert conn.execute(sa.text("select count(*) from sublevels where level = 'WNBA'")
                            ).scalar() == 0


@pytest.mark.realdata
def test_wnba_games_are_deduplicated(engine: sa.Engine) -> None:
    assert fte.ingest(engine, _file("WNBA"), "WNBA") == 6365
    assert sum(_counts(engine, "WNBA").values()) == 6365
    with engine.connect() as conn:
        seasons = conn.execute(sa.text("select count(*) from seasons where level = 'WNBA'")).scalar()
    assert seasons == 28


@pytest.mark.realdata
def test_rerun_changes_nothing(engine: sa.Engine) -> None:
    fte.ingest(engine, _file("NHL"), "NHL")
    before = store_checksum(engine)
    fte.ingest(engine, _file("NHL"), "NHL")
    assert store_checksum(engine) == before


def test_never_loads_ratings(engine: sa.Engine, tmp_path: Path) -> None:
    path = tmp_path / "nba.csv"
    path.write_text("date,season,neutral,playoff,team1,team2,elo1_pre,elo2_pre,elo_prob1,score1,score2\n"
                    "2022-10-18,2023,0,,BOS,PHI,1657.6,1582.2,0.73,126,117\n")
    fte.ingest(engine, path, "NBA")
    with engine.connect() as conn:
        game = conn.execute(sa.select(schema.games)).one()
        for table in (schema.forecasts, schema.elo_history):
            assert conn.execute(sa.select(sa.func.count()).select_from(table)).scalar() == 0
    assert (game.score_home, game.score_vis, game.state, game.info) == (126, 117, "final", None)


def test_bad_level_is_a_user_error(engine: sa.Engine, tmp_path: Path) -> None:
    args = argparse.Namespace(path=[str(tmp_path)], level="XYZ")
    with pytest.raises(UserError, match="unknown or unsupported level 'XYZ'"):
        fte.cli(args, lambda: engine)


def test_missing_path_is_a_user_error(engine: sa.Engine, tmp_path: Path) -> None:
    args = argparse.Namespace(path=[str(tmp_path / "nope.csv")], level="NBA")
    with pytest.raises(UserError, match="no such file"):
        fte.cli(args, lambda: engine)


NHL_HEADER = ("season,date,playoff,neutral,status,ot,home_team,away_team,home_team_abbr,"
              "away_team_abbr,home_team_winprob,home_team_score,away_team_score\n")


def _nhl_file(path: Path, rows: list[str]) -> Path:
    path.write_text(NHL_HEADER + "".join(f"{r}\n" for r in rows))
    return path


def test_unplayed_rows_to_come_are_scheduled_games_that_move_no_rating(
        engine: sa.Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A snapshot taken mid-season lists the games still to come without scores: on the day
    it was taken they are stored as scheduled (as the simulator stores tomorrow's games), count
    in no record, and the ratings pass over them unchanged."""
    from server.jobs import retabulate

    monkeypatch.setenv("SPORTS_NOW", "2022-04-21T16:00:00Z")
    path = _nhl_file(tmp_path / "nhl_elo_2021-22.csv", [
        "2022,2022-04-20,0,0,post,,Boston Bruins,Buffalo Sabres,BOS,BUF,0.6,4,1",
        "2022,2022-04-22,0,0,pre,,Buffalo Sabres,Boston Bruins,BUF,BOS,0.4,,",
        "2022,2022-04-24,0,0,pre,,Boston Bruins,Buffalo Sabres,BOS,BUF,0.6,,",
    ])
    assert fte.ingest(engine, path, "NHL") == 3
    retabulate.run(engine, ["NHL"])
    with engine.connect() as conn:
        games = conn.execute(sa.select(schema.games).order_by(schema.games.c.game_day)).all()
        fc = {r.game_id: r for r in conn.execute(sa.select(schema.forecasts))}
        records = dict(conn.execute(sa.text(
            "select t.abbrev, ts.wins || '-' || ts.losses from team_seasons ts "
            "join teams t on t.id = ts.team_id")).all())
    assert [(g.state, g.game_status, g.score_home, g.winner_id) for g in games[1:]] == \
        [("scheduled", "", None, None)] * 2
    assert games[0].state == "final"
    assert records == {"BOS": "1-0", "BUF": "0-1"}
    played, first_unplayed, second_unplayed = (fc[g.id] for g in games)
    assert first_unplayed.helo_after is None and first_unplayed.elo_points is None
    # BUF hosts the first unplayed game, BOS the second: each starts from where game one left it
    assert first_unplayed.helo_before == played.velo_after
    assert second_unplayed.helo_before == played.helo_after
    assert second_unplayed.helo_win_exp is not None


def test_unplayed_rows_of_past_days_have_no_result_and_no_forecast(engine: sa.Engine,
                                                                   tmp_path: Path) -> None:
    """The same snapshot read after those days passed: the games were never scored, so they are
    ``No result``, not games to come; no record, rating or forecast holds them."""
    from server.jobs import retabulate

    path = _nhl_file(tmp_path / "nhl_elo_2021-22.csv", [
        "2022,2022-04-20,0,0,post,,Boston Bruins,Buffalo Sabres,BOS,BUF,0.6,4,1",
        "2022,2022-04-22,0,0,pre,,Buffalo Sabres,Boston Bruins,BUF,BOS,0.4,,",
    ])
    assert fte.ingest(engine, path, "NHL") == 2
    retabulate.run(engine, ["NHL"])
    with engine.connect() as conn:
        games = conn.execute(sa.select(schema.games).order_by(schema.games.c.game_day)).all()
        forecast_ids = set(conn.execute(sa.select(schema.forecasts.c.game_id)).scalars())
        rated = set(conn.execute(sa.select(schema.elo_history.c.game_id)).scalars())
    assert [(g.state, g.game_status, g.phase) for g in games] == [
        ("final", "Final", "regular"), ("noresult", "No result", "regular")]
    assert forecast_ids == rated == {games[0].id}


def test_files_of_one_level_load_together_each_game_once(engine: sa.Engine,
                                                        tmp_path: Path) -> None:
    """Two seasons in two files load in one ingest; a game both list is stored once, with the
    score from whichever file has it, whatever the order the files are given in."""
    early = _nhl_file(tmp_path / "nhl_elo_2021-22.csv", [
        "2022,2022-04-20,0,0,post,,Boston Bruins,Buffalo Sabres,BOS,BUF,0.6,4,1",
        "2022,2022-04-22,0,0,pre,,Buffalo Sabres,Boston Bruins,BUF,BOS,0.4,,",
    ])
    late = _nhl_file(tmp_path / "nhl_elo_latest.csv", [
        "2022,2022-04-22,0,0,post,OT,Buffalo Sabres,Boston Bruins,BUF,BOS,0.4,3,2",
        "2023,2022-10-12,0,0,post,,Boston Bruins,Buffalo Sabres,BOS,BUF,0.6,2,5",
    ])
    assert fte.ingest(engine, [late, early], "NHL") == 3
    with engine.connect() as conn:
        rows = conn.execute(sa.select(schema.games.c.season, schema.games.c.state,
                                      schema.games.c.overtime)
                            .order_by(schema.games.c.game_day)).all()
        seasons = conn.execute(sa.select(schema.seasons.c.name)
                               .order_by(schema.seasons.c.season)).scalars().all()
    assert [tuple(r) for r in rows] == [(2022, "final", None), (2022, "final", "OT"),
                                        (2023, "final", None)]
    assert seasons == ["2021-22", "2022-23"]


@pytest.mark.realdata
def test_nhl_2021_22_snapshot_ends_in_games_without_a_result(engine: sa.Engine) -> None:
    """The real 2021-22 file was saved before the season ended: its last 66 regular-season
    games have no scores and are stored as No result, with no winner and no record."""
    path = DATA / "nhl" / "nhl_elo_2021-22.csv"
    if not path.is_file():
        pytest.skip(f"../shared/data not present: {path}")
    assert fte.ingest(engine, path, "NHL") == 1311
    assert _counts(engine, "NHL") == {(None, "final"): 1245, (None, "noresult"): 66}
    with engine.connect() as conn:
        unplayed = conn.execute(sa.select(schema.games).where(
            schema.games.c.state == "noresult")).all()
        decided = conn.execute(sa.text(
            "select sum(wins + losses) from team_seasons where level = 'NHL'")).scalar()
    assert all(g.score_home is None and g.winner_id is None and g.game_status == "No result"
               for g in unplayed)
    assert min(g.game_day for g in unplayed).isoformat() == "2022-04-23"
    assert decided == 2 * 1245
