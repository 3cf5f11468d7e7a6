"""Postseason formats as data: who qualifies, how they are seeded, byes, play-in, series lengths.

One ``PlayoffFormat`` row per level and era of real competition; the simulated levels' formats
are built from their simulator's plan (``server.catalog.simulated``: ``playoff_teams`` and
``playoff_rounds``), so a projection of a simulated season plays the postseason the simulator
itself would play. ``server.models.projections`` interprets a row; nothing else here computes.

Kinds (how a row is read):

* ``top``: the simulator's rule. The best ``teams`` records of the whole level (win fraction,
  ties as half), cut to the largest power of two, in a seeded bracket (1 v n, ...), the last
  rounds of ``rounds``.
* ``divisions``: per league or conference (the team's upper sublevel), each division's best
  ``division_top`` teams qualify, then the next best ``wild_cards``; seeds: division winners first
  by record (MLB), then the others by record; the best ``byes`` seeds skip the first round. The
  bracket of the first round is ``first_round`` (pairs of seeds, 1-based); later rounds pair the
  survivors in bracket order, and the two groups' champions meet in the final.
* ``nhl``: per conference, each division's top 3 and two wild cards; the division winner with the
  better record meets the second wild card, the other the first; 2 v 3 within each division.
* ``play_in``: per conference the best ``direct`` records qualify; seeds ``direct``+1 ..
  ``direct``+4 play in (7 v 8: the winner is 7th; the loser meets the winner of 9 v 10 for 8th),
  then 1 v 8, 4 v 5, 3 v 6, 2 v 7. ``ByeProb`` is the chance of a direct place (no play-in).
* ``table``: league tables with points (``points``: win, draw, loss); the title is first place,
  there is no playoff (soccer leagues).

Tiebreakers (``tiebreaks``) are the published rules as far as a season's games decide them: MLB
from 2022 (no more game 163): head-to-head, then the record within the division, then within
the league; the NBA: head-to-head, division record, conference record (its "division leader"
rule and the later ones are not modelled); the NHL from 2019-20: regulation wins, wins, then
head-to-head (regulation-plus-overtime wins are not: the projections' simulated games do not
split overtime from the shootout). A simulated level breaks ties head-to-head (soccer's tables
by lot: their goal difference comes first, and simulated seasons do not keep goals). Whatever
the rules leave equal is decided by lot.

Division membership of the real leagues comes from ``DIVISIONS`` (the real data names leagues and
conferences only); a simulated level's divisions are its store sublevels.
"""
from __future__ import annotations

from dataclasses import dataclass

from server.catalog.simulated import PLANS

Round = tuple[str, int]  # (name, games in the series: best of)


@dataclass(frozen=True)
class PlayoffFormat:
    level: str
    first: int  # first season of this format (the year the season ends)
    last: int | None  # last season, None while it holds
    kind: str  # top | divisions | nhl | play_in | table
    rounds: tuple[Round, ...]  # every round, first to last (the final between groups last)
    teams: int = 0  # kind top: teams in the bracket at most
    division_top: int = 1  # divisions: teams per division that qualify by division place
    wild_cards: int = 0  # divisions: further teams per group by record
    byes: int = 0  # seeds per group that skip the first round
    first_round: tuple[tuple[int, int], ...] = ()  # divisions: seed pairs (1-based) playing it
    direct: int = 0  # play_in: places per conference without the play-in
    points: tuple[int, int, int] = (3, 1, 0)  # table: points for a win, draw, loss
    rank_by: str = "pct"  # pct: wins + half the ties over games; points: NHL's 2 per win, 1 per OTL
    # How equal records are ordered, rule after rule (``server.models.tiebreaks.RULES``), then
    # by lot; () = by lot alone (an era that played a tiebreaker game instead).
    tiebreaks: tuple[str, ...] = ()

    @property
    def has_playoff(self) -> bool:
        return self.kind != "table"

    @property
    def has_byes(self) -> bool:
        return self.byes > 0 or self.kind == "play_in"


_MLB_LATE = (("League Championship Series", 7), ("World Series", 7))
_NBA_ROUNDS = (("Play-In", 1), ("First Round", 7), ("Conference Semifinals", 7),
               ("Conference Finals", 7), ("Finals", 7))
_NHL_ROUNDS = (("First Round", 7), ("Second Round", 7), ("Conference Finals", 7),
               ("Stanley Cup Final", 7))

