"""Words around the games: news recaps written from box scores, social accounts and posts, and
the transactions rows of roster changes.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from server.ingest.simulator.world import Team, World
from server.ingest.simulator.writer import ts

NEWS_SOURCE = "Simulated Sports Wire"
_UNIT = {"baseball": "runs", "basketball": "points", "hockey": "goals", "soccer": "goals"}
_STAR = {"baseball": ("H", "hits"), "basketball": ("PTS", "points"), "hockey": ("PTS", "points"),
         "soccer": ("G", "goals")}


@dataclass
class Recap:
    game_id: int
    level: str
    day: dt.date
    ended: dt.datetime
    vis: int  # team index
    home: int
    score: tuple[int, int]
    winner: int | None  # side
    overtime: str | None
    playoff: str | None
    star: tuple[str, int] | None  # best line of the winner (or the home side): name, value


def news_rows(world: World, recaps: list[Recap], rng: np.random.Generator,
              ids: Callable[[str, list[str]], list[int]]) -> list[tuple[object, ...]]:
    """A story of most games at the four best-known levels (a quarter of them elsewhere) and of
    every playoff game, written from its box score; credited to the winner (the home side of a
    draw)."""
    plan = world.plan
    share = 0.6 if plan.code in ("MLB", "NBA", "NHL", "FC") else 0.25
    keep = [r for r, x in zip(recaps, rng.random(len(recaps)).tolist()) if x < share or r.playoff]
    keys = [f"{plan.code}:n{r.game_id}" for r in keep]
    out: list[tuple[object, ...]] = []
    for nid, r in zip(ids("news", keys), keep):
        title, lead, credited = _headline(world, r)
        where = world.venue_rows[r.home]["name"]
        summary = f"{lead} at {where} on {r.day:%B} {r.day.day}."
        url = f"https://news.example.org/{plan.code.lower()}/{r.day:%Y/%m/%d}/{r.game_id}"
        out.append((nid, plan.code, ts(r.ended + dt.timedelta(minutes=35)), title, summary,
                    _body(plan.sport, r, summary), url, NEWS_SOURCE, credited.id, r.game_id))
    return out


def _headline(world: World, r: Recap) -> tuple[str, str, Team]:
    """A story's title and first words, and the team it is about: the winner (the margin picks
    the verb), or the home side of a draw."""
    v, h = world.teams[r.vis], world.teams[r.home]
    sv, sh = r.score
    if r.winner is None:
        title = f"{h.name} and {v.name} draw {sh}-{sv}" if world.plan.sport == "soccer" else \
            f"{h.name} and {v.name} tie {sh}-{sv}"
        win_team = h
        lead = f"The {h.name} and the {v.name} finished level at {sh}-{sv}"
    else:
        w, lo = (h, v) if r.winner == 1 else (v, h)
        ws, ls = (sh, sv) if r.winner == 1 else (sv, sh)
        verb = "edge" if ws - ls == 1 else "beat" if ws - ls < 5 else "rout"
        title = f"{w.name} {verb} {lo.name} {ws}-{ls}"
        if r.overtime:
            title += f" ({r.overtime})" if not r.overtime.isdigit() else f" in {9 + int(r.overtime)}"
        win_team = w
        lead = (f"The {w.name} {'won' if r.winner == 1 else 'won on the road'}, "
                f"{ws}-{ls} over the {lo.name}")
    if r.playoff:
        title = f"{r.playoff}: {title}"
    return title, lead, win_team


def _body(sport: str, r: Recap, summary: str) -> str:
    """A story's text: its summary, the star's line and how the scoring came."""
    body = summary
    if r.star:
        body += f" {r.star[0]} led the way with {r.star[1]} {_STAR[sport][1]}."
    sv, sh = r.score
    return body + (f" The {_UNIT[sport]} came {'late' if r.overtime else 'steadily'}; "
                   f"the teams combined for {sv + sh} {_UNIT[sport]}.")


def transaction_rows(world: World, ids: Callable[[str, list[str]], list[int]]) -> list[tuple[object, ...]]:
    code = world.plan.code
    rows = sorted(world.transactions, key=lambda t: (t.day, t.team, t.player, t.kind))
    keys = [f"{code}:x{k:06d}" for k in range(len(rows))]
    out: list[tuple[object, ...]] = []
    for tid, t in zip(ids("transaction", keys), rows):
        out.append((tid, code, t.day.isoformat(), world.teams[t.team].id, t.player, t.kind, t.text))
    return out


def social_rows(world: World, recaps: list[Recap], stars: dict[int, list[int]],
                rng: np.random.Generator, ids: Callable[[str, list[str]], list[int]],
                now: dt.datetime) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    """Team accounts post after each of their recent games; a few players have accounts too."""
    code = world.plan.code
    accounts = _accounts(world, stars)
    acc_ids = ids("social", [a[0] for a in accounts])
    by_team = _recent_games(recaps)
    posts: list[tuple[object, ...]] = []
    acct_rows: list[tuple[object, ...]] = []
    post_keys: list[str] = []
    post_vals: list[tuple[int, dt.datetime, str, int | None]] = []
    for aid, (key, handle, name, team_idx, player_id) in zip(acc_ids, accounts):
        team = world.teams[team_idx]
        last = None
        for r in by_team.get(team_idx, []):
            if player_id is not None and rng.random() < 0.7:
                continue
            text = _post_text(world, team_idx, r, player_id is not None)
            posted = r.ended + dt.timedelta(minutes=10 + int(rng.integers(0, 50)))
            if posted > now:
                continue
            post_keys.append(f"{key}:{r.game_id}")
            post_vals.append((aid, posted, text, r.game_id))
            last = max(last, posted) if last else posted
        acct_rows.append((aid, code, handle, handle.lower(), name, "X",
                          "player" if player_id else "team", team.id, player_id,
                          ts(last) if last else None))
    for post_id, (aid, posted, text, gid) in zip(ids("social_post", post_keys), post_vals):
        posts.append((post_id, aid, ts(posted), text, f"https://x.example.org/status/{post_id}", gid))
    return acct_rows, posts


def _accounts(world: World, stars: dict[int, list[int]]) -> list[tuple[str, str, str, int, int | None]]:
    """Each team's account, then its two leading players' (``stars``: by the sport's star
    figure), as (key, handle, name, team index, player): a handle is the name's ASCII letters
    and digits, made unique by the level and index."""
    code = world.plan.code
    accounts: list[tuple[str, str, str, int, int | None]] = []
    for t in world.teams:
        handle = "".join(ch for ch in f"{t.abbrev}{t.nickname}" if ch.isascii() and ch.isalnum())
        accounts.append((f"{code}:a{t.idx:03d}", f"{handle or 'Team'}{code}{t.idx}", t.name, t.idx, None))
        for pid in stars.get(t.idx, [])[:2]:
            person = world.people[pid]
            base = "".join(ch for ch in f"{person.first}{person.last}" if ch.isascii() and ch.isalnum())
            accounts.append((f"{code}:a{t.idx:03d}p{pid}", f"{base or 'player'}{pid}", person.name, t.idx, pid))
    return accounts


def _recent_games(recaps: list[Recap]) -> dict[int, list[Recap]]:
    """Each team's games of the 45 days up to the newest game: the accounts post about those
    alone, a feed of the latest weeks rather than of every season built."""
    by_team: dict[int, list[Recap]] = {}
    latest = max((r.day for r in recaps), default=None)
    for r in recaps:
        if latest is not None and (latest - r.day).days <= 45:
            by_team.setdefault(r.vis, []).append(r)
            by_team.setdefault(r.home, []).append(r)
    return by_team


def _post_text(world: World, team_idx: int, r: Recap, by_player: bool) -> str:
    """What an account posts after a game: a team gives the final score its way round (a win, a
    loss or a draw); a player thanks the fans."""
    side = 1 if r.home == team_idx else 0
    team, opp = world.teams[team_idx], world.teams[r.vis if side else r.home]
    if by_player:
        return f"Great team effort tonight vs {opp.nickname}. Thanks for the support!"
    mine, theirs = r.score[side], r.score[1 - side]
    if r.winner is None:
        return f"Final: {team.nickname} {mine}, {opp.nickname} {theirs}. A point apiece."
    if r.winner == side:
        return f"FINAL: {team.nickname} win! {mine}-{theirs} over the {opp.nickname}."
    return f"Final: {opp.nickname} {theirs}, {team.nickname} {mine}. On to the next one."
