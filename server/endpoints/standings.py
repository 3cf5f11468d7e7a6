"""standings (v2, beyond the spec): the table of a season as of the end of a day, by division.

One record per team: its record, games behind its division leader, home and away records, the
last ten games (football: the form of the last five), the streak, the run, point or goal
differential, its rank in the division and the league, and what it has clinched
(``server.models.standings``); which columns a sport's table has, and in what order, is its row
of ``server.catalog.tables``. ``date`` gives the table as of
the end of that day (default: the season so far); ``sublevel`` keeps a league, conference or
division.

Computed by the request from the season's games, not stored: any day of any season must answer
(``date=``), and a derived table of every team on every day would hold ~190 rows per team and
season for what one read of at most ~2,500 games and a few array sums give in milliseconds; the
answer cache keeps it, and every ingest or re-tabulation drops it. A game counts once it is
final (state ``final`` with both scores); postseason games never count. A season the store
holds as team totals only (Lahman's, to 2020) answers its final table from them: records, games
behind and ranks by league and division, the columns that need games null.

Football's cups count in no league's table (``server.store.competitions``); ``sublevel`` naming
a cup gives that cup's own tables instead: its group stage, one table per group (``Division``
the group's name, ``Group A``), or its league phase, one table of 36, from its group games only
and ranked by UEFA's tiebreakers (``server.store.cup_groups``).
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import sqlalchemy as sa

from server.catalog import phases
from server.catalog.football import LEAGUES, League, Split
from server.catalog.football.deductions import deducted, tie_playoff_winners
from server.catalog.football.places import MARKS, LeaguePlaces, places_for
from server.catalog.levels import LEVELS
from server.catalog.playoffs import PlayoffFormat, division_order, format_for, usable
from server.catalog.simulated import PLANS
from server.catalog.tables import FORM_GAMES, levels_where, levels_with_points, table_rules
from server.endpoints.base import ParsedRequest, Endpoint, Field, Record
from server.endpoints.common import LEAGUE_LEVELS, params
from server.models import standings as model
from server.store import cup_groups
from server.store import schema as s
from server.store.competitions import CUP, in_league_tables
from server.store.divisions import Placement, placements

SIMULATED = "simulated"  # games.source of the simulator's seasons
HOCKEY = tuple(lv.code for lv in LEVELS if lv.sport == "hockey")
# Levels whose games may end level: soccer's draws, and the simulated leagues that play ties.
TIES = tuple(lv.code for lv in LEVELS if lv.sport == "soccer"
             or (lv.code in PLANS and PLANS[lv.code].ties))
POINTS = levels_with_points()
GAMES_BACK, POINTS_BACK = levels_where("behind", "GB"), levels_where("behind", "PointsBack")
RUNS, POINTS_DIFF, GOALS_DIFF = (levels_where("differential", d)
                                 for d in ("RunDiff", "PointDiff", "GoalDiff"))
GOALS = levels_where("goals", True)
PCT = levels_where("pct", True)
LAST10, FORM = levels_where("form", "Last10"), levels_where("form", "Form")


def _season(conn: sa.Connection, ask: ParsedRequest) -> int | None:
    """The asked (or defaulted) season; with only ``date``, the newest season with a game on
    or before it."""
    if ask.season is not None:
        return int(ask.season)
    g = s.games.c
    query = sa.select(sa.func.max(g.season)).where(g.level == ask.code)
    if ask.day_to is not None:
        query = query.where(g.game_day <= ask.day_to)
    found = conn.execute(query).scalar()
    return None if found is None else int(found)


def _answer(conn: sa.Connection, ask: ParsedRequest) -> list[Record]:
    season = _season(conn, ask)
    if season is None:
        return []
    subs = _sublevels(conn, ask.code)
    wanted = ask.get("sublevel")
    cup = (subs.cup(int(wanted)) if wanted is not None and ask.code in LEAGUE_LEVELS else None)
    if cup is not None:
        return _cup_tables(conn, ask, season, cup, subs)
    g = s.games.c
    rows = conn.execute(
        sa.select(g.game_day, g.home_id, g.visitor_id, g.score_home, g.score_vis, g.state,
                  g.overtime, g.source)
        .where(g.level == ask.code, g.season == season, g.playoff.is_(None),
               in_league_tables(g.sublevel_id))
        .order_by(g.game_day, g.game_no, g.id)).all()
    if not rows:  # a season known only by its totals (Lahman), unless a day was asked
        return [] if ask.day_to is not None else _from_totals(conn, ask, season, subs)
    team_ids = sorted({r.home_id for r in rows} | {r.visitor_id for r in rows})
    where, group, division = _structure(conn, ask.code, season, team_ids, subs)
    clubs = (_club_leagues(conn, ask.code, team_ids, where, subs) if ask.code == "FC"
             else None)
    deducted = _deductions(season, clubs, ask.day_to)
    games, as_of = _played(rows, team_ids, ask.day_to, deducted,
                           undecided=ask.code in LEAGUE_LEVELS)
    if ask.day_to is None and clubs is not None:  # a declared play-off settled a tie
        games = replace(games, tie_playoff=_tie_playoffs(season, clubs))
    simulated = all(r.source == SIMULATED for r in rows)
    fmt = format_for(ask.code, season, simulated)
    # a format whose structure the store lacks still ranks; it marks division titles only
    marks = usable(fmt, bool((group >= 0).all()), bool((division >= 0).all())) is not None
    leagues = _leagues(ask.code, where, group, subs) if not simulated else None
    lines = _lines(ask.code, games, group, division, fmt, marks,
                   [lg.tiebreaks if lg else None for lg in leagues] if leagues is not None else None,
                   [lg.split if lg else None for lg in leagues] if leagues is not None else None,
                   leagues,
                   [places_for(lg.code, season) if lg else None for lg in leagues]
                   if leagues is not None else None)
    names = _names(conn, ask.code, season, team_ids)
    out: list[Record] = []
    for team_id, p, line in zip(team_ids, where, lines, strict=True):
        out.append(_record(ask.code, team_id, names.get(team_id), p, subs.names, season, as_of,
                           line))
    return _ordered(out, ask, subs)


def _played(rows: Sequence[Any], team_ids: list[int], day: dt.date | None,
            deducted: np.ndarray | None, undecided: bool = False
            ) -> tuple[model.SeasonGames, dt.date | None]:
    """The games ``rows`` (day, teams, scores, state, overtime) final by the end of ``day``
    (default: all), as the model's arrays over ``team_ids``; and the day the table is as of.
    ``undecided`` (a league's table: football's): a listed match without a result whose day
    has passed (``No result``) or that was postponed is still to play, not void: a league
    plays its whole schedule, and the files end before it does."""
    index = {t: i for i, t in enumerate(team_ids)}
    # the rows' columns, each once (a row's attribute costs about a microsecond: an FC season's
    # 6,000 games were read seven times over by attribute)
    days, homes, visitors, scores_home, scores_vis, states, overtimes = list(
        zip(*rows, strict=False))[:7] if rows else ((),) * 7
    home = np.array([index[t] for t in homes], dtype=np.int64)
    visitor = np.array([index[t] for t in visitors], dtype=np.int64)
    state = np.array(states)
    final = (state == "final") & np.array([h is not None and v is not None
                                           for h, v in zip(scores_home, scores_vis, strict=True)])
    game_day = np.array(days, dtype="datetime64[D]")
    played = final if day is None else final & (game_day <= np.datetime64(day, "D"))
    waiting = ~played & (final | (state == "scheduled") | (state == "inprogress")
                         | (undecided & ((state == phases.NO_RESULT) | (state == "postponed"))))
    remaining = (np.bincount(home[waiting], minlength=len(team_ids))
                 + np.bincount(visitor[waiting], minlength=len(team_ids)))
    games = model.SeasonGames(
        home=home[played], visitor=visitor[played],
        score_home=np.array([h or 0 for h in scores_home], dtype=np.int64)[played],
        score_vis=np.array([v or 0 for v in scores_vis], dtype=np.int64)[played],
        overtime=np.array([bool(o) for o in overtimes], dtype=bool)[played],
        remaining=remaining, deducted=deducted)
    as_of = day if day is not None else (
        game_day[played].max().item() if played.any() else None)
    return games, as_of


def _lines(code: str, games: model.SeasonGames, group: np.ndarray, division: np.ndarray,
           fmt: PlayoffFormat | None, marks: bool,
           group_rules: list[tuple[str, ...] | None] | None = None,
           splits: list[Split | None] | None = None,
           schedules: Sequence[League | None] | None = None,
           places: Sequence[LeaguePlaces | None] | None = None) -> list[dict[str, Any]]:
    """The model's table, read as the level's sport prints it (``server.catalog.tables``);
    ``group_rules``, ``splits``, ``schedules`` and ``places``: each league's declared
    tiebreakers, split season, schedule and what its final positions earn (football)."""
    rules = table_rules(code)
    return model.table(games, group, division, fmt, ot_losses=code in HOCKEY,
                       ties=code in TIES or code in HOCKEY, marks=marks,
                       form_games=FORM_GAMES if rules.form == "Form" else 0,
                       draw_letter=rules.draw,
                       draws_middle=rules.record.index("T") < rules.record.index("L"),
                       group_rules=group_rules, splits=splits, schedules=schedules,
                       places=places)


def _leagues(level: str, where: list[Placement], group: np.ndarray, subs: Sublevels
             ) -> list[League | None] | None:
    """Per league (``group`` index) its declaration in ``server.catalog.football.LEAGUES``
    (its tiebreakers and split; None: undeclared); None for a level other than FC."""
    if level != "FC":
        return None
    abbrevs = subs.abbrevs
    by_abbrev = {lg.abbrev: lg for lg in LEAGUES.values()}
    out: list[League | None] = [None] * (int(group.max()) + 1 if len(group) else 0)
    for p, g in zip(where, group.tolist(), strict=True):
        if g >= 0 and p.league_id is not None:
            out[g] = by_abbrev.get(abbrevs.get(p.league_id, ""))
    return out


def _cup_tables(conn: sa.Connection, ask: ParsedRequest, season: int,
                cup: cup_groups.Cup, subs: Sublevels) -> list[Record]:
    """A cup's group stage (one table per group, ``Division`` the group's name) or league phase
    (one table) from its group games only (``server.store.cup_groups``); no clinch marks."""
    g = s.games.c
    rows = conn.execute(
        sa.select(g.game_day, g.home_id, g.visitor_id, g.score_home, g.score_vis, g.state,
                  g.overtime, g.info)
        .where(cup_groups.group_games(ask.code, season, cup.id))
        .order_by(g.game_day, g.game_no, g.id)).all()
    if not rows:
        return []
    stage = cup_groups.stage(conn, ask.code, season, cup, [
        (r.home_id, r.visitor_id, (r.info or {}).get("round")) for r in rows])
    team_ids = sorted(stage.groups)
    names_of = sorted(set(stage.groups.values()))
    group = np.array([names_of.index(stage.groups[t]) for t in team_ids], dtype=np.int64)
    division = np.full(len(team_ids), -1, dtype=np.int64)
    games, as_of = _played(rows, team_ids, ask.day_to, None)
    fmt = PlayoffFormat(ask.code, season, season, "table", (), tiebreaks=stage.tiebreaks)
    lines = _lines(ask.code, games, group, division, fmt, marks=False)
    names = _names(conn, ask.code, season, team_ids)
    where = Placement(cup.id, None, cup.id)
    out: list[Record] = []
    for team_id, line in zip(team_ids, lines, strict=True):
        rec = _record(ask.code, team_id, names.get(team_id), where, {cup.id: cup.name}, season,
                      as_of, line)
        rec["Division"] = stage.groups[team_id]
        out.append(rec)
    return _ordered(out, ask, subs)


def _club_leagues(conn: sa.Connection, level: str, team_ids: list[int],
                  where: list[Placement], subs: Sublevels
                  ) -> list[tuple[str | None, str | None]]:
    """Per team its league's abbreviation and its club key (``clubs.csv``), where known."""
    sk = s.source_keys.c
    keys = {int(i): k.split(":", 1)[1] for i, k in conn.execute(
        sa.select(sk.id, sk.key).where(sk.kind == "team", sk.id.in_(team_ids),
                                       sk.key.like(f"{level}:%")))}
    return [(subs.abbrevs.get(p.league_id or -1), keys.get(team_id))
            for team_id, p in zip(team_ids, where, strict=True)]


