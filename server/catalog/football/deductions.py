"""What the official final tables carry beyond the results: the points deductions the leagues
imposed and the play-off matches that settled a tie on points, each declared here with its
reason and source, since the result files hold neither; the standings apply them
(docs/football.md)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Deduction:
    league: str  # server.catalog.football.LEAGUES code
    season: int  # the year the season ends
    club: str  # clubs.csv key
    points: int  # net points taken off the final table
    reason: str
    source: str


DEDUCTIONS: tuple[Deduction, ...] = (
    Deduction("en.1", 2024, "everton-fc", 8,
              "10 points for breaching the Premier League's profit and sustainability rules "
              "(November 2023), reduced to 6 on appeal (February 2024); 2 more for 2022-23 "
              "(April 2024)", "Premier League statements, 26 Feb 2024 and 8 Apr 2024"),
    Deduction("en.1", 2024, "nottingham-forest-fc", 4,
              "breach of the profit and sustainability rules", "Premier League statement, "
              "18 Mar 2024"),
    Deduction("it.1", 2023, "juventus-fc", 10, "capital-gains (plusvalenze) case",
              "FIGC Corte federale d'appello, 22 May 2023"),
    Deduction("en.2", 2022, "derby-county-fc", 21, "administration (12) and breach of the EFL's "
              "profitability rules (9)", "EFL statements, 17 Sep and 15 Nov 2021"),
    Deduction("en.2", 2022, "reading-fc", 6, "breach of the EFL's profitability rules",
              "EFL statement, 17 Nov 2021"),
    Deduction("en.2", 2023, "reading-fc", 6, "breach of a business plan agreed with the EFL",
              "EFL statement, 18 Apr 2023"),
    Deduction("nl.1", 2024, "sbv-vitesse", 18, "licensing breaches (KNVB licensing committee)",
              "KNVB, 18 Apr 2024"),
)


def deducted(league: str, season: int) -> dict[str, int]:
    """Club key -> points taken off in that league and season."""
    return {d.club: d.points for d in DEDUCTIONS if d.league == league and d.season == season}


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
