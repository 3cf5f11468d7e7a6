"""Men's internationals since 1872 and both World Cups: source ``internationals``.

``python -m server ingest internationals PATH [PATH ...]`` loads, by file name:

* ``results.csv``: every match (day, teams, score after extra time, tournament, city, country,
  neutral); ``goalscorers.csv``: its goals (scorer, minute, own goal, penalty) where known;
  ``shootouts.csv``: who won a shoot-out; ``former_names.csv``: a nation's earlier names;
* ``<year>/worldcup.json``: a World Cup's matches with rounds, half-time, extra-time and
  penalty scores and goals by minute; ``worldcup.squads.json``: its squads.

One nation, one ID: every spelling goes through the alias table
(``server.catalog.football.internationals``); a team season carries the name the nation used
that year (a former name where ``former_names.csv`` dates one). A World Cup match is one game:
its results row, cross-checked with the World Cup file (same day, same nations, same score, an
error otherwise), whose rounds and goals are preferred. The season is the calendar year; the
sublevel is the tournament's competition; a World Cup's group matches are ``regular`` and its
knock-out rounds ``postseason``; elsewhere the files give no round, so a match decided by a
shoot-out is ``postseason`` and every other ``regular``. A shoot-out decides ``Winner_ID`` and
makes the ``Overtime`` ``PSO``. Goals become scoring plays where a match's known goals add up
to its score (the scorer a player of his nation, an own goal's scorer one of the other side).
"""
from __future__ import annotations

import argparse
import csv
import datetime as dt
import json
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from server.catalog import phases
from server.catalog.football.internationals import (NATIONAL_SOURCE, Competition, Nation,
                                                    competition_of, nation_of)
from server.errors import UserError
from server.ingest.football import command
from server.ingest.datafiles import DataFiles, Ingest
from server.ingest.football.seasons import widen as widen_seasons
from server.store import schema
from server.store.loader import Loader, loading

SOURCE = NATIONAL_SOURCE
LEVEL = "FC"
FILE_NAME = re.compile(r"results\.csv|goalscorers\.csv|shootouts\.csv|former_names\.csv|"
                       r"worldcup(\.squads)?\.json", re.IGNORECASE)
WORLD_CUP = "FIFA World Cup"
GROUP_ROUND = re.compile(r"Matchday \d+")
MINUTE = re.compile(r"(?P<base>\d+)(?:\+(?P<added>\d+))?")


@dataclass(frozen=True)
class Goal:
    nation: Nation  # the side the goal counts for
    scorer: str
    minute: int | None  # the match minute (45 for 45+2)
    added: int | None = None  # stoppage minutes (2 for 45+2)
    own_goal: bool = False
    penalty: bool = False

    @property
    def clock(self) -> str | None:
        if self.minute is None:
            return None
        return f"{self.minute}+{self.added}'" if self.added else f"{self.minute}'"

    @property
    def period(self) -> int:
        """1 and 2 the halves, 3 and 4 extra time's; a goal without a minute counts in the
        second half."""
        m = self.minute
        return 2 if m is None else 1 if m <= 45 else 2 if m <= 90 else 3 if m <= 105 else 4


@dataclass
class Match:
    day: dt.date
    home: Nation
    visitor: Nation
    score: tuple[int, int]  # after extra time, without the shoot-out
    tournament: str
    city: str
    country: str
    neutral: bool
    number: int = 1  # 2 for the second match of the same nations on the same day
    round: str | None = None
    ht: tuple[int, int] | None = None
    ft: tuple[int, int] | None = None
    et: tuple[int, int] | None = None
    pens: tuple[int, int] | None = None
    shootout_winner: Nation | None = None
    goals: list[Goal] = field(default_factory=list)
    goals_from: str | None = None  # "worldcup" | "goalscorers"

    @property
    def competition(self) -> Competition:
        return competition_of(self.tournament)

    @property
    def key(self) -> str:
        base = f"{LEVEL}:intl:{self.day.isoformat()}:{self.home.key}:{self.visitor.key}"
        return base if self.number == 1 else f"{base}:{self.number}"

    @property
    def phase(self) -> str:
        if self.round is not None:
            return phases.REGULAR if GROUP_ROUND.fullmatch(self.round) else phases.POSTSEASON
        return phases.REGULAR if self.shootout_winner is None else phases.POSTSEASON


@dataclass(frozen=True)
class FormerName:
    nation: Nation
    name: str
    start: dt.date
    end: dt.date


