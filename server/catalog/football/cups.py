"""The European cups as data: the competitions, the files that hold them, the phase and name of
each stage the files head, and the nation codes the files put after a club's name.

The files (``cl.txt``, ``clq.txt``: a competition and its qualifying rounds) name clubs
``Manchester City (ENG)``. A club is found through the alias table (``clubs.csv``): first by the
whole spelling (a club whose code is not its league's nation, ``AS Monaco FC (MCO)``), then by
the name alone, which must then belong to a club of the code's nation; anything else is an
error naming the spelling, never a guess.

Phases: the group stage and the league phase are the competition's league rounds (``regular``);
the knock-out rounds, the knock-out play-offs and the qualifying rounds are knock-out ties
(``postseason``, named by their round; a qualifying round's name starts ``Qualifying``). The
qualifying rounds come before the league rounds in time, but they are two-legged knock-out ties
that count in no table, which is what ``postseason`` means here (``preseason`` would move no
rating, and these matches are as real as any).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from server.catalog import phases
from server.catalog.football import Club, League, clubs
from server.errors import UserError

NATION = "Europe"  # the LeagueNation of a continental competition

CUPS: dict[str, League] = {lg.code: lg for lg in (
    League("uefa.cl", "UEFA Champions League", NATION, type="Cup", two_legged=True),
    League("uefa.el", "UEFA Europa League", NATION, type="Cup", two_legged=True),
    League("uefa.conf", "UEFA Conference League", NATION, type="Cup", two_legged=True),
)}

# a file's name (without ``.txt``) -> (its competition, whether it holds the qualifying rounds)
CUP_FILES: dict[str, tuple[str, bool]] = {
    "cl": ("uefa.cl", False), "clq": ("uefa.cl", True),
    "el": ("uefa.el", False), "elq": ("uefa.el", True),
    "conf": ("uefa.conf", False), "confq": ("uefa.conf", True),
}


@dataclass(frozen=True)
class Stage:
    """A stage header the files use (``pattern``, the whole header) in a qualifying file or a
    competition's own (``qualifying``), its phase and the round name stored (``name``, with the
    pattern's groups: ``\\g<group>``)."""
    pattern: str
    qualifying: bool
    phase: str
    name: str


_R, _P = phases.REGULAR, phases.POSTSEASON
STAGES: tuple[Stage, ...] = (
    Stage(r"(?:Round (?P<n>\d)|(?P<m>\d)\. Round)", True, _P, "Qualifying, Round \\g<n>\\g<m>"),
    Stage(r"Play-?offs", True, _P, "Qualifying, Play-offs"),
    Stage(r"(?:Group|Gruppe) (?P<g>[A-L])", False, _R, "Group \\g<g>"),
    Stage(r"Group, Matchday (?P<n>\d+)", False, _R, "Group stage, Matchday \\g<n>"),
    Stage(r"League phase", False, _R, "League phase"),
    Stage(r"League, Matchday (?P<n>\d+)", False, _R, "League phase, Matchday \\g<n>"),
    Stage(r"Playoffs(?:, Matchday \d)?", False, _P, "Knockout play-offs"),
    Stage(r"(?:Finals, )?(?P<r>Round of 16|Quarterfinals|Semifinals|Final)", False, _P, "\\g<r>"),
)
FINAL = "Final"  # the round played once, at a ground chosen beforehand (neutral)
# A group stage's matches name their group (``Group A``) in most files; 2023-24's Champions
# League file heads them by matchday only. Its groups are then the clubs that played each
# other, each named here by one of its clubs (the draw of 31 August 2023, uefa.com).
GROUP_DRAWS: dict[tuple[str, int], dict[str, str]] = {
    ("uefa.cl", 2024): {"A": "fc-bayern-munchen", "B": "arsenal-fc", "C": "real-madrid-cf",
                        "D": "real-sociedad-de-futbol", "E": "club-atletico-de-madrid",
                        "F": "borussia-dortmund", "G": "manchester-city-fc",
                        "H": "fc-barcelona"},
}
GROUP_ROUND = re.compile(r"Group (?P<g>[A-L])")  # a group stage round named by its group
LEAGUE_PHASE = "League phase"  # one table of every club (from 2024-25)
# Level on points: the group stage (2021-22 to 2023-24) ranks by the matches between the clubs
# level first, then goal difference and goals; the league phase by goal difference, goals, goals
# away, wins and wins away (UEFA's competition regulations, the article on equality of points)
GROUP_TIEBREAKS = ("head_to_head", "goal_difference", "goals_for")
LEAGUE_PHASE_TIEBREAKS = ("goal_difference", "goals_for", "away_goals_for", "wins", "away_wins")