def _deductions(season: int, clubs: list[tuple[str | None, str | None]] | None,
                day: dt.date | None) -> np.ndarray | None:
    """Points each team (``clubs``: its league's abbreviation and club key, ``_club_leagues``)
    had taken off by its league that season by the end of ``day`` (default: all, as the final
    tables carry them; ``server.catalog.football.deductions``); None where the level has none
    (no ``clubs``)."""
    if clubs is None:
        return None
    out = np.zeros(len(clubs), dtype=np.int64)
    declared = _declared(season, day)
    for n, (abbrev, club) in enumerate(clubs):
        out[n] = declared.get((abbrev or "", club or ""), 0)
    return out


def _tie_playoffs(season: int, clubs: list[tuple[str | None, str | None]]) -> np.ndarray:
    """1 for each team (``clubs``, as ``_club_leagues``) that won a declared play-off for a tie
    on points that season (``server.catalog.football.deductions.TIE_PLAYOFFS``), 0 for the
    others."""
    won = {(lg.abbrev, club) for lg in LEAGUES.values()
           for club in tie_playoff_winners(lg.code, season)}
    return np.array([int((abbrev, club) in won)
                     for abbrev, club in clubs],
                    dtype=np.int64)


def _declared(season: int, day: dt.date | None) -> dict[tuple[str, str], int]:
    """(league abbreviation, club key) -> points deducted in ``season`` by the end of ``day``."""
    return {(lg.abbrev, club): pts for lg in LEAGUES.values()
            for club, pts in deducted(lg.code, season, day).items()}


