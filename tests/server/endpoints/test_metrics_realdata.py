"""The metrics FanGraphs and Baseball-Reference readers look for first, from the real store's
Retrosheet seasons through the ``stats`` endpoint, against the figures the sites publish.

Published figures (read 2026):
- Aaron Judge 2022, FanGraphs (https://www.fangraphs.com/players/aaron-judge/15640/stats):
  wOBA .458, wRC+ 207; Baseball-Reference
  (https://www.baseball-reference.com/players/j/judgeaa01.shtml): OPS+ 211.
- Gerrit Cole 2023, FanGraphs (https://www.fangraphs.com/players/gerrit-cole/13125/stats):
  FIP 3.16; Baseball-Reference (https://www.baseball-reference.com/players/c/colege01.shtml):
  ERA+ 165.

Tolerances, and why: wOBA and FIP read the season's weights and FIP constant, which match
FanGraphs' to a few hundredths (``test_runexpectancy_realdata``), so they agree to the printed
digit or nearly (.003, .03). wRC+, OPS+ and ERA+ divide by a park factor and the league's
average: ours is three seasons of runs at home over runs on the road, regressed halfway, and
the league's figures include pitchers' plate appearances; FanGraphs' park factors are five
seasons' and by event, Baseball-Reference's its own multi-year factors, separate for batters and
pitchers (BPF, PPF), with pitchers' batting left out of the league's OBP and SLG. A point of park
factor moves these by about two points, hence 4 points for wRC+ and OPS+ and 5 for ERA+.
"""
from __future__ import annotations

from typing import Any

import pytest
import requests

from server.catalog import figures
from tests.demo_api import ApiServer

pytestmark = [pytest.mark.realdata, pytest.mark.timeout(900)]

# (player, season, stat code, published, source, tolerance)
PUBLISHED = (
    ("Aaron Judge", 2022, "wOBA", .458, "FanGraphs", .003),
    ("Aaron Judge", 2022, "wRC+", 207, "FanGraphs", 4),
    ("Aaron Judge", 2022, "OPS+", 211, "Baseball-Reference", 4),
    ("Gerrit Cole", 2023, "FIP", 3.16, "FanGraphs", .03),
    ("Gerrit Cole", 2023, "ERA+", 165, "Baseball-Reference", 5),
)


def _stats(api: ApiServer, **params: Any) -> list[dict[str, Any]]:
    response = requests.get(f"{api.url}/v1/stats/MLB/", params={"key": api.key, **params},
                            timeout=120)
    assert response.status_code == 200, response.text
    records: list[dict[str, Any]] = response.json()["stats"]
    return records


@pytest.mark.parametrize("name,season,code,published,source,tolerance", PUBLISHED)
def test_a_player_season_reads_as_the_site_publishes_it(
        real_api: ApiServer, name: str, season: int, code: str, published: float, source: str,
        tolerance: float) -> None:
    row = _stats(real_api, stat=code, season=season, player=name)
    assert len(row) == 1, row
    value = row[0]["Value"]
    print(name, season, code, value, "against", source, published)
    assert abs(value - published) <= tolerance, (value, published, source)


def test_leaders_rank_the_qualified_as_the_sites_do(real_api: ApiServer) -> None:
    # FanGraphs' 2022 wRC+ leader among qualified batters: Aaron Judge (207)
    leaders = _stats(real_api, stat="wRC+", season=2022, limit="qualifiers", max=5)
    assert leaders[0]["Name"] == "Aaron Judge" and leaders[0]["Qualified"] == "Y"
    assert figures.text("wRC+", leaders[0]["Value"]).isdigit()
    # the lowest FIP ranks first; a reliever with a handful of innings is no qualifier
    fip = _stats(real_api, stat="FIP", season=2023, limit="qualifiers", max=200)
    values = [r["Value"] for r in fip]
    assert values == sorted(values) and all(r["Qualified"] == "Y" for r in fip)
    assert "Gerrit Cole" in [r["Name"] for r in fip[:10]]
    everyone = _stats(real_api, stat="FIP", season=2023, max=2000)
    assert len(everyone) > len(fip) and any(r["Qualified"] == "N" for r in everyone)


def test_the_sites_formats(real_api: ApiServer) -> None:
    judge = {code: _stats(real_api, stat=code, season=2022, player="Aaron Judge")[0]["Value"]
             for code in ("wOBA", "wRC+", "K%", "ISO")}
    assert figures.text("wOBA", judge["wOBA"]) == ".458"
    assert figures.text("wRC+", judge["wRC+"]) in {str(n) for n in range(203, 212)}
    assert figures.text("K%", judge["K%"]) == "25.1%"  # FanGraphs: 25.1 %
    assert figures.text("ISO", judge["ISO"]) == ".375"  # FanGraphs: .375
