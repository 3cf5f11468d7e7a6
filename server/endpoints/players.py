"""players: a level's players with their current team; with id the seasons played, and with id
and season that season's games, stats with rankings, and insight sentences."""
from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from server.catalog import figures, phases
from server.catalog.names import SUFFIXES, fold
from server.catalog.statcodes import metric_codes
from server.endpoints.base import ParsedRequest, Endpoint, Field, Param, Record
from server.endpoints.common import LEAGUE_LEVELS, params
from server.endpoints.seasonnames import season_team
from server.store import schema as s
from server.store.folding import folded

PL = s.players
PS = s.player_seasons
# Teams are named as in the season of the record: the latest season's team, each season's,
# each game's opponent (the Boston Braves of Ruth's 1935, not the Atlanta Braves).
LATEST_TEAM = season_team("pteam")
TM, TS = LATEST_TEAM.team, LATEST_TEAM.season
SEASON_TEAM = season_team("pseason_team")
OPPONENT = season_team("popp")
LG = s.sublevels.alias("plg")
PITCHED = ("BF", "OUTS")  # a game line with either pitched in the game


def _base(ask: ParsedRequest) -> sa.Select[Any]:
    """Players walked in name order (``ix_players_name_order``), each kept when he has a season
    at the level, his first and last season looked up by his key: the first page reads about a
    hundred players, not every season of the level. Before, the careers of every MLB player
    (113,722 seasons) were grouped for each page and again for its count: the plain list of
    ``players/MLB`` took 648 ms uncached on the real store, 160 ms of it the page and 228 the
    count; now 1 ms and 20-30 ms (``sqlite3 .timer``, statement by statement)."""
    mine = sa.and_(PS.c.player_id == PL.c.id, PS.c.level == ask.code)
    first = sa.select(sa.func.min(PS.c.season)).where(mine).scalar_subquery()
    last = sa.select(sa.func.max(PS.c.season)).where(mine).scalar_subquery()
    latest = PS.alias("latest")  # the team of his last season (the highest id, as before)
    team = (sa.select(latest.c.team_id)
            .where(latest.c.player_id == PL.c.id, latest.c.level == ask.code)
            .order_by(latest.c.season.desc(), latest.c.team_id.desc()).limit(1)
            .scalar_subquery())
    games = sa.func.coalesce(TS.c.wins, 0) + sa.func.coalesce(TS.c.losses, 0) + \
        sa.func.coalesce(TS.c.ties, 0)
    return (sa.select(
        PL.c.id.label("ID"), PL.c.name.label("Name"), first.label("CareerStart"),
        last.label("CareerEnd"), PL.c.height.label("Height"),
        PL.c.weight.label("Weight"), PL.c.birth_date.label("DateOfBirth"),
        PL.c.hometown.label("Hometown"), PL.c.nation.label("Nation"), PL.c.flag.label("Flag"),
        LATEST_TEAM.name.label("Team"), TM.c.id.label("Team_ID"),
        LATEST_TEAM.abbrev.label("TeamAbbrev"),
        sa.cast(games, sa.String).label("TeamGames"), PL.c.updated.label("LastUpdated"),
        PL.c.position.label("Position"), PL.c.bats.label("Bats"), PL.c.throws.label("Throws"),
        LG.c.abbrev.label("League"), LG.c.name.label("LeagueName"),
        LG.c.league_type.label("LeagueType"), LG.c.nation.label("LeagueNation"),
        LG.c.gender.label("LeagueGender"), LG.c.factor.label("LeagueFactor"))
        .select_from(PL.outerjoin(TM, TM.c.id == team)
                     .outerjoin(TS, sa.and_(TS.c.team_id == TM.c.id, TS.c.season == last))
                     .outerjoin(LG, LG.c.id == TM.c.sublevel_id))
        .where(sa.select(sa.literal(1)).where(mine).exists())  # read from the key alone
        .order_by(PL.c.name, PL.c.id))


# Beyond the spec, whose search ignores 4 letters or fewer: a full name or a surname of any
# length, so that Ruth and Ott can be found.
NAME = Param("name", "string", "a full name or a last name, any case, any length", "Ruth")


# What name and search compare: no case, no accents. Ingests keep search_name; a row written
# otherwise is folded on the fly (coalesce reads the second only where the first is empty).
FOLDED_NAME = sa.func.coalesce(PL.c.search_name, folded(PL.c.name))


