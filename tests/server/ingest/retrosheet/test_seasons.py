"""The real Retrosheet seasons (../shared/data: 2021-2023), checked against the game logs."""
from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from server.catalog.pitches import decode
from server.ingest.retrosheet.events import parse_event
from server.ingest.retrosheet.files import gamelog_id, read_gamelog
from server.ingest.retrosheet.load import ingest_path
from server.store import schema
from server.store.engine import make_engine
from server.store.init import init_store
from tests.demo_api import ApiServer
from tests.fixtures.digest import table_digests
from tests.server.models import realdata

DATA = realdata.DATA / "retrosheet"

pytestmark = [pytest.mark.realdata, pytest.mark.slow]


@pytest.fixture(scope="module")
def store(real_store: ApiServer) -> Iterator[sa.Engine]:
    """The session's real-data store (its Retrosheet part is this ingest's work), read only."""
    engine = make_engine(real_store.database_url)
    yield engine
    engine.dispose()


def _scalar(engine: sa.Engine, query: str, **params: object) -> object:
    with engine.connect() as conn:
        return conn.execute(sa.text(query), params).scalar()


def _game_ids(engine: sa.Engine) -> dict[str, int]:
    sk = schema.source_keys.c
    with engine.connect() as conn:
        return dict(conn.execute(sa.select(sk.key, sk.id).where(
            sk.kind == "game", sk.source == "retrosheet")).all())


def test_games_per_season(store: sa.Engine) -> None:
    # 2021: one game was never made up (PROVENANCE.md section 4)
    for season, regular, playoffs in ((2021, 2429, 37), (2022, 2430, 40), (2023, 2430, 41)):
        assert _scalar(store, "select count(*) from games where season = :s and playoff is null "
                       "and source = 'retrosheet'", s=season) == regular
        assert _scalar(store, "select count(*) from games where season = :s and playoff is not null "
                       "and source = 'retrosheet'",
                       s=season) == playoffs


def test_team_runs_hits_errors_match_the_game_logs(store: sa.Engine) -> None:
    ids = _game_ids(store)
    with store.connect() as conn:
        lines = {(r.game_id, r.home): r.stats for r in conn.execute(sa.select(schema.team_lines))}
    checked, wrong = 0, []
    for season in (2021, 2022, 2023):
        for row in read_gamelog(DATA / "gamelogs" / f"gl{season}.txt"):
            gid = ids[gamelog_id(row)]
            # fields 10/11 runs, 23/51 hits, 46/74 errors (1-based, glfields.txt)
            for home, runs, hits, errors in ((False, 9, 22, 45), (True, 10, 50, 73)):
                got = lines[(gid, home)]
                want = (int(row[runs]), int(row[hits]), int(row[errors]))
                if (got.get("R", 0), got.get("H", 0), got.get("E", 0)) != want:
                    wrong.append((gamelog_id(row), home, got, want))
            checked += 1
    assert checked == 2429 + 2430 + 2430
    assert wrong == []


def _expected_pitches() -> int:
    """Entries (pitches, pickoff throws, no-pitches) of every play record, less those repeated
    from the previous record of the same plate appearance (after a stolen base, a no-play, a
    pinch hitter)."""
    total = 0
    carried: list[str]
    files = sorted((DATA / "events").glob("*/*.EV?")) + sorted((DATA / "postseason").glob("*/*.EVE"))
    for path in files:
        half, carried = None, []
        with path.open(encoding="latin-1", newline="") as fh:
            for rec in csv.reader(fh):
                if not rec or rec[0] not in ("id", "play"):
                    continue
                if rec[0] == "id" or (rec[1], rec[2]) != half:
                    half, carried = (None if rec[0] == "id" else (rec[1], rec[2])), []
                if rec[0] == "id":
                    continue
                codes = [entry.code for entry in decode(rec[5])]
                total += len(codes) - (len(carried) if codes[:len(carried)] == carried else 0)
                carried = [] if parse_event(rec[6]).batter_event else codes
    return total


def test_pitch_count(store: sa.Engine) -> None:
    assert _scalar(store, "select count(*) from pitches") == _expected_pitches()


def test_plays_are_play_records_without_np(store: sa.Engine) -> None:
    records = 0
    for path in list((DATA / "events").glob("*/*.EV?")) + list((DATA / "postseason").glob("*/*.EVE")):
        with path.open(encoding="latin-1", newline="") as fh:
            records += sum(1 for r in csv.reader(fh) if r and r[0] == "play" and r[6].strip() != "NP")
    assert _scalar(store, "select count(*) from plays p join games g on g.id = p.game_id "
                   "where g.level = 'MLB' and p.event != 'sub'") == records


def test_judge_62_home_runs_in_2022(store: sa.Engine) -> None:
    hr = _scalar(store, """
        select sum(json_extract(pl.stats, '$.HR')) from player_lines pl
        join games g on g.id = pl.game_id
        join source_keys sk on sk.id = pl.player_id and sk.kind = 'player'
             and sk.source = 'retrosheet' and sk.key = 'judga001'
        where g.season = 2022 and g.playoff is null""")
    assert hr == 62


def test_ohtani_is_one_player(store: sa.Engine) -> None:
    assert _scalar(store, "select count(*) from players where name = 'Shohei Ohtani'") == 1
    ids = _game_ids(store)
    with store.connect() as conn:
        lines = conn.execute(sa.text("""
            select pl.stats from player_lines pl join source_keys sk on sk.id = pl.player_id
            and sk.kind = 'player' and sk.key = 'ohtas001' where pl.game_id = :g"""),
            {"g": ids["DET202307271"]}).scalars().all()
    assert len(lines) == 1  # batter and starting pitcher in one line
    stats = json.loads(lines[0]) if isinstance(lines[0], str) else lines[0]
    assert stats["GS"] == 1 and stats["PA"] >= 3


def test_seasons_carry_the_source_that_owes_the_notice(store: sa.Engine) -> None:
    assert _scalar(store, "select count(*) from seasons where level = 'MLB' and source <> "
                          "'retrosheet' and season >= 2021") == 0


def test_rerun_changes_nothing(tmp_path: Path) -> None:
    """Part of a season (two home teams' event files, one per league, and the postseason)
    ingested into a store of its own, then again: every table as it was. The event files all
    go through one parser and loader, so two teams' files try the rerun as the season's thirty
    would, in a tenth of the time."""
    if not (DATA / "events" / "2023").is_dir():
        pytest.skip(f"../shared/data not present: {DATA}")
    season = tmp_path / "2023"  # through links to the shared files
    (season / "events_2023").mkdir(parents=True)
    files = [DATA / "events" / "2023" / name for name in ("2023NYA.EVA", "2023LAN.EVN")]
    for f in files:
        (season / "events_2023" / f.name).symlink_to(f)
    for part in ("rosters/2023", "postseason/2023", "reference", "umpires"):
        (season / part.replace("/", "_")).symlink_to(DATA / part)
    files += [f for f in (DATA / "postseason" / "2023").iterdir() if "AS" not in f.stem[4:]]
    games = sum(f.read_text(encoding="latin-1").count("\nid,") + f.read_text(
        encoding="latin-1").startswith("id,") for f in files if f.suffix.startswith(".E"))
    engine = make_engine(f"sqlite:///{tmp_path / 'store.db'}")
    init_store(engine)
    ingest_path(engine, season)
    before = table_digests(engine)
    assert before["games"].startswith(f"{games}:"), (before["games"], games)
    ingest_path(engine, season)
    assert table_digests(engine) == before
    engine.dispose()
