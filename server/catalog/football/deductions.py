"""What the official final tables carry beyond the results: the points deductions the leagues
imposed and the play-off matches that settled a tie on points, each declared here with its
reason and source, since the result files hold neither; the standings apply them, each from
the day it was imposed (docs/football.md)."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass


@dataclass(frozen=True)
class Deduction:
    """One decision on a club's points: ``points`` taken off from the end of ``imposed`` (the
    day it was announced), negative for points given back (an appeal). A club's rows of a
    season add up to what its final table carries."""
    league: str  # server.catalog.football.LEAGUES code
    season: int  # the year the season ends
    club: str  # clubs.csv key
    points: int
    imposed: dt.date
    reason: str
    source: str


DEDUCTIONS: tuple[Deduction, ...] = (
    # Everton 2023-24: -10, -6 on appeal, -2 more: -8 in the final table
    Deduction("en.1", 2024, "everton-fc", 10, dt.date(2023, 11, 17),
              "breach of the Premier League's profit and sustainability rules (2021-22)",
              "Premier League statement, 17 Nov 2023"),
    Deduction("en.1", 2024, "everton-fc", -4, dt.date(2024, 2, 26),
              "the 10 points reduced to 6 on appeal", "Premier League statement, 26 Feb 2024"),
    Deduction("en.1", 2024, "everton-fc", 2, dt.date(2024, 4, 8),
              "breach of the profit and sustainability rules (2022-23)",
              "Premier League statement, 8 Apr 2024"),
    Deduction("en.1", 2024, "nottingham-forest-fc", 4, dt.date(2024, 3, 18),
              "breach of the profit and sustainability rules", "Premier League statement, "
              "18 Mar 2024"),
    # Juventus 2022-23: -15 in January, annulled in April, -10 in May
    Deduction("it.1", 2023, "juventus-fc", 15, dt.date(2023, 1, 20),
              "capital-gains (plusvalenze) case", "FIGC Corte federale d'appello, 20 Jan 2023"),
    Deduction("it.1", 2023, "juventus-fc", -15, dt.date(2023, 4, 20),
              "the 15 points annulled and sent back for a new sentence",
              "CONI Collegio di Garanzia dello Sport, 20 Apr 2023"),
    Deduction("it.1", 2023, "juventus-fc", 10, dt.date(2023, 5, 22),
              "capital-gains (plusvalenze) case, the new sentence",
              "FIGC Corte federale d'appello, 22 May 2023"),
    # Derby 2021-22: the club gave notice on 17 Sep 2021; the 12 points applied when the
    # administrators were appointed (22 Sep); 9 more agreed on 16 Nov
    Deduction("en.2", 2022, "derby-county-fc", 12, dt.date(2021, 9, 22), "administration",
              "EFL statement, 22 Sep 2021"),
    Deduction("en.2", 2022, "derby-county-fc", 9, dt.date(2021, 11, 16),
              "breach of the EFL's profitability rules", "EFL statement, 16 Nov 2021"),
    Deduction("en.2", 2022, "reading-fc", 6, dt.date(2021, 11, 17),
              "breach of the EFL's profitability rules", "EFL statement, 17 Nov 2021"),
    Deduction("en.2", 2023, "reading-fc", 6, dt.date(2023, 4, 18),
              "breach of a business plan agreed with the EFL", "EFL statement, 18 Apr 2023"),
    Deduction("nl.1", 2024, "sbv-vitesse", 18, dt.date(2024, 4, 19),
              "licensing breaches (KNVB licensing committee)", "KNVB statement, 19 Apr 2024"),
)


def deducted(league: str, season: int, as_of: dt.date | None = None) -> dict[str, int]:
    """Club key -> points taken off in that league and season by the end of ``as_of``
    (default: all of them, the final table's)."""
    out: dict[str, int] = {}
    for d in DEDUCTIONS:
        if d.league == league and d.season == season and (as_of is None or d.imposed <= as_of):
            out[d.club] = out.get(d.club, 0) + d.points
    return out


def deduction_days(league: str, season: int) -> list[dt.date]:
    """The days a decision on points was announced in that league and season, in order."""
    return sorted({d.imposed for d in DEDUCTIONS if d.league == league and d.season == season})


@dataclass(frozen=True)
class TiePlayoff:
    """A play-off match between two clubs level on points, outside the files, which the
    league's rules put before every other tiebreaker (Serie A from 2022-23, for the title and
    the last place above relegation): the winner ranks above the loser."""
    league: str
    season: int
    winner: str  # clubs.csv key
    loser: str
    match: str
    source: str


TIE_PLAYOFFS: tuple[TiePlayoff, ...] = (
    TiePlayoff("it.1", 2023, "hellas-verona-fc", "spezia-calcio",
               "relegation play-off, 11 Jun 2023, Reggio Emilia: Spezia 1-3 Verona",
               "Lega Serie A, final table 2022-23"),
)


def tie_playoff_winners(league: str, season: int) -> set[str]:
    """Clubs (keys) that won a declared tie play-off in that league and season."""
    return {p.winner for p in TIE_PLAYOFFS if p.league == league and p.season == season}
