"""European cup matches from openfootball's Football.TXT cup files: source ``openfootball``.

``python -m server ingest openfootball-cups PATH [PATH ...]`` loads
``<season>/<file>.txt`` files (``2022-23/cl.txt``: the season from the folder, the competition
and whether the file holds its qualifying rounds from the name, both declared in
``server.catalog.football.cups``). The text is read by ``footballtxt``, strictly; each stage's
phase and round name are declared (group stage and league phase ``regular``; knock-out rounds,
knock-out play-offs and qualifying rounds ``postseason``); clubs are the domestic files' clubs,
one ID each, through the alias table. Results, extra time, shoot-outs and the states of matches
without a score are the league files' rules (``openfootball.game_rows``); a final is played at a
neutral ground.

The cups add matches and competitions, and a team row only for a club no league file holds: a
club's league is its domestic league, never a cup.

A knock-out round played over two legs is one tie, its aggregate and the club through on its
second leg (``openfootball.with_ties``).
"""
from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Sequence
from pathlib import Path

import sqlalchemy as sa

from server.catalog.football import clubs
from server.catalog.football.cups import CUP_FILES, CUPS, FINAL, cup_club_of, stage_of
from server.errors import UserError
from server.ingest.football import command, footballtxt
from server.ingest.datafiles import DataFiles, Ingest
from server.ingest.football.seasons import widen as widen_seasons
from server.ingest.football.openfootball import (LEVEL, SEASON_FOLDER, SOURCE, Match, club_ids,
                                                 game_rows, put_leagues, season_of)
from server.models import league_strength
from server.store import schema
from server.store.loader import loading

COMMAND = "openfootball-cups"
FILE_NAME = re.compile(rf"(?P<file>{'|'.join(sorted(CUP_FILES, key=len, reverse=True))})\.txt",
                       re.IGNORECASE)


def read_file(path: Path) -> list[Match]:
    """The matches of one cup file, as ``Match`` records of their competition."""
    m = FILE_NAME.fullmatch(path.name)
    if m is None or not path.is_file():
        raise UserError(f"not an openfootball cup file (cl.txt, clq.txt, el.txt, ...): {path}")
    code, qualifying = CUP_FILES[m["file"].lower()]
    league = CUPS[code]
    season = season_of(path.parent.name)
    _, lines = footballtxt.read(path, season - 1)
    out = []
    for t in lines:
        try:
            phase, name = stage_of(t.stage, qualifying)
            home, visitor = cup_club_of(t.home), cup_club_of(t.visitor)
        except UserError as exc:
            raise UserError(f"{path} line {t.line}: {exc}") from None
        out.append(Match(league, season, t.day, t.time, home, visitor, name, t.ft, t.ht, t.et,
                         t.pens, t.status, stage_phase=phase, neutral=name == FINAL))
    return out


def ingest(engine: sa.Engine, paths: Sequence[Path]) -> int:
    """Load the cup matches of the files; returns their number."""
    matches = [m for p in paths for m in read_file(p)]
    keys = [m.key for m in matches]
    if len(set(keys)) != len(keys):
        twice = sorted({k for k in keys if keys.count(k) > 1})
        raise UserError(f"a match is listed twice: {twice[0]}")
    with loading(engine, SOURCE) as loader:
        clubs = sorted({c for m in matches for c in (m.home, m.visitor)}, key=lambda c: c.key)
        team_ids = club_ids(loader, clubs)
        league_ids = put_leagues(loader, (m.league for m in matches))
        t = schema.teams.c
        held = set(loader.conn.execute(sa.select(t.id).where(t.level == LEVEL)).scalars())
        loader.put(schema.teams, [
            {"id": team_ids[c.key], "level": LEVEL, "name": c.name, "abbrev": None, "city": None,
             "nickname": None, "sublevel_id": None, "venue_id": None, "nation": None,
             "source": SOURCE} for c in clubs if team_ids[c.key] not in held])
        loader.put(schema.games, game_rows(loader, matches, team_ids, league_ids))
        widen_seasons(loader.conn, ((m.season, m.day) for m in matches), SOURCE,
                      names_league_season=True)
        set_league_factors(loader.conn)
    return len(matches)


def set_league_factors(conn: sa.Connection) -> dict[str, float | None]:
    """Every domestic league's ``LeagueFactor`` from every cup match the store holds
    (``server.models.league_strength``): a club is its league that season (``team_seasons``),
    or its nation where we hold no league of it. Returns the factors by league name."""
    g, ts, sl, sk = (schema.games.c, schema.team_seasons.c, schema.sublevels.c,
                     schema.source_keys.c)
    cup_ids = sa.select(sl.id).where(sl.level == LEVEL, sl.league_type == "Cup")
    played = conn.execute(sa.select(g.season, g.home_id, g.visitor_id, g.score_home,
                                    g.score_vis, g.neutral)
                          .where(g.level == LEVEL, g.state == "final", g.sublevel_id.in_(cup_ids),
                                 g.score_home.is_not(None), g.score_vis.is_not(None))).all()
    domestic = {lid: name for lid, name in conn.execute(
        sa.select(sl.id, sl.name).where(sl.level == LEVEL, sl.league_type == "Domestic"))}
    league_of = {(t, s): str(lid) for t, s, lid in conn.execute(
        sa.select(ts.team_id, ts.season, ts.sublevel_id).where(ts.level == LEVEL))
        if lid in domestic}
    by_key = {c.key: c for c in clubs().values()}
    nation_of = {tid: by_key[key.split(":", 1)[1]].nation for tid, key in conn.execute(
        sa.select(sk.id, sk.key).where(sk.kind == "team", sk.source == SOURCE))
        if key.split(":", 1)[1] in by_key}

    def group(team: int, season: int) -> str:
        return league_of.get((team, season)) or f"nation:{nation_of.get(team)}"

    results = [league_strength.Result(group(h, s), group(v, s),
                                      1.0 if sh > sv else 0.5 if sh == sv else 0.0, bool(n))
               for s, h, v, sh, sv, n in played]
    found = league_strength.factors(results, [str(i) for i in sorted(domestic)])
    for lid, factor in found.items():
        conn.execute(schema.sublevels.update().where(sl.id == int(lid)).values(factor=factor))
    return {domestic[int(lid)]: factor for lid, factor in found.items()}


def cli(args: argparse.Namespace, engine_factory: Callable[[], sa.Engine]) -> int:
    return command.run(args, engine_factory, ingest, COMMAND, LEVEL)


def _commands(paths: Sequence[Path]) -> list[Ingest]:
    """One command for every cup file in a season folder."""
    files = [p for p in paths if SEASON_FOLDER.fullmatch(p.parent.name)]
    if not files:
        return []
    return [Ingest(f"openfootball European cup matches ({len(files)} files)",
                   ("ingest", COMMAND, *map(str, sorted(files))), levels=(LEVEL,))]


DATA_FILES = DataFiles(COMMAND, FILE_NAME, _commands)
