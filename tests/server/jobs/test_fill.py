"""A first build serves before it is whole: ``make run``'s build (``scripts.run --build-only``)
loads the fast part, then ``python -m server serve`` (what ``make run`` starts next) answers at
once and loads the rest in the background, its progress on ``/health`` and each season not yet
whole marked in ``seasons``; stopped in the middle of a season, the store keeps what was
committed, and the next start goes on to a complete store.

The data folder is a small part of the real data, linked from ../shared/data: Retrosheet's
2022 and 2023 postseason event files (the slow source: a season a step) with their rosters,
umpires and reference files, and the first 300 games of the NHL's 2021-22 results file (the
fast part); one small simulated level stands for the simulated ones.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from components.plain import md
from server import keys
from server.store.engine import make_engine
from tests.conftest import free_port, server_env, stop_server
from tests.dashboard._apptest import open_page
from tests.dashboard.conftest import point_services_at
from tests.demo_api import ApiServer
from tests.server.models import realdata

pytestmark = [pytest.mark.realdata, pytest.mark.slow,
              pytest.mark.skipif(not realdata.available(), reason="../shared/data is absent")]

ROOT = Path(__file__).resolve().parents[3]
RETRO = realdata.DATA / "retrosheet"
SEASONS = (2022, 2023)
NHL_GAMES = 300
SIMULATED = "KBO"


def _data_folder(root: Path) -> Path:
    data = root / "data"
    for season in SEASONS:
        for kind in ("postseason", "rosters"):
            (data / kind / str(season)).mkdir(parents=True)
            for f in (RETRO / kind / str(season)).iterdir():
                (data / kind / str(season) / f.name).symlink_to(f)
    (data / "umpires").symlink_to(RETRO / "umpires")
    (data / "reference").mkdir()
    for name in ("ballparks.csv", "biofile.csv"):
        (data / "reference" / name).symlink_to(RETRO / "reference" / name)
    (data / "nhl").mkdir()
    lines = realdata.NHL_PRIOR.read_text().splitlines(keepends=True)
    (data / "nhl" / realdata.NHL_PRIOR.name).write_text("".join(lines[:NHL_GAMES + 1]))
    return data


def _postseason_games(season: int) -> int:
    """Games in the season's postseason event files (each opens with an ``id`` record), All-Star
    game aside."""
    return sum(len(re.findall(r"^id,", f.read_text(encoding="latin-1"), re.MULTILINE))
               for f in (RETRO / "postseason" / str(season)).iterdir() if "AS" not in f.stem[4:])


def _wait(what: str, until: Callable[[], Any], seconds: float = 240) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = until()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"{what} not seen within {seconds} s")


class Service:
    """``python -m server serve`` on the test store, the scheduler (and so the fill) on."""

    def __init__(self, url: str, log: Path, *extra: str, base: str = "", **env: str) -> None:
        self.base = base or f"http://127.0.0.1:{free_port()}"
        with log.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "server", "serve", "--port", self.base.rsplit(":", 1)[1],
                 *extra], cwd=ROOT, env=server_env(url, **env), stdout=out,
                stderr=subprocess.STDOUT)
        self.client = httpx.Client(base_url=self.base, timeout=30)

    def health(self) -> dict[str, Any] | None:
        try:
            answer = self.client.get("/health")
        except httpx.TransportError:
            return None
        doc: dict[str, Any] = answer.json()
        return doc

    def stop(self) -> None:
        self.client.close()
        stop_server(self.process)


def test_first_build_serves_at_once_and_fills_in_the_background(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = _data_folder(tmp_path)
    url = f"sqlite:///{tmp_path / 'sports.db'}"
    env = {**os.environ, "DATABASE_URL": url, "SPORTS_SHARED_DATA": str(data)}
    env.pop("REDIS_URL", None)
    built = subprocess.run(
        [sys.executable, "-m", "scripts.run", "--build-only", "--demo-size", "small",
         "--demo-levels", SIMULATED, "--skip-lahman"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert built.returncode == 0, built.stderr
    engine = make_engine(url)
    key = keys.issue(engine, None, 100_000, "fill test")
    log = tmp_path / "serve.log"

    # each commit of the background ingests waits 2 s, so the test can see it in the middle
    first = Service(url, log, SPORTS_PAUSE_BEFORE_COMMIT="2")
    try:
        health = _wait("the API", first.health, 60)
        fill = health["Fill"]
        assert fill["State"] == "loading" and fill["StepsDone"] == 0
        assert fill["Now"] == "MLB 2022-2023 loading, 0 of 2 seasons"
        # the fast part answers already: the NHL results and their ratings
        games = first.client.get("/v1/games/NHL/", params={"key": key, "max": 1000})
        assert games.status_code == 200
        assert games.json()["meta"]["Total_Results"] == NHL_GAMES
        ratings = first.client.get("/v2/elo/NHL/", params={"key": key})
        assert ratings.status_code == 200 and ratings.json()["elo"]
        # ... but its projections are still to come, and the NHL season says so
        nhl = first.client.get("/v1/seasons/NHL/", params={"key": key}).json()["seasons"]
        assert [s["Loading"] for s in nhl] == [fill["Levels"]["NHL"]]
        assert fill["Levels"]["NHL"] == "NHL projections of past seasons being computed"
        # an analyst opens a page now, before any MLB season is in: what it fetched must not
        # stand in for what a later page shows (``_first_page_agrees`` below)
        point_services_at(ApiServer(first.base, key, url), monkeypatch)
        early = open_page("standings", {"level": "MLB"})
        assert not early.exception
        assert [box.value for box in early.info if "loading" in box.value], (
            [box.value for box in early.info], [w.value for w in early.warning],
            early.selectbox(key="level").value, [c.value for c in early.sidebar.caption])

        # one season of two loaded: counted on /health, the loaded season marked in `seasons`
        health = _wait("the first season loaded",
                       lambda: (h := first.health()) and h["Fill"]["StepsDone"] == 1 and h)
        assert health["Fill"]["Now"] == "MLB 2022-2023 loading, 1 of 2 seasons"
        mlb = first.client.get("/v1/seasons/MLB/", params={"key": key}).json()["seasons"]
        assert [(s["ID"], s["Games"], s["Loading"]) for s in mlb] == [
            (2022, _postseason_games(2022), "MLB 2022-2023 loading, 1 of 2 seasons")]
        # stopped while the second season is written, not yet committed
        _wait("the second season written", lambda: log.read_text().count(
            "written, not committed") >= 2)
    finally:
        first.stop()
    mlb_seasons = engine.connect().exec_driver_sql(
        "select season from seasons where level = 'MLB'").scalars().all()
    assert mlb_seasons == [2022]  # the season being written rolled back whole

    # an instance that runs no jobs serves the store as it was left, at the same address (the
    # dashboard's process, and its cache, are the ones of the early page); the dashboard says
    # what is ready per season, and its notice, sidebar and page agree with the API now
    frozen = Service(url, log, "--no-scheduler", base=first.base)
    try:
        fill = _wait("the API, no jobs", frozen.health, 60)["Fill"]
        assert (fill["State"], fill["StepsDone"]) == ("loading", 1)
        page = open_page("games", {"level": "MLB"})
        assert not page.exception
        notices = [box.value for box in page.info if "loading" in box.value]
        assert len(notices) == 1
        assert notices[0].startswith(f"**{md(fill['Levels']['MLB'])}.**")  # 1 of 2 seasons, as text
        assert fill["Levels"]["MLB"] == "MLB 2022-2023 loading, 1 of 2 seasons"
        assert f"- 2022: {_postseason_games(2022):,} games, with " in notices[0]
        assert "play-by-play" in notices[0] and "a season not listed here is still to come" in notices[0]
        assert page.sidebar.selectbox(key="season").value == 2022  # not "No seasons held"
        standings = open_page("standings", {"level": "MLB"})
        assert any(f"- 2022: {_postseason_games(2022):,} games" in box.value for box in standings.info)
        assert standings.title[0].value == "MLB standings, 2022"
        nhl = open_page("overview", {"level": "NHL"})
        assert any(f"**{md(fill['Levels']['NHL'])}.**" in box.value for box in nhl.info)
    finally:
        frozen.stop()

    # two instances start on the store at once: one fills, the other serves and leaves it be
    logs = [tmp_path / "second.log", tmp_path / "twin.log"]
    second, twin = Service(url, logs[0]), Service(url, logs[1])
    try:
        health = _wait("the API again", second.health, 60)
        _wait("the twin", twin.health, 60)
        _wait("the fill taken", lambda: all(
            "fill: another process is filling this store" in f.read_text() or "fill: MLB" in
            f.read_text() for f in logs))
        filling = [f for f in logs if "(step 2 of" in f.read_text()]
        assert len(filling) == 1, [f.read_text()[-2000:] for f in logs]
        waiting = next(f for f in logs if f not in filling)
        assert "fill: another process is filling this store" in waiting.read_text()
        assert "(step " not in waiting.read_text()
        assert health["Fill"]["State"] == "loading"
        assert health["Fill"]["Now"] == "MLB 2022-2023 loading, 1 of 2 seasons"  # goes on there
        done = _wait("the fill done", lambda: (h := second.health()) and h["Fill"]["State"] in (
            "done",) and h, 300)["Fill"]
        assert done["Failure"] is None and done["StepsDone"] == done["Steps"]
        assert done["Levels"] == {} and done["Now"] is None
        point_services_at(ApiServer(second.base, key, url), monkeypatch)
        page = open_page("games", {"level": "MLB"})
        assert not page.exception and not [b for b in page.info if "loading" in b.value]
        for level in ("MLB", "NHL", SIMULATED):
            seasons = second.client.get(f"/v1/seasons/{level}/",
                                        params={"key": key}).json()["seasons"]
            assert seasons and all(s["Loading"] is None for s in seasons), level
        mlb = second.client.get("/v1/seasons/MLB/", params={"key": key}).json()["seasons"]
        assert sorted((s["ID"], s["Games"]) for s in mlb) == [
            (season, _postseason_games(season)) for season in SEASONS]
        # what the fill computed is served: MLB's forecasts and the NHL season's projections
        forecasts = second.client.get("/v2/forecasts/MLB/", params={"key": key, "season": 2023})
        assert forecasts.json()["meta"]["Total_Results"] == _postseason_games(2023)
        projections = second.client.get("/v2/projections/NHL/",
                                        params={"key": key, "season": 2022})
        assert projections.status_code == 200 and projections.json()["projections"]
        assert twin.health() == second.health()  # one store, one state, whoever asks
    finally:
        twin.stop()
        second.stop()
        engine.dispose()
