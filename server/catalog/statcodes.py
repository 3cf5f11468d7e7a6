"""Stat codes of the stat tables and the glossary, per sport: totals and rates.

Each ``StatCode`` says how a season value is computed from the game lines' counting stats
(``server.catalog.linestats``) as a ``Formula``, which way it ranks, and the ``Qualifier`` a
player needs for a rate to rank among qualifiers. ``server.models.stat_tables`` evaluates them;
the glossary shows ``name``, ``description``, ``order`` and the qualifier's text.

A formula is ``scale x sum(weight x code for num) / sum(weight x code for den)``; an empty ``den``
means a season total, and the pseudo-code ``GP`` is games played (lines with the entity).
``parts`` instead adds other rate codes of the same sport (OPS = OBP + SLG). ``expr`` instead is
the formula as the reference sites print it (``server.catalog.expressions``), over line codes,
the stat codes declared before it and the season's constants (``server.models.run_environment``:
wOBA weights, league averages, park factor): wOBA, wRC+, OPS+, FIP, ERA+ (docs/metrics.md).
"""
from __future__ import annotations

from dataclasses import dataclass

from server.catalog.expressions import names
from server.catalog.linestats import LINE_STATS

GP = "GP"  # pseudo line code: games played
Terms = tuple[tuple[str, float], ...]


@dataclass(frozen=True)
class Formula:
    num: Terms = ()
    den: Terms = ()  # empty: the value is the (scaled) numerator, a season total
    scale: float = 1.0
    parts: tuple[str, ...] = ()  # sum of other rate codes instead of num/den
    expr: str = ""  # the printed formula instead of num/den (``server.catalog.expressions``)
    total: bool = False  # an ``expr`` that is a season total (wRAA, wRC), not a rate

    @property
    def is_rate(self) -> bool:
        return bool(self.den or self.parts or (self.expr and not self.total))


@dataclass(frozen=True)
class Qualifier:
    """A player qualifies when ``sum(weight x code for basis) >= per_team_game x team games``."""

    basis: Terms
    per_team_game: float
    text: str


@dataclass(frozen=True)
class StatCode:
    sport: str
    type: str  # player | team
    code: str
    name: str
    description: str
    order: str = "desc"  # desc: higher ranks first; asc: lower ranks first (ERA)
    qualifier: str | None = None  # human-readable rule; None for totals
    formula: Formula = Formula()
    rule: Qualifier | None = None  # machine rule behind ``qualifier`` (players only)


def _t(*codes: str | tuple[str, float]) -> Terms:
    return tuple((c, 1.0) if isinstance(c, str) else c for c in codes)


# Qualifier rules per sport and stat group. Sources: MLB Official Baseball Rules 9.22 (3.1 plate
# appearances and 1 inning pitched per team game); NBA's 70% of team games (pre-2023 rule);
# NHL goalies 25 games of 82 (~0.3 per team game) and skaters half the games; soccer one third
# of the minutes.
BATTING = Qualifier(_t("PA"), 3.1, "3.1 plate appearances per team game")
PITCHING = Qualifier(_t(("OUTS", 1 / 3)), 1.0, "1 inning pitched per team game")
BASKETBALL = Qualifier(_t(GP), 0.7, "games played in 70% of team games")
SKATER = Qualifier(_t(GP), 0.5, "games played in 50% of team games")
GOALIE = Qualifier(_t(GP), 0.3, "games played in 30% of team games")
SOCCER = Qualifier(_t("MIN"), 30.0, "30 minutes per team game")

# The metrics FanGraphs and Baseball-Reference print, as they print the formula (docs/metrics.md):
# (code, name, description, order, formula, qualifier). The constants they name are the season's
# run environment (``server.models.run_environment``); PF is the player's team's park factor,
# BPF and PPF its effect on batters and on pitchers (Lahman's; PF itself in seasons with plays).
_WOBA = ("(wBB * (BB - IBB) + wHBP * HBP + w1B * (H - 2B - 3B - HR) + w2B * 2B + w3B * 3B"
         " + wHR * HR) / (AB + BB - IBB + SF + HBP)")
