"""The European cups' Football.TXT files: the text read strictly (stages, days, times, extra
time, shoot-outs, awarded and cancelled matches, lines it cannot read), the ingest (phases,
finals on neutral ground, one club one ID with the league files, league tables untouched), and
the real files whole."""
from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from server.catalog.football.cups import cup_club_of
from server.errors import UserError
from server.ingest.football import cups, footballtxt
from server.ingest.football import openfootball as of
from server.store import schema
from server.store.competitions import in_league_tables
from tests.fixtures.digest import store_checksum
from tests.server.models import realdata

DATA = realdata.DATA / "soccer" / "openfootball"  # ../shared/data, beside the checkout
CUPS = DATA / "champions-league"

SNIPPET = """= UEFA Europa League 2022/23\r
\r
# Matches    5\r
\r
» Group A\r
  Thu Sep/8 2022\r
    18.45  Sevilla FC (ESP)        v AS Roma (ITA)            2-1 (1-0)\r
           Real Madrid (ESP)       v Chelsea FC (ENG)         0-0\r
  Thu Mar/16\r
    21.00  Real Madrid (ESP)       v Chelsea FC (ENG)         2-3 a.e.t. (1-3, 0-1)\r
           Chelsea FC (ENG)        v AS Roma (ITA)            0-3    [awarded]\r
\r
» Final\r
  Wed May/31\r
    21.00  Sevilla FC (ESP)        v AS Roma (ITA)            4-1 pen. 1-1 a.e.t. (1-1, 0-1)\r
           AS Roma (ITA)           v Sevilla FC (ESP)         [cancelled]\r
           Chelsea FC (ENG)        v Sevilla FC (ESP)\r
"""


def test_the_text_gives_stages_days_times_and_every_kind_of_result() -> None:
    title, ms = footballtxt.parse(SNIPPET, 2022, "el.txt")
    assert title == "UEFA Europa League 2022/23" and len(ms) == 7
    first, draw, aet, awarded, final, cancelled, unplayed = ms
    assert (first.stage, first.day, first.time, first.home, first.visitor) == (
        "Group A", dt.date(2022, 9, 8), "18.45", "Sevilla FC (ESP)", "AS Roma (ITA)")
    assert (first.ft, first.ht, first.et) == ((2, 1), (1, 0), None)
    assert draw.time == "18.45" and draw.ft == (0, 0) and draw.ht is None  # time carries
    assert aet.day == dt.date(2023, 3, 16)  # January-June: the season's second year
    assert (aet.et, aet.ft, aet.ht, aet.pens) == ((2, 3), (1, 3), (0, 1), None)
    assert (awarded.ft, awarded.status) == ((0, 3), "awarded")
    assert (final.stage, final.et, final.ft, final.ht, final.pens) == (
        "Final", (1, 1), (1, 1), (0, 1), (4, 1))
    assert (cancelled.ft, cancelled.status) == (None, "cancelled")
    assert (unplayed.ft, unplayed.status, unplayed.line) == (None, None, 17)


@pytest.mark.parametrize(("line", "says"), [
    ("           Sevilla FC (ESP)  v AS Roma (ITA)  2-1 (1-0, 0-0)", "unreadable result"),
    ("           Sevilla FC (ESP)  v AS Roma (ITA)  4-1 pen. 1-1", "unreadable result"),
    ("           Sevilla FC (ESP)  v AS Roma (ITA)  2:1", "unreadable result"),
    ("           Sevilla FC  v AS Roma (ITA)  2-1", "not a Football.TXT line"),
    ("  Thu Feb/30", "day is out of range"),
    ("  Thu Sep/8 2023", "outside the season"),
    ("Round of sixteen", "not a Football.TXT line"),
])
def test_a_line_it_cannot_read_stops_the_read_naming_file_and_line(line: str, says: str) -> None:
    text = "» Group A\n  Thu Sep/8 2022\n" + line + "\n"
    with pytest.raises(UserError, match=rf"el\.txt line 3: .*{says}"):
        footballtxt.parse(text, 2022, "el.txt")