def _from_totals(conn: sa.Connection, ask: ParsedRequest, season: int,
                 subs: Sublevels) -> list[Record]:
    """The final table of a season the store holds as team totals only (Lahman's seasons,
    1871-2020): records, games behind and ranks by league and division; what needs games (home
    and away, form, differential) and clinch marks (a season cut short, as 1994, crowned no
    division winners) are null."""
    ts = s.team_seasons.c
    rows = conn.execute(sa.select(ts.team_id, ts.wins, ts.losses, ts.ties)
                        .where(ts.level == ask.code, ts.season == season,
                               ts.wins.is_not(None), ts.losses.is_not(None))
                        .order_by(ts.team_id)).all()
    if not rows:
        return []
    team_ids = [int(r[0]) for r in rows]
    n = len(team_ids)
    none = np.zeros(0, dtype=np.int64)
    games = model.SeasonGames(none, none, none, none, np.zeros(0, dtype=bool),
                              np.zeros(n, dtype=np.int64),
                              np.array([[r[1], r[2], r[3] or 0] for r in rows], dtype=np.int64))
    where, group, division = _structure(conn, ask.code, season, team_ids, subs)
    lines = model.table(games, group, division, format_for(ask.code, season, False),
                        ot_losses=False, ties=ask.code in TIES, marks=False)
    names = _names(conn, ask.code, season, team_ids)
    out = []
    for team_id, p, line in zip(team_ids, where, lines, strict=True):
        rec = _record(ask.code, team_id, names.get(team_id), p, subs.names, season, None, line)
        rec.update({k: None for k in ("Home", "Away", "Last10", "Form", "Streak", "RunDiff",
                                      "PointDiff", "GoalDiff", "GF", "GA", "Remaining",
                                      "Clinched") if k in rec})
        out.append(rec)
    return _ordered(out, ask, subs)


