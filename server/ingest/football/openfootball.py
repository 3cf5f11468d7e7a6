"""League matches from openfootball's football.json files: source ``openfootball``.

``python -m server ingest openfootball PATH [PATH ...]`` loads ``<season>/<league>.json`` files
(``2022-23/en.1.json``: the season from the folder, the league from the file name, declared in
``server.catalog.football.LEAGUES``). Each match: its round, day, clubs (one ID per club across
files, through the alias table ``server.catalog.football.clubs``), full-time, half-time,
extra-time and penalty scores. Extra time is the game's ``Overtime`` (``ET``; ``PSO`` when a
shoot-out followed, whose winner is the game's); the score served is the score after extra time.
League rounds (``Matchday 12``; a split season's groups, ``Championship, Matchday 3``) are
``regular``;
everything else (play-offs, finals) is ``postseason`` with the round as its name. A match without
a score is scheduled if its day is still to come, else ``No result``. Points deductions are not
in the files: ``server.catalog.football.deductions`` declares them; a file's wrong dates are
corrected as ``server.catalog.football.corrections`` declares. A competition that declares
``two_legged`` (the European cups, the Championship's play-off semi-finals, Austria's Europa
League play-off final, Serie B's and Liga MX's play-offs) has each two-legged
tie's aggregate and the club through on its second leg (``with_ties``), which the games
endpoint serves as ``AggregateHome``, ``AggregateVis`` and ``TieWinner_ID``.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from server.catalog import phases
from server.catalog.clock import today
from server.catalog.football import BETTER_PLACED, Club, League, club_of, league_of
from server.catalog.football.corrections import corrected_day
from server.catalog.football.cups import AWAY_GOALS_LAST, FINAL
from server.errors import UserError
from server.ingest.football import command
from server.ingest.datafiles import DataFiles, Ingest
from server.ingest.football.seasons import widen as widen_seasons
from server.store import schema
from server.store.loader import Loader, loading

SOURCE = "openfootball"
LEVEL = "FC"
SEASON_FOLDER = re.compile(r"(?P<first>\d{4})-(?P<end>\d{2})")
FILE_NAME = re.compile(r"(?P<league>[a-z]{2,3}\.\d)\.json", re.IGNORECASE)
# league rounds: every other round (play-offs, finals) is postseason
# (a split season's groups are league rounds: Austria's "Playoffs - Championship, Matchday 31",
# Greece's "ECL Playoffs, Matchday 2"; Belgium's "ECL Playoff, Final" is one match, a play-off)
LEAGUE_ROUND = re.compile(r"(?:(?:Regular|Apertura|Clausura|Championship|Relegation|Europe|"
                          r"ECL Playoffs|"
                          r"Playoffs - Championship|Playoffs - Relegation), )?"
                          r"(?:Matchday \d+|\d+\. Round)")


@dataclass(frozen=True)
class Match:
    league: League
    season: int  # the year the season ends
    day: dt.date
    time: str | None
    home: Club
    visitor: Club
    round: str
    ft: tuple[int, int] | None
    ht: tuple[int, int] | None = None
    et: tuple[int, int] | None = None
    pens: tuple[int, int] | None = None
    status: str | None = None
    stage_phase: str | None = None  # a cup's stage gives its phase (else the round decides)
    neutral: bool = False  # a cup final, at a ground chosen beforehand

    @property
    def key(self) -> str:
        return (f"{LEVEL}:{self.league.code}:{self.season}:{self.day.isoformat()}:"
                f"{self.home.key}:{self.visitor.key}")

    @property
    def phase(self) -> str:
        if self.stage_phase is not None:
            return self.stage_phase
        return phases.REGULAR if LEAGUE_ROUND.fullmatch(self.round) else phases.POSTSEASON

    @property
    def score(self) -> tuple[int, int] | None:
        """The score after extra time where there was some, else the full-time score."""
        return self.et or self.ft


def season_of(folder: str) -> int:
    """``2022-23`` -> 2023 (the year the season ends)."""
    m = SEASON_FOLDER.fullmatch(folder)
    if m is None:
        raise UserError(f"folder {folder!r} is not a season (YYYY-YY)")
    return int(m.group("first")) + 1


def _pair(value: Any) -> tuple[int, int] | None:
    if isinstance(value, list) and len(value) == 2 and all(isinstance(x, int) for x in value):
        return (value[0], value[1])
    return None


def parse(data: dict[str, Any], league: League, season: int) -> list[Match]:
    """The matches of one file's JSON."""
    out = []
    for m in data.get("matches", []):
        score = m.get("score") or {}
        stage, rnd = m.get("stage"), m.get("round")
        label = ", ".join(x for x in (stage, rnd) if x) or "Matchday"
        day = corrected_day(league.code, season, dt.date.fromisoformat(m["date"]))
        out.append(Match(league, season, day, m.get("time"),
                         club_of(m["team1"]), club_of(m["team2"]), label,
                         _pair(score.get("ft")), _pair(score.get("ht")), _pair(score.get("et")),
                         _pair(score.get("p")), m.get("status")))
    return out