def test_a_match_before_any_stage_is_an_error() -> None:
    with pytest.raises(UserError, match="line 1: a match before any stage"):
        footballtxt.parse("    21.00  Sevilla FC (ESP) v AS Roma (ITA) 2-1\n", 2022, "el.txt")


def test_a_club_is_found_by_its_name_and_nation_code_never_guessed() -> None:
    assert cup_club_of("Manchester City (ENG)") == cup_club_of("Manchester City FC (ENG)")
    assert cup_club_of("AS Monaco FC (MCO)") == cup_club_of("AS Monaco (FRA)")
    with pytest.raises(UserError, match="Manchester Citty"):
        cup_club_of("Manchester Citty (ENG)")
    with pytest.raises(UserError, match="not of Spain"):
        cup_club_of("Manchester City (ESP)")
    with pytest.raises(UserError, match="nation code XYZ"):
        cup_club_of("Manchester City (XYZ)")


def _files(tmp_path: Path) -> tuple[Path, Path]:
    folder = tmp_path / "2022-23"
    folder.mkdir()
    league = folder / "en.1.json"
    league.write_text(json.dumps({"name": "Premier League 2022/23", "matches": [
        {"round": "Matchday 1", "date": "2022-08-06", "team1": "Chelsea FC",
         "team2": "Manchester City FC", "score": {"ft": [1, 1], "ht": [0, 0]}}]}),
        encoding="utf-8")
    cup = folder / "el.txt"
    cup.write_text(SNIPPET, encoding="utf-8")
    return league, cup


def _games(engine: sa.Engine) -> dict[str, Any]:
    g, sl = schema.games.c, schema.sublevels.c
    h, v = schema.teams.alias("h"), schema.teams.alias("v")
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(g.game_day, h.c.name.label("home"), v.c.name.label("visitor"),
                      g.score_home, g.score_vis, g.state, g.game_status, g.phase, g.playoff,
                      g.overtime, g.winner_id, g.home_id, g.visitor_id, g.neutral,
                      sl.name.label("league"), sl.league_type, sl.nation)
            .join(h, h.c.id == g.home_id).join(v, v.c.id == g.visitor_id)
            .join(schema.sublevels, sl.id == g.sublevel_id)).all()
    return {f"{r.game_day} {r.home}-{r.visitor}": r for r in rows}


def test_cup_matches_become_games_of_a_cup_with_the_league_files_clubs(
        engine: sa.Engine, tmp_path: Path) -> None:
    league, cup = _files(tmp_path)
    of.ingest(engine, [league])
    assert cups.ingest(engine, [cup]) == 7
    games = _games(engine)
    group = games["2022-09-08 Sevilla FC-AS Roma"]
    assert (group.phase, group.playoff, group.league, group.league_type, group.nation) == (
        "regular", None, "UEFA Europa League", "Cup", "Europe")
    final = games["2023-05-31 Sevilla FC-AS Roma"]
    assert (final.phase, final.playoff, final.overtime, final.game_status) == (
        "postseason", "Final", "PSO", "Final (pens)")
    assert (final.score_home, final.score_vis) == (1, 1) and final.winner_id == final.home_id
    assert final.neutral and not group.neutral
    aet = games["2023-03-16 Real Madrid CF-Chelsea FC"]
    assert (aet.score_home, aet.score_vis, aet.overtime) == (2, 3, "ET")
    assert aet.winner_id == aet.visitor_id
    # Chelsea of the league file and of the cup file are one club
    assert aet.visitor_id == games["2022-08-06 Chelsea FC-Manchester City FC"].home_id
    assert games["2023-05-31 AS Roma-Sevilla FC"].game_status == "Cancelled"
    assert games["2023-05-31 Chelsea FC-Sevilla FC"].game_status == "No result"
    with engine.connect() as conn:
        t = schema.teams.c
        leagues = dict(conn.execute(
            sa.select(t.name, schema.sublevels.c.name)
            .join(schema.sublevels, schema.sublevels.c.id == t.sublevel_id, isouter=True)).all())
        in_tables = conn.execute(sa.select(sa.func.count()).select_from(schema.games).where(
            in_league_tables(schema.games.c.sublevel_id))).scalar()
    # a club's league stays its domestic one; a cup-only club is a team with no league
    assert leagues["Chelsea FC"] == "Premier League" and leagues["Sevilla FC"] is None
    assert in_tables == 1  # the cup's group games count in no league table


