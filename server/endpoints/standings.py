"""standings (v2, beyond the spec): the table of a season as of the end of a day, by division.

One record per team: its record, games behind its division leader, home and away records, the
last ten games, the streak, the run or point differential, its rank in the division and the
league, and what it has clinched (``server.models.standings``). ``date`` gives the table as of
the end of that day (default: the season so far); ``sublevel`` keeps a league, conference or
division.

Computed by the request from the season's games, not stored: any day of any season must answer
(``date=``), and a derived table of every team on every day would hold ~190 rows per team and
season for what one read of at most ~2,500 games and a few array sums give in milliseconds; the
answer cache keeps it, and every ingest or re-tabulation drops it. A game counts once it is
final (state ``final`` with both scores); postseason games never count. A season the store
holds as team totals only (Lahman's, to 2020) answers its final table from them: records, games
behind and ranks by league and division, the columns that need games null.
"""
from __future__ import annotations

import datetime as dt
from typing import Any

import numpy as np
import sqlalchemy as sa

from server.catalog.football import LEAGUES
from server.catalog.football.deductions import deducted
from server.catalog.levels import LEVELS
from server.catalog.playoffs import format_for, usable
from server.catalog.simulated import PLANS
from server.catalog.tables import FORM_GAMES, levels_where, table_rules
from server.endpoints.base import ParsedRequest, Endpoint, Field, Record
from server.endpoints.common import params
from server.models import standings as model
from server.store import schema as s
from server.store.competitions import in_league_tables
from server.store.divisions import Placement, placements

SIMULATED = "simulated"  # games.source of the simulator's seasons
HOCKEY = tuple(lv.code for lv in LEVELS if lv.sport == "hockey")
# Levels whose games may end level: soccer's draws, and the simulated leagues that play ties.
TIES = tuple(lv.code for lv in LEVELS if lv.sport == "soccer"
             or (lv.code in PLANS and PLANS[lv.code].ties))
POINTS = tuple(lv.code for lv in LEVELS if lv.sport in ("hockey", "soccer"))
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
    g = s.games.c
    rows = conn.execute(
        sa.select(g.game_day, g.home_id, g.visitor_id, g.score_home, g.score_vis, g.state,
                  g.overtime, g.source)
        .where(g.level == ask.code, g.season == season, g.playoff.is_(None),
               in_league_tables(g.sublevel_id))
        .order_by(g.game_day, g.game_no, g.id)).all()
    if not rows:  # a season known only by its totals (Lahman), unless a day was asked
        return [] if ask.day_to is not None else _from_totals(conn, ask, season)
    days, home_ids, visitor_ids, score_home, score_vis, states, overtime, sources = zip(
        *rows, strict=True)
    team_ids = sorted(set(home_ids) | set(visitor_ids))
    index = {t: i for i, t in enumerate(team_ids)}
    home = np.array([index[t] for t in home_ids], dtype=np.int64)
    visitor = np.array([index[t] for t in visitor_ids], dtype=np.int64)
    state = np.array(states)
    final = (state == "final") & np.array([a is not None and b is not None
                                           for a, b in zip(score_home, score_vis, strict=True)])
    day = ask.day_to
    game_day = np.array(days, dtype="datetime64[D]")
    played = final if day is None else final & (game_day <= np.datetime64(day, "D"))
    waiting = ~played & (final | (state == "scheduled") | (state == "inprogress"))
    remaining = (np.bincount(home[waiting], minlength=len(team_ids))
                 + np.bincount(visitor[waiting], minlength=len(team_ids)))
    where, group, division = _structure(conn, ask.code, season, team_ids)
    games = model.SeasonGames(
        home=home[played], visitor=visitor[played],
        score_home=np.array([x or 0 for x in score_home], dtype=np.int64)[played],
        score_vis=np.array([x or 0 for x in score_vis], dtype=np.int64)[played],
        overtime=np.array([bool(x) for x in overtime], dtype=bool)[played],
        remaining=remaining,
        deducted=_deductions(conn, ask.code, season, team_ids, where) if day is None else None)

    simulated = all(src == SIMULATED for src in sources)
    fmt = format_for(ask.code, season, simulated)
    # a format whose structure the store lacks still ranks; it marks division titles only
    marks = usable(fmt, bool((group >= 0).all()), bool((division >= 0).all())) is not None
    rules = table_rules(ask.code)
    lines = model.table(games, group, division, fmt, ot_losses=ask.code in HOCKEY,
                        ties=ask.code in TIES or ask.code in HOCKEY, marks=marks,
                        form_games=FORM_GAMES if rules.form == "Form" else 0, draw_letter=rules.draw,
                        draws_middle=rules.record.index("T") < rules.record.index("L"))

    names = _names(conn, ask.code, season, team_ids)
    sub_names = _sublevel_names(conn, ask.code)
    as_of = day if day is not None else (
        game_day[played].max().item() if played.any() else None)
    out: list[Record] = []
    for team_id, p, line in zip(team_ids, where, lines, strict=True):
        out.append(_record(ask.code, team_id, names.get(team_id), p, sub_names, season, as_of,
                           line))
    return _ordered(out, ask)


def _deductions(conn: sa.Connection, level: str, season: int, team_ids: list[int],
                where: list[Placement]) -> np.ndarray | None:
    """Points each team's league took off it that season (``server.catalog.football.
    deductions``: the final tables carry them); None where the level has none."""
    if level != "FC":
        return None
    sk, sl = s.source_keys.c, s.sublevels.c
    keys = {int(i): k.split(":", 1)[1] for i, k in conn.execute(
        sa.select(sk.id, sk.key).where(sk.kind == "team", sk.id.in_(team_ids),
                                       sk.key.like("FC:%")))}
    leagues = {int(i): a for i, a in conn.execute(
        sa.select(sl.id, sl.abbrev).where(sl.level == level))}
    out = np.zeros(len(team_ids), dtype=np.int64)
    for n, (team_id, p) in enumerate(zip(team_ids, where, strict=True)):
        abbrev = leagues.get(p.league_id or -1)
        for code, points in _declared(season).items():
            if code[0] == abbrev and code[1] == keys.get(team_id):
                out[n] = points
    return out


