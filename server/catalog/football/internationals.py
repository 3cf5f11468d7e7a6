"""National teams and international competitions as data (docs/football.md, "Internationals").

``nations.csv`` is the national teams' alias table: one row per nation (``nation`` its key,
``name`` the name the results files use today, ``aliases`` the other spellings a file uses,
``|`` separated: the World Cup files' "USA"). A spelling it does not hold stops the ingest with
its name (``nation_of``), never a guess. A nation's former names (Zaïre, Éire, the Soviet Union)
are the source's own ``former_names.csv``, read at ingest: they name the same nation on the
dates they cover.

``COMPETITIONS``: the tournaments the results file names (about 190) grouped into FC sublevels,
each with its weight in the World Football Elo Ratings (eloratings.net: 60 for the World Cup
finals, 50 for continental championships and intercontinental tournaments, 40 for World Cup
and continental qualifiers and the major tournaments, 30 for every other tournament, 20 for a
friendly). A tournament not named here is one of the "Other tournaments".
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from server.catalog.football import look_up, read_aliases

NATIONS_FILE = Path(__file__).with_name("nations.csv")
# The source the national teams come from (``teams.source``): every team it writes is a nation,
# rated in a pool of its own (docs/football.md, "National teams").
NATIONAL_SOURCE = "internationals"
CLUB_POOL, NATIONAL_POOL = "Clubs", "National teams"  # the rankings' two pools, as named


@dataclass(frozen=True)
class Nation:
    key: str
    name: str  # the name in use today (the results file's)


@cache
def nations() -> dict[str, Nation]:
    """Every spelling (the name and each alias) -> its nation."""
    return read_aliases(NATIONS_FILE, lambda row: Nation(row["nation"], row["name"]))


def nation_of(spelling: str) -> Nation:
    """The nation a file's spelling names; an unknown spelling is an error naming it."""
    return look_up(nations(), spelling, "nation", NATIONS_FILE)


@dataclass(frozen=True)
class Competition:
    """An FC sublevel of men's internationals: the tournaments it groups and their Elo K."""
    code: str
    name: str
    scope: str  # LeagueNation: the world or the confederation's continent
    elo_k: float
    tournaments: tuple[str, ...] = ()

    @property
    def abbrev(self) -> str:
        return f"INT{self.code.upper()}"[:16]


OTHER = "other"
COMPETITIONS: dict[str, Competition] = {c.code: c for c in (
    Competition("wc", "FIFA World Cup", "World", 60.0, ("FIFA World Cup",)),
    Competition("wcq", "FIFA World Cup qualification", "World", 40.0,
                ("FIFA World Cup qualification",)),
    Competition("confed", "FIFA Confederations Cup", "World", 50.0, ("Confederations Cup",)),
    Competition("euro", "UEFA European Championship", "Europe", 50.0, ("UEFA Euro",)),
    Competition("euroq", "UEFA Euro qualification", "Europe", 40.0, ("UEFA Euro qualification",)),
    Competition("unl", "UEFA Nations League", "Europe", 40.0, ("UEFA Nations League",)),
    Competition("copa", "Copa América", "South America", 50.0, ("Copa América",)),
    Competition("afcon", "Africa Cup of Nations", "Africa", 50.0, ("African Cup of Nations",)),
    Competition("afconq", "Africa Cup of Nations qualification", "Africa", 40.0,
                ("African Cup of Nations qualification",)),
    Competition("asia", "AFC Asian Cup", "Asia", 50.0, ("AFC Asian Cup",)),
    Competition("asiaq", "AFC Asian Cup qualification", "Asia", 40.0,
                ("AFC Asian Cup qualification",)),
    Competition("gold", "CONCACAF Gold Cup", "North and Central America", 50.0,
                ("Gold Cup", "CONCACAF Championship")),
    Competition("goldq", "CONCACAF Gold Cup qualification", "North and Central America", 40.0,
                ("Gold Cup qualification", "CONCACAF Championship qualification")),
    Competition("cnl", "CONCACAF Nations League", "North and Central America", 40.0,
                ("CONCACAF Nations League", "CONCACAF Nations League qualification")),
    Competition("ofc", "OFC Nations Cup", "Oceania", 50.0, ("Oceania Nations Cup",)),
    Competition("ofcq", "OFC Nations Cup qualification", "Oceania", 40.0,
                ("Oceania Nations Cup qualification",)),
    Competition("friendly", "International friendlies", "World", 20.0, ("Friendly",)),
    Competition(OTHER, "Other international tournaments", "World", 30.0),
)}
_BY_TOURNAMENT = {t: c for c in COMPETITIONS.values() for t in c.tournaments}


def competition_of(tournament: str) -> Competition:
    """The sublevel a results file's ``tournament`` belongs to (the rest: ``OTHER``)."""
    return _BY_TOURNAMENT.get(tournament, COMPETITIONS[OTHER])


# The competitions that make a nation one of the ranked: FIFA's members enter the World Cup's
# qualification. The teams that never have (the Island Games' islands, the Muratti Vase's
# Channel Islands, CONIFA's members) play among themselves, so their ratings measure them
# against each other only (Jersey rose to 1831, above Russia, on wins over Alderney and
# Orkney): they are rated, for their matches' chances, and left out of the rankings.
RANKED_BY = ("wc", "wcq")


def ranked_by_abbrevs() -> frozenset[str]:
    """The sublevel abbreviations of ``RANKED_BY``."""
    return frozenset(COMPETITIONS[code].abbrev for code in RANKED_BY)


def elo_k_by_abbrev() -> dict[str, float]:
    """Each competition's sublevel abbreviation -> its K in the national teams' Elo."""
    return {c.abbrev: c.elo_k for c in COMPETITIONS.values()}
