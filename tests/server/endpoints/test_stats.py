"""The metrics FanGraphs and Baseball-Reference readers look for first, from the real store's
Retrosheet seasons through the ``stats`` endpoint, against the figures the sites publish.

Published figures (read 2026):
- Aaron Judge 2022, FanGraphs (https://www.fangraphs.com/players/aaron-judge/15640/stats):
  wOBA .458, wRC+ 207; Baseball-Reference
  (https://www.baseball-reference.com/players/j/judgeaa01.shtml): OPS+ 211.
- Gerrit Cole 2023, FanGraphs (https://www.fangraphs.com/players/gerrit-cole/13125/stats):
  FIP 3.16; Baseball-Reference (https://www.baseball-reference.com/players/c/colege01.shtml):
  ERA+ 165.

- Seasons known from Lahman's totals, Baseball-Reference (https://www.baseball-reference.com,
  each player's page): Barry Bonds 2004 OPS+ 263, Babe Ruth 1920 OPS+ 255, Pedro Martinez 2000
  ERA+ 291, Bob Gibson 1968 ERA+ 258; FanGraphs' FIP: Pedro Martinez 2000 2.17 (quoted in Yahoo
  Sports' Big League Stew, "Pedro's Best Year: Was it 1999? Or 2000?"), Bob Gibson 1968 1.77
  (quoted with FanGraphs' FIP- in https://cybermetric.blogspot.com/2019/07/).
- xFIP, FanGraphs: Gerrit Cole 2023 3.60 (quoted in https://www.pinstripealley.com/2023/10/16/
  23917922/), Gerrit Cole 2022 2.77 (quoted in https://pinstripeperspective.com/2023/02/04/).

Tolerances, and why: wOBA and FIP read the season's weights and FIP constant, which match
FanGraphs' to a few hundredths (``test_runexpectancy``), so they agree to the printed
digit or nearly (.003, .03). wRC+, OPS+ and ERA+ divide by a park factor and the league's
average: ours is three seasons of runs at home over runs on the road, regressed halfway, and
the league's figures include pitchers' plate appearances; FanGraphs' park factors are five
seasons' and by event, Baseball-Reference's its own multi-year factors, separate for batters and
pitchers (BPF, PPF), with pitchers' batting left out of the league's OBP and SLG. A point of park
factor moves these by about two points, hence 4 points for wRC+ and OPS+ and 5 for ERA+.
Lahman's seasons read Baseball-Reference's own park factors (BPF, PPF, whole numbers) and leave
pitchers' batting out as it does: ERA+ then agrees to the point (1), OPS+ within 4 (who counts
as a pitcher, a main position here, and its rounding of the league's OBP and SLG differ); FIP
reads a constant from the same league totals as FanGraphs' (.03). xFIP counts fly balls from
the plays' words (fly outs, pop-ups, sacrifice flies, home runs): a hit's trajectory is not
kept, so the league's home runs per fly ball are counted the same way and their product stands,
but a pitcher whose fly balls fall for hits more or less often than the league's moves: .25.
"""
from __future__ import annotations

from typing import Any

import pytest

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
    ("Barry Bonds", 2004, "OPS+", 263, "Baseball-Reference", 4),
    ("Babe Ruth", 1920, "OPS+", 255, "Baseball-Reference", 4),
    ("Pedro Martinez", 2000, "ERA+", 291, "Baseball-Reference", 1),
    ("Bob Gibson", 1968, "ERA+", 258, "Baseball-Reference", 1),
    ("Pedro Martinez", 2000, "FIP", 2.17, "FanGraphs", .03),
    ("Bob Gibson", 1968, "FIP", 1.77, "FanGraphs", .03),
    ("Gerrit Cole", 2023, "xFIP", 3.60, "FanGraphs", .25),
    ("Gerrit Cole", 2022, "xFIP", 2.77, "FanGraphs", .25),
)


def _stats(api: ApiServer, **params: Any) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = api.get_json("/v1/stats/MLB/", **params)["stats"]
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


def test_lahmans_seasons_rank_and_carry_what_their_totals_allow(real_api: ApiServer) -> None:
    # Bob Gibson's 1968 ERA+ led the qualified (Baseball-Reference: 258, first in the majors)
    leaders = _stats(real_api, stat="ERA+", season=1968, limit="qualifiers", max=3)
    assert leaders[0]["Name"] == "Bob Gibson" and leaders[0]["Qualified"] == "Y"
    assert figures.text("ERA+", leaders[0]["Value"]) == "258"
    # 1880's pitching lines do not record hit batters: no FIP, while its ERA+ stands
    assert not _stats(real_api, stat="FIP", season=1880, max=5)
    assert _stats(real_api, stat="ERA+", season=1880, max=5)
    # a player's season record carries them beside its totals
    found = real_api.get_json("/v1/players/MLB/", search="Babe Ruth")["players"]
    ruth = real_api.get_json("/v1/players/MLB/", id=found[0]["ID"])["players"][0]
    season = next(r for r in ruth["seasons"] if r["Season"] == 1920)
    assert abs(season["Metrics"]["OPS+"] - 255) <= 4 and season["Stats"]["HR"] == 54