def read_file(path: Path) -> list[Match]:
    m = FILE_NAME.fullmatch(path.name)
    if m is None or not path.is_file():
        raise UserError(f"not an openfootball league file: {path}")
    with path.open(encoding="utf-8") as fh:
        data = json.load(fh)
    return parse(data, league_of(m.group("league")), season_of(path.parent.name))


def read_files(paths: Sequence[Path]) -> list[Match]:
    """Every match of the files, each once by (league, season, day, clubs): a scored copy wins."""
    merged: dict[str, Match] = {}
    for path in paths:
        for match in read_file(path):
            kept = merged.get(match.key)
            if kept is None or kept.ft is None:
                merged[match.key] = match
    return neutral_finals(list(merged.values()))


def neutral_finals(matches: list[Match]) -> list[Match]:
    """``matches`` with each play-off final on neutral ground where the league declares one
    (``League.neutral_final``): the season's last play-off match between two clubs that meet
    once in the play-offs (the semi-finals are two legs; the files call every round
    "Playoffs")."""
    finals: dict[tuple[str, int], Match] = {}
    meetings: dict[tuple[str, int], dict[frozenset[str], int]] = defaultdict(lambda: defaultdict(int))
    for m in matches:
        if m.league.neutral_final and m.phase == phases.POSTSEASON:
            season = (m.league.code, m.season)
            meetings[season][frozenset((m.home.key, m.visitor.key))] += 1
            if season not in finals or m.day > finals[season].day:
                finals[season] = m
    last = {id(m) for season, m in finals.items()
            if meetings[season][frozenset((m.home.key, m.visitor.key))] == 1}
    return [replace(m, neutral=True) if id(m) in last else m for m in matches]


def _result(m: Match, home: int, vis: int) -> tuple[int | None, str | None]:
    """(winner ID, overtime) of a played match: a shoot-out decides a drawn knock-out match."""
    score = m.score
    assert score is not None
    overtime = None if m.et is None else ("PSO" if m.pens else "ET")
    if score[0] != score[1]:
        return (home if score[0] > score[1] else vis), overtime
    if m.pens is not None and m.pens[0] != m.pens[1]:
        return (home if m.pens[0] > m.pens[1] else vis), "PSO"
    return None, overtime


def put_leagues(loader: Loader, leagues: Iterable[League]) -> dict[str, int]:
    """The competitions' sublevel rows; their IDs by code. ``factor`` is left alone: the cups'
    results set it (``server.models.league_strength``)."""
    leagues = sorted(set(leagues), key=lambda lg: lg.code)
    league_ids = dict(zip([lg.code for lg in leagues],
                          loader.ids("sublevel", [f"{LEVEL}:{lg.code}" for lg in leagues])))
    loader.put(schema.sublevels, [
        {"id": league_ids[lg.code], "level": LEVEL, "name": lg.name, "abbrev": lg.abbrev,
         "type": "League", "parent_id": None, "league_type": lg.type, "nation": lg.nation,
         "gender": lg.gender} for lg in leagues])
    return league_ids


def club_ids(loader: Loader, clubs: Iterable[Club]) -> dict[str, int]:
    """Each club's team ID by its key: one ID per club, whichever file names it."""
    keys = sorted({c.key for c in clubs})
    return dict(zip(keys, loader.ids("team", [f"{LEVEL}:{k}" for k in keys], SOURCE)))