def _named(value: Any, ask: ParsedRequest) -> sa.ColumnElement[bool]:
    """The whole name or its surname, each with or without a suffix (``Griffey`` and ``Ken
    Griffey`` find Ken Griffey Sr. and Ken Griffey Jr.; ``Ken Griffey Jr.`` only the son);
    ``acuna`` finds Acuña. A name written in another script ends with its Latin form in
    parentheses ("김하성 (Ha-seong Kim)"), whose whole and last word count alike (``Kim``)."""
    text = fold(str(value))
    names = [text] + [f"{text} {fold(suffix)}" for suffix in SUFFIXES]
    return sa.or_(*(FOLDED_NAME == name for name in names),
                  *(FOLDED_NAME.endswith(" " + name, autoescape=True) for name in names),
                  FOLDED_NAME.endswith(f"({text})", autoescape=True),
                  FOLDED_NAME.endswith(f" {text})", autoescape=True))


def _url(conn: sa.Connection, ask: ParsedRequest, found: list[Record]) -> None:
    for r in found:
        r["URL"] = f"{ask.base_url}/v1/players/{ask.code}/?id={r['ID']}"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _season_lines(conn: sa.Connection, pid: int, level: str
                  ) -> dict[tuple[int, int], dict[str, Any]]:
    """Per (season, team): regular-season games, the games pitched in and stat totals from the
    game lines, and the postseason games apart (Retrosheet seasons have lines, Lahman's only
    season totals)."""
    lines = s.player_lines.c
    rows = conn.execute(
        sa.select(lines.season, lines.team_id, s.games.c.phase, lines.stats)
        .select_from(s.player_lines.join(s.games, s.games.c.id == lines.game_id))
        .where(lines.player_id == pid, lines.level == level))
    out: dict[tuple[int, int], dict[str, Any]] = {}
    for season, team, phase, stats in rows:
        entry = out.setdefault((season, team), {"Games": 0, "PitchingGames": 0, "PostseasonGames": 0,
                                                "Stats": {}})
        if phase in phases.AFTER_REGULAR:
            entry["PostseasonGames"] += 1
            continue
        if phase != phases.REGULAR:
            continue
        entry["Games"] += 1
        entry["PitchingGames"] += any((stats or {}).get(c) for c in PITCHED)
        totals = entry["Stats"]
        for code, value in (stats or {}).items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                totals[code] = totals.get(code, 0) + value
    return out


def _metrics(conn: sa.Connection, pid: int, ask: ParsedRequest
             ) -> tuple[dict[int, dict[str, float]], dict[tuple[int, int], dict[str, float]]]:
    """The regular season's metrics (``statcodes.metric_codes``: wOBA, wRC+, FIP... and RE24),
    which no game line sums to: per season, over all his teams (the stat tables); and per
    (season, team) for a season he played for several (``stint_metrics``)."""
    codes = metric_codes(ask.level.sport)
    if not codes:
        return {}, {}
    st, sm = s.stat_tables.c, s.stint_metrics.c
    season: dict[int, dict[str, float]] = {}
    for r in conn.execute(sa.select(st.season, st.code, st.value)
                          .where(st.level == ask.code, st.type == "player", st.entity_id == pid,
                                 st.phase == phases.REGULAR, st.code.in_(codes))):
        season.setdefault(r.season, {})[r.code] = r.value
    stint: dict[tuple[int, int], dict[str, float]] = {}
    for row in conn.execute(sa.select(sm.season, sm.team_id, sm.code, sm.value)
                            .where(sm.level == ask.code, sm.player_id == pid, sm.code.in_(codes))):
        stint.setdefault((row.season, row.team_id), {})[row.code] = row.value
    return ({k: {c: v[c] for c in codes if c in v} for k, v in season.items()},
            {k: {c: v[c] for c in codes if c in v} for k, v in stint.items()})


def _season_total(season: int, lines: list[dict[str, Any]], metrics: dict[str, float] | None
                  ) -> dict[str, Any]:
    """A season he played for several teams, over all of them (Baseball-Reference's "2TM"
    line): how many teams, the counts summed, and the season's metrics."""
    def summed(name: str) -> int | None:
        found = [r[name] for r in lines if isinstance(r.get(name), int)]
        return sum(found) if found else None
    stats: dict[str, Any] = {}
    for r in lines:
        for code, value in (r.get("Stats") or {}).items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                stats[code] = stats.get(code, 0) + value
    return {"Season": season, "Teams": len(lines), "Games": summed("Games"),
            "PitchingGames": summed("PitchingGames"), "PostseasonGames": summed("PostseasonGames"),
            "Stats": dict(sorted(stats.items())) or None, "Metrics": metrics}


