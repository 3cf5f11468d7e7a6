"""What a final league position earns, per league and season: European places, promotion,
relegation and the play-off places between divisions, declared as data with their source, read
by the season projections (``server.models.projections.project_table``) and the tables' clinch
marks (``server.models.standings``; docs/football.md).

A row holds for the seasons ``first`` to ``last`` (the year a season ends; ``last`` None: still
in force). Each ``Place`` names positions ``first`` to ``last`` of the final table, 1 the top;
a negative position counts from the bottom (-1 the last club), so a row reads the same for a
league of 18 or 20 clubs.

European places are the ones a league position earns when the domestic cups are won by clubs
that qualified through the league anyway (the usual case; a cup won by another club moves the
last European place down to it, which the result files cannot foresee). ``champions_league``
includes its qualifying rounds. A European Performance Spot (an extra Champions League place
for the two associations whose clubs did best in Europe that season) is declared for the season
it was earned in.
"""
from __future__ import annotations

from dataclasses import dataclass

# the kinds a projection reports, in table order (``server.models.projections.PLACE_KINDS``)
CHAMPIONS_LEAGUE = "champions_league"
EUROPA_LEAGUE = "europa_league"
CONFERENCE_LEAGUE = "conference_league"
PROMOTION = "promotion"
PROMOTION_PLAYOFF = "promotion_playoff"
RELEGATION_PLAYOFF = "relegation_playoff"
RELEGATION = "relegation"
KINDS = (CHAMPIONS_LEAGUE, EUROPA_LEAGUE, CONFERENCE_LEAGUE, PROMOTION, PROMOTION_PLAYOFF,
         RELEGATION_PLAYOFF, RELEGATION)
EUROPE = (CHAMPIONS_LEAGUE, EUROPA_LEAGUE, CONFERENCE_LEAGUE)

# The clinch mark a table shows once a place is certain (``server.models.standings``). A place
# at the top is marked when a club can no longer finish below it (at least that place: a club
# sure of the top six of the Championship is marked ``Promotion Play-off`` until it is sure of
# the top two); one at the bottom when it can no longer finish above it (at best that place).
# The Europa League and Conference League places are not marked: a domestic cup won by a club
# outside the European places takes one of them, and the result files cannot foresee the cups,
# so the position alone never makes them certain. A league's champion is marked ``Title``,
# which holds its first place (Champions League in a top flight, promotion in a second).
MARKS = {CHAMPIONS_LEAGUE: "Champions League", PROMOTION: "Promotion",
         PROMOTION_PLAYOFF: "Promotion Play-off", RELEGATION_PLAYOFF: "Relegation Play-off",
         RELEGATION: "Relegated"}
AT_LEAST = (CHAMPIONS_LEAGUE, PROMOTION, PROMOTION_PLAYOFF)  # the best place first
AT_BEST = (RELEGATION, RELEGATION_PLAYOFF)  # the worst place first


@dataclass(frozen=True)
class Place:
    kind: str  # one of ``KINDS``
    first: int  # position, 1 the top; negative: from the bottom (-1 the last)
    last: int

    def positions(self, clubs: int) -> range:
        """The 1-based positions the place covers in a league of ``clubs``."""
        a = self.first if self.first > 0 else clubs + 1 + self.first
        b = self.last if self.last > 0 else clubs + 1 + self.last
        return range(a, b + 1)


@dataclass(frozen=True)
class LeaguePlaces:
    league: str  # server.catalog.football.LEAGUES code
    first: int  # first season (the year it ends)
    last: int | None  # last season; None while it holds
    places: tuple[Place, ...]
    source: str

    def ranges(self, clubs: int) -> dict[str, range]:
        """Kind -> the 1-based positions its place covers in a league of ``clubs``."""
        return {pl.kind: pl.positions(clubs) for pl in self.places}


def _europe(cl: int, el: int, ecl: int) -> tuple[Place, ...]:
    """``cl`` Champions League places from the top, then ``el`` Europa League, ``ecl``
    Conference League places."""
    return (Place(CHAMPIONS_LEAGUE, 1, cl), Place(EUROPA_LEAGUE, cl + 1, cl + el),
            Place(CONFERENCE_LEAGUE, cl + el + 1, cl + el + ecl))


def _down(direct: int, playoff: int = 0) -> tuple[Place, ...]:
    """The last ``direct`` clubs relegated, the ``playoff`` above them in a relegation play-off."""
    out: tuple[Place, ...] = (Place(RELEGATION, -direct, -1),)
    if playoff:
        out += (Place(RELEGATION_PLAYOFF, -direct - playoff, -direct - 1),)
    return out


def _up(direct: int, playoff: int) -> tuple[Place, ...]:
    return (Place(PROMOTION, 1, direct), Place(PROMOTION_PLAYOFF, direct + 1, direct + playoff))