_METRICS: tuple[tuple[str, str, str, str, str, Qualifier], ...] = (
    ("ISO", "Isolated power", "Extra bases per at bat.", "desc", "SLG - AVG", BATTING),
    ("BABIP", "Batting average on balls in play", "Hits per ball in play, home runs left out.",
     "desc", "(H - HR) / (AB - SO - HR + SF)", BATTING),
    ("K%", "Strikeout rate", "Strikeouts per plate appearance.", "asc", "SO / PA", BATTING),
    ("BB%", "Walk rate", "Walks per plate appearance.", "desc", "BB / PA", BATTING),
    ("wOBA", "Weighted on-base average",
     ("Each way of reaching base weighted by its run value in the season (wBB .. wHR, scaled "
      "so the league's wOBA is its OBP; intentional walks left out)."), "desc", _WOBA, BATTING),
    ("wRC+", "Weighted runs created plus",
     ("Runs created per plate appearance against the league's, park adjusted (PF, his team's "
      "park factor); 100 is average."), "desc",
     "100 * ((wOBA - lgwOBA) / wOBAscale + RPA + (RPA - PF * RPA)) / lgwRCPA", BATTING),
    ("OPS+", "Adjusted OPS",
     ("OBP and SLG against his league's (pitchers' batting left out where the season is known "
      "from totals alone), adjusted for his park's effect on batters (BPF); 100 is average."),
     "desc", "100 * (OBP / lgOBP + SLG / lgSLG - 1) / BPF", BATTING),
    ("FIP", "Fielding independent pitching",
     ("What a pitcher's ERA would be from his home runs, walks, hit batters and strikeouts "
      "alone (cFIP sets the league's FIP to its ERA)."), "asc",
     "(13 * HRA + 3 * (BBA + HBPA) - 2 * K) / (OUTS / 3) + cFIP", PITCHING),
    ("xFIP", "Expected fielding independent pitching",
     ("FIP with the home runs an average pitcher allows on as many fly balls as his (FBA, at "
      "the league's home runs per fly ball, lgHRFB) in place of his own."), "asc",
     "(13 * FBA * lgHRFB + 3 * (BBA + HBPA) - 2 * K) / (OUTS / 3) + cFIP", PITCHING),
    ("ERA+", "Adjusted ERA",
     "His league's ERA over his, adjusted for his park's effect on pitchers (PPF); 100 is average.",
     "desc", "100 * lgERA * PPF / ERA", PITCHING),
    ("PK%", "Strikeout rate (pitching)", "Strikeouts per batter faced.", "desc", "K / BF",
     PITCHING),
    ("PBB%", "Walk rate (pitching)", "Walks per batter faced.", "asc", "BBA / BF", PITCHING),
)

