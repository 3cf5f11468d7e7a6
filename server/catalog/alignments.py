"""Conferences of the real results files' teams, which the files themselves do not name.

Results files (FiveThirtyEight's layout) carry teams by abbreviation only; the spec's
``sublevel`` (a league or conference) needs the alignment. Each row is one conference for a span
of seasons (the year a season ends); a team outside every declared span stays without one rather
than be given a wrong one (the WNBA's conferences moved with its franchises and are not declared).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Conference:
    level: str
    abbrev: str
    name: str
    first: int  # first season (the year it ends) of this alignment
    last: int | None  # last season, None while it holds
    teams: frozenset[str]  # the results files' team abbreviations


def _teams(text: str) -> frozenset[str]:
    return frozenset(text.split())


CONFERENCES: tuple[Conference, ...] = (
    # NBA: 30 teams since 2004-05; abbreviations as Basketball-Reference and FiveThirtyEight
    # write them (BRK, CHO, NOP, PHO), so earlier names (NJN, CHA, NOH, SEA) stay unaligned.
    Conference("NBA", "EAST", "Eastern Conference", 2005, None, _teams(
        "ATL BOS BRK CHI CHO CLE DET IND MIA MIL NYK ORL PHI TOR WAS")),
    Conference("NBA", "WEST", "Western Conference", 2005, None, _teams(
        "DAL DEN GSW HOU LAC LAL MEM MIN NOP OKC PHO POR SAC SAS UTA")),
    # NHL: 32 teams from 2021-22 (Seattle) until Arizona left after 2023-24.
    Conference("NHL", "EAST", "Eastern Conference", 2022, 2024, _teams(
        "BOS BUF DET FLA MTL OTT TBL TOR CAR CBJ NJD NYI NYR PHI PIT WSH")),
    Conference("NHL", "WEST", "Western Conference", 2022, 2024, _teams(
        "ARI CHI COL DAL MIN NSH STL WPG ANA CGY EDM LAK SEA SJS VAN VEG")),
)


def conference_of(level: str, season: int, team: str) -> Conference | None:
    """The conference ``team`` (an abbreviation) played in that season, if declared."""
    for conf in CONFERENCES:
        if (conf.level == level and team in conf.teams and conf.first <= season
                and (conf.last is None or season <= conf.last)):
            return conf
    return None