@dataclass(frozen=True)
class SquadPlayer:
    nation: Nation
    name: str
    number: int | None
    position: str | None
    born: dt.date | None


@dataclass
class Internationals:
    matches: list[Match]
    former: list[FormerName]
    squads: dict[int, list[SquadPlayer]]  # year -> players
    partial_goals: int = 0  # matches with some goals known but fewer than the score


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def _day(text: str) -> dt.date:
    return dt.date.fromisoformat(text.strip())


def _true(text: str) -> bool:
    return text.strip().upper() == "TRUE"


def read_results(path: Path) -> list[Match]:
    out: list[Match] = []
    seen: Counter[tuple[dt.date, str, str]] = Counter()
    for r in _rows(path):
        day, home, vis = _day(r["date"]), nation_of(r["home_team"]), nation_of(r["away_team"])
        seen[(day, home.key, vis.key)] += 1
        out.append(Match(day, home, vis, (int(r["home_score"]), int(r["away_score"])),
                         r["tournament"], r["city"], r["country"], _true(r["neutral"]),
                         number=seen[(day, home.key, vis.key)]))
    return out


def _minute(text: object, offset: object = None) -> tuple[int | None, int | None]:
    m = MINUTE.fullmatch(str(text).strip())
    if m is None:
        return None, None
    added = int(m.group("added")) if m.group("added") else None
    if isinstance(offset, int) and offset:
        added = offset
    return int(m.group("base")), added


def read_goals(path: Path) -> dict[tuple[dt.date, str, str], list[Goal]]:
    """Goals by (day, home key, away key), in the file's order."""
    out: dict[tuple[dt.date, str, str], list[Goal]] = defaultdict(list)
    for r in _rows(path):
        minute, added = _minute(r["minute"])
        out[(_day(r["date"]), nation_of(r["home_team"]).key, nation_of(r["away_team"]).key)] \
            .append(Goal(nation_of(r["team"]), r["scorer"].strip(), minute, added,
                         _true(r["own_goal"]), _true(r["penalty"])))
    return out


def read_shootouts(path: Path) -> dict[tuple[dt.date, str, str], Nation]:
    return {(_day(r["date"]), nation_of(r["home_team"]).key, nation_of(r["away_team"]).key):
            nation_of(r["winner"]) for r in _rows(path)}


def read_former_names(path: Path) -> list[FormerName]:
    return [FormerName(nation_of(r["current"]), r["former"].strip(), _day(r["start_date"]),
                       _day(r["end_date"])) for r in _rows(path)]


def _pair(value: Any) -> tuple[int, int] | None:
    if isinstance(value, list) and len(value) == 2 and all(isinstance(x, int) for x in value):
        return (value[0], value[1])
    return None


@dataclass(frozen=True)
class CupMatch:
    """A World Cup file's match, in its own orientation (team1, team2)."""
    day: dt.date
    team1: Nation
    team2: Nation
    round: str
    ht: tuple[int, int] | None
    ft: tuple[int, int] | None
    et: tuple[int, int] | None
    pens: tuple[int, int] | None
    goals: tuple[Goal, ...]


def read_world_cup(path: Path) -> list[CupMatch]:
    with path.open(encoding="utf-8") as fh:
        data = json.load(fh)
    out = []
    for m in data.get("matches", []):
        t1, t2 = nation_of(m["team1"]), nation_of(m["team2"])
        score = m.get("score") or {}
        goals: list[Goal] = []
        for side, other, key in ((t1, t2, "goals1"), (t2, t1, "goals2")):
            for g in m.get(key) or []:
                minute, added = _minute(g.get("minute"), g.get("offset"))
                goals.append(Goal(side, str(g["name"]).strip(), minute, added,
                                  bool(g.get("owngoal")), bool(g.get("penalty"))))
        goals.sort(key=lambda g: (g.minute if g.minute is not None else 999, g.added or 0))
        out.append(CupMatch(_day(m["date"]), t1, t2, str(m.get("round") or ""),
                            _pair(score.get("ht")), _pair(score.get("ft")),
                            _pair(score.get("et")), _pair(score.get("p")), tuple(goals)))
    return out


def read_squads(path: Path) -> list[SquadPlayer]:
    with path.open(encoding="utf-8") as fh:
        data = json.load(fh)
    out = []
    for team in data:
        nation = nation_of(team["name"])
        for p in team.get("players", []):
            born = p.get("date_of_birth")
            out.append(SquadPlayer(nation, str(p["name"]).strip(),
                                   p.get("number") if isinstance(p.get("number"), int) else None,
                                   p.get("pos"), _day(born) if born else None))
    return out


