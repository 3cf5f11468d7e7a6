"""The real-data store, built once per test session the way ``make run``'s first build loads the
real part: ``init``, every ingest command that ``server.ingest.discovery`` finds under
../shared/data (Retrosheet 2021-2023, the FiveThirtyEight-style NBA, NHL and WNBA files), the
Lahman Databank, ``retabulate`` and ``projections --history``; then a key. No simulated level:
every number a test reads here comes from real games.

Three suites read it (the MLB ratings through the store, the projections' scores, the dashboard
over real data), so the several minutes of ingest are paid once.
"""
from __future__ import annotations

from pathlib import Path

from server.ingest.discovery import lahman_command, plan
from tests.demo_api import TEST_RATE, run_server_command
from tests.server.models import realdata


def available() -> bool:
    """The files the real-data tests read are all present."""
    return realdata.available()


def build(env: dict[str, str]) -> str:
    """Fill the store ``env``'s DATABASE_URL names; returns a freshly issued key."""
    run_server_command(["init"], env)
    for ingest in plan(Path(realdata.DATA)).commands:
        run_server_command(list(ingest.args), env)
    run_server_command(lahman_command(Path(realdata.DATA)), env)
    run_server_command(["retabulate"], env)
    run_server_command(["projections", "--history"], env)
    issued = run_server_command(["keys", "issue", "--label", "real-data-tests", "--rate", TEST_RATE], env)
    return issued.strip().splitlines()[-1].strip()
