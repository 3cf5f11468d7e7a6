"""A small synthetic store for the job tests and the bench, written through the real loader.

Round-robin schedules for a few levels (one per sport family), scores drawn from team
strengths, player and team lines with a handful of counting stats, and open/close odds.
"""
from __future__ import annotations

import datetime as dt
from pathlib import Path

import numpy as np
import sqlalchemy as sa

from server.catalog.levels import find_level
from server.store import schema
from server.store.engine import make_engine
from server.store.init import init_store
from server.store.loader import loading

SPORT_MEAN = {"baseball": 4.5, "basketball": 75.0, "hockey": 3.0, "soccer": 1.4}
PLAYERS_PER_TEAM = 5


def build_store(path: Path | str, levels: tuple[str, ...] = ("MLB", "MBB"), teams: int = 8,
                seasons: tuple[int, ...] = (2023, 2024), rounds: int = 4,
                seed: int = 7) -> sa.Engine:
    """Build the store at a SQLite file path or a database URL; returns its engine."""
    engine = make_engine(path if isinstance(path, str) else f"sqlite:///{path}")
    init_store(engine)
    rng = np.random.default_rng(seed)
    with loading(engine, "synthetic") as ld:
        for code in levels:
            _level(ld, code, teams, seasons, rounds, rng)
    return engine


def _level(ld, code: str, n: int, seasons: tuple[int, ...], rounds: int,
           rng: np.random.Generator) -> None:
    sport = find_level(code).sport
    team_ids = ld.ids("team", [f"{code}-T{i}" for i in range(n)])
    ld.put(schema.teams, [{"id": t, "level": code, "name": f"{code} Team {i}", "abbrev": f"T{i}",
                           "source": "synthetic"} for i, t in enumerate(team_ids)])
    players = {t: ld.ids("player", [f"{code}-T{i}-P{k}" for k in range(PLAYERS_PER_TEAM)])
               for i, t in enumerate(team_ids)}
    ld.put(schema.players, [{"id": p, "name": f"Player {p}", "source": "synthetic"}
                            for ps in players.values() for p in ps])
    strength = dict(zip(team_ids, rng.normal(1.0, 0.15, n)))
    mean = SPORT_MEAN[sport]
    games, plines, tlines, odds = [], [], [], []
    for season in seasons:
        day = dt.date(season, 4, 1)
        for r in range(rounds):
            for i in range(n):
                for j in range(n):
                    if i == j or (i + j + r) % 2:
                        continue
                    h, v = team_ids[i], team_ids[j]
                    key = f"{code}-{season}-{r}-{i}-{j}"
                    gid = ld.id("game", key)
                    sh = int(rng.poisson(mean * strength[h] / strength[v] * 1.05))
                    sv = int(rng.poisson(mean * strength[v] / strength[h]))
                    if sport != "soccer" and sh == sv:
                        sh += 1
                    games.append({"id": gid, "level": code, "season": season, "game_day": day,
                                  "game_no": 1, "visitor_id": v, "home_id": h, "score_vis": sv,
                                  "score_home": sh, "state": "final", "game_status": "Final",
                                  "winner_id": h if sh > sv else v, "loser_id": v if sh > sv else h,
                                  "neutral": False, "source": "synthetic"})
                    _lines(sport, code, season, gid, day, h, v, sh, sv, players, plines, tlines)
                    ml = -130 if strength[h] > strength[v] else 120
                    for taken, shift in (("open", 0), ("close", -10)):
                        odds.append({"game_id": gid, "taken": taken, "book": "synthetic",
                                     "taken_at": dt.datetime(season, 4, 1),
                                     "vis_ml": -ml, "home_ml": ml + shift,
                                     "spread": -1.5 if ml < 0 else 1.5, "total": 2 * mean + 0.5})
                    day += dt.timedelta(days=1)
    ld.put(schema.games, games)
    ld.put(schema.player_lines, plines)
    ld.put(schema.team_lines, tlines)
    ld.put(schema.odds, odds)


def _lines(sport: str, code: str, season: int, gid: int, day: dt.date, h: int, v: int,
           sh: int, sv: int, players: dict[int, list[int]], plines: list, tlines: list) -> None:
    for side, (team, opp, scored, allowed) in enumerate(((v, h, sv, sh), (h, v, sh, sv))):
        home = bool(side)
        tstats = _stats(sport, scored, allowed, team=True)
        tlines.append({"id": gid * 10 + side, "level": code, "season": season, "game_id": gid,
                       "game_day": day, "team_id": team, "opponent_id": opp, "home": home,
                       "stats": tstats})
        for k, p in enumerate(players[team]):
            st = _stats(sport, scored if k == 0 else k, allowed, team=False)
            if sport == "baseball" and k == 0:
                st.update({"GS": 1, "OUTS": 18, "ER": allowed, "HA": allowed + 2, "BBA": 1, "K": 5})
            plines.append({"id": gid * 100 + side * 50 + k, "level": code, "season": season,
                           "game_id": gid, "game_day": day, "player_id": p, "team_id": team,
                           "opponent_id": opp, "home": home, "starter": True, "stats": st})


def _stats(sport: str, scored: int, allowed: int, team: bool) -> dict[str, float]:
    if sport == "baseball":
        return {"PA": 4 + scored % 2, "AB": 4, "H": 1 + scored % 3, "R": scored % 2,
                "HR": scored % 2, "BB": 1}
    if sport == "basketball":
        return {"PTS": scored if team else 10 + scored % 7, "FGM": 4, "FGA": 9, "REB": 5,
                "AST": 3, "MIN": 30}
    if sport == "hockey":
        return {"G": scored % 2, "A": 1, "PTS": 1 + scored % 2, "SOG": 3, "TOI": 18}
    return {"G": scored % 2, "MIN": 90, "SH": 2, "SOT": 1}