def _declared(season: int) -> dict[tuple[str, str], int]:
    """(league abbreviation, club key) -> points deducted in ``season``."""
    return {(lg.abbrev, club): pts for lg in LEAGUES.values()
            for club, pts in deducted(lg.code, season).items()}


def _from_totals(conn: sa.Connection, ask: ParsedRequest, season: int) -> list[Record]:
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
    where, group, division = _structure(conn, ask.code, season, team_ids)
    lines = model.table(games, group, division, format_for(ask.code, season, False),
                        ot_losses=False, ties=ask.code in TIES, marks=False)
    names = _names(conn, ask.code, season, team_ids)
    sub_names = _sublevel_names(conn, ask.code)
    out = []
    for team_id, p, line in zip(team_ids, where, lines, strict=True):
        rec = _record(ask.code, team_id, names.get(team_id), p, sub_names, season, None, line)
        rec.update({k: None for k in ("Home", "Away", "Last10", "Form", "Streak", "RunDiff",
                                      "PointDiff", "GoalDiff", "GF", "GA", "Remaining",
                                      "Clinched") if k in rec})
        out.append(rec)
    return _ordered(out, ask)


def _structure(conn: sa.Connection, level: str, season: int, team_ids: list[int]
               ) -> tuple[list[Placement], np.ndarray, np.ndarray]:
    """Each team's placement, and its league and division as dense indexes (-1: none)."""
    placed = placements(conn, level, season, team_ids)
    where = [placed.get(t, Placement(None, None, None)) for t in team_ids]
    leagues: dict[int, int] = {}
    divisions: dict[int, int] = {}
    group = np.array([-1 if p.league_id is None else leagues.setdefault(p.league_id, len(leagues))
                      for p in where])
    division = np.array([-1 if p.division_id is None
                         else divisions.setdefault(p.division_id, len(divisions))
                         for p in where])
    return where, group, division


def _ordered(out: list[Record], ask: ParsedRequest) -> list[Record]:
    """The asked league or division only (``sublevel``), by league, division and rank."""
    wanted = ask.get("sublevel")
    if wanted is not None:
        out = [r for r in out if wanted in (r["League_ID"], r["Division_ID"])]
    out.sort(key=lambda r: (r["League"] or "", r["Division"] or "", r["DivRank"], r["Team"] or ""))
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


def _sublevel_names(conn: sa.Connection, level: str) -> dict[int, str]:
    sl = s.sublevels.c
    return {int(r[0]): r[1] for r in conn.execute(
        sa.select(sl.id, sl.name).where(sl.level == level))}


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
        Field("Division", _S, "AL West", "its name"),
        Field("Season", _I, 2023, "season ID"),
        Field("Date", "date", "2023-10-01", "the table as of the end of this day; null for a "
                                            "season held as totals only (Lahman's, to 2020)"),
        Field("G", _I, 162, "regular-season games played"),
        Field("W", _I, 90, "wins"),
        Field("L", _I, 72, "losses (hockey: in regulation)"),
        Field("T", _I, 0, "ties or draws", only=TIES),
        Field("OTL", _I, 9, "overtime and shootout losses", only=HOCKEY),
        Field("Points", _I, 98, "table points (hockey 2 a win, 1 an overtime loss; soccer 3, 1, "
                                "less any deduction the league imposed)",
              only=POINTS),
        Field("Pct", _N, 0.556, "wins and half the ties over games; points over the most "
                                "possible where the level ranks by points (football's tables "
                                "have none)", only=PCT),
        Field("GB", _N, 0.0, "games behind the division leader (the league's where there are no "
                             "divisions)", only=GAMES_BACK),
        Field("PointsBack", _I, 0, "table points behind the division leader (the league's where "
                                   "there are no divisions)", only=POINTS_BACK),
        Field("Home", _S, "39-42", "home record, W-L (W-L-T with ties or overtime losses; "
                                   "football W-D-L)"),
        Field("Away", _S, "51-30", "away record"),
        Field("Last10", _S, "6-4", "record in the last 10 games", only=LAST10),
        Field("Form", _S, "WWDLW", f"the last {FORM_GAMES} results, W, D or L, oldest first: the "
                                   "newest is the right end (football)", only=FORM),
        Field("Streak", _S, "W2", "current streak: W, L or T (football D) and its length"),
        Field("GF", _I, 94, "goals scored", only=GOALS),
        Field("GA", _I, 33, "goals conceded", only=GOALS),
        Field("RunDiff", _I, 197, "runs scored minus runs allowed", only=RUNS),
        Field("PointDiff", _I, 45, "points scored minus allowed", only=POINTS_DIFF),
        Field("GoalDiff", _I, 61, "goals scored minus conceded", only=GOALS_DIFF),
        Field("DivRank", _I, 1, "rank in the division (ties by the league's tiebreakers)"),
        Field("LeagueRank", _I, 3, "rank in the league or conference"),
        Field("Remaining", _I, 0, "regular-season games left after the day"),
        Field("Clinched", _S, "Division", "Division, Bye, Wild Card, Playoff, Play-In or Title "
                                          "when certain (never projected; Bye and Wild Card "
                                          "once the league is finished); null otherwise"),
    ),
    params=params("season", "date", "sublevel"), season_default=True, paginated=False,
    custom=_answer,
)
