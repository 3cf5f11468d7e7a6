"""The comparison forecasters on real games: ``python -m server evaluate`` over the real-data
store prints FiveThirtyEight's own Elo and RAPTOR beside ours (issue #29: NBA 2022-23,
FiveThirtyEight Elo 0.2297, RAPTOR 0.2205, ours 0.2285), NHL's Elo and the WNBA's, each scored
as the test scores it here straight from the source's CSV, with its credit and a sentence saying
where ours loses."""
from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from server.catalog.playoffs import cup_final

from tests.demo_api import ApiServer, run_server_command
from tests.server.models import realdata
from tests.server.models.test_realdata import ACHIEVED, SLACK

pytestmark = [
    pytest.mark.realdata,
    pytest.mark.skipif(not realdata.available(), reason="../shared/data is absent"),
]

LINE = re.compile(r"^(?P<name>[^:]+): count (?P<count>\d+)  Brier (?P<brier>[\d.]+)  "
                  r"log loss (?P<log_loss>[\d.]+)  accuracy [\d.]+$")


def _evaluate(store: ApiServer, level: str, season: int) -> tuple[dict[str, tuple[int, float, float]], str]:
    out = run_server_command(["evaluate", "--level", level, "--season", str(season)],
                             {"DATABASE_URL": store.database_url, "PATH": "/usr/bin:/bin"})
    scores = {m["name"]: (int(m["count"]), float(m["brier"]), float(m["log_loss"]))
              for m in map(LINE.match, out.splitlines()) if m}
    return scores, out


def _scores(p: pd.Series, y: pd.Series) -> tuple[int, float, float]:
    """Count, Brier score and log loss, written out here rather than taken from the service."""
    pa, ya = p.to_numpy(float), y.to_numpy(float)
    return len(pa), float(np.mean((pa - ya) ** 2)), \
        float(-np.mean(ya * np.log(pa) + (1 - ya) * np.log(1 - pa)))


def _close(printed: tuple[int, float, float], expected: tuple[int, float, float]) -> None:
    assert printed[0] == expected[0]
    assert printed[1:] == pytest.approx(expected[1:], abs=5e-5), (printed, expected)


def test_nba_2022_23_fivethirtyeight_elo_and_raptor_beside_ours(real_store: ApiServer) -> None:
    raw = pd.read_csv(realdata.NBA)
    regular = raw[raw["playoff"].isna() & raw["score1"].notna()]
    won = (regular["score1"] > regular["score2"]).astype(float)
    scores, out = _evaluate(real_store, "NBA", 2023)
    _close(scores["FiveThirtyEight Elo"], _scores(regular["elo_prob1"], won))
    _close(scores["FiveThirtyEight RAPTOR"], _scores(regular["raptor_prob1"], won))
    assert scores["ELO"][0] == 1230 and scores["ELO"][1] == pytest.approx(ACHIEVED["NBA"], abs=SLACK)
    assert round(scores["FiveThirtyEight Elo"][1], 4) == 0.2297  # the figures
    assert round(scores["FiveThirtyEight RAPTOR"][1], 4) == 0.2205
    assert "FiveThirtyEight RAPTOR: Source: FiveThirtyEight (ABC News), CC BY 4.0" in out
    ours, elo, raptor = (f"{scores[n][1]:.4f}" for n in ("ELO", "FiveThirtyEight Elo", "FiveThirtyEight RAPTOR"))
    assert f"On Brier score, ours ({ours}) loses to FiveThirtyEight RAPTOR ({raptor})" in out
    assert f"beats FiveThirtyEight Elo ({elo})" in out
    calibration = out.split("calibration (FiveThirtyEight RAPTOR):")[1].splitlines()[1:11]
    assert sum(int(row.split()[2]) for row in calibration) == 1230, "ten bins holding every game"


def test_nhl_2022_23_and_wnba_2024_each_beside_ours(real_store: ApiServer) -> None:
    raw = pd.read_csv(realdata.NHL)
    regular = raw[raw["playoff"] == 0]
    scores, _ = _evaluate(real_store, "NHL", 2023)
    _close(scores["FiveThirtyEight Elo"],
           _scores(regular["home_team_winprob"],
                   (regular["home_team_score"] > regular["away_team_score"]).astype(float)))
    assert "FiveThirtyEight RAPTOR" not in scores, "RAPTOR is NBA's only"
    wnba = pd.read_csv(realdata.WNBA)
    home = wnba[(wnba["season"] == 2024) & (wnba["playoff"] == 0) & (wnba["is_home"] == 1)]
    # the Commissioner's Cup final, a regular-season row of the file, counts in no season score
    cup = [cup_final("WNBA", day, frozenset({a, b})) is not None
           for day, a, b in zip(home["date"], home["team1_abbr"], home["team2_abbr"])]
    assert sum(cup) == 1, "the 2024 cup final, once"
    home = home[[not c for c in cup]]
    scores, out = _evaluate(real_store, "WNBA", 2024)
    _close(scores["Neil Paine's WNBA Elo"],
           _scores(home["team1_winprob"], (home["team1_score"] > home["team2_score"]).astype(float)))
    assert "continuing FiveThirtyEight's WNBA Elo" in out
