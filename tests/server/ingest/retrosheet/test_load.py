"""Retrosheet ingest end to end: a tiny hand-written season (always), and download mode."""
from __future__ import annotations

import argparse
import functools
import os
import subprocess
import sys
import http.server
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from server.errors import UserError
from server.ingest.retrosheet import cli
from server.ingest.retrosheet.load import ingest_path
from server.store import schema
from server.store.engine import make_engine
from server.store.init import init_store
from tests.fixtures.digest import table_digests

EVENTS = """id,NYA202207040
version,2
info,visteam,BOS
info,hometeam,NYA
info,site,NYC21
info,date,2022/07/04
info,number,0
info,daynight,day
info,umphome,diazl901
info,ump1b,onorb901
info,attendance,46097
info,timeofgame,180
info,wp,coleg001
info,lp,eovan001
info,save,
start,herne001,"Enrique Hernandez",0,1,8
start,dever001,"Rafael Devers",0,2,5
start,eovan001,"Nathan Eovaldi",0,0,1
start,judga001,"Aaron Judge",1,1,9
start,rizza001,"Anthony Rizzo",1,2,3
start,coleg001,"Gerrit Cole",1,0,1
play,1,0,herne001,30,BBBB,W
play,1,0,dever001,12,BC.S,SB2
play,1,0,dever001,22,BC.SBX,S8/G.2-H
play,1,1,rizza001,01,CX,S7/L
play,1,1,judga001,22,CBSBX,HR/F78.1-H
sub,schoe001,"Nick Schoen",0,0,1
play,1,1,rizza001,02,CSS,K
data,er,eovan001,2
"""
ROSTER_BOS = "herne001,Hernandez,Enrique,R,R,BOS,OF\r\ndever001,Devers,Rafael,L,R,BOS,3B\r\n" \
    "eovan001,Eovaldi,Nathan,R,R,BOS,P\r\nschoe001,Schoen,Nick,R,R,BOS,P\r\n"
ROSTER_NYA = "judga001,Judge,Aaron,R,R,NYA,OF\r\nrizza001,Rizzo,Anthony,L,L,NYA,1B\r\n" \
    "coleg001,Cole,Gerrit,R,R,NYA,P\r\n"
TEAMS = "BOS,A,Boston,Red Sox\r\nNYA,A,New York,Yankees\r\nALS,A,American League,All Stars(A)\r\n"


def write_season(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "2022NYA.EVA").write_bytes(EVENTS.replace("\n", "\r\n").encode("latin-1"))
    (folder / "BOS2022.ROS").write_text(ROSTER_BOS, encoding="latin-1")
    (folder / "NYA2022.ROS").write_text(ROSTER_NYA, encoding="latin-1")
    (folder / "TEAM2022").write_text(TEAMS, encoding="latin-1")
    return folder


def test_small_season(engine: sa.Engine, tmp_path: Path) -> None:
    ingest_path(engine, write_season(tmp_path / "season"))
    with engine.connect() as conn:
        game = conn.execute(sa.select(schema.games)).one()
        assert (game.score_vis, game.score_home, game.state, game.game_status) == (1, 2, "final", "Final")
        assert game.game_no == 1 and str(game.game_day) == "2022-07-04"
        assert game.line_score == {"visitor": [1], "home": [2]}
        assert game.attendance == 46097 and game.duration == 180
        plays = conn.execute(sa.select(schema.plays).order_by(schema.plays.c.seq)).all()
        texts = [p.explanation for p in plays]
        assert "Hernandez walked" in texts
        assert texts[1] == "Hernandez stole second"
        assert texts[2] == "Devers singled to center field, Hernandez scored"
        assert texts[4] == "Judge homered to left-center field, Rizzo scored"  # HR/F78
        assert texts[5].startswith("Pitching change: Schoen replaces Eovaldi")
        assert texts[6] == "Rizzo struck out swinging"
        # the base-out state after each play (bases as bits: 1 first, 2 second, 4 third)
        assert [(p.outs, p.bases) for p in plays] == [(0, 1), (0, 2), (0, 1), (0, 1), (0, 0),
                                                      (0, 0), (1, 0)]
        homer = plays[4]
        assert (homer.points, homer.scoring, homer.score_vis, homer.score_home) == (2, True, 1, 2)
        assert homer.the_count == "2-2" and homer.half == "bottom" and homer.period == 1
        assert homer.id == game.id * 1000 + homer.seq
        # pitches: the continued appearance of Devers is stored once (B C S B X), not twice
        n = conn.execute(sa.select(sa.func.count()).select_from(schema.pitches)).scalar()
        assert n == 4 + 5 + 2 + 5 + 3
        lines = {r.player_id: r.stats for r in conn.execute(sa.select(schema.player_lines))}
        judge = conn.execute(sa.select(schema.source_keys.c.id).where(
            schema.source_keys.c.key == "judga001")).scalar()
        assert lines[judge]["HR"] == 1 and lines[judge]["RBI"] == 2
        teams = {r.home: r.stats for r in conn.execute(sa.select(schema.team_lines))}
        assert teams[True]["R"] == 2 and teams[False]["H"] == 1 and teams[True]["H"] == 2
        roles = {r.role for r in conn.execute(sa.select(schema.game_officials))}
        assert roles == {"HP", "1B"}
        sources = set(conn.execute(sa.select(schema.seasons.c.source)).scalars())
        assert sources == {"retrosheet"}  # what puts Retrosheet's notice beside its data
        names = {r.abbrev: r.name for r in conn.execute(sa.select(schema.teams))}
        assert names == {"BOS": "Boston Red Sox", "NYA": "New York Yankees"}