# (code, name, description, order, formula, qualifier) per sport.
_RATES: dict[str, tuple[tuple[str, str, str, str, Formula, Qualifier], ...]] = {
    "baseball": (
        ("AVG", "Batting average", "Hits per at bat: H / AB.", "desc",
         Formula(_t("H"), _t("AB")), BATTING),
        ("OBP", "On-base percentage", "(H + BB + HBP) / (AB + BB + HBP + SF).", "desc",
         Formula(_t("H", "BB", "HBP"), _t("AB", "BB", "HBP", "SF")), BATTING),
        ("SLG", "Slugging percentage", "Total bases per at bat: (H + 2B + 2x3B + 3xHR) / AB.",
         "desc", Formula(_t("H", "2B", ("3B", 2.0), ("HR", 3.0)), _t("AB")), BATTING),
        ("OPS", "On-base plus slugging", "OBP + SLG.", "desc", Formula(parts=("OBP", "SLG")),
         BATTING),
        ("ERA", "Earned run average", "Earned runs per nine innings: 27 x ER / OUTS.", "asc",
         Formula(_t("ER"), _t("OUTS"), 27.0), PITCHING),
        ("WHIP", "Walks and hits per inning pitched", "3 x (BBA + HA) / OUTS.", "asc",
         Formula(_t("BBA", "HA"), _t("OUTS"), 3.0), PITCHING),
        ("K9", "Strikeouts per nine innings", "27 x K / OUTS.", "desc",
         Formula(_t("K"), _t("OUTS"), 27.0), PITCHING),
        ("BB9", "Walks per nine innings", "27 x BBA / OUTS.", "asc",
         Formula(_t("BBA"), _t("OUTS"), 27.0), PITCHING),
        ("IP", "Innings pitched", "OUTS / 3.", "desc", Formula(_t("OUTS"), (), 1 / 3), PITCHING),
        *((code, name, f"{desc} {code} = {expr}.", order, Formula(expr=expr), rule)
          for code, name, desc, order, expr, rule in _METRICS),
    ),
    "basketball": tuple(
        (code, name, desc, "desc", Formula(_t(num), _t(GP)), BASKETBALL)
        for code, name, desc, num in (
            ("PPG", "Points per game", "PTS / GP.", "PTS"),
            ("RPG", "Rebounds per game", "REB / GP.", "REB"),
            ("APG", "Assists per game", "AST / GP.", "AST"),
            ("SPG", "Steals per game", "STL / GP.", "STL"),
            ("BPG", "Blocks per game", "BLK / GP.", "BLK"),
            ("MPG", "Minutes per game", "MIN / GP.", "MIN"),
        )
    ) + (
        ("FG%", "Field goal percentage", "FGM / FGA.", "desc", Formula(_t("FGM"), _t("FGA")),
         BASKETBALL),
        ("3P%", "Three-point percentage", "3PM / 3PA.", "desc", Formula(_t("3PM"), _t("3PA")),
         BASKETBALL),
        ("FT%", "Free throw percentage", "FTM / FTA.", "desc", Formula(_t("FTM"), _t("FTA")),
         BASKETBALL),
    ),
    "hockey": (
        ("GPG", "Goals per game", "G / GP.", "desc", Formula(_t("G"), _t(GP)), SKATER),
        ("PPGM", "Points per game", "PTS / GP.", "desc", Formula(_t("PTS"), _t(GP)), SKATER),
        ("SH%", "Shooting percentage", "G / SOG.", "desc", Formula(_t("G"), _t("SOG")), SKATER),
        ("GAA", "Goals against average", "60 x GA / TOI.", "asc",
         Formula(_t("GA"), _t("TOI"), 60.0), GOALIE),
        ("SV%", "Save percentage", "SV / SA.", "desc", Formula(_t("SV"), _t("SA")), GOALIE),
    ),
    "soccer": (
        ("G90", "Goals per 90 minutes", "90 x G / MIN.", "desc",
         Formula(_t("G"), _t("MIN"), 90.0), SOCCER),
        ("A90", "Assists per 90 minutes", "90 x A / MIN.", "desc",
         Formula(_t("A"), _t("MIN"), 90.0), SOCCER),
        ("SOT%", "Shots on target percentage", "SOT / SH.", "desc",
         Formula(_t("SOT"), _t("SH")), SOCCER),
    ),
}


# Seasons known only from season totals (Lahman's 1871-2020). The metrics their totals and park
# factors allow, tabulated for each team's line of a traded player too:
SEASON_TOTALS_METRICS = ("OPS+", "ERA+", "FIP")
# The leaderboards tabulated for those seasons: the categories Baseball-Reference's season
# leaders print that the totals hold, each total's first ``SEASON_TOTALS_TOP`` players and each
# rate's qualified ones (every code of every player of 150 seasons is 1.5 million rows more,
# which tripled MLB's re-tabulation: 19 s to 60 s). The metrics cover every player: his season
# line reads them.
SEASON_TOTALS_TOP = 50
SEASON_TOTALS_LEADERS = (
    "PA", "AB", "R", "H", "2B", "3B", "HR", "RBI", "SB", "CS", "BB", "SO", "HBP",
    "AVG", "OBP", "SLG", "OPS",
    "W", "L", "SV", "GS", "IP", "K", "ERA", "WHIP", "K9", "BB9",
    *SEASON_TOTALS_METRICS)


def _totals() -> list[StatCode]:
    out = []
    for sport, stats in LINE_STATS.items():
        for s in stats:
            for kind in ("player", "team"):
                if kind == "team" and not s.team:
                    continue
                out.append(StatCode(sport, kind, s.code, s.name, f"Season total: {s.name.lower()}.",
                                    formula=Formula(_t(s.code))))
    return out


