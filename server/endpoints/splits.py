"""``split``: a player's or a team's season line divided (``server.catalog.splits``), served by
``playerperfs`` and ``teamperfs`` in place of their game lines.

One record per value of the split, in the season's order: the games, every counting stat of the
sport's line summed (0 where none), and the season-line rates recomputed from those sums
(``server.catalog.seasonlines``), so the records of a split add up to the season's line.
"""
from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from server.catalog import phases, seasonlines
from server.catalog.linestats import LINE_STATS, line_codes
from server.catalog.splits import BY_NAME, BY_PLAY, SPLITS, SPORTS, WHOLE_GAME, batting_side
from server.endpoints.base import ParsedRequest, Custom, Record
from server.errors import BadParameter
from server.store import schema as s

G = s.games
PITCHED = ("BF", "OUTS")  # a game line with either pitched in the game
RATES = tuple(c for line in seasonlines.LINES for c in line.columns if c.formula.is_rate)
P = s.plays
# A play's batting credits (the batter's, the runners') split by the pitcher's hand, the rest
# (pitching, fielding) by the batter's.
BATTING_SIDE = frozenset(x.code for x in LINE_STATS["baseball"] if x.group == "batting")


def check(ask: ParsedRequest, team: bool) -> None:
    """A split names one of the declared splits, of a baseball level, for one player (or team)
    and one season: each miss is a 400 naming its parameter."""
    name = ask.get("split")
    if name is None:
        return
    if str(name).lower() not in BY_NAME:
        raise BadParameter(f"split '{name}' is not one of "
                           f"{', '.join(s.name for s in SPLITS)}", "split")
    if ask.level.sport not in SPORTS:
        raise BadParameter(f"split: {ask.code} lines do not split (baseball levels only)", "split")
    who = "team" if team else "player"
    if not isinstance(ask.get(who), int):
        raise BadParameter(f"split needs {who}: a {who} ID", who)
    if ask.get("season") is None:
        raise BadParameter("split needs season: a season ID, YYYY", "season")


def _value(split: str, home: bool, day: Any, phase: str) -> str:
    if split == "homeaway":
        return "home" if home else "away"
    if split == "month":
        return str(day)[:7]
    return phase


def _order(split: str, value: str) -> tuple[int, str]:
    if split == "hand":
        return ("L", "R").index(value) if value in ("L", "R") else 2, value
    if split == "homeaway":
        return (0 if value == "home" else 1, value)
    if split == "phase":
        return (phases.PHASES.index(value) if value in phases.PHASES else len(phases.PHASES), value)
    return (0, value)


def _by_play(conn: sa.Connection, ask: ParsedRequest, team: bool, entity: int, codes: tuple[str, ...]
             ) -> dict[str, dict[str, Any]]:
    """Parts by hand from the plays' credits: per hand, the games and the codes summed."""
    q = (sa.select(P.c.game_id, P.c.team_id, P.c.pitcher_hand, P.c.batter_hand, P.c.credits)
         .select_from(P.join(G, G.c.id == P.c.game_id))
         .where(G.c.level == ask.code, G.c.season == ask.get("season"),
                P.c.credits.is_not(None)))
    asked = ask.get("phase") or ask.get("seasontype")
    q = q.where(G.c.phase.in_(list(asked)) if asked else G.c.phase == phases.REGULAR)
    # only the games he (or the team) played, through the lines' index: not the season's plays
    held = s.team_lines if team else s.player_lines
    played = sa.select(held.c.game_id).where(
        held.c.level == ask.code, held.c.season == ask.get("season"),
        (held.c.team_id if team else held.c.player_id) == entity)
    q = q.where(P.c.game_id.in_(played))  # a team's games: every play is its own or against it
    if not team:  # the plays that credited him: his ID as a key of the credits (ids are digits)
        q = q.where(sa.cast(P.c.credits, sa.Text).like(f'%"{entity}":%'))
    sums: dict[str, dict[str, Any]] = {}
    games: dict[str, set[int]] = {}
    pitched: dict[str, set[int]] = {}
    for game, batting, p_hand, b_hand, credits in conn.execute(q):
        lines = list((credits or {}).items())
        if not team:
            lines = [(k, v) for k, v in lines if k == str(entity)]
        for _player, line in lines:
            for code, n in line.items():
                side = code in BATTING_SIDE
                if team and side != (batting == entity):
                    continue  # the other team's credit on this play
                # a store ingested before switch hitters were read (B) is read as it is now
                hand = (p_hand if side else batting_side(b_hand, p_hand)) or "unknown"
                part = sums.setdefault(hand, dict.fromkeys(codes, 0))
                if code in part:
                    part[code] += n
                games.setdefault(hand, set()).add(game)
                if code in PITCHED:
                    pitched.setdefault(hand, set()).add(game)
    for hand, part in sums.items():
        part.update({"G": len(games.get(hand, ())), "GamesPitched": len(pitched.get(hand, ())),
                     **dict.fromkeys((c for c in WHOLE_GAME if c in part), None)})
    return sums


def answer(team: bool) -> Custom:
    """The split's records for ``playerperfs`` (``team`` False) or ``teamperfs``."""
    table = s.team_lines if team else s.player_lines
    who = "Team_ID" if team else "Player_ID"

    def run(conn: sa.Connection, ask: ParsedRequest) -> list[Record]:
        split = str(ask.get("split")).lower()
        entity = int(ask.get("team") if team else ask.get("player"))
        t = table.c
        q = (sa.select(t.home, t.game_day, G.c.phase, t.stats)
             .select_from(table.join(G, G.c.id == t.game_id))
             .where(t.level == ask.code, t.season == ask.get("season"),
                    (t.team_id if team else t.player_id) == entity))
        if not team and isinstance(ask.get("team"), int):
            q = q.where(t.team_id == ask.get("team"))
        asked = ask.get("phase") or ask.get("seasontype")
        if asked:
            q = q.where(G.c.phase.in_(list(asked)))
        elif split != "phase":
            q = q.where(G.c.phase == phases.REGULAR)  # as the season's line counts
        codes = line_codes(ask.level.sport, team=team)
        sums: dict[str, dict[str, Any]] = {}
        if split in BY_PLAY:
            sums = _by_play(conn, ask, team, entity, codes)
        for home, day, phase, stats in conn.execute(q) if split not in BY_PLAY else ():
            line = sums.setdefault(_value(split, bool(home), day, phase),
                                   {"G": 0, "GamesPitched": 0, **dict.fromkeys(codes, 0)})
            line["G"] += 1
            line["GamesPitched"] += any((stats or {}).get(c) for c in PITCHED)
            for code in codes:
                value = (stats or {}).get(code)
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    line[code] += value
        out: list[Record] = []
        for value in sorted(sums, key=lambda v: _order(split, v)):
            line = sums[value]
            rates = {c.label: None if any(line.get(code, 0) is None for code in seasonlines.codes(c))
                     else seasonlines.value(c, line) for c in RATES}
            out.append({"Split": split, "Value": value, "Season": ask.get("season"),
                        who: entity, **({} if team else {"GamesPitched": line["GamesPitched"]}),
                        "G": line["G"], **{c: line[c] for c in codes},
                        **{k: None if v is None else round(v, 4) for k, v in rates.items()}})
        return out
    return run