def _structure(conn: sa.Connection, level: str, season: int, team_ids: list[int],
               subs: Sublevels) -> tuple[list[Placement], np.ndarray, np.ndarray]:
    """Each team's placement, and its league and division as dense indexes (-1: none)."""
    placed = placements(conn, level, season, team_ids, subs.tree)
    where = [placed.get(t, Placement(None, None, None)) for t in team_ids]
    leagues: dict[int, int] = {}
    divisions: dict[int, int] = {}
    group = np.array([-1 if p.league_id is None else leagues.setdefault(p.league_id, len(leagues))
                      for p in where])
    division = np.array([-1 if p.division_id is None
                         else divisions.setdefault(p.division_id, len(divisions))
                         for p in where])
    return where, group, division


def _ordered(out: list[Record], ask: ParsedRequest, subs: Sublevels) -> list[Record]:
    """The asked league or division only (``sublevel``), in the order the leagues print their
    tables: leagues by abbreviation (football's: nation, then tier), divisions as declared
    (``division_order``: the AL East before the AL Central), each in rank order."""
    wanted = ask.get("sublevel")
    if wanted is not None:
        out = [r for r in out if wanted in (r["League_ID"], r["Division_ID"])]
    abbrevs = subs.abbrevs
    out.sort(key=lambda r: (abbrevs.get(r["League_ID"]) or r["League"] or "",
                            division_order(ask.code, r["Division"]), r["Division"] or "",
                            r["DivRank"], r["Team"] or ""))
    return out