def _flip(pair: tuple[int, int] | None) -> tuple[int, int] | None:
    return None if pair is None else (pair[1], pair[0])


def _join_world_cup(matches: list[Match], cup: list[CupMatch], path: Path) -> None:
    """Give each World Cup match of the results its round, scores and goals from the World Cup
    file: one game, matched by day (or the day after or before: kick-off time zones) and the
    two nations; a match the results lack, or a different score, is an error."""
    index = {(m.day, frozenset((m.home.key, m.visitor.key))): m for m in matches
             if m.tournament == WORLD_CUP}
    for c in cup:
        pair = frozenset((c.team1.key, c.team2.key))
        found = next((index[(c.day + dt.timedelta(days=d), pair)] for d in (0, -1, 1)
                      if (c.day + dt.timedelta(days=d), pair) in index), None)
        if found is None:
            raise UserError(f"{path}: {c.day} {c.team1.name} v {c.team2.name} is not a "
                            f"{WORLD_CUP} match of the results file")
        same = found.home.key == c.team1.key
        ht, ft, et, pens = (x if same else _flip(x) for x in (c.ht, c.ft, c.et, c.pens))
        final = et or ft
        if final != found.score:
            raise UserError(f"{path}: {c.day} {c.team1.name} v {c.team2.name} is {final} "
                            f"here but {found.score} in the results file")
        if pens is not None and found.shootout_winner is not None and (
                (pens[0] > pens[1]) != (found.shootout_winner.key == found.home.key)):
            raise UserError(f"{path}: {c.day} shoot-out winner differs from shootouts.csv")
        found.round, found.ht, found.ft, found.et, found.pens = c.round, ht, ft, et, pens
        if pens is not None and found.shootout_winner is None:
            found.shootout_winner = found.home if pens[0] > pens[1] else found.visitor
        found.goals, found.goals_from = list(c.goals), "worldcup"


def _goals_add_up(m: Match, goals: Sequence[Goal]) -> bool:
    home = sum(g.nation.key == m.home.key for g in goals)
    return (home, len(goals) - home) == m.score


def read_files(paths: Sequence[Path]) -> Internationals:
    """Every match of the files, with its shoot-out, goals and World Cup round."""
    by_name: dict[str, list[Path]] = defaultdict(list)
    for p in paths:
        if FILE_NAME.fullmatch(p.name) is None:
            raise UserError(f"not an internationals file: {p}")
        by_name[p.name.lower()].append(p)
    if len(by_name.get("results.csv", [])) != 1:
        raise UserError("ingest internationals needs exactly one results.csv")
    matches = read_results(by_name["results.csv"][0])
    keyed = {(m.day, m.home.key, m.visitor.key): m for m in matches if m.number == 1}
    for p in by_name.get("shootouts.csv", []):
        for k, winner in read_shootouts(p).items():
            if k in keyed:  # one shoot-out names a match the results leave out
                keyed[k].shootout_winner = winner
    for p in sorted(by_name.get("worldcup.json", [])):
        _join_world_cup(matches, read_world_cup(p), p)
    partial = 0
    for p in by_name.get("goalscorers.csv", []):
        for k, goals in read_goals(p).items():
            m = keyed.get(k)
            if m is None or m.goals_from == "worldcup":
                continue
            if _goals_add_up(m, goals):
                m.goals, m.goals_from = goals, "goalscorers"
            else:
                partial += 1
    former = [f for p in by_name.get("former_names.csv", []) for f in read_former_names(p)]
    squads: dict[int, list[SquadPlayer]] = {}
    for p in by_name.get("worldcup.squads.json", []):
        year = int(p.parent.name) if p.parent.name.isdigit() else None
        if year is None:
            raise UserError(f"{p}: a squads file sits in its World Cup's year folder")
        squads[year] = read_squads(p)
    return Internationals(matches, former, squads, partial)


def name_on(nation: Nation, day: dt.date, former: Iterable[FormerName]) -> str:
    """The name a nation played under on a day."""
    return next((f.name for f in former if f.nation == nation and f.start <= day <= f.end),
                nation.name)


