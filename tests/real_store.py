"""The real-data store, built once per test session the way ``make run``'s first build loads the
real part: ``init``, every ingest command that ``server.ingest.discovery`` finds under
../shared/data (Retrosheet 2021-2023, the FiveThirtyEight-style NBA, NHL and WNBA files,
openfootball's leagues and European cups, then FiveThirtyEight's SPI chances for those
matches, the men's internationals and World Cups), the Lahman Databank, ``retabulate`` and
``projections --history`` (football: its newest days); then a key. No simulated level:
every number a test reads here comes from real games.

Many suites read it (the MLB ratings through the store, the projections' scores, the dashboard
over real data, the production limits), so its minutes of ingest are paid once per ``make test``:
the store lives in the folder ``SPORTS_TEST_REAL_FOLDER`` names, which both of ``make test``'s
passes share, and the build starts in a process of its own as soon as a pass has collected a test
that needs it (``tests/conftest.py``), so the workers run other tests meanwhile instead of waiting.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from server.ingest.discovery import lahman_command, plan
from tests.demo_api import ROOT, TEST_RATE, build_once, run_server_command
from tests.server.models import realdata

FOLDER_VARIABLE = "SPORTS_TEST_REAL_FOLDER"
_background: list[subprocess.Popen[bytes]] = []  # the running build, held while the workers run


def available() -> bool:
    """The files the real-data tests read are all present."""
    return realdata.available()


def build(env: dict[str, str]) -> str:
    """Fill the store ``env``'s DATABASE_URL names; returns a freshly issued key."""
    run_server_command(["init"], env)
    found = plan(Path(realdata.DATA))
    for ingest in found.commands:
        run_server_command(list(ingest.args), env)
    run_server_command(lahman_command(Path(realdata.DATA)), env)
    run_server_command(["retabulate"], env)
    # every real level's past seasons but football's: FC's 25 leagues over four finished
    # seasons would replay ~1,200 days (docs/football.md), minutes no test here reads
    levels = sorted(({lv for i in found.commands for lv in i.levels} | {"MLB"}) - {"FC"})
    # 500 simulated seasons a day instead of 2,000: a title share within 0.022 (one standard
    # error) instead of 0.011, which no test here reads closer; a quarter of the minutes
    run_server_command(["projections", "--history", "--level", ",".join(levels),
                        "--sims", "500"], env)
    # football as of its newest days only (the nightly run's three days, ~2 s of CPU): what the
    # Projections page and the places' tests read
    run_server_command(["projections", "--level", "FC", "--sims", "500"], env)
    issued = run_server_command(["keys", "issue", "--label", "real-data-tests", "--rate", TEST_RATE], env)
    return issued.strip().splitlines()[-1].strip()


def ensure(folder: Path) -> tuple[str, str]:
    """The store in ``folder`` as (database URL, key), built by the first to ask."""
    return build_once(folder, build)


def start_in_background(folder: Path) -> None:
    """Start ``ensure(folder)`` in a process of its own, once per folder (the first worker to
    collect starts it, its output in ``build.log``)."""
    folder.mkdir(parents=True, exist_ok=True)
    try:
        os.close(os.open(folder / "started", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return
    with (folder / "build.log").open("wb") as log:
        _background.append(subprocess.Popen([sys.executable, "-m", "tests.real_store", str(folder)],
                                            cwd=ROOT, stdout=log, stderr=subprocess.STDOUT))


if __name__ == "__main__":
    ensure(Path(sys.argv[1]))