def game_rows(loader: Loader, matches: Sequence[Match], team_ids: dict[str, int],
              league_ids: dict[str, int]) -> list[dict[str, Any]]:
    """The games rows of the matches: results, extra time and shoot-outs, phases, and the
    state of a match without a score (to come, ``No result`` or cancelled)."""
    day_now = today()
    ids = loader.ids("game", [m.key for m in matches])
    per_day: dict[tuple[dt.date, int, int], int] = defaultdict(int)
    rows: list[dict[str, Any]] = []
    for m, gid in zip(matches, ids, strict=True):
        home, vis = team_ids[m.home.key], team_ids[m.visitor.key]
        per_day[(m.day, home, vis)] += 1
        winner = loser = overtime = None
        if m.score is not None:
            state, status = "final", "Final"
            winner, overtime = _result(m, home, vis)
            loser = None if winner is None else (vis if winner == home else home)
            if overtime:
                status = "Final (pens)" if overtime == "PSO" else "Final (ET)"
        elif m.status == "postponed":
            state, status = "postponed", "Postponed"
        else:
            state = phases.unplayed_state(m.day, day_now)
            status = ("Cancelled" if m.status == "cancelled"
                      else phases.NO_RESULT_STATUS if state == phases.NO_RESULT else "")
        info = {k: v for k, v in (("round", m.round), ("ht", m.ht), ("ft", m.ft),
                                  ("et", m.et), ("pens", m.pens), ("status", m.status))
                if v is not None}
        rows.append({
            "id": gid, "level": LEVEL, "season": m.season,
            "sublevel_id": league_ids[m.league.code], "game_day": m.day,
            "game_no": per_day[(m.day, home, vis)], "start_time": None,
            "visitor_id": vis, "home_id": home,
            "score_vis": None if m.score is None else m.score[1],
            "score_home": None if m.score is None else m.score[0],
            "state": state, "game_status": status, "overtime": overtime, "periods": None,
            "winner_id": winner, "loser_id": loser, "venue_id": None, "neutral": m.neutral,
            "playoff": None if m.phase == phases.REGULAR else m.round, "phase": m.phase,
            "attendance": None, "duration": None, "line_score": None, "info": info,
            "source": SOURCE})
    return with_ties(rows, {league_ids[m.league.code]: m.league.level_ties for m in matches
                            if m.league.two_legged})


