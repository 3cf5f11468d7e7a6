"""The generic feed bundle: loads, re-loads without change, and rejects bad rows clearly."""
from __future__ import annotations

import json
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest
import sqlalchemy as sa

from server.errors import UserError
from server.ingest.feed import load_feed
from server.store import schema
from tests.fixtures.digest import table_digests

ROOT = Path(__file__).resolve().parents[3]

BUNDLE = {
    "feed.json": json.dumps({"source": "acme", "level": "nba"}),
    "venues.csv": "key,name,city_state,capacity\nv1,Harbor Arena,\"Portside, ME\",18000\n",
    "teams.csv": "key,name,abbrev,venue\nhb,Harbor Hawks,HBH,v1\nrc,River City Rams,RCR,\n",
    "players.csv": "key,name,height,weight,birth_date\np1,Ana Souza,6-04,210,1999-03-02\n",
    "rosters.csv": "player,season,team,position\np1,2025,hb,G\n",
    "games.csv": (
        "key,season,date,visitor,home,score_vis,score_home,state,venue\n"
        "g1,2025,2025-01-10,rc,hb,101,99,final,v1\n"
        "g2,2025,2025-01-12,hb,rc,,,scheduled,\n"
    ),
    "player_lines.csv": 'game,player,team,stats\ng1,p1,hb,"{""PTS"": 31, ""REB"": 7}"\n',
    "odds.csv": "game,taken,taken_at,vis_ml,home_ml\ng1,close,2025-01-10T23:00:00Z,+120,-140\n",
}


def _write(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text)
    return folder


def test_feed_loads_games_with_winners_and_records(engine: sa.Engine, tmp_path: Path) -> None:
    counts = load_feed(engine, _write(tmp_path / "b", BUNDLE))
    assert counts["games.csv"] == 2 and counts["player_lines.csv"] == 1
    with engine.connect() as conn:
        g = {r.game_status: r for r in conn.execute(schema.games.select())}
        teams = {a: i for a, i in conn.execute(sa.select(schema.teams.c.abbrev, schema.teams.c.id))}
        final = g["Final"]
        assert final.level == "NBA" and final.winner_id == teams["RCR"] and final.loser_id == teams["HBH"]
        # g2 is listed for a day long past without a score: it has no result, it is not to come
        assert g["No result"].state == "noresult" and g["No result"].winner_id is None
        assert {r.phase for r in g.values()} == {"regular"}
        rec = {r.team_id: (r.wins, r.losses) for r in conn.execute(schema.team_seasons.select())}
        assert rec[teams["RCR"]] == (1, 0) and rec[teams["HBH"]] == (0, 1)
        line = conn.execute(schema.player_lines.select()).one()
        assert line.stats == {"PTS": 31, "REB": 7} and line.home is True and line.id == final.id * 100 + 1


def test_reloading_the_same_bundle_changes_nothing(engine: sa.Engine, tmp_path: Path) -> None:
    folder = _write(tmp_path / "b", BUNDLE)
    load_feed(engine, folder)
    before = table_digests(engine)
    load_feed(engine, folder)
    assert table_digests(engine) == before


def test_a_bad_row_names_file_and_line_and_loads_nothing(engine: sa.Engine, tmp_path: Path) -> None:
    bad = dict(BUNDLE, **{"games.csv": BUNDLE["games.csv"] + "g3,2025,2025-13-40,rc,hb,1,2,final,\n"})
    before = table_digests(engine)
    with pytest.raises(UserError, match=r"games.csv:4: 'date' = '2025-13-40'"):
        load_feed(engine, _write(tmp_path / "bad", bad))
    assert table_digests(engine) == before


def test_unknown_reference_and_missing_file_are_user_errors(engine: sa.Engine, tmp_path: Path) -> None:
    bad = dict(BUNDLE, **{"games.csv": "key,season,date,visitor,home,state\ng1,2025,2025-01-10,zz,hb,final\n"})
    with pytest.raises(UserError, match="visitor 'zz' is not a key of the feed"):
        load_feed(engine, _write(tmp_path / "ref", bad))
    with pytest.raises(UserError, match="teams.csv: missing"):
        load_feed(engine, _write(tmp_path / "none", {"feed.json": BUNDLE["feed.json"]}))


def test_cli_reports_a_mistake_in_one_line(tmp_path: Path) -> None:
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'cli.db'}", "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-m", "server", "ingest", "feed", str(tmp_path / "nowhere")],
                          cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1].startswith("error: ")
    assert "Traceback" not in done.stderr


def test_a_feed_gives_each_game_its_phase_or_its_round_decides(engine: sa.Engine, tmp_path: Path) -> None:
    """``phase`` is taken as given (any case); without it a playoff round makes a postseason
    game, a play-in round a play-in game; a phase the store does not know stops the load."""
    games = ("key,season,date,visitor,home,score_vis,score_home,state,playoff,phase\n"
             "g1,2025,2025-01-10,rc,hb,101,99,final,,\n"
             "g2,2025,2025-04-15,hb,rc,99,98,final,Play-In,\n"
             "g3,2025,2025-04-20,rc,hb,90,97,final,First Round,\n"
             "g4,2024,2024-10-05,hb,rc,80,85,final,,Preseason\n")
    load_feed(engine, _write(tmp_path / "p", dict(BUNDLE, **{"games.csv": games})))
    with engine.connect() as conn:
        rows = conn.execute(sa.select(schema.games.c.game_day, schema.games.c.phase)
                            .order_by(schema.games.c.game_day)).all()
    assert [p for _, p in rows] == ["preseason", "regular", "playin", "postseason"]
    bad = dict(BUNDLE, **{"games.csv": games.replace(",Preseason", ",exhibition")})
    before = table_digests(engine)
    with pytest.raises(UserError, match=r"games.csv:5: 'phase' = 'exhibition': not one of preseason"):
        load_feed(engine, _write(tmp_path / "bad", bad))
    assert table_digests(engine) == before