REAL_FORMATS: tuple[PlayoffFormat, ...] = (
    # MLB 2012-2021 (but 2020): 5 per league, 3 division winners + 2 wild cards; the wild cards
    # meet in one game, the winner plays the top seed; the division winners skip that game.
    PlayoffFormat("MLB", 2012, 2019, "divisions",
                  (("Wild Card Game", 1), ("Division Series", 5), *_MLB_LATE),
                  division_top=1, wild_cards=2, byes=3, first_round=((4, 5),)),
    # 2020 (60 games): 16 teams, 8 per league: the 3 division winners, the 3 runners-up and 2
    # wild cards, all in best-of-3 wild-card series (1 v 8, 2 v 7, 3 v 6, 4 v 5); no byes.
    PlayoffFormat("MLB", 2020, 2020, "divisions",
                  (("Wild Card Series", 3), ("Division Series", 5), *_MLB_LATE),
                  division_top=2, wild_cards=2, first_round=((1, 8), (4, 5), (3, 6), (2, 7))),
    PlayoffFormat("MLB", 2021, 2021, "divisions",
                  (("Wild Card Game", 1), ("Division Series", 5), *_MLB_LATE),
                  division_top=1, wild_cards=2, byes=3, first_round=((4, 5),)),
    # From 2022: 12 teams, 6 per league: 3 division winners + 3 wild cards; seeds 1-2 (the best
    # division winners) bye; best-of-3 wild-card series 3 v 6 and 4 v 5.
    PlayoffFormat("MLB", 2022, None, "divisions",
                  (("Wild Card Series", 3), ("Division Series", 5), *_MLB_LATE),
                  division_top=1, wild_cards=3, byes=2, first_round=((4, 5), (3, 6)),
                  tiebreaks=("head_to_head", "division", "league")),
    # NBA from 2020-21: 6 per conference directly, 7-10 in the play-in.
    PlayoffFormat("NBA", 2021, None, "play_in", _NBA_ROUNDS, direct=6,
                  tiebreaks=("head_to_head", "division", "league")),
    # NHL from 2013-14: 16 teams by division and wild card (8 per conference); ranked by points.
    PlayoffFormat("NHL", 2014, 2019, "nhl", _NHL_ROUNDS, rank_by="points"),
    PlayoffFormat("NHL", 2020, None, "nhl", _NHL_ROUNDS, rank_by="points",
                  tiebreaks=("regulation_wins", "wins", "head_to_head")),
    # WNBA 2022-2024 (WNBA.com, "WNBA Announces Changes to Playoff Format", 2021-11-15): the
    # league's best 8 records, conferences aside, seeded 1 v 8 ... ; best-of-3 first round,
    # best-of-5 semifinals and finals (from 2025 the finals are best of 7: no season here yet).
    # Head-to-head breaks a tie first (the later rules are not modelled). 2021's single-game
    # rounds and byes for seeds 1-4 fit no kind here: records only.
    PlayoffFormat("WNBA", 2022, 2024, "top",
                  (("First Round", 3), ("Semifinals", 5), ("Finals", 5)), teams=8,
                  tiebreaks=("head_to_head",)),
)


@dataclass(frozen=True)
class CupFinal:
    """An in-season cup's final, played during the regular season and counted in no record,
    standing or projection (``server.catalog.phases.CUP_FINAL``). The results files list it as a
    regular-season game; this row names it (level, day, the two teams' store abbreviations)."""
    level: str
    day: str  # ISO date
    teams: frozenset[str]
    name: str = "Commissioner's Cup Final"


# The WNBA Commissioner's Cup finals (WNBA.com's results: 2021 Seattle 79-57 Connecticut, 2022
# Las Vegas 93-83 Chicago, 2023 New York 82-63 Las Vegas, 2024 Minnesota 94-89 New York).
CUP_FINALS: tuple[CupFinal, ...] = (
    CupFinal("WNBA", "2021-08-12", frozenset({"SEA", "CON"})),
    CupFinal("WNBA", "2022-07-26", frozenset({"LVA", "CHI"})),
    CupFinal("WNBA", "2023-08-15", frozenset({"LVA", "NYL"})),
    CupFinal("WNBA", "2024-06-25", frozenset({"NYL", "MIN"})),
)


def cup_final(level: str, day: str, teams: frozenset[str]) -> str | None:
    """The round name of the cup final ``level`` played on ``day`` between ``teams``, if any."""
    for c in CUP_FINALS:
        if c.level == level and c.day == day and c.teams == teams:
            return c.name
    return None


@dataclass(frozen=True)
class Division:
    level: str
    name: str
    first: int
    last: int | None
    teams: frozenset[str]  # the store's team abbreviations for that source


def _t(text: str) -> frozenset[str]:
    return frozenset(text.split())