def _rates() -> list[StatCode]:
    out = []
    for sport, rates in _RATES.items():
        for code, name, desc, order, formula, rule in rates:
            out.append(StatCode(sport, "player", code, name, desc, order, rule.text, formula, rule))
            # Team rates rank every team: a team always plays its own games. The printed
            # formulas are players' (a team's lines carry no RE24 or HBPA, its park is its own).
            if not formula.expr:
                out.append(StatCode(sport, "team", code, name, desc, order, None, formula, None))
    return out


# Totals that no game line carries: re-tabulation derives them per game from the plays
# (``server.jobs.winprob_plays``) and adds them to the lines before the season tables are built.
WPA_DESCRIPTION = {
    "player": ("Win probability added: the season's sum of the change each of his plays made to "
               "his team's chance to win (in baseball a batter's plays, and a pitcher credited "
               "the negative of the batter's; soccer counts a draw as half a win)."),
    "team": ("Win probability added: the season's sum of the change in the team's chance to win "
             "over every play, its own less its opponents'; its wins above the pre-game "
             "forecasts."),
}


# Baseball's totals from the plays and the season's run environment (``server.jobs.run_environment``)
# and the season totals of runs above average it weighs (docs/metrics.md).
_WRAA = "(wOBA - lgwOBA) / wOBAscale * PA"
_WRC = "((wOBA - lgwOBA) / wOBAscale + RPA) * PA"
_BASEBALL_DERIVED = (
    ("RE24", "Run expectancy added",
     ("The season's sum of the runs each plate appearance added to his team's expected runs "
      "(the change in the base-out state's run expectancy plus the runs scored); a pitcher is "
      "credited the negative of his batters'."), Formula(_t("RE24"))),
    ("HBPA", "Hit batters", "Season total: batters hit by his pitches.", Formula(_t("HBPA"))),
    ("FBA", "Fly balls allowed",
     ("Season total: fly balls hit off his pitches that the plays tell (fly outs, pop-ups, "
      "sacrifice flies and home runs; a hit's trajectory is not kept)."), Formula(_t("FBA"))),
    ("wRAA", "Weighted runs above average",
     f"Runs his wOBA added over an average hitter's in as many plate appearances. wRAA = {_WRAA}.",
     Formula(expr=_WRAA, total=True)),
    ("wRC", "Weighted runs created", f"Runs his wOBA created. wRC = {_WRC}.",
     Formula(expr=_WRC, total=True)),
)


def _derived() -> list[StatCode]:
    wpa = [StatCode(sport, kind, "WPA", "Win probability added", WPA_DESCRIPTION[kind],
                    formula=Formula(_t("WPA")))
           for sport in LINE_STATS for kind in ("player", "team")]
    return wpa + [StatCode("baseball", "player", code, name, desc, formula=formula)
                  for code, name, desc, formula in _BASEBALL_DERIVED]


def _ordered(codes: list[StatCode]) -> list[StatCode]:
    """Codes whose formula reads another code's value come after it (wRAA reads wOBA)."""
    out: list[StatCode] = []
    pending = list(codes)
    while pending:
        done = {(c.sport, c.type, c.code) for c in out}
        ready = [c for c in pending if not c.formula.expr or all(
            (c.sport, c.type, n) in done or not any(
                (c.sport, c.type, n) == (d.sport, d.type, d.code) for d in pending)
            for n in names(c.formula.expr))]
        out += ready
        pending = [c for c in pending if c not in ready]
    return out


STAT_CODES: tuple[StatCode, ...] = tuple(_ordered(_totals() + _derived() + _rates()))


def codes_for(sport: str, kind: str) -> tuple[StatCode, ...]:
    """The stat codes of one sport and type (player | team), in catalog order."""
    return tuple(s for s in STAT_CODES if s.sport == sport and s.type == kind)


def metric_codes(sport: str) -> tuple[str, ...]:
    """A sport's player metrics that no game line sums to: those the printed formulas compute
    from the season's run environment (wOBA, wRC+, FIP...) and RE24, in catalog order; a
    player's season record carries them beside its totals."""
    return tuple(c.code for c in codes_for(sport, "player")
                 if c.formula.expr or c.code == "RE24")


def glossary_rows() -> list[dict[str, object]]:
    return [
        {"sport": s.sport, "type": s.type, "code": s.code, "name": s.name,
         "description": s.description, "order": s.order, "qualifier": s.qualifier}
        for s in STAT_CODES
    ]