def _record(code: str, team_id: int, name: str | None, p: Placement,
            sub_names: dict[int, str], season: int, as_of: dt.date | None,
            line: dict[str, Any]) -> Record:
    rec: Record = {
        "Team_ID": team_id, "Team": name,
        "League_ID": p.league_id, "League": sub_names.get(p.league_id or -1),
        "Division_ID": p.division_id, "Division": sub_names.get(p.division_id or -1),
        "Season": season, "Date": as_of, "G": line["G"]}
    rules = table_rules(code)
    has = {"W": True, "L": True, "T": code in TIES, "OTL": code in HOCKEY}
    rec.update({c: line[c] for c in rules.record if has[c]})  # in the order the sport prints
    if code in POINTS:
        rec["Points"] = line["Points"]
    if rules.pct:
        rec["Pct"] = line["Pct"]
    rec[rules.behind] = line[rules.behind]
    rec.update({"Home": line["Home"], "Away": line["Away"], rules.form: line[rules.form],
                "Streak": line["Streak"]})
    if rules.goals:
        rec.update({"GF": line["GF"], "GA": line["GA"]})
    rec[rules.differential] = line["Diff"]
    rec.update({"DivRank": line["DivRank"], "LeagueRank": line["LeagueRank"],
                "Remaining": line["Remaining"], "Clinched": line["Clinched"]})
    return rec


def _names(conn: sa.Connection, level: str, season: int, team_ids: list[int]) -> dict[int, str]:
    """Each team's name that season (its team season's, else its own)."""
    t, ts = s.teams.c, s.team_seasons.c
    rows = conn.execute(sa.select(t.id, sa.func.coalesce(ts.name, t.name))
                        .join_from(s.teams, s.team_seasons,
                                   (ts.team_id == t.id) & (ts.season == season), isouter=True)
                        .where(t.id.in_(team_ids))).all()
    return {int(r[0]): r[1] for r in rows}


@dataclass(frozen=True)
class Sublevels:
    """The level's leagues, conferences, divisions and cups (sublevel ID -> name, abbreviation,
    league type, and parent and type for ``placements``), read once per request
    (``_sublevels``) for every step that places, names or orders teams."""
    names: dict[int, str]
    abbrevs: dict[int, str]
    types: dict[int, str | None]
    tree: dict[int, tuple[int | None, str | None]]

    def cup(self, sublevel_id: int) -> cup_groups.Cup | None:
        """The cup ``sublevel_id`` names, or None when it names a league, division or nothing."""
        if self.types.get(sublevel_id) != CUP:
            return None
        return cup_groups.cup(sublevel_id, self.names[sublevel_id], self.abbrevs[sublevel_id])


def _sublevels(conn: sa.Connection, level: str) -> Sublevels:
    sl = s.sublevels.c
    rows = conn.execute(sa.select(sl.id, sl.name, sl.abbrev, sl.league_type, sl.parent_id,
                                  sl.type).where(sl.level == level)).all()
    return Sublevels({int(r.id): r.name for r in rows}, {int(r.id): r.abbrev for r in rows},
                     {int(r.id): r.league_type for r in rows},
                     {r.id: (r.parent_id, r.type) for r in rows})