def _result(m: Match, home: int, vis: int) -> tuple[int | None, str | None]:
    """(winner ID, overtime): extra time ``ET``; a shoot-out decides a drawn match, ``PSO``."""
    if m.shootout_winner is not None and m.score[0] == m.score[1]:
        return (home if m.shootout_winner.key == m.home.key else vis), "PSO"
    overtime = "ET" if m.et is not None else None
    if m.score[0] == m.score[1]:
        return None, overtime
    return (home if m.score[0] > m.score[1] else vis), overtime


def _player_key(nation: Nation, name: str) -> str:
    return f"{LEVEL}:{nation.key}:{name}"


def _split(name: str) -> tuple[str | None, str]:
    first, _, last = name.rpartition(" ")
    return (first or None), last


def ingest(engine: sa.Engine, paths: Sequence[Path]) -> int:
    """Load the matches of the files; returns their number."""
    data = read_files(paths)
    matches, former = data.matches, data.former
    with loading(engine, SOURCE) as loader:
        nations = sorted({n for m in matches for n in (m.home, m.visitor)}, key=lambda n: n.key)
        team_ids = dict(zip([n.key for n in nations],
                            loader.ids("team", [f"{LEVEL}:nation:{n.key}" for n in nations])))
        comps = sorted({m.competition for m in matches}, key=lambda c: c.code)
        sub_ids = dict(zip([c.code for c in comps],
                           loader.ids("sublevel", [f"{LEVEL}:intl.{c.code}" for c in comps])))
        loader.put(schema.sublevels, [
            {"id": sub_ids[c.code], "level": LEVEL, "name": c.name, "abbrev": c.abbrev,
             "type": "League", "parent_id": None, "league_type": "International",
             "nation": c.scope, "gender": "M", "factor": None} for c in comps])
        loader.put(schema.teams, [
            {"id": team_ids[n.key], "level": LEVEL, "name": n.name, "abbrev": None,
             "city": None, "nickname": None, "sublevel_id": None, "venue_id": None,
             "nation": None, "source": SOURCE} for n in nations])
        _team_seasons(loader, matches, former, team_ids)
        ids = loader.ids("game", [m.key for m in matches])
        rows = []
        for m, gid in zip(matches, ids, strict=True):
            home, vis = team_ids[m.home.key], team_ids[m.visitor.key]
            winner, overtime = _result(m, home, vis)
            info = {k: v for k, v in (
                ("tournament", m.tournament), ("round", m.round), ("city", m.city),
                ("country", m.country), ("ht", m.ht), ("ft", m.ft), ("et", m.et),
                ("pens", m.pens), ("home_name", name_on(m.home, m.day, former)),
                ("visitor_name", name_on(m.visitor, m.day, former)),
                ("shootout_winner", None if m.shootout_winner is None else
                 m.shootout_winner.name)) if v is not None}
            status = "Final (pens)" if overtime == "PSO" else \
                "Final (ET)" if overtime == "ET" else "Final"
            rows.append({
                "id": gid, "level": LEVEL, "season": m.day.year,
                "sublevel_id": sub_ids[m.competition.code], "game_day": m.day,
                "game_no": m.number, "start_time": None, "visitor_id": vis, "home_id": home,
                "score_vis": m.score[1], "score_home": m.score[0], "state": "final",
                "game_status": status, "overtime": overtime, "periods": None,
                "winner_id": winner,
                "loser_id": None if winner is None else (vis if winner == home else home),
                "venue_id": None, "neutral": m.neutral,
                "playoff": None if m.phase == phases.REGULAR else (m.round or "Knock-out"),
                "phase": m.phase, "attendance": None, "duration": None, "line_score": None,
                "info": info, "source": SOURCE})
        loader.put(schema.games, rows)
        _players_and_plays(loader, data, dict(zip([m.key for m in matches], ids)), team_ids)
        widen_seasons(loader.conn, ((m.day.year, m.day) for m in matches), SOURCE,
                      names_league_season=False)
    return len(matches)


def _team_seasons(loader: Loader, matches: Sequence[Match], former: Sequence[FormerName],
                  team_ids: dict[str, int]) -> None:
    """Each nation's calendar year: its record and, when it played under another name, that
    name (the name most of that year's matches were played under)."""
    names: dict[tuple[str, int], Counter[str]] = defaultdict(Counter)
    record: dict[tuple[str, int], list[int]] = defaultdict(lambda: [0, 0, 0])
    current: dict[str, str] = {}
    for m in matches:
        for nation, mine, theirs in ((m.home, m.score[0], m.score[1]),
                                     (m.visitor, m.score[1], m.score[0])):
            key = (nation.key, m.day.year)
            names[key][name_on(nation, m.day, former)] += 1
            record[key][0 if mine > theirs else 1 if mine < theirs else 2] += 1
            current[nation.key] = nation.name
    rows = []
    for (nation_key, year), counts in sorted(names.items()):
        name = counts.most_common(1)[0][0]
        w, lo, d = record[(nation_key, year)]
        rows.append({"team_id": team_ids[nation_key], "level": LEVEL, "season": year,
                     "sublevel_id": None,
                     "name": None if name == current[nation_key] else name,
                     "wins": w, "losses": lo, "ties": d})
    loader.put(schema.team_seasons, rows)


