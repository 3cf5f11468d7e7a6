"""Football as data: the clubs every source's spelling maps to, the leagues the files name, and
the points deductions the official tables carry (docs/football.md).

``clubs.csv`` is the alias table: one row per club (``club`` its key, ``name`` the name shown,
``nation``, ``aliases`` the other spellings the files use, ``|`` separated). A name the table does
not hold is an error at ingest (``club_of``), never a guess.
"""
from __future__ import annotations

import csv
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TypeVar

from server.errors import UserError

CLUBS_FILE = Path(__file__).with_name("clubs.csv")
T = TypeVar("T")


@dataclass(frozen=True)
class Club:
    key: str
    name: str
    nation: str | None


def read_aliases(path: Path, make: Callable[[dict[str, str]], T]) -> dict[str, T]:
    """An alias table: every spelling (a row's ``name`` and each of its ``aliases``, ``|``
    separated) -> what ``make`` builds of its row; a spelling on two rows is an error."""
    out: dict[str, T] = {}
    with path.open(encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh):
            item = make(row)
            for spelling in [row["name"], *filter(None, row["aliases"].split("|"))]:
                if spelling in out and out[spelling] != item:
                    raise ValueError(f"{spelling!r} is on two rows of {path.name}")
                out[spelling] = item
    return out


@cache
def clubs() -> dict[str, Club]:
    """Every spelling (the name and each alias) -> its club."""
    return read_aliases(CLUBS_FILE, lambda row: Club(row["club"], row["name"], row["nation"] or None))


def club_of(spelling: str) -> Club:
    """The club a file's spelling names; an unknown spelling is an error naming it."""
    return look_up(clubs(), spelling, "club", CLUBS_FILE)


def look_up(table: dict[str, T], spelling: str, what: str, path: Path) -> T:
    """``spelling``'s entry in an alias table; one it does not hold is an error naming it."""
    found = table.get(spelling.strip())
    if found is None:
        raise UserError(f"{what} {spelling!r} is not in {path.name}: add it or an alias")
    return found