_N, _I, _S = "number", "integer", "string"
STANDINGS = Endpoint(
    name="standings", singular="standing", version="v2", aliases=("standing",),
    summary="the season's table as of the end of a day (default: so far), by league and "
            "division: record, games behind, home and away, last 10, streak, differential, "
            "ranks and clinch marks",
    fields=(
        Field("Team_ID", _I, 11, "team ID"),
        Field("Team", _S, "Houston Astros", "team name that season"),
        Field("League_ID", _I, 1, "its league or conference ID (glossary sublevels)"),
        Field("League", _S, "American League", "its name"),
        Field("Division_ID", _I, 11, "its division ID; null where the level has none declared"),
        Field("Division", _S, "AL West", "its name (a football cup's tables: the group, "
                                         "Group A, or League phase)"),
        Field("Season", _I, 2023, "season ID"),
        Field("Date", "date", "2023-10-01", "the table as of the end of this day; null for a "
                                            "season held as totals only (Lahman's, to 2020)"),
        Field("G", _I, 162, "regular-season games played"),
        Field("W", _I, 90, "wins"),
        Field("L", _I, 72, "losses (hockey: in regulation)"),
        Field("T", _I, 0, "ties or draws", levels=TIES),
        Field("OTL", _I, 9, "overtime and shootout losses", levels=HOCKEY),
        Field("Points", _I, 98, "table points (hockey 2 a win, 1 an overtime loss; soccer 3, 1, "
                                "less any deduction the league imposed)",
              levels=POINTS),
        Field("Pct", _N, 0.556, "wins and half the ties over games; points over the most "
                                "possible where the level ranks by points (football's tables "
                                "have none)", levels=PCT),
        Field("GB", _N, 0.0, "games behind the division leader (the league's where there are no "
                             "divisions)", levels=GAMES_BACK),
        Field("PointsBack", _I, 0, "table points behind the division leader (the league's where "
                                   "there are no divisions)", levels=POINTS_BACK),
        Field("Home", _S, "39-42", "home record, W-L (W-L-T with ties or overtime losses; "
                                   "football W-D-L)"),
        Field("Away", _S, "51-30", "away record"),
        Field("Last10", _S, "6-4", "record in the last 10 games", levels=LAST10),
        Field("Form", _S, "WWDLW", f"the last {FORM_GAMES} results, W, D or L, oldest first: the "
                                   "newest is the right end (football)", levels=FORM),
        Field("Streak", _S, "W2", "current streak: W, L or T (football D) and its length"),
        Field("GF", _I, 94, "goals scored", levels=GOALS),
        Field("GA", _I, 33, "goals conceded", levels=GOALS),
        Field("RunDiff", _I, 197, "runs scored minus runs allowed", levels=RUNS),
        Field("PointDiff", _I, 45, "points scored minus allowed", levels=POINTS_DIFF),
        Field("GoalDiff", _I, 61, "goals scored minus conceded", levels=GOALS_DIFF),
        Field("DivRank", _I, 1, "rank in the division (ties by the league's tiebreakers)"),
        Field("LeagueRank", _I, 3, "rank in the league or conference"),
        Field("Remaining", _I, 0, "regular-season games left after the day (football: the "
                                  "league's declared schedule less the matches played, "
                                  "listed or not; before a split, the most a group plays)"),
        Field("Clinched", _S, "Division", "Division, Bye, Wild Card, Playoff, Play-In or Title "
                                          "when certain (never projected; Bye and Wild Card "
                                          "once the league is finished); null otherwise. "
                                          "Football: Title, else the declared place a club is "
                                          "sure of: " + ", ".join(MARKS.values())
              + " (at least the first three, at best the last two; Europa League and "
                "Conference League places are never marked: domestic cup winners, which the "
                "results cannot foresee, move them)"),
    ),
    params=params("season", "date", "sublevel"), season_default=True, paginated=False,
    custom=_answer,
)