def test_a_scheduled_game_whose_day_passes_unplayed_has_no_result_at_the_next_retabulation(
        engine: sa.Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Loaded the day before, g2 is a game to come and is forecast; re-tabulated after its day
    with no result, it is No result, forecast and rated nowhere."""
    from server.jobs import retabulate

    monkeypatch.setenv("SPORTS_NOW", "2025-01-11T17:00:00Z")
    load_feed(engine, _write(tmp_path / "b", BUNDLE))
    retabulate.run(engine, ["NBA"])

    def state() -> tuple[str, str, int]:
        with engine.connect() as conn:
            g = conn.execute(schema.games.select().where(schema.games.c.game_day == date(2025, 1, 12))).one()
            forecasts = conn.execute(sa.select(sa.func.count()).where(
                schema.forecasts.c.game_id == g.id)).scalar()
        return g.state, g.game_status, int(forecasts or 0)

    assert state() == ("scheduled", "", 1)
    monkeypatch.setenv("SPORTS_NOW", "2025-01-14T17:00:00Z")
    retabulate.run(engine, ["NBA"])
    assert state() == ("noresult", "No result", 0)


# A field no store or document can carry: PostgreSQL's text holds no NUL, XML 1.0 no other C0
# control but tab and line breaks. Each is refused where it is read, with file, line and reason.
UNSTORABLE = (
    ("teams.csv", "hb,Harbor Hawks,", "hb,Harbor\x00 Hawks,", r"teams.csv:2: 'name' holds a NUL byte \(U\+0000\) at character 7"),
    ("players.csv", "p1,Ana", "p1\x00,Ana", r"players.csv:2: 'key' holds a NUL byte \(U\+0000\)"),
    ("games.csv", "g2,2025,2025-01-12,hb,rc,,,scheduled,", "g2,2025,2025-01-12,hb,rc,,,sche\x1bduled,",
     r"games.csv:3: 'state' holds a control character \(U\+001B\)"),
    ("player_lines.csv", '""PTS""', '""PTS\\u0000""', r"player_lines.csv:2: 'stats' = .*a stat code or value holds a NUL"),
    ("odds.csv", ",close,", ",clo\x0bse,", r"odds.csv:2: 'taken' holds a control character \(U\+000B\)"),
)


@pytest.mark.parametrize(("name", "good", "bad", "message"), UNSTORABLE, ids=[u[0] for u in UNSTORABLE])
def test_a_control_character_stops_the_ingest_with_file_line_and_reason(
        engine: sa.Engine, tmp_path: Path, name: str, good: str, bad: str, message: str) -> None:
    """Over a store holding the bundle already, a copy of it with one field changed to hold an
    unstorable character is refused, and the store stays as it was (a change elsewhere in the
    same bundle, the second game's score, is not half-loaded)."""
    load_feed(engine, _write(tmp_path / "b", BUNDLE))
    before = table_digests(engine)
    assert good in BUNDLE[name]
    changed = dict(BUNDLE, **{name: BUNDLE[name].replace(good, bad)})
    if name != "games.csv":
        changed["games.csv"] = changed["games.csv"].replace("101,99,final", "103,99,final")
    with pytest.raises(UserError, match=message):
        load_feed(engine, _write(tmp_path / "bad", changed))
    assert table_digests(engine) == before


def test_tabs_and_line_breaks_in_a_text_field_load(engine: sa.Engine, tmp_path: Path) -> None:
    """Tab and line breaks are text every store and XML carry: they load as given."""
    teams = 'key,name,abbrev,venue\nhb,"Harbor\tHawks\nof the Bay",HBH,v1\nrc,River City Rams,RCR,\n'
    load_feed(engine, _write(tmp_path / "b", dict(BUNDLE, **{"teams.csv": teams})))
    with engine.connect() as conn:
        names = set(conn.execute(sa.select(schema.teams.c.name)).scalars())
    assert "Harbor\tHawks\nof the Bay" in names


@pytest.mark.postgres
def test_a_nul_byte_never_reaches_postgresql(tmp_path: Path) -> None:
    """The operator's path: ``ingest feed`` refuses the bundle in one line naming file, line
    and reason (no traceback), and the store it left copies to PostgreSQL whole."""
    from tests.pg import fresh_database

    store = f"sqlite:///{tmp_path / 'feed.db'}"
    env = {"DATABASE_URL": store, "PATH": "/usr/bin:/bin"}
    bad = dict(BUNDLE, **{"teams.csv": BUNDLE["teams.csv"].replace("River City", "River\x00City")})

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "server", *args], cwd=ROOT, env=env, capture_output=True,
                              text=True, check=False, timeout=300)

    assert run("ingest", "feed", str(_write(tmp_path / "good", BUNDLE))).returncode == 0
    refused = run("ingest", "feed", str(_write(tmp_path / "bad", bad)))
    assert refused.returncode == 1, refused.stderr
    last = refused.stderr.strip().splitlines()[-1]
    assert last.startswith("error: ") and "teams.csv:3: 'name' holds a NUL byte (U+0000)" in last, last
    assert "Traceback" not in refused.stderr
    with fresh_database() as url:
        copied = run("copy-store", url)
        assert copied.returncode == 0, copied.stderr[-2000:]
        assert "Traceback" not in copied.stderr