@dataclass(frozen=True)
class Split:
    """A season the league splits in groups after its first rounds (Austria's Bundesliga,
    Belgium's First Division A, Scotland's Premiership, Greece's Super League, Egypt's Premier
    League): each club's first ``after`` league
    matches are the first phase; the table then, ranked as the league ranks, puts its first
    ``sizes[0]`` clubs in the first group, the next ``sizes[1]`` in the second, and so on; each
    group plays on among itself and is ranked on its own, every club of a group above every
    club of the next, whatever their points (``server.models.standings``). A group whose
    ``halved`` entry is true starts from half its first-phase points, rounded as ``rounding``
    says ("down" or "up"); the half point the rounding gave or took is the tiebreak
    ``split_half_point`` (``server.models.tiebreaks``) where the league's order names it.
    Each group's clubs meet each other ``legs`` times in the group's rounds."""
    after: int
    sizes: tuple[int, ...]
    halved: tuple[bool, ...] = ()
    rounding: str = "down"  # down | up
    legs: int = 2
    # a single meeting (``legs`` 1) at home for the club at home in fewer of the pair's earlier
    # meetings, then for the one with fewer home matches in the season so far, then by places
    # (the SPFL evens out home matches: 28 of Scotland's 30 group matches of 2024-25 went to
    # the club that had hosted the pair once of three); False: by places alone
    home_balance: bool = False

    def group_matches(self, section: int | None) -> int:
        """The matches a club of group ``section`` plays after the split (None: its group is
        not known yet, the most any group plays)."""
        sizes = self.sizes if section is None else self.sizes[section:section + 1]
        return max((size - 1) * self.legs for size in sizes)

    def group_fixtures(self, size: int) -> list[tuple[int, int]]:
        """A group's rounds as (home, away) places in the group (0 its first at the split):
        twice, each club at home to every other once; once, the home side alternating by
        places (``home_balance`` first gives each meeting to the club at home in fewer of the
        pair's earlier meetings, then to the one with fewer home matches in the season)."""
        pairs = [(i, j) for i in range(size) for j in range(i + 1, size)]
        if self.legs == 1:
            return [(i, j) if (i + j) % 2 == 0 else (j, i) for i, j in pairs]
        return [x for _ in range(self.legs // 2) for x in pairs + [(j, i) for i, j in pairs]]

    def __post_init__(self) -> None:
        if self.halved and len(self.halved) != len(self.sizes):
            raise ValueError("a split's halved entries are one per group")
        if self.rounding not in ("down", "up"):
            raise ValueError(f"a split rounds down or up, not {self.rounding!r}")


@dataclass(frozen=True)
class League:
    """A competition of level FC, as the files' codes name it (``en.1``)."""
    code: str
    name: str
    nation: str
    type: str = "Domestic"  # Domestic | Cup | International
    gender: str = "M"
    # the published order of teams level on points (server.models.tiebreaks rules)
    tiebreaks: tuple[str, ...] = ("goal_difference", "goals_for")
    # its knock-out rounds of two legs go through on aggregate (no away goals), level ties as
    # ``level_ties`` says: the European cups from 2021-22, the EFL's play-off semi-finals (EFL
    # Regulations), Austria's Europa League play-off final, Serie B's and Liga MX's play-offs
    two_legged: bool = False
    # how a level aggregate is decided, by the round's name: the first (ending, rule) whose
    # ending the round's name has ("" for any); EXTRA_TIME: the second leg's extra time and
    # shoot-out; BETTER_PLACED: the club placed higher in the regular season (its stage's:
    # Liga MX's Apertura or Clausura), no extra time
    level_ties: tuple[tuple[str, str], ...] = (("", "extra_time"),)
    # a season played in two phases, the second in groups (``Split``); None: one table
    split: Split | None = None
    # the schedule: each club meets every other ``legs`` times (2: a double round robin, home
    # and away), before the split where the league splits (``Split.after`` matches); None:
    # not declared, the files' fixtures are the whole schedule
    legs: int | None = 2
    # the head-to-head steps count two clubs' matches only once they have met as often as the
    # round robin says (``first_legs``: home and away), goal difference deciding before (La
    # Liga's and Greece's); False: from their first meeting
    head_to_head_complete: bool = False
    # its play-off final is one match at a ground chosen beforehand, the semi-finals home and
    # away: the EFL's at Wembley (EFL Regulations, Appendix 5: the play-offs)
    neutral_final: bool = False

    def matches(self, clubs: int, section: int | None = None) -> int | None:
        """The league matches each club plays in a season of ``clubs`` clubs: the round robin
        (``Split.after`` where the league splits), then its split group's rounds
        (``Split.group_matches``: ``section`` its group, None while not known); None where
        the schedule is not declared."""
        if self.split is not None:
            return self.split.after + self.split.group_matches(section)
        return None if self.legs is None else self.legs * (clubs - 1)

    def first_legs(self, clubs: int) -> int | None:
        """How many times each club meets each other before any split (Scotland: 33 matches
        of 12 clubs, three times); None where the schedule is not declared."""
        if self.split is not None:
            return self.split.after // max(clubs - 1, 1)
        return self.legs

    @property
    def abbrev(self) -> str:
        return self.code.replace(".", "").upper()

    @property
    def tier(self) -> int:
        """The division: 1 for a top flight (``en.1``), 2 for the next (``en.2``); a cup or an
        international competition counts as 1. The Elo's first rating of a club reads it."""
        number = self.code.rsplit(".", 1)[-1]
        return int(number) if self.type == "Domestic" and number.isdigit() else 1


_GD = ("goal_difference", "goals_for")
EXTRA_TIME, BETTER_PLACED = "extra_time", "better_placed"
# La Liga (RFEF regulations, art. 201), Serie A (NOIF art. 51) and the Primeira Liga (Liga
# Portugal's competition regulations): level clubs are ranked by the points between them, then
# the goal difference between them, then overall
_HEAD_TO_HEAD = ("head_to_head", "head_to_head_goal_difference", *_GD)
LEAGUES: dict[str, League] = {lg.code: lg for lg in (
    # Austria's Europa League play-off final: two legs, no away goals since 2021-22, a level
    # tie to extra time and penalties (Bundesliga's rules; Kurier, 11 Jun 2023)
    # Austria's Bundesliga (since 2018-19): 22 rounds, then a championship and a qualifying
    # group of six play 10 more; the points of the 22 rounds are halved, a half point rounded
    # down, and "if two clubs are level on points at the end and one of them had half a point
    # rounded down, that club is ranked ahead; if neither or both, goal difference decides",
    # then goals scored, wins, away wins and the matches between the clubs (Bundesliga's mode
    # of play, as printed by Kurier and Sky Sport Austria with each season's split table)
    League("at.1", "Austrian Bundesliga", "Austria", two_legged=True,
           tiebreaks=("split_half_point", *_GD, "wins", "away_wins", "head_to_head"),
           split=Split(after=22, sizes=(6, 6), halved=(True, True), rounding="down")),
    League("at.2", "Austrian 2. Liga", "Austria"),
    # the A-League Men: 26 rounds of 13 clubs (no round robin count); its schedule is the file's
    League("au.1", "A-League Men", "Australia", legs=None),
    # Belgium's First Division A (2024-25, 16 clubs): 30 rounds, then the Champions'
    # play-offs (1-6) and the Europe play-offs (7-12), each from half its points rounded up, 10
    # rounds, and the relegation play-offs (13-16) with their points whole, 6 rounds; level on
    # points, a club whose half point was rounded up loses it first (Pro League, "Comment se
    # déroulent les play-offs ?", 2025), then the most wins, goal difference, goals scored (Pro
    # League regulations; 2024-25's file lists Dender, 32 points and 8 wins, in the Europe
    # play-offs above Cercle Brugge, 32 points, 7 wins and the better goal difference; "the
    # number of wins is the first criterion on equal points, goal difference the second",
    # Walfoot, 14 Mar 2024)
    League("be.1", "Belgian First Division A", "Belgium",
           tiebreaks=("split_half_point", "wins", *_GD),
           split=Split(after=30, sizes=(6, 6, 4), halved=(True, True, False), rounding="up")),
    League("de.1", "Bundesliga", "Germany"),
    League("de.2", "2. Bundesliga", "Germany"),
    League("dz.1", "Algerian Ligue 1", "Algeria"),
    # Egypt's Premier League 2024-25 (18 clubs): one round robin of 17 rounds, then the first
    # nine play a championship group and the last nine a relegation group, once each, points
    # whole (the file's ``Championship`` and ``Relegation`` rounds: 8 more matches each)
    League("eg.1", "Egyptian Premier League", "Egypt",
           split=Split(after=17, sizes=(9, 9), legs=1)),
    League("en.1", "Premier League", "England"),
    League("en.2", "EFL Championship", "England", two_legged=True, neutral_final=True),
    League("en.3", "EFL League One", "England", two_legged=True, neutral_final=True),
    League("en.4", "EFL League Two", "England", two_legged=True, neutral_final=True),
    # La Liga: the head-to-head once the two matches between the clubs have been played (RFEF
    # regulations, art. 201)
    League("es.1", "La Liga", "Spain", tiebreaks=_HEAD_TO_HEAD, head_to_head_complete=True),
    League("es.2", "Segunda División", "Spain"),
    League("fr.1", "Ligue 1", "France"),
    League("fr.2", "Ligue 2", "France"),
    # Greece's Super League (14 clubs, 2024-25 on): 26 rounds, then the first four play the
    # championship play-offs, the next four the Conference League play-offs and the last six
    # the play-outs, each group twice, points whole (the file's ``Championship``, ``ECL
    # Playoffs`` and ``Relegation`` rounds). Level on points: the points between the clubs,
    # then the goal difference between them (where they met home and away), then goal
    # difference and goals scored (EPO's Football Match Regulations, KAP art. 20 par. 5, as the
    # Super League published them for 2025-26)
    League("gr.1", "Super League Greece", "Greece", tiebreaks=_HEAD_TO_HEAD,
           split=Split(after=26, sizes=(4, 4, 6)), head_to_head_complete=True),
    League("it.1", "Serie A", "Italy", tiebreaks=("tie_playoff", *_HEAD_TO_HEAD)),
    # Serie B's play-offs and play-out: level on aggregate, the better-placed club (Lega B)
    League("it.2", "Serie B", "Italy", two_legged=True, level_ties=(("", BETTER_PLACED),)),
    League("ma.1", "Botola Pro", "Morocco"),
    # Liga MX's liguilla: level on aggregate, the better-placed club goes through, except in
    # the final, which goes to extra time and penalties (Liga MX regulations)
    League("mx.1", "Liga MX", "Mexico", two_legged=True,
           level_ties=(("Final", EXTRA_TIME), ("", BETTER_PLACED))),
    League("nl.1", "Eredivisie", "Netherlands"),
    League("pt.1", "Primeira Liga", "Portugal", tiebreaks=_HEAD_TO_HEAD),
    # Scotland's Premiership: 33 rounds, then the top six and the bottom six play five more
    # among themselves, points kept whole; a club stays in its half whatever its points, and
    # the fixtures even out each club's home matches as far as they can (SPFL rules: the split)
    League("sco.1", "Scottish Premiership", "Scotland",
           split=Split(after=33, sizes=(6, 6), legs=1, home_balance=True)),
    # the Süper Lig: level on points, the points between the clubs, then the goal difference
    # between them ("ikili averaj"), then goal difference and goals scored (TFF's Süper Lig
    # statute, as TFF's tables apply it)
    League("tr.1", "Süper Lig", "Turkey", tiebreaks=_HEAD_TO_HEAD),
)}


# FiveThirtyEight's league names (its SPI files' ``league`` column) -> ours, for the leagues
# whose seasons both hold (2021-22 and 2022-23; its other leagues are seasons we do not hold).
FIVETHIRTYEIGHT_LEAGUES: dict[str, str] = {
    "Austrian T-Mobile Bundesliga": "at.1", "German Bundesliga": "de.1",
    "German 2. Bundesliga": "de.2", "Barclays Premier League": "en.1",
    "English League Championship": "en.2", "Spanish Primera Division": "es.1",
    "French Ligue 1": "fr.1", "Italy Serie A": "it.1", "Dutch Eredivisie": "nl.1",
    "Portuguese Liga": "pt.1",
}


def tiers_by_abbrev() -> dict[str, int]:
    """Each declared league's sublevel abbreviation (``EN2``) -> its division (``tier``)."""
    return {lg.abbrev: lg.tier for lg in LEAGUES.values()}


def league_of(code: str) -> League:
    found = LEAGUES.get(code.lower())
    if found is None:
        raise UserError(f"league {code!r} is not declared (server.catalog.football.LEAGUES)")
    return found