# The last season whose two-legged ties a level aggregate sent through on away goals: UEFA
# abolished the rule from 2021-22 (UEFA press release, 24 June 2021), these files' first season.
AWAY_GOALS_LAST = 2021


def stage_of(header: str, qualifying: bool) -> tuple[str, str]:
    """(phase, round name) of a stage header; an unknown header is an error naming it."""
    for stage in STAGES:
        if stage.qualifying != qualifying:
            continue
        m = re.fullmatch(stage.pattern, header)
        if m is not None:
            return stage.phase, m.expand(stage.name)
    kind = "qualifying" if qualifying else "competition"
    raise UserError(f"stage {header!r} of a {kind} file is not declared "
                    "(server.catalog.football.cups.STAGES)")


# The nation codes the files put after a club's name -> the nation as clubs.csv names it.
NATION_CODES: dict[str, str] = {
    "ALB": "Albania", "AND": "Andorra", "ARM": "Armenia", "AUT": "Austria", "AZE": "Azerbaijan",
    "BEL": "Belgium", "BIH": "Bosnia and Herzegovina", "BLR": "Belarus", "BUL": "Bulgaria",
    "CRO": "Croatia", "CYP": "Cyprus", "CZE": "Czech Republic", "DEN": "Denmark",
    "ENG": "England", "ESP": "Spain", "EST": "Estonia", "FIN": "Finland", "FRA": "France",
    "FRO": "Faroe Islands", "GEO": "Georgia", "GER": "Germany", "GIB": "Gibraltar",
    "GRE": "Greece", "HUN": "Hungary", "IRL": "Republic of Ireland", "ISL": "Iceland",
    "ISR": "Israel", "ITA": "Italy", "KAZ": "Kazakhstan", "KOS": "Kosovo",
    "LIE": "Liechtenstein", "LTU": "Lithuania", "LUX": "Luxembourg", "LVA": "Latvia",
    "MCO": "Monaco", "MDA": "Moldova", "MKD": "North Macedonia", "MLT": "Malta",
    "MNE": "Montenegro", "NED": "Netherlands", "NIR": "Northern Ireland", "NOR": "Norway",
    "POL": "Poland", "POR": "Portugal", "ROU": "Romania", "RUS": "Russia", "SCO": "Scotland",
    "SMR": "San Marino", "SRB": "Serbia", "SUI": "Switzerland", "SVK": "Slovakia",
    "SVN": "Slovenia", "SWE": "Sweden", "TUR": "Turkey", "UKR": "Ukraine", "WAL": "Wales",
}


def cup_club_of(spelling: str) -> Club:
    """The club a cup file's ``Name (CCC)`` names: the whole spelling if the alias table holds
    it, else the name if it is a club of the code's nation; otherwise an error naming it."""
    known = clubs()
    whole = spelling.strip()
    if whole in known:
        return known[whole]
    m = re.fullmatch(r"(?P<name>.+?)\s*\((?P<code>[A-Z]{3})\)", whole)
    if m is None:
        raise UserError(f"club {spelling!r} has no nation code (Name (CCC))")
    nation = NATION_CODES.get(m["code"])
    if nation is None:
        raise UserError(f"club {spelling!r}: nation code {m['code']} is not declared "
                        "(server.catalog.football.cups.NATION_CODES)")
    club = known.get(m["name"])
    if club is None:
        raise UserError(f"club {spelling!r} is not in clubs.csv: add it or an alias")
    if club.nation != nation:
        raise UserError(f"club {spelling!r}: {m['name']!r} is {club.name} of {club.nation}, "
                        f"not of {nation}; add the whole spelling as an alias if it is that club")
    return club
