"""The simulated levels as data: sports rules and league plans, one row per sport, one plan per
level. The simulator (``server.ingest.simulator``) plays them; the projections' postseason
formats (``server.catalog.playoffs``) read the same plans.

A ``SportRules`` row holds what a sport's game simulator needs (periods, their length, roster
sizes, home advantage, how a tie is settled); a ``LevelPlan`` holds how a level is laid out
(sublevels, teams, schedule length, calendar, playoffs, name pools), with a full and a small size.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class SportRules:
    sport: str
    periods: int
    period_minutes: float  # 0 for baseball
    ot_minutes: float
    roster: int  # players on a team's season roster
    dress: int  # players who appear in a game (basketball, hockey, soccer)
    home_edge: float  # added to the home team's log scoring rate
    duration: int  # typical game length, minutes (wall clock)
    officials: tuple[str, ...]


SPORTS: dict[str, SportRules] = {
    "baseball": SportRules("baseball", 9, 0, 0, 26, 0, 0.045, 180, ("HP", "1B", "2B", "3B")),
    "basketball": SportRules("basketball", 4, 12, 5, 13, 11, 0.045, 135,
                             ("Crew Chief", "Referee", "Umpire")),
    "hockey": SportRules("hockey", 3, 20, 5, 23, 20, 0.06, 150,
                         ("Referee 1", "Referee 2", "Linesman 1", "Linesman 2")),
    "soccer": SportRules("soccer", 2, 45, 15, 24, 16, 0.12, 110,
                         ("Referee", "Assistant 1", "Assistant 2", "Fourth Official")),
}


@dataclass(frozen=True)
class Group:
    """A leaf sublevel that teams belong to, under a parent (league above divisions)."""
    name: str
    abbrev: str
    type: str
    parent: str | None = None  # abbrev of the parent sublevel


@dataclass(frozen=True)
class LevelPlan:
    code: str
    sport: str
    culture: str  # name pool (names.CULTURES)
    region: str  # city pool (places)
    parents: tuple[Group, ...]  # upper sublevels (leagues, conferences)
    groups: tuple[Group, ...]  # leaf sublevels teams play in
    teams_per_group: tuple[int, int]  # full, small
    games: tuple[int, int]  # regular-season games per team: full, small
    start: tuple[int, int]  # (month, day) of the regular season's first day
    end: tuple[int, int]  # (month, day) of its last day
    schedule_by: str = "level"  # level: everyone may meet; parent: within a league; group
    round_days: int = 1  # days one round of games is spread over
    series: int = 1  # consecutive games against one opponent (baseball series)
    playoff_teams: int = 8
    playoff_rounds: tuple[tuple[str, int], ...] = (("Quarterfinal", 5), ("Semifinal", 7), ("Final", 7))
    start_hour: float = 23.0  # UTC hour of a usual start
    periods: int | None = None  # override the sport's periods (college halves)
    period_minutes: float | None = None
    ties: bool = False  # a game may end tied (NPB/KBO after 12 innings, college hockey)
    ghost_runner: bool = False
    max_innings: int = 0  # 0: play until decided
    pitches: bool = False  # pitch-by-pitch rows
    odds: float = 0.0  # share of games a bookmaker prices (0: no market)
    scoring: float = 1.0  # scale of the sport's scoring rates
    women: bool = False
    transactions: bool = True
    extra: dict[str, object] = field(default_factory=dict)


def _g(name: str, abbrev: str, type_: str, parent: str | None = None) -> Group:
    return Group(name, abbrev, type_, parent)


_BB_ROUNDS = (("Division Series", 5), ("League Championship Series", 7), ("World Series", 7))
_NBA_ROUNDS = (("First Round", 7), ("Conference Semifinals", 7), ("Conference Finals", 7),
               ("Finals", 7))
_NCAA_ROUNDS = (("Quarterfinal", 1), ("Semifinal", 1), ("Championship", 1))
_COLLEGE_CONF = (_g("Atlantic Conference", "ATL", "Conference"),
                 _g("Central Conference", "CEN", "Conference"),
                 _g("Mountain Conference", "MTN", "Conference"),
                 _g("Pacific Conference", "PAC", "Conference"))


PRO_MARKET = 0.88  # professional leagues: nearly every game has a line
# Books price college and minor-league games too, more thinly the lower the level.
COLLEGE_MARKET = {"MBB": 0.7, "WBB": 0.45, "MB2": 0.15, "WB2": 0.1, "MB3": 0.1, "WB3": 0.1,
                  "MBIA": 0.1, "WBIA": 0.1, "MBJC": 0.1, "WBJC": 0.1}


def _college_bb(code: str, women: bool, culture: str) -> LevelPlan:
    periods, minutes = (4, 10.0) if women else (2, 20.0)
    return LevelPlan(code, "basketball", culture, "US", (), _COLLEGE_CONF, (3, 2), (12, 6),
                     (11, 3), (3, 8), schedule_by="level", round_days=3, playoff_teams=8,
                     playoff_rounds=_NCAA_ROUNDS, start_hour=24.0, periods=periods,
                     period_minutes=minutes, scoring=0.64 if not women else 0.6, women=women,
                     transactions=code == "MBB", odds=COLLEGE_MARKET[code])


_AL = (_g("American League East", "ALE", "Division", "AL"), _g("American League Central", "ALC", "Division", "AL"),
       _g("American League West", "ALW", "Division", "AL"))
_NL = (_g("National League East", "NLE", "Division", "NL"), _g("National League Central", "NLC", "Division", "NL"),
       _g("National League West", "NLW", "Division", "NL"))

_PLAN_LIST: tuple[LevelPlan, ...] = (
    LevelPlan("MLB", "baseball", "mlb", "US",
              (_g("American League", "AL", "League"), _g("National League", "NL", "League")),
              _AL + _NL, (5, 2), (162, 18), (3, 27), (9, 28), series=3, playoff_teams=8,
              playoff_rounds=_BB_ROUNDS, start_hour=23.1, ghost_runner=True, pitches=True, odds=PRO_MARKET),
    LevelPlan("MiLB", "baseball", "mlb", "US", (),
              (_g("Triple-A", "AAA", "Classification"), _g("Double-A", "AA", "Classification"),
               _g("High-A", "A+", "Classification"), _g("Single-A", "A", "Classification")),
              (6, 2), (48, 12), (4, 4), (9, 20), schedule_by="group", series=3, playoff_teams=2,
              playoff_rounds=(("Championship Series", 3),), start_hour=23.1, ghost_runner=True,
              pitches=True, scoring=1.05, odds=0.25),
    LevelPlan("KBO", "baseball", "kr", "KR", (), (_g("KBO League", "KBO", "League"),), (10, 4),
              (72, 18), (3, 22), (9, 30), series=3, playoff_teams=4,
              playoff_rounds=(("Playoff", 5), ("Korean Series", 7)), start_hour=9.5, ties=True,
              max_innings=12, odds=PRO_MARKET, scoring=1.08, transactions=False),
    LevelPlan("NPB", "baseball", "jp", "JP",
              (), (_g("Central League", "CL", "League"), _g("Pacific League", "PL", "League")),
              (6, 2), (72, 18), (3, 28), (9, 30), series=3, playoff_teams=2,
              playoff_rounds=(("Japan Series", 7),), start_hour=9.0, ties=True, max_innings=12,
              odds=PRO_MARKET, scoring=0.85, transactions=False),
    LevelPlan("CBB", "baseball", "us", "US", (), _COLLEGE_CONF, (4, 2), (30, 8), (2, 13), (5, 24),
              series=3, playoff_teams=8, playoff_rounds=(("Super Regional", 3), ("CWS Semifinal", 1),
                                                         ("CWS Finals", 3)),
              start_hour=22.0, scoring=1.3, transactions=False, odds=0.35),
    LevelPlan("NBA", "basketball", "nba", "US",
              (_g("Eastern Conference", "EAST", "Conference"), _g("Western Conference", "WEST", "Conference")),
              (_g("Atlantic Division", "ATL", "Division", "EAST"), _g("Central Division", "CEN", "Division", "EAST"),
               _g("Southeast Division", "SE", "Division", "EAST"), _g("Northwest Division", "NW", "Division", "WEST"),
               _g("Pacific Division", "PAC", "Division", "WEST"), _g("Southwest Division", "SW", "Division", "WEST")),
              (5, 2), (82, 12), (10, 21), (4, 12), round_days=2, playoff_teams=16,
              playoff_rounds=_NBA_ROUNDS, start_hour=24.0, odds=PRO_MARKET),
    LevelPlan("WNBA", "basketball", "us_w", "US",
              (), (_g("Eastern Conference", "EAST", "Conference"), _g("Western Conference", "WEST", "Conference")),
              (6, 2), (44, 10), (5, 16), (9, 11), round_days=2, playoff_teams=8,
              playoff_rounds=(("First Round", 3), ("Semifinals", 5), ("Finals", 7)), start_hour=23.5,
              periods=4, period_minutes=10.0, odds=PRO_MARKET, scoring=0.74, women=True),
    LevelPlan("GL", "basketball", "us", "US",
              (), (_g("Eastern Conference", "EAST", "Conference"), _g("Western Conference", "WEST", "Conference")),
              (6, 2), (36, 10), (11, 7), (3, 28), round_days=3, playoff_teams=4,
              playoff_rounds=(("Semifinal", 1), ("Finals", 3)), start_hour=24.0, odds=PRO_MARKET,
              scoring=1.04),
    LevelPlan("EuroBB", "basketball", "euro", "EU", (), (_g("EuroLeague", "EL", "League"),),
              (16, 4), (30, 8), (10, 1), (4, 17), round_days=2, playoff_teams=8,
              playoff_rounds=(("Playoffs", 5), ("Final Four Semifinal", 1), ("Championship", 1)),
              start_hour=18.5, periods=4, period_minutes=10.0, scoring=0.76, transactions=False,
              odds=PRO_MARKET),
    _college_bb("MBB", False, "us"), _college_bb("MB2", False, "us"), _college_bb("MB3", False, "us"),
    _college_bb("WBB", True, "us_w"), _college_bb("WB2", True, "us_w"), _college_bb("WB3", True, "us_w"),
    _college_bb("MBIA", False, "us"), _college_bb("WBIA", True, "us_w"),
    _college_bb("MBJC", False, "us"), _college_bb("WBJC", True, "us_w"),
    LevelPlan("NHL", "hockey", "nhl", "NA",
              (_g("Eastern Conference", "EAST", "Conference"), _g("Western Conference", "WEST", "Conference")),
              (_g("Atlantic Division", "ATL", "Division", "EAST"), _g("Metropolitan Division", "MET", "Division", "EAST"),
               _g("Central Division", "CEN", "Division", "WEST"), _g("Pacific Division", "PAC", "Division", "WEST")),
              (8, 2), (82, 12), (10, 7), (4, 16), round_days=2, playoff_teams=16,
              playoff_rounds=(("First Round", 7), ("Second Round", 7), ("Conference Finals", 7),
                              ("Stanley Cup Final", 7)), start_hour=23.5, odds=PRO_MARKET),
    LevelPlan("KHL", "hockey", "ru", "RU",
              (_g("Western Conference", "WEST", "Conference"), _g("Eastern Conference", "EAST", "Conference")),
              (_g("Bobrov Division", "BOB", "Division", "WEST"), _g("Tarasov Division", "TAR", "Division", "WEST"),
               _g("Kharlamov Division", "KHA", "Division", "EAST"), _g("Chernyshev Division", "CHE", "Division", "EAST")),
              (5, 1), (56, 12), (9, 5), (3, 28), round_days=2, playoff_teams=8,
              playoff_rounds=(("Conference Quarterfinal", 7), ("Conference Final", 7),
                              ("Gagarin Cup Final", 7)), start_hour=16.5, odds=PRO_MARKET, scoring=0.9,
              transactions=False),
    LevelPlan("MHK", "hockey", "nhl", "US", (), _COLLEGE_CONF, (5, 2), (30, 8), (10, 4), (3, 14),
              round_days=3, playoff_teams=8, playoff_rounds=(("Regional", 1), ("Frozen Four Semifinal", 1),
                                                             ("Frozen Four Final", 1)),
              start_hour=23.5, ties=True, scoring=0.95, transactions=False, odds=0.4),
    LevelPlan("FC", "soccer", "fc", "FOOTBALL",
              (),
              (_g("Premier Division", "ENG1", "League"), _g("Primera División", "ESP1", "League"),
               _g("Erste Liga", "GER1", "League"), _g("Women's Super League", "ENGW", "League")),
              (12, 4), (22, 6), (8, 15), (5, 24), schedule_by="group", round_days=7,
              playoff_teams=8, playoff_rounds=(("Quarter-final", 1), ("Semi-final", 1), ("Final", 1)),
              start_hour=14.0, odds=PRO_MARKET, transactions=False,
              extra={"leagues": {"ENG1": ("Domestic", "England", "M", 1.0),
                                 "ESP1": ("Domestic", "Spain", "M", 0.96),
                                 "GER1": ("Domestic", "Germany", "M", 0.92),
                                 "ENGW": ("Domestic", "England", "W", 0.55)},
                     "cup": ("Continental Champions Cup", "CCC", "International", "Europe", "M", 1.0)}),
)
PLANS: dict[str, LevelPlan] = {p.code: p for p in _PLAN_LIST}

# Scoring-rate tables (per team-game, before home advantage and team strength).
BASEBALL_PA = {  # probabilities per plate appearance, MLB 2023-25-like
    "K": 0.225, "BB": 0.082, "HBP": 0.011, "1B": 0.135, "2B": 0.045, "3B": 0.004, "HR": 0.032,
    "E": 0.009, "GO": 0.245, "FO": 0.207,
}
BASKETBALL = {"poss": 99.0, "p3a": 0.39, "p2": 0.54, "p3": 0.362, "ft_trip": 0.115,
              "tov": 0.13, "ft": 0.78, "oreb": 0.24}
HOCKEY = {"goals": 3.0, "sog": 29.0, "pen": 3.2}
SOCCER = {"goals": 1.36, "shots": 12.5, "sot": 0.36}