def test_rerun_changes_nothing(engine: sa.Engine, tmp_path: Path) -> None:
    folder = write_season(tmp_path / "season")
    ingest_path(engine, folder)
    before = table_digests(engine)
    ingest_path(engine, folder)
    assert table_digests(engine) == before


def test_a_store_from_before_the_base_out_state_is_upgraded(engine: sa.Engine,
                                                             tmp_path: Path) -> None:
    """A version-3 store (plays without ``outs`` and ``bases``) keeps its plays through ``init``,
    which adds the columns; ingesting the season again fills them."""
    folder = write_season(tmp_path / "season")
    ingest_path(engine, folder)
    with engine.begin() as conn:
        for column in ("outs", "bases"):
            conn.execute(sa.text(f"ALTER TABLE plays DROP COLUMN {column}"))
        conn.execute(sa.text("UPDATE store_info SET value = '3' WHERE key = 'schema_version'"))
    assert init_store(engine) == schema.SCHEMA_VERSION
    with engine.connect() as conn:
        kept = conn.execute(sa.select(schema.plays.c.explanation, schema.plays.c.outs)
                            .order_by(schema.plays.c.seq)).all()
    assert len(kept) == 7 and kept[0] == ("Hernandez walked", None)
    ingest_path(engine, folder)
    with engine.connect() as conn:
        states = conn.execute(sa.select(schema.plays.c.outs, schema.plays.c.bases)
                              .order_by(schema.plays.c.seq)).all()
    assert [tuple(r) for r in states][-1] == (1, 0) and all(r.outs is not None for r in states)


def test_missing_path_is_a_user_error(engine: sa.Engine, tmp_path: Path) -> None:
    with pytest.raises(UserError, match="no such file"):
        ingest_path(engine, tmp_path / "nowhere")
    (tmp_path / "empty").mkdir()
    with pytest.raises(UserError, match="no Retrosheet event files"):
        ingest_path(engine, tmp_path / "empty")


def test_one_season_of_a_tree(tmp_path: Path) -> None:
    """``ingest retrosheet PATH --season S`` loads that season of the tree only (a first build
    loads a season a step); a season the tree lacks is a one-line error naming what it holds."""
    write_season(tmp_path / "tree" / "2022")
    later = write_season(tmp_path / "tree" / "2023")
    for f in later.iterdir():
        f.rename(f.with_name(f.name.replace("2022", "2023")))
    events = later / "2023NYA.EVA"
    events.write_bytes(events.read_bytes().replace(b"2022", b"2023"))
    url = f"sqlite:///{tmp_path / 'store.db'}"
    env = {**os.environ, "DATABASE_URL": url}
    done = subprocess.run([sys.executable, "-m", "server", "ingest", "retrosheet",
                           str(tmp_path / "tree"), "--season", "2023"], env=env,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    eng = make_engine(url)
    with eng.connect() as conn:
        assert conn.execute(sa.select(schema.seasons.c.season)).scalars().all() == [2023]
    eng.dispose()
    missing = subprocess.run([sys.executable, "-m", "server", "ingest", "retrosheet",
                              str(tmp_path / "tree"), "--season", "1999"], env=env,
                             capture_output=True, text=True, check=False)
    assert missing.returncode == 1 and "Traceback" not in missing.stderr
    assert missing.stderr.strip().splitlines()[-1] == (
        f"error: no Retrosheet event files of 1999 under {tmp_path / 'tree'} (it holds 2022, 2023)")


@pytest.fixture()
def site(tmp_path: Path) -> Iterator[str]:
    """A Retrosheet-like site on loopback serving events/2022eve.zip."""
    root = tmp_path / "site"
    (root / "events").mkdir(parents=True)
    src = write_season(tmp_path / "src")
    with zipfile.ZipFile(root / "events" / "2022eve.zip", "w") as zf:
        for p in src.iterdir():
            zf.write(p, p.name)
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def test_download_mode(engine: sa.Engine, site: str) -> None:
    args = argparse.Namespace(path=None, season=2022, base_url=site)
    assert cli(args, lambda: engine) == 0
    with engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(schema.games)).scalar() == 1


def test_download_of_a_missing_season(engine: sa.Engine, site: str) -> None:
    args = argparse.Namespace(path=None, season=1999, base_url=site)
    with pytest.raises(UserError, match="no Retrosheet events for 1999"):
        cli(args, lambda: engine)