def _detail(conn: sa.Connection, ask: ParsedRequest, found: list[Record]) -> None:
    record = found[0]
    pid = record["ID"]
    lines = s.player_lines.c
    played = _season_lines(conn, pid, ask.code)
    by_season, by_stint = _metrics(conn, pid, ask)
    seasons = []
    for r in conn.execute(
            sa.select(PS.c.season, PS.c.team_id, SEASON_TEAM.name.label("name"), PS.c.position,
                      PS.c.jersey, PS.c.stats)
            .select_from(SEASON_TEAM.join(PS, PS.c.team_id, PS.c.season))
            .where(PS.c.player_id == pid, PS.c.level == ask.code)
            .order_by(PS.c.season.desc(), PS.c.team_id)):
        from_lines = played.get((r.season, r.team_id))
        summed = dict(sorted(from_lines["Stats"].items())) if from_lines else None
        totals = r.stats or summed or None
        games = from_lines["Games"] if from_lines else (r.stats or {}).get("G")
        seasons.append({"Season": r.season, "Team_ID": r.team_id, "Team": r.name,
                        "Position": r.position, "Jersey": r.jersey, "Games": games,
                        "PitchingGames": from_lines["PitchingGames"] if from_lines else None,
                        "PostseasonGames": from_lines["PostseasonGames"] if from_lines else None,
                        "Stats": totals, "Metrics": by_stint.get((r.season, r.team_id))})
    teams: dict[int, list[dict[str, Any]]] = {}
    for line in seasons:
        teams.setdefault(line["Season"], []).append(line)
    for year, of_year in teams.items():
        if len(of_year) == 1:  # one team: its line is the season's, metrics and all
            of_year[0]["Metrics"] = by_season.get(year)
    record["totals"] = [_season_total(year, of_year, by_season.get(year))
                        for year, of_year in teams.items() if len(of_year) > 1]
    record["seasons"] = seasons
    season = ask.get("season")
    if season is None:  # games, stats and insights come only with a season (docs/api/reference.md)
        for name in ("games", "stats", "insights"):
            record.pop(name, None)
        return
    record["games"] = [
        {"ID": r.id, "Game_ID": r.game_id, "GameDay": r.game_day.isoformat(),
         "Team_ID": r.team_id, "Opponent_ID": r.opponent_id, "Opponent": r.opponent,
         "Home": "Y" if r.home else "N", "Playoff": r.playoff, "Phase": r.phase,
         "stats": r.stats}
        for r in conn.execute(
            sa.select(lines.id, lines.game_id, lines.game_day, lines.team_id, lines.opponent_id,
                      OPPONENT.name.label("opponent"), lines.home, s.games.c.playoff,
                      s.games.c.phase, lines.stats)
            .select_from(OPPONENT.join(s.player_lines, lines.opponent_id, lines.season)
                         .join(s.games, s.games.c.id == lines.game_id))
            .where(lines.player_id == pid, lines.season == season, lines.level == ask.code)
            .order_by(lines.game_day.desc(), lines.id.desc()))]
    st, gl = s.stat_tables.c, s.glossary_stats.c
    rows = conn.execute(
        sa.select(st.code, gl.name, st.value, st.rank, st.qualified_rank, st.gp, st.qualified)
        .select_from(s.stat_tables.outerjoin(s.glossary_stats, sa.and_(
            gl.code == st.code, gl.type == st.type, gl.sport == ask.level.sport)))
        .where(st.entity_id == pid, st.season == season, st.level == ask.code,
               st.type == "player", st.phase == phases.REGULAR).order_by(st.code)).all()
    record["stats"] = [{"Stat": r.code, "Name": r.name, "Value": r.value, "Rank": r.rank,
                        "QualifiedRank": r.qualified_rank, "GP": r.gp,
                        "Qualified": "Y" if r.qualified else "N"} for r in rows]
    top = sorted((r for r in rows if r.rank <= 10 and r.value), key=lambda r: r.rank)
    insights = [f"Ranks {_ordinal(r.rank)} in {r.name or r.code} among {ask.code} players in "
                f"{season} ({figures.text(r.code, r.value)})." for r in top]  # the best first
    regular = sum(1 for g in record["games"] if g["Phase"] == phases.REGULAR)
    postseason = sum(1 for g in record["games"] if g["Phase"] in phases.AFTER_REGULAR)
    if record["games"]:  # the regular season, as the stat tables and Leaders count it
        insights.insert(0, f"Played {regular} games in {season}"
                           + (f" and {postseason} in the postseason." if postseason else "."))
    record["insights"] = insights