# The real data names leagues (Retrosheet) and conferences (FiveThirtyEight files) only; Lahman's
# seasons (to 2020) carry their own (``server.ingest.lahman.load_divisions``).
DIVISIONS: tuple[Division, ...] = (
    # MLB since 2013 (Houston to the AL West), Retrosheet's team codes.
    Division("MLB", "AL East", 2013, None, _t("BAL BOS NYA TBA TOR")),
    Division("MLB", "AL Central", 2013, None, _t("CHA CLE DET KCA MIN")),
    Division("MLB", "AL West", 2013, None, _t("ANA HOU OAK SEA TEX")),
    Division("MLB", "NL East", 2013, None, _t("ATL MIA NYN PHI WAS")),
    Division("MLB", "NL Central", 2013, None, _t("CHN CIN MIL PIT SLN")),
    Division("MLB", "NL West", 2013, None, _t("ARI COL LAN SDN SFN")),
    # NBA since 2004-05 (30 teams, six divisions); the results files' codes, as the conferences
    # (``server.catalog.alignments``) spell them. Seeding ignores them from 2015-16.
    Division("NBA", "Atlantic", 2005, None, _t("BOS BRK NYK PHI TOR")),
    Division("NBA", "Central", 2005, None, _t("CHI CLE DET IND MIL")),
    Division("NBA", "Southeast", 2005, None, _t("ATL CHO MIA ORL WAS")),
    Division("NBA", "Northwest", 2005, None, _t("DEN MIN OKC POR UTA")),
    Division("NBA", "Pacific", 2005, None, _t("GSW LAC LAL PHO SAC")),
    Division("NBA", "Southwest", 2005, None, _t("DAL HOU MEM NOP SAS")),
    # NHL from 2021-22 (32 teams) until Arizona left after 2023-24; FiveThirtyEight's codes.
    Division("NHL", "Atlantic", 2022, 2024, _t("BOS BUF DET FLA MTL OTT TBL TOR")),
    Division("NHL", "Metropolitan", 2022, 2024, _t("CAR CBJ NJD NYI NYR PHI PIT WSH")),
    Division("NHL", "Central", 2022, 2024, _t("ARI CHI COL DAL MIN NSH STL WPG")),
    Division("NHL", "Pacific", 2022, 2024, _t("ANA CGY EDM LAK SEA SJS VAN VEG")),
)


def division_order(level: str, name: str | None) -> int:
    """Where a division stands in its league's printed order (MLB: East, Central, West), its
    first place in ``DIVISIONS``; an undeclared division comes after the declared ones."""
    return next((k for k, d in enumerate(DIVISIONS) if d.level == level and d.name == name),
                len(DIVISIONS))


def _holds(first: int, last: int | None, season: int) -> bool:
    return first <= season and (last is None or season <= last)


def division_of(level: str, season: int, abbrev: str | None) -> str | None:
    """The real division of a team (by its store abbreviation) in a season, if declared."""
    for d in DIVISIONS:
        if d.level == level and abbrev in d.teams and _holds(d.first, d.last, season):
            return d.name
    return None


SIMULATED_TIEBREAKS = ("head_to_head",)
FOOTBALL_TIEBREAKS = ("goal_difference", "goals_for")


def simulated_format(level: str) -> PlayoffFormat | None:
    """The simulator's own postseason for a simulated level: its plan's playoff teams and
    rounds (FC plays league tables: its cup is a separate competition)."""
    plan = PLANS.get(level)
    if plan is None:
        return None
    if plan.sport == "soccer":  # goal difference first, which simulated seasons do not keep
        return PlayoffFormat(level, 0, None, "table", ())
    return PlayoffFormat(level, 0, None, "top", plan.playoff_rounds, teams=plan.playoff_teams,
                         tiebreaks=SIMULATED_TIEBREAKS)


def format_for(level: str, season: int, simulated: bool) -> PlayoffFormat | None:
    """The postseason a season of ``level`` plays: the simulator's for simulated seasons, the
    declared real format otherwise; None when no format is declared for that real season (a
    projection then gives records only)."""
    if simulated:
        return simulated_format(level)
    for f in REAL_FORMATS:
        if f.level == level and _holds(f.first, f.last, season):
            return f
    if level == "FC":  # real football: level on points, goal difference then goals scored
        return PlayoffFormat(level, 0, None, "table", (), tiebreaks=FOOTBALL_TIEBREAKS)
    return None


def usable(fmt: PlayoffFormat | None, leagues_known: bool, divisions_known: bool
           ) -> PlayoffFormat | None:
    """The format, when the teams' structure supports it (a real format needs every team's
    league and, for division formats, division); otherwise None: records and title odds only,
    no clinch marks."""
    if fmt is None or fmt.kind in ("top", "table"):
        return fmt
    if not leagues_known or (fmt.kind in ("divisions", "nhl") and not divisions_known):
        return None
    return fmt
