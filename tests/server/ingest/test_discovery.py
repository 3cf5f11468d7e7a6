"""What a build loads is found by walking the data folder: every file a source declares it
reads, a season added later included, and the rest named rather than skipped silently."""
from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from server.ingest import discovery
from tests.server.models import realdata


def _touch(root: Path, *names: str) -> None:
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("")


def test_every_source_finds_its_files_by_name(tmp_path: Path) -> None:
    _touch(tmp_path, "retrosheet/events/2024/2024BOS.EVA", "retrosheet/events/2025/2025NYN.EVN",
           "retrosheet/rosters/2025/BOS2025.ROS", "retrosheet/reference/ballparks.csv",
           "leagues/nba/nba_elo_2023-24.csv", "leagues/nba/nba_elo_latest.csv",
           "leagues/nhl/nhl_elo.csv", "bundles/acme/feed.json", "bundles/acme/games.csv",
           "PROVENANCE.md", "SHA256SUMS", "leagues/notes.csv")
    found = discovery.plan(tmp_path)
    args = [c.args for c in found.commands]
    assert args == [
        ("ingest", "retrosheet", str(tmp_path / "retrosheet"), "--season", "2024"),
        ("ingest", "retrosheet", str(tmp_path / "retrosheet"), "--season", "2025"),
        ("ingest", "fivethirtyeight", str(tmp_path / "leagues/nba/nba_elo_2023-24.csv"),
         str(tmp_path / "leagues/nba/nba_elo_latest.csv"), "--level", "NBA"),
        ("ingest", "fivethirtyeight", str(tmp_path / "leagues/nhl/nhl_elo.csv"), "--level", "NHL"),
        ("ingest", "feed", str(tmp_path / "bundles/acme")),
    ]
    assert [c.label for c in found.commands[:2]] == ["Retrosheet MLB 2024", "Retrosheet MLB 2025"]
    # a season of play by play is slow: a first build loads it in the background
    assert [c.slow for c in found.commands] == [True, True, False, False, False]
    assert found.unread == [tmp_path / "leagues/notes.csv"]


def test_a_season_dropped_in_later_is_loaded(tmp_path: Path) -> None:
    _touch(tmp_path, "nhl/nhl_elo_latest.csv")
    before = discovery.plan(tmp_path).commands
    _touch(tmp_path, "nhl/nhl_elo_2021-22.csv")
    after = discovery.plan(tmp_path).commands
    assert str(tmp_path / "nhl/nhl_elo_2021-22.csv") not in before[0].args
    assert str(tmp_path / "nhl/nhl_elo_2021-22.csv") in after[0].args


def test_an_empty_folder_loads_nothing(tmp_path: Path) -> None:
    assert discovery.plan(tmp_path) == discovery.Plan([], [])


@pytest.mark.realdata
@pytest.mark.skipif(not realdata.available(), reason="../shared/data is absent")
def test_the_shared_data_folder_loads_every_season() -> None:
    """Today's folder: Retrosheet 2021-2023, both NBA and NHL seasons, every openfootball
    league file, its European cup files and then FiveThirtyEight's SPI chances for those
    matches, the internationals and World Cups; what no source reads
    (the game logs and schedules repeat the event files; the NCAA file has no dates; the
    football sources not loaded yet, SPI's ratings snapshot) is named."""
    found = discovery.plan(realdata.DATA)
    labels = [c.label for c in found.commands]
    assert labels == ["Retrosheet MLB 2021", "Retrosheet MLB 2022", "Retrosheet MLB 2023",
                      "FiveThirtyEight-style NBA results (2 files)",
                      "FiveThirtyEight-style NHL results (2 files)",
                      "FiveThirtyEight-style WNBA results (1 file)",
                      "openfootball league matches (75 files)",
                      "openfootball European cup matches (19 files)",
                      "FiveThirtyEight SPI match chances (2 files)",
                      "men's internationals and World Cups (7 files)"]
    unread = {p.name for p in found.unread}
    assert "historical-538-ncaa-tournament-model-results.csv" in unread
    assert not unread & {"nba_elo_2021-22.csv", "nhl_elo_2021-22.csv", "2021BOS.EVA", "en.1.json",
                         "cl.txt", "confq.txt"}
    assert {"uefa.cl.json", "spi_global_rankings.csv"} <= unread
    assert not unread & {"spi_matches_latest.csv", "results.csv", "goalscorers.csv",
                         "worldcup.json", "worldcup.squads.json"}


def test_the_build_loads_what_it_finds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``make run``'s loader runs the found commands against the store it builds."""
    from scripts import run
    from server.store.engine import make_engine

    data = tmp_path / "data"
    (data / "nhl").mkdir(parents=True)
    header = ("season,date,playoff,neutral,status,ot,home_team,away_team,home_team_abbr,"
              "away_team_abbr,home_team_score,away_team_score\n")
    (data / "nhl" / "nhl_elo_2030-31.csv").write_text(
        header + "2031,2031-04-10,0,0,post,,Buffalo Sabres,Boston Bruins,BUF,BOS,3,2\n")
    (data / "nhl" / "nhl_elo_2031-32.csv").write_text(
        header + "2032,2031-10-12,0,0,post,,Boston Bruins,Buffalo Sabres,BOS,BUF,4,1\n"
        "2032,2031-10-14,0,0,pre,,Buffalo Sabres,Boston Bruins,BUF,BOS,,\n")
    url = f"sqlite:///{tmp_path / 'store.db'}"
    monkeypatch.setenv("DATABASE_URL", url)
    slow, loaded = run.load_real_data(data)
    assert (slow, loaded) == ([], ["NHL"])
    engine = make_engine(url)
    with engine.connect() as conn:
        states = conn.execute(sa.text(
            "select season, state from games where level = 'NHL' order by game_day")).all()
    engine.dispose()
    assert [tuple(s) for s in states] == [(2031, "final"), (2032, "final"), (2032, "scheduled")]
