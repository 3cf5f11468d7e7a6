"""Counting stats that a player or team game line carries, per sport.

A game line (``player_lines.stats`` / ``team_lines.stats``) is a JSON object whose keys are these
codes and whose values are integers (``MIN`` and ``TOI`` are minutes, possibly fractional).
Every ingester writes these codes and only these; season tables and rates (AVG, ERA, PPG, ...)
are derived from them by ``server.models.stat_tables``. A missing code means zero.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LineStat:
    code: str
    name: str
    group: str  # batting | pitching | fielding | skater | goalie | general
    team: bool = True  # also carried on team lines


_BASEBALL = (
    LineStat("PA", "Plate appearances", "batting"),
    LineStat("AB", "At bats", "batting"),
    LineStat("R", "Runs", "batting"),
    LineStat("H", "Hits", "batting"),
    LineStat("2B", "Doubles", "batting"),
    LineStat("3B", "Triples", "batting"),
    LineStat("HR", "Home runs", "batting"),
    LineStat("RBI", "Runs batted in", "batting"),
    LineStat("BB", "Walks", "batting"),
    LineStat("IBB", "Intentional walks", "batting"),
    LineStat("SO", "Strikeouts (batting)", "batting"),
    LineStat("HBP", "Hit by pitch", "batting"),
    LineStat("SH", "Sacrifice hits", "batting"),
    LineStat("SF", "Sacrifice flies", "batting"),
    LineStat("SB", "Stolen bases", "batting"),
    LineStat("CS", "Caught stealing", "batting"),
    LineStat("GDP", "Grounded into double plays", "batting"),
    LineStat("LOB", "Runners left on base", "batting"),
    LineStat("W", "Wins (pitcher of record)", "pitching"),
    LineStat("L", "Losses (pitcher of record)", "pitching"),
    LineStat("SV", "Saves", "pitching"),
    LineStat("HLD", "Holds", "pitching"),
    LineStat("GS", "Games started (pitching)", "pitching", team=False),
    LineStat("OUTS", "Outs recorded (innings pitched x 3)", "pitching"),
    LineStat("BF", "Batters faced", "pitching"),
    LineStat("HA", "Hits allowed", "pitching"),
    LineStat("RA", "Runs allowed", "pitching"),
    LineStat("ER", "Earned runs allowed", "pitching"),
    LineStat("BBA", "Walks allowed", "pitching"),
    LineStat("K", "Strikeouts (pitching)", "pitching"),
    LineStat("HRA", "Home runs allowed", "pitching"),
    LineStat("WP", "Wild pitches", "pitching"),
    LineStat("PIT", "Pitches thrown", "pitching"),
    LineStat("PO", "Putouts", "fielding"),
    LineStat("A", "Assists", "fielding"),
    LineStat("E", "Errors", "fielding"),
)

_BASKETBALL = (
    LineStat("MIN", "Minutes played", "general"),
    LineStat("PTS", "Points", "general"),
    LineStat("FGM", "Field goals made", "general"),
    LineStat("FGA", "Field goals attempted", "general"),
    LineStat("3PM", "Three-pointers made", "general"),
    LineStat("3PA", "Three-pointers attempted", "general"),
    LineStat("FTM", "Free throws made", "general"),
    LineStat("FTA", "Free throws attempted", "general"),
    LineStat("OREB", "Offensive rebounds", "general"),
    LineStat("DREB", "Defensive rebounds", "general"),
    LineStat("REB", "Rebounds", "general"),
    LineStat("AST", "Assists", "general"),
    LineStat("STL", "Steals", "general"),
    LineStat("BLK", "Blocks", "general"),
    LineStat("TOV", "Turnovers", "general"),
    LineStat("PF", "Personal fouls", "general"),
    LineStat("PM", "Plus-minus", "general", team=False),
)

_HOCKEY = (
    LineStat("TOI", "Time on ice (minutes)", "skater"),
    LineStat("G", "Goals", "skater"),
    LineStat("A", "Assists", "skater"),
    LineStat("PTS", "Points", "skater"),
    LineStat("SOG", "Shots on goal", "skater"),
    LineStat("PIM", "Penalty minutes", "skater"),
    LineStat("PPG", "Power-play goals", "skater"),
    LineStat("SHG", "Short-handed goals", "skater"),
    LineStat("GWG", "Game-winning goals", "skater"),
    LineStat("PM", "Plus-minus", "skater", team=False),
    LineStat("HIT", "Hits", "skater"),
    LineStat("BLK", "Blocked shots", "skater"),
    LineStat("SA", "Shots against", "goalie"),
    LineStat("GA", "Goals against", "goalie"),
    LineStat("SV", "Saves", "goalie"),
    LineStat("W", "Wins (goalie)", "goalie"),
    LineStat("L", "Losses (goalie)", "goalie"),
    LineStat("SHO", "Shutouts", "goalie"),
)

_SOCCER = (
    LineStat("MIN", "Minutes played", "general"),
    LineStat("G", "Goals", "general"),
    LineStat("A", "Assists", "general"),
    LineStat("SH", "Shots", "general"),
    LineStat("SOT", "Shots on target", "general"),
    LineStat("FC", "Fouls committed", "general"),
    LineStat("YC", "Yellow cards", "general"),
    LineStat("RC", "Red cards", "general"),
    LineStat("OFF", "Offsides", "general"),
    LineStat("COR", "Corners", "general"),
    LineStat("SV", "Saves (goalkeeper)", "goalie"),
    LineStat("GA", "Goals against (goalkeeper)", "goalie"),
    LineStat("CS", "Clean sheets", "goalie"),
)

LINE_STATS: dict[str, tuple[LineStat, ...]] = {
    "baseball": _BASEBALL,
    "basketball": _BASKETBALL,
    "hockey": _HOCKEY,
    "soccer": _SOCCER,
}


def line_codes(sport: str, team: bool = False) -> tuple[str, ...]:
    """The codes a line of this sport may carry (team lines drop player-only codes)."""
    return tuple(s.code for s in LINE_STATS[sport] if s.team or not team)


# The decisions a box score names, per sport: the line code that carries one and the letter the
# reference sites print (Baseball-Reference: "W: Leclerc (1-0)", "S: Sewald (6)", "H: Smith
# (12)"). The files name the win, loss and save; a hold is no scorer's call but a rule applied to
# the plays, as the sites apply it (``server.ingest.holds``).
DECISIONS: dict[str, tuple[tuple[str, str], ...]] = {
    "baseball": (("W", "W"), ("L", "L"), ("SV", "S"), ("HLD", "H")),
}

# The notes printed under a box score, in the reference sites' order: who hit the doubles,
# triples and home runs, stole or was caught stealing, and made the errors (line codes).
BOX_NOTES: dict[str, tuple[str, ...]] = {
    "baseball": ("2B", "3B", "HR", "SB", "CS", "E"),
}