def test_a_match_still_to_come_is_scheduled(engine: sa.Engine, tmp_path: Path) -> None:
    folder = tmp_path / "2098-99"
    folder.mkdir()
    (folder / "cl.txt").write_text(
        "» Final\n  Sat May/29\n    21.00  Chelsea FC (ENG) v Sevilla FC (ESP)\n", encoding="utf-8")
    cups.ingest(engine, [folder / "cl.txt"])
    (game,) = _games(engine).values()
    assert (game.state, game.game_status, game.league) == ("scheduled", "",
                                                            "UEFA Champions League")


def test_qualifying_rounds_are_knockout_ties_named_as_such(
        engine: sa.Engine, tmp_path: Path) -> None:
    folder = tmp_path / "2024-25"
    folder.mkdir()
    (folder / "clq.txt").write_text(
        "» Round 1\n  Tue Jul/9 2024\n    17.30  Chelsea FC (ENG) v Sevilla FC (ESP)  3-0 (1-0)\n"
        "» Playoffs\n  Tue Aug/20\n           Sevilla FC (ESP) v Chelsea FC (ENG)  1-1\n",
        encoding="utf-8")
    cups.ingest(engine, [folder / "clq.txt"])
    rounds = sorted((r.phase, r.playoff, r.league) for r in _games(engine).values())
    assert rounds == [("postseason", "Qualifying, Play-offs", "UEFA Champions League"),
                      ("postseason", "Qualifying, Round 1", "UEFA Champions League")]


def test_an_unknown_club_or_stage_stops_the_ingest_naming_it_and_loads_nothing(
        engine: sa.Engine, tmp_path: Path) -> None:
    _, cup = _files(tmp_path)
    before = store_checksum(engine)
    cup.write_text(SNIPPET.replace("AS Roma (ITA)   ", "AS Romaa (ITA)  ", 1), encoding="utf-8")
    with pytest.raises(UserError, match=r"el\.txt line 7: .*AS Romaa"):
        cups.ingest(engine, [cup])
    cup.write_text(SNIPPET.replace("» Final", "» Grand Final"), encoding="utf-8")
    with pytest.raises(UserError, match=r"line 15: stage 'Grand Final'"):
        cups.ingest(engine, [cup])
    assert store_checksum(engine) == before


def test_rerun_changes_nothing(engine: sa.Engine, tmp_path: Path) -> None:
    league, cup = _files(tmp_path)
    of.ingest(engine, [league])
    cups.ingest(engine, [cup])
    before = store_checksum(engine)
    cups.ingest(engine, [cup])
    assert store_checksum(engine) == before


def _real_files() -> list[Path]:
    files = sorted(CUPS.glob("20*/*.txt"))
    if not files:
        pytest.skip("../shared/data/soccer not present")
    return files


@pytest.mark.realdata
def test_every_cup_file_reads_and_every_club_is_in_the_alias_table() -> None:
    """All 19 files, every line; every club name found (``read_file`` raises on any not),
    and the clubs the league files hold keep their IDs (the champions of 2022-23's Premier
    League, spelt three ways across the cup files)."""
    matches = [m for p in _real_files() for m in cups.read_file(p)]
    assert len(matches) == 2797
    spelt = {(m.home.key, m.home.name) for m in matches if "Manchester City" in m.home.name}
    assert spelt == {("manchester-city-fc", "Manchester City FC")}
    assert len({c for m in matches for c in (m.home.key, m.visitor.key)}) == 332


@pytest.mark.realdata
def test_the_two_cancelled_2021_22_matches_are_cancelled() -> None:
    matches = cups.read_file(CUPS / "2021-22" / "el.txt")
    cancelled = [(m.home.name, m.visitor.name) for m in matches if m.status == "cancelled"]
    assert cancelled == [("RB Leipzig", "Spartak Moskva"), ("Spartak Moskva", "RB Leipzig")]
    assert len(matches) == 141 and sum(m.ft is not None for m in matches) == 139
