"""Names of people and clubs: how a search compares them, the suffixes that tell a father from
his son, and the club names the sources lag behind.

Names are stored as the sources spell them (accents, ``Jr.``); a search compares *folded* text
instead, so ``Acuna`` and ``acuña`` find the same player. The one folding is written here and used
by the API (a SQL function of that name, ``server.store.engine``) and by the dashboard's own
filters, so a name the dashboard finds is one the API finds.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

# apostrophes and quotes of every kind: "O'Neil", "O’Neil" and "ONeil" are one name
_QUOTES = re.compile(r"[\u0027\u2018\u2019\u201b\u02bc\u0060\u00b4\"\u201c\u201d]")
# letters that NFKD does not decompose into a base letter and a mark
_PLAIN = str.maketrans({"ß": "ss", "ø": "o", "Ø": "o", "ł": "l", "Ł": "l", "đ": "d", "Đ": "d"})

# Generational suffixes as Retrosheet's biofile writes them at the end of a given name
# ("George Kenneth Jr."): the name a player is shown under carries it, so Ken Griffey and
# Ken Griffey Jr. are two names, not one name twice.
SUFFIXES = ("Jr.", "Sr.", "II", "III", "IV")


def fold(text: str) -> str:
    """``text`` lower-cased, without accents or apostrophes, spaces collapsed."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_PLAIN))
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(_QUOTES.sub("", plain).casefold().split())


def suffix_of(given: str) -> str | None:
    """The generational suffix ending a given name (``George Kenneth Jr.`` -> ``Jr.``)."""
    words = given.split()
    return words[-1] if len(words) > 1 and words[-1] in SUFFIXES else None


def with_suffix(first: str, last: str, suffix: str | None) -> str:
    """The name a player is shown under: ``Ken Griffey Jr.``."""
    return " ".join(part for part in (first, last, suffix or "") if part)


@dataclass(frozen=True)
class ClubName:
    """The name, city and abbreviation a club carried in its seasons from ``since`` on, where
    every source here still prints an older one."""
    level: str
    code: str  # the club's Retrosheet code (Lahman's teamIDretro)
    since: int
    name: str
    city: str
    nickname: str
    abbrev: str
    why: str


CLUB_NAMES: tuple[ClubName, ...] = (
    ClubName("MLB", "ANA", 2016, "Los Angeles Angels", "Los Angeles", "Angels", "LAA",
             "the club dropped 'of Anaheim' from its name before the 2016 season; Lahman 2021.2 "
             "still prints 'Los Angeles Angels of Anaheim' to 2020 and Retrosheet's team files "
             "'Anaheim Angels' (ANA) for 2021-2023"),
)


@dataclass(frozen=True)
class SeasonName:
    """What a club was called in one season."""
    name: str
    city: str | None
    nickname: str | None
    abbrev: str | None


def club_name(level: str, code: str, season: int, found: SeasonName) -> SeasonName:
    """``found`` (the source's name for the season), or the name the club carried where the
    sources lag behind (``CLUB_NAMES``)."""
    for club in CLUB_NAMES:
        if club.level == level and club.code == code and season >= club.since:
            return SeasonName(club.name, club.city, club.nickname, club.abbrev)
    return found