_UEFA = "UEFA access list for the following season (association coefficient ranking)"
PLACES: tuple[LeaguePlaces, ...] = (
    # England
    LeaguePlaces("en.1", 2022, 2024, _europe(4, 2, 1) + _down(3),
                 f"Premier League Handbook (three relegated); {_UEFA}"),
    LeaguePlaces("en.1", 2025, 2025, _europe(5, 2, 1) + _down(3),
                 "Premier League Handbook; UEFA: England's European Performance Spot 2024-25 "
                 "(a fifth Champions League place)"),
    LeaguePlaces("en.1", 2026, None, _europe(4, 2, 1) + _down(3),
                 f"Premier League Handbook; {_UEFA}"),
    LeaguePlaces("en.2", 2022, None, _up(2, 4) + _down(3),
                 "EFL Regulations: two promoted, 3rd-6th in the play-offs, three relegated"),
    LeaguePlaces("en.3", 2022, None, _up(2, 4) + _down(4),
                 "EFL Regulations: two promoted, 3rd-6th in the play-offs, four relegated"),
    LeaguePlaces("en.4", 2022, None, _up(3, 4) + _down(2),
                 "EFL Regulations: three promoted, 4th-7th in the play-offs, two relegated"),
    # Germany: 16th of the Bundesliga meets 3rd of the 2. Bundesliga, 16th of the 2. Bundesliga
    # the 3rd of the 3. Liga
    LeaguePlaces("de.1", 2022, 2023, _europe(4, 2, 1) + _down(2, 1),
                 f"DFL Spielordnung (relegation play-off); {_UEFA}"),
    LeaguePlaces("de.1", 2024, 2024, _europe(5, 2, 1) + _down(2, 1),
                 "DFL Spielordnung; UEFA: Germany's European Performance Spot 2023-24"),
    LeaguePlaces("de.1", 2025, None, _europe(4, 2, 1) + _down(2, 1),
                 f"DFL Spielordnung; {_UEFA}"),
    LeaguePlaces("de.2", 2022, None, _up(2, 1) + _down(2, 1),
                 "DFL Spielordnung: two promoted, 3rd and 16th in play-offs, two relegated"),
    # Spain
    LeaguePlaces("es.1", 2022, 2024, _europe(4, 2, 1) + _down(3),
                 f"LaLiga competition rules (three relegated); {_UEFA}"),
    LeaguePlaces("es.1", 2025, 2025, _europe(5, 2, 1) + _down(3),
                 "LaLiga; UEFA: Spain's European Performance Spot 2024-25"),
    LeaguePlaces("es.1", 2026, None, _europe(4, 2, 1) + _down(3), f"LaLiga; {_UEFA}"),
    LeaguePlaces("es.2", 2022, None, _up(2, 4) + _down(4),
                 "LaLiga Hypermotion rules: two promoted, 3rd-6th in the play-offs, "
                 "four relegated"),
    # Italy: Serie B's 16th and 17th meet in the play-out
    LeaguePlaces("it.1", 2022, 2023, _europe(4, 2, 1) + _down(3),
                 f"Lega Serie A (three relegated); {_UEFA}"),
    LeaguePlaces("it.1", 2024, 2024, _europe(5, 2, 1) + _down(3),
                 "Lega Serie A; UEFA: Italy's European Performance Spot 2023-24"),
    LeaguePlaces("it.1", 2025, None, _europe(4, 2, 1) + _down(3), f"Lega Serie A; {_UEFA}"),
    LeaguePlaces("it.2", 2022, None, _up(2, 6) + _down(3, 2),
                 "Lega B: two promoted, 3rd-8th in the play-offs, 16th-17th in the play-out, "
                 "three relegated"),
    # France: 20 clubs to 2022-23 (2021-22: 18th in a play-off; 2022-23: four relegated to
    # bring Ligue 1 to 18), 18 clubs from 2023-24 (16th in a play-off)
    LeaguePlaces("fr.1", 2022, 2022, _europe(3, 2, 1) + _down(2, 1),
                 f"LFP regulations 2021-22; {_UEFA}"),
    LeaguePlaces("fr.1", 2023, 2023, _europe(3, 2, 1) + _down(4),
                 f"LFP regulations 2022-23 (four relegated, Ligue 1 to 18 clubs); {_UEFA}"),
    LeaguePlaces("fr.1", 2024, None, _europe(4, 2, 1) + _down(2, 1),
                 f"LFP regulations from 2023-24; {_UEFA}"),
    # Netherlands, Portugal: 16th in a relegation play-off, two relegated
    LeaguePlaces("nl.1", 2022, 2024, _europe(2, 1, 1) + _down(2, 1),
                 f"KNVB competition rules; {_UEFA} (5th-8th then play for a Conference League "
                 "place, not counted here)"),
    LeaguePlaces("nl.1", 2025, None, _europe(3, 1, 1) + _down(2, 1),
                 f"KNVB competition rules; {_UEFA}"),
    LeaguePlaces("pt.1", 2022, 2023, _europe(3, 1, 1) + _down(2, 1),
                 f"Liga Portugal regulations; {_UEFA}"),
    LeaguePlaces("pt.1", 2024, None, _europe(2, 2, 1) + _down(2, 1),
                 f"Liga Portugal regulations; {_UEFA}"),
)


def places_for(league: str, season: int) -> LeaguePlaces | None:
    """The places a league's final positions earn that season; None where none are declared
    (the projection then gives the title alone)."""
    for row in PLACES:
        if row.league == league and row.first <= season and (row.last is None
                                                              or season <= row.last):
            return row
    return None