PLAYERS = Endpoint(
    name="players", singular="player", aliases=("player",),
    summary="players of the level with their current team; with id (and season) the detail",
    fields=(
        Field("ID", "integer", 1001, "player ID"),
        Field("Name", "string", "Aaron Judge", "full name"),
        Field("CareerStart", "integer", 2016, "first season at this level, YYYY"),
        Field("CareerEnd", "integer", 2024, "most recent season at this level, YYYY"),
        Field("Height", "string", "6-7", "feet and inches, X-XX"),
        Field("Weight", "integer", 282, "pounds"),
        Field("DateOfBirth", "date", "1992-04-26", "YYYY-MM-DD"),
        Field("Hometown", "string", "Linden, CA", "city and state of origin"),
        Field("Nation", "string", "United States", "country of origin"),
        Field("Flag", "string", "US", "ISO two-letter country code"),
        Field("URL", "string", "https://host/v1/players/MLB/?id=1001", "the player's page",
              hook=True),
        Field("Team", "string", "New York Yankees", "team of the most recent season"),
        Field("Team_ID", "integer", 11, "its ID"),
        Field("TeamAbbrev", "string", "NYY", "its abbreviation"),
        Field("TeamGames", "string", "162", "games the team has played that season"),
        Field("LastUpdated", "date", "2024-09-30", "last update of the record"),
        Field("Position", "string", "RF", "position"),
        Field("Bats", "string", "R", "baseball: L, R or S"),
        Field("Throws", "string", "R", "baseball: L or R"),
        *(Field(n, k, e, d + " (FC only)", levels=LEAGUE_LEVELS) for n, k, e, d in (
            ("League", "string", "EPL", "league abbreviation of the team"),
            ("LeagueName", "string", "Premier League", "league name"),
            ("LeagueType", "string", "Domestic", "Domestic, Cup or International"),
            ("LeagueNation", "string", "England", "country or scope"),
            ("LeagueGender", "string", "M", "M or W"),
            ("LeagueFactor", "number", 1.0, "relative strength 0-1"))),
        Field("seasons", "list", [{"Season": 2024, "Team_ID": 11, "Team": "New York Yankees",
                                   "Position": "RF", "Jersey": "99", "Games": 158,
                                   "PitchingGames": 0, "PostseasonGames": 11,
                                   "Stats": {"AB": 559, "HR": 58},
                                   "Metrics": {"wOBA": 0.458, "wRC+": 207.0}}],
              "seasons played: Season, Team_ID, Team, Position, Jersey, Games (regular "
              "season), PitchingGames (regular-season games he pitched in) and "
              "PostseasonGames (both null when no game lines), Stats (regular-season "
              "totals: the season's record, else the sum of its game lines), Metrics (the "
              "season's wOBA, wRC+, OPS+, FIP... of the stat tables; in a season with several "
              "teams each team's line has its own and the season's are in totals; null for "
              "seasons without them)", detail=True),
        Field("totals", "list", [{"Season": 1997, "Teams": 2, "Games": 156, "PitchingGames": None,
                                  "PostseasonGames": None, "Stats": {"AB": 540, "HR": 58},
                                  "Metrics": {"OPS+": 170.0}}],
              "seasons he played for several teams, over all of them (one line per team is in "
              "seasons): Season, Teams (how many), Games, PitchingGames and PostseasonGames "
              "summed, Stats (the teams' lines summed) and Metrics (the season's)", detail=True),
        Field("games", "list", [{"ID": 40101, "Game_ID": 401, "GameDay": "2024-07-04",
                                 "Team_ID": 11, "Opponent_ID": 12, "Opponent": "Boston Red Sox",
                                 "Home": "Y", "Playoff": None, "Phase": "regular",
                                 "stats": {"AB": 4, "H": 2}}],
              "with season: the season's game performances, Playoff naming the round of a "
              "postseason game (null in the regular season), Phase the game's phase",
              detail=True),
        Field("stats", "list", [{"Stat": "HR", "Name": "Home runs", "Value": 58, "Rank": 1,
                                 "QualifiedRank": 1, "GP": 158, "Qualified": "Y"}],
              "with season: season stats with rankings", detail=True),
        Field("insights", "list", ["Ranks 1st in Home runs among MLB players in 2024 (58)."],
              "with season: short sentences computed from the stats: the games played, then "
              "each top-10 rank, best first", detail=True),
    ),
    build=_base, params=(*params("id", "season", "search"), NAME), with_id_only=("season",),
    filters={"name": _named}, search=(FOLDED_NAME,), search_folded=True,
    id_filter=lambda v, a: PL.c.id == v,
    detail=_detail, enrich=_url,
)