def _players_and_plays(loader: Loader, data: Internationals, game_ids: dict[str, int],
                       team_ids: dict[str, int]) -> None:
    """Scorers and squad players (one player per nation and name), each goal a scoring play,
    and a player season for every year a player scored or was in a squad."""
    people: dict[str, tuple[Nation, str]] = {}
    seasons: dict[tuple[str, int], dict[str, Any]] = {}
    bio: dict[str, SquadPlayer] = {}
    for year, squad in data.squads.items():
        for p in squad:
            k = _player_key(p.nation, p.name)
            people[k], bio[k] = (p.nation, p.name), p
            seasons[(k, year)] = {"team": p.nation.key, "position": p.position,
                                  "jersey": None if p.number is None else str(p.number)}
    scored = [m for m in data.matches if m.goals]
    for m in scored:
        for g in m.goals:
            side = g.nation if not g.own_goal else (
                m.visitor if g.nation.key == m.home.key else m.home)
            k = _player_key(side, g.scorer)
            people.setdefault(k, (side, g.scorer))
            seasons.setdefault((k, m.day.year), {"team": side.key, "position": None,
                                                  "jersey": None})
    keys = sorted(people)
    pids = dict(zip(keys, loader.ids("player", keys)))
    rows = []
    for k in keys:
        nation, name = people[k]
        first, last = _split(name)
        sp = bio.get(k)
        rows.append({"id": pids[k], "name": name, "first_name": first, "last_name": last,
                     "birth_date": sp.born if sp else None, "nation": nation.name,
                     "position": sp.position if sp else None, "source": SOURCE})
    loader.put(schema.players, rows)
    loader.put(schema.player_seasons, [
        {"player_id": pids[k], "level": LEVEL, "season": year, "team_id": team_ids[s["team"]],
         "position": s["position"], "jersey": s["jersey"]}
        for (k, year), s in sorted(seasons.items())])
    plays = []
    for m in scored:
        gid = game_ids[m.key]
        home, vis = team_ids[m.home.key], team_ids[m.visitor.key]
        score = [0, 0]
        for seq, g in enumerate(m.goals, start=1):
            for_home = g.nation.key == m.home.key
            score[0 if for_home else 1] += 1
            side = g.nation if not g.own_goal else (m.visitor if for_home else m.home)
            text = f"Goal! {g.scorer} ({side.name})" + (", own goal" if g.own_goal else "") \
                + (", penalty" if g.penalty else "")
            plays.append({
                "id": gid * 1000 + seq, "level": LEVEL, "game_id": gid, "seq": seq,
                "period": g.period, "half": None, "clock": g.clock,
                "team_id": home if for_home else vis, "opponent_id": vis if for_home else home,
                "player_id": pids[_player_key(side, g.scorer)], "pitcher_id": None,
                "event": "own_goal" if g.own_goal else "goal", "explanation": text,
                "scoring": True, "points": 1,
                "tags": "|".join(["goal", *(["penalty"] if g.penalty else []),
                                  *(["own_goal"] if g.own_goal else [])]),
                "score_vis": score[1], "score_home": score[0]})
    loader.replace_children(schema.plays, "game_id", [game_ids[m.key] for m in scored], plays)


def cli(args: argparse.Namespace, engine_factory: Callable[[], sa.Engine]) -> int:
    return command.run(args, engine_factory, ingest, SOURCE, LEVEL)


def _commands(paths: Sequence[Path]) -> list[Ingest]:
    """One command for the results and everything joined to them; none without results."""
    if not any(p.name.lower() == "results.csv" for p in paths):
        return []
    return [Ingest(f"men's internationals and World Cups ({len(paths)} files)",
                   ("ingest", SOURCE, *map(str, sorted(paths))), levels=(LEVEL,))]


DATA_FILES = DataFiles(SOURCE, FILE_NAME, _commands)