def with_ties(rows: list[dict[str, Any]], leagues: Mapping[int, Sequence[tuple[str, str]]]
              ) -> list[dict[str, Any]]:
    """The games rows, each two-legged tie's second leg (in the competitions ``leagues``, those
    that declare ``two_legged``, with their ``level_ties`` rules) with its aggregate and the
    club through in its ``info``: the aggregate seen from that leg's home side (``agg``), the
    club (``tie_winner_id``). More goals on aggregate win; level, the competition's rule for
    the round decides: the second leg's extra time and shoot-out (its score is after extra
    time), or the club placed higher in the regular season. UEFA abolished away goals from
    2021-22, these files' first season (``AWAY_GOALS_LAST``): a level aggregate the rule cannot
    settle (no shoot-out; two clubs level on points) is an error naming the tie, never a
    guess. A round's pair of clubs met once (a final, a one-match round) is no tie; a tie with
    a leg not played has no aggregate."""
    legs: dict[tuple[Any, ...], list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        if (row["sublevel_id"] in leagues and row["phase"] == phases.POSTSEASON
                and row["playoff"] not in (None, FINAL)):
            pair = frozenset((row["home_id"], row["visitor_id"]))
            legs[(row["sublevel_id"], row["season"], row["playoff"], pair)].append(row)
    for (league, season, round_name, _), found in legs.items():
        if len(found) != 2 or any(r["state"] != "final" for r in found):
            continue
        first, second = sorted(found, key=lambda r: (r["game_day"], r["id"]))
        if first["home_id"] != second["visitor_id"]:
            raise UserError(f"{round_name} {season}: both legs at the same ground")
        home = second["score_home"] + first["score_vis"]
        vis = second["score_vis"] + first["score_home"]
        rule = next(r for end, r in leagues[league] if round_name.endswith(end))
        winner = (second["home_id"] if home > vis else second["visitor_id"] if vis > home
                  else _better_placed(rows, second, round_name) if rule == BETTER_PLACED
                  else _shootout_winner(second))
        if winner is None:
            rule = "away goals" if season <= AWAY_GOALS_LAST else "nothing"
            raise UserError(f"{round_name} {season}: the tie is level on aggregate with no "
                            f"shoot-out ({rule} decides it): game {second['id']}")
        second["info"] = {**second["info"], "agg": [home, vis], "tie_winner_id": winner}
    return rows


def _stage(round_name: str) -> str:
    """The part of a season a round belongs to: Liga MX's ``Apertura`` of ``Apertura,
    Matchday 3`` and of ``Apertura Playoffs, Final``; "" for a league of one regular season
    (``Matchday 3``; Serie B's ``Playoff, Semifinals``)."""
    head = round_name.split(",", 1)[0] if "," in round_name else ""
    if head.endswith(" Playoffs"):
        return head.removesuffix(" Playoffs")
    return "" if head in ("Playoff", "Playoffs", "Playout") else head


def _better_placed(rows: Sequence[dict[str, Any]], leg: dict[str, Any], round_name: str) -> int:
    """The club of a tie placed higher in its stage's regular season (points: 3 a win, 1 a
    draw), from the same rows; two clubs level on points is an error, never a guess (the
    leagues' next steps differ: Serie B's head-to-head, Liga MX's goal difference)."""
    stage = _stage(round_name)
    clubs = (int(leg["home_id"]), int(leg["visitor_id"]))
    points = dict.fromkeys(clubs, 0)
    for r in rows:
        if (r["sublevel_id"] == leg["sublevel_id"] and r["season"] == leg["season"]
                and r["phase"] == phases.REGULAR and r["state"] == "final"
                and _stage(str(r["info"].get("round", ""))) == stage):
            for club, mine, theirs in ((r["home_id"], r["score_home"], r["score_vis"]),
                                       (r["visitor_id"], r["score_vis"], r["score_home"])):
                if club in points:
                    points[club] += 3 if mine > theirs else 1 if mine == theirs else 0
    if points[clubs[0]] == points[clubs[1]]:
        raise UserError(f"{round_name} {leg['season']}: the tie is level on aggregate between "
                        f"clubs level on points: game {leg['id']}")
    return max(clubs, key=lambda c: points[c])


def _shootout_winner(leg: dict[str, Any]) -> int | None:
    pens = leg["info"].get("pens")
    if not pens or pens[0] == pens[1]:
        return None
    return int(leg["home_id"] if pens[0] > pens[1] else leg["visitor_id"])


def ingest(engine: sa.Engine, paths: Sequence[Path]) -> int:
    """Load the matches of the files; returns their number."""
    matches = read_files(paths)
    with loading(engine, SOURCE) as loader:
        clubs = sorted({c for m in matches for c in (m.home, m.visitor)}, key=lambda c: c.key)
        team_ids = club_ids(loader, clubs)
        league_ids = put_leagues(loader, (m.league for m in matches))
        # each club's league per season: the domestic league it played its league rounds in
        league_in: dict[tuple[str, int], str] = {}
        for m in sorted(matches, key=lambda m: (m.season, m.day)):
            if m.league.type == "Domestic" and m.phase == phases.REGULAR:
                for c in (m.home, m.visitor):
                    league_in[(c.key, m.season)] = m.league.code
        latest = {c: lg for (c, _), lg in sorted(league_in.items(), key=lambda x: x[0][1])}
        loader.put(schema.teams, [
            {"id": team_ids[c.key], "level": LEVEL, "name": c.name, "abbrev": None, "city": None,
             "nickname": None, "sublevel_id": league_ids.get(latest.get(c.key, "")),
             "venue_id": None, "nation": None, "source": SOURCE} for c in clubs])
        loader.put(schema.games, game_rows(loader, matches, team_ids, league_ids))
        record: dict[tuple[str, int], list[int]] = defaultdict(lambda: [0, 0, 0])
        for m in matches:
            if m.phase != phases.REGULAR or m.ft is None or league_in.get(
                    (m.home.key, m.season)) != m.league.code:
                continue
            h, v = m.ft
            for club, mine, theirs in ((m.home, h, v), (m.visitor, v, h)):
                record[(club.key, m.season)][0 if mine > theirs else 1 if mine < theirs else 2] += 1
        loader.put(schema.team_seasons, [
            {"team_id": team_ids[c], "level": LEVEL, "season": s,
             "sublevel_id": league_ids[lg], "name": None, "wins": record[(c, s)][0],
             "losses": record[(c, s)][1], "ties": record[(c, s)][2]}
            for (c, s), lg in sorted(league_in.items())])
        widen_seasons(loader.conn, ((m.season, m.day) for m in matches), SOURCE,
                      names_league_season=True)
    return len(matches)


def cli(args: argparse.Namespace, engine_factory: Callable[[], sa.Engine]) -> int:
    return command.run(args, engine_factory, ingest, SOURCE, LEVEL)


def _commands(paths: Sequence[Path]) -> list[Ingest]:
    """One command for every league file (loaded together: a club's latest league is its own)."""
    files = [p for p in paths if SEASON_FOLDER.fullmatch(p.parent.name)
             and FILE_NAME.fullmatch(p.name) and p.name.split(".")[0].lower() != "uefa"]
    if not files:
        return []
    return [Ingest(f"openfootball league matches ({len(files)} files)",
                   ("ingest", SOURCE, *map(str, sorted(files))), levels=(LEVEL,))]


DATA_FILES = DataFiles(SOURCE, FILE_NAME, _commands)
