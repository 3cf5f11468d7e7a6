"""A player's profile sentences over the real store, as an analyst checks them against
Baseball-Reference: Aaron Judge's 2022 (62 home runs, counted here from Retrosheet's own event
files), each figure printed as its stat reads: counts whole, rates with three decimals, .311 and
1.111 (an OPS over 1 printed with two decimals read 1.11)."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.demo_api import ApiServer
from tests.server.models import realdata

pytestmark = [pytest.mark.realdata, pytest.mark.timeout(900)]

SEASON = 2022


def _players(api: ApiServer, **params: Any) -> list[dict[str, Any]]:
    players: list[dict[str, Any]] = api.get_json("/v1/players/MLB/", **params)["players"]
    return players


def _home_runs_in_the_event_files(retro_id: str) -> int:
    """Plays whose event is a home run (``HR``), by this batter, in the season's event files."""
    count = 0
    for path in (Path(realdata.DATA) / "retrosheet" / "events" / str(SEASON)).glob("*.EV*"):
        for line in path.read_text(encoding="latin-1").splitlines():
            fields = line.split(",")
            count += fields[0] == "play" and len(fields) > 6 and fields[3] == retro_id and fields[6][:2] == "HR"
    return count


def test_judges_2022_reads_as_baseball_reference_prints_it(real_api: ApiServer) -> None:
    found = _players(real_api, search="Aaron Judge")
    assert len(found) == 1, found
    judge = _players(real_api, id=found[0]["ID"], season=SEASON)[0]
    stats = {r["Stat"]: r for r in judge["stats"]}
    said = {m.group(1): m.group(2) for m in (re.match(r"Ranks \w+ in (.+) among MLB players in 2022 \((.+)\)\.", s)
                                             for s in judge["insights"]) if m}
    assert stats["HR"]["Value"] == _home_runs_in_the_event_files("judga001") == 62
    assert stats["HR"]["Rank"] == 1 and said["Home runs"] == "62"
    assert said["Batting average"] == f"{stats['AVG']['Value']:.3f}".removeprefix("0") == ".311"
    assert said["On-base plus slugging"] == f"{stats['OPS']['Value']:.3f}" == "1.111"


def test_a_profile_says_its_best_ranks_first(real_api: ApiServer) -> None:
    """Ohtani's 2023 leads the majors in OPS, wOBA and wRC+ and ranks 4th in home runs: the
    sentences an analyst reads first are the ranks he leads, not the stat codes' alphabet
    (which put his 5th in triples first)."""
    ohtani = _players(real_api, search="Shohei Ohtani")[0]
    said = _players(real_api, id=ohtani["ID"], season=2023)[0]["insights"]
    ranks = [int(m.group(1)) for m in (re.match(r"Ranks (\d+)\w\w in ", s) for s in said) if m]
    assert len(ranks) >= 10 and ranks == sorted(ranks) and ranks[0] == 1
    assert said.index("Ranks 1st in On-base plus slugging among MLB players in 2023 (1.066).") \
        < said.index("Ranks 4th in Home runs among MLB players in 2023 (44).")
