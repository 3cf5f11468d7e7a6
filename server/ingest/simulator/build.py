"""One level, start to finish: world, schedules, games, playoffs, lines, words; then the rows.

Randomness is layered so that results do not depend on the build clock: the level's generator
(seeded from the seed and a stable hash of the level code) makes the world and the schedules, and
every game plays from its own generator keyed by (seed, level, season, game), so a game's result
is the same whether it is played in full or cut off in progress.
"""
from __future__ import annotations

import datetime as dt
import zlib
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
import sqlalchemy as sa

from server.catalog import clock
from server.catalog.phases import phase_of_round
from server.catalog.simulated import PLANS, SPORTS, LevelPlan
from server.ingest.simulator import market, media
from server.ingest.simulator.games import GameIn, GameOut, baseball, basketball, hockey, soccer
from server.ingest.simulator.schedule import (GameSpec, doubleheader_first, place_today, progress,
                                              regular_season, season_dates, seasons_for)
from server.ingest.simulator.world import World, build_world
from server.ingest.simulator.writer import js, ts

SIMULATORS: dict[str, Callable[[GameIn, np.random.Generator], GameOut]] = {
    "baseball": baseball.simulate, "basketball": basketball.simulate,
    "hockey": hockey.simulate, "soccer": soccer.simulate,
}
_PITCH_TYPES = ("FF", "SI", "SL", "CH", "CU", "FC", "ST")
_PITCH_P = np.array([0.34, 0.15, 0.17, 0.11, 0.08, 0.08, 0.07])
_PITCH_MPH = np.array([94.2, 93.4, 85.6, 85.9, 79.5, 89.3, 82.0])
_STAR_CODE = {"baseball": "H", "basketball": "PTS", "hockey": "PTS", "soccer": "G"}

PITCH_SEASONS = 4  # newest seasons whose every pitch is a row (MLB, MiLB)

IdFn = Callable[[str, list[str]], list[int]]


class _Round(NamedTuple):
    """A playoff round as its games need it."""

    no: int  # 0 for the first round the bracket plays
    name: str
    best_of: int
    final: bool
    cup: int | None  # the sublevel every game is played in (None: the home team's own)


def level_seed(seed: int, code: str) -> int:
    """The seed of a level: stable across runs and machines (never Python's salted hash())."""
    return (seed * 1_000_003 + zlib.crc32(code.encode())) % (2 ** 63)


class LevelBuild:
    """Every row of one level, as tuples in storage form (see writer)."""

    def __init__(self, plan: LevelPlan, seed: int, size: str, now: dt.datetime, ids: IdFn,
                 seasons: int | None = None) -> None:
        self.plan = plan
        self.season_count = seasons  # None: the size's default (``schedule.SEASONS``)
        self.sport = SPORTS[plan.sport]
        self.seed = level_seed(seed, plan.code)
        self.size = size
        self.now = now
        self.today = clock.service_day(now)
        self.ids = ids
        self.rng = np.random.default_rng(self.seed)
        self.games: list[tuple[Any, ...]] = []
        self.plays: list[tuple[Any, ...]] = []
        self.pitches: list[tuple[Any, ...]] = []
        self.player_lines: list[tuple[Any, ...]] = []
        self.team_lines: list[tuple[Any, ...]] = []
        self.game_officials: list[tuple[Any, ...]] = []
        self.odds: list[tuple[Any, ...]] = []
        self.seasons: list[dict[str, Any]] = []
        self.team_seasons: list[dict[str, Any]] = []
        self.player_seasons: list[dict[str, Any]] = []
        self.news: list[tuple[Any, ...]] = []
        self.transactions: list[tuple[Any, ...]] = []
        self.accounts: list[tuple[Any, ...]] = []
        self.posts: list[tuple[Any, ...]] = []
        self.recaps: list[media.Recap] = []
        self.stars: dict[int, dict[int, int]] = {}
        self._team_games: list[int] = []
        self._winner_of: dict[int, int] = {}  # final game id -> winning team idx (no entry: a tie)
        self._pitch_from = 0  # first season with pitch rows (set in run)

    # ------------------------------------------------------------------ the whole level

    def run(self) -> World:
        plan = self.plan
        seasons = seasons_for(plan, self.today, self.size, self.season_count)
        dates = {s: season_dates(plan, s) for s in seasons}
        # Pitch by pitch for the newest seasons only: millions of rows per MLB season.
        self._pitch_from = seasons[-PITCH_SEASONS] if len(seasons) >= PITCH_SEASONS else seasons[0]
        world = build_world(plan, self.rng, self.size, seasons, dates, self.ids)
        self.world = world
        groups = [t.group for t in world.teams]
        subs = [t.sublevel_id for t in world.teams]
        for s in seasons:
            specs = regular_season(plan, self.rng, s, groups, subs, self.size, self.today)
            doubleheader_first(specs, self.sport.duration)
            place_today(specs, self.today, self.now, self.sport.duration)
            gids = self.ids("game", [g.key for g in specs])
            for g, gid in zip(specs, gids):
                g.id = gid
            self._team_games = [0] * len(world.teams)
            record = self._play_all(s, specs, 0)
            self._standings(s, specs, record)
            bracket = self._playoffs(s, specs, record)
            start, end = dates[s]
            last = max((g.day for g in specs), default=end)
            self.seasons.append({"level": plan.code, "season": s,
                                 "name": str(s) if start.year == s else f"{s - 1}-{str(s)[2:]}",
                                 "start": start, "end": max(last, end) if last <= self.today else end,
                                 "source": "simulated",
                                 "playoffs": bracket if bracket else sa.null()})
            self._rosters(s)
        self.transactions = media.transaction_rows(world, self.ids)
        self.news = media.news_rows(world, self.recaps, self.rng, self.ids)
        stars = {t: [p for p, _ in sorted(c.items(), key=lambda x: (-x[1], x[0]))]
                 for t, c in self.stars.items()}
        self.accounts, self.posts = media.social_rows(world, self.recaps, stars, self.rng, self.ids,
                                                      self.now)
        return world

    # ------------------------------------------------------------------ games

    def _play_all(self, season: int, specs: list[GameSpec], offset: int) -> dict[int, list[int]]:
        """Play a list of games in order; returns the (wins, losses, ties) counters it updated."""
        world = self.world
        plan = self.plan
        sim = SIMULATORS[plan.sport]
        counts = self._team_games
        record: dict[int, list[int]] = {t.idx: [0, 0, 0] for t in world.teams}
        strength = world.strength[season]
        to_price: list[market.PricedGame] = []
        n_off = len(world.official_ids)
        roles = self.sport.officials if plan.sport != "baseball" or plan.code in ("MLB", "MiLB", "KBO", "NPB") \
            else self.sport.officials[:3]
        for k, g in enumerate(specs):
            state = progress(g.start, self.now, self.sport.duration)
            if plan.odds:
                to_price.append(market.PricedGame(g.id, g.start, float(strength[g.home]),
                                                  float(strength[g.vis]), plan.scoring))
            if state is None:
                self._game_row(g, None, "scheduled")
                continue
            rng = np.random.default_rng([self.seed, season, offset + k])
            out = sim(self._game_in(season, g, state), rng)
            counts[g.vis] += 1
            counts[g.home] += 1
            final = state >= 1.0
            self._game_row(g, out, "final" if final else "inprogress")
            self._children(g, out, rng)
            crew = rng.choice(n_off, len(roles), replace=False).tolist()
            for role, o in zip(roles, crew):
                self.game_officials.append((g.id, world.official_ids[o], role))
            if final:
                self._count_result(g, out, record)
                self._recap(g, out)
        if to_price:
            rng = np.random.default_rng([self.seed, season, offset, 7])
            self.odds.extend(market.price(plan.sport, plan.odds, rng, to_price, self.now))
        return record

    def _game_in(self, season: int, g: GameSpec, state: float) -> GameIn:
        """What the sport's simulator needs of a game: the rosters on its day, the teams'
        strengths that season, how many games each has played (baseball's rotation turns on
        it), their nicknames, whether it is a playoff game and how far it has gone (``state``:
        1 when over)."""
        world, strength, counts = self.world, self.world.strength[season], self._team_games
        rv, rh = world.rosters[season][g.vis].on(g.day), world.rosters[season][g.home].on(g.day)
        return GameIn(self.plan, world.people, (rv, rh), (float(strength[g.vis]), float(strength[g.home])),
                      (counts[g.vis], counts[g.home]),
                      (world.teams[g.vis].nickname, world.teams[g.home].nickname),
                      g.playoff is not None, min(1.0, state))

    def _count_result(self, g: GameSpec, out: GameOut, record: dict[int, list[int]]) -> None:
        """A final game's win and loss (or a tie each) on the teams' records; its winner is noted
        for the playoff series it may belong to."""
        if out.winner is None:
            record[g.vis][2] += 1
            record[g.home][2] += 1
            return
        w, lo = (g.home, g.vis) if out.winner == 1 else (g.vis, g.home)
        record[w][0] += 1
        record[lo][1] += 1
        self._winner_of[g.id] = w

    def _game_row(self, g: GameSpec, out: GameOut | None, state: str) -> None:
        world = self.world
        home = world.teams[g.home]
        vis = world.teams[g.vis]
        winner = loser = None
        if out is not None and state == "final" and out.winner is not None:
            winner, loser = (home.id, vis.id) if out.winner == 1 else (vis.id, home.id)
        cap = world.venue_rows[g.home]["capacity"]
        assert isinstance(cap, int)
        attendance = None
        duration = None
        if state == "final":
            attendance = int(cap * (0.55 + 0.45 * ((g.id * 2654435761) % 1000) / 1000))
            duration = self.sport.duration + (g.id * 40503) % 41 - 20
        status = "" if out is None else out.status  # "Final (10 innings)": the sport's own words
        if state == "final" and not status.startswith("Final"):
            status = "Final"
        self.games.append((
            g.id, self.plan.code, g.season, g.sublevel_id, g.day.isoformat(), g.game_no, ts(g.start),
            vis.id, home.id,
            out.score[0] if out else None, out.score[1] if out else None,
            state, status,
            out.overtime if out and state == "final" else None, out.periods if out else None,
            winner, loser, home.venue_id, int(g.neutral), g.playoff, phase_of_round(g.playoff),
            attendance, duration,
            js(out.line_score) if out else None, js(out.info) if out and out.info else None, "simulated"))

    def _children(self, g: GameSpec, out: GameOut, rng: np.random.Generator) -> None:
        """A played game's rows beside its own: its plays, its pitches (where kept) and its player
        and team lines, each with an ID derived from the game's, so a rebuild gives the same."""
        tid = (self.world.teams[g.vis].id, self.world.teams[g.home].id)
        self._play_rows(g, out, tid)
        if out.pitches and self.plan.pitches and g.season >= self._pitch_from:
            self._pitch_rows(g, out, rng)
        self._line_rows(g, out, tid)

    def _play_rows(self, g: GameSpec, out: GameOut, tid: tuple[int, int]) -> None:
        """The plays, each with the running score after it and, in baseball, the outs and
        runners before and after it (the simulator keeps no per-play credits)."""
        code = self.plan.code
        run = [0, 0]
        plays = self.plays
        base = g.id * 1000
        for seq, (period, half, game_clock, side, player, pitcher, event, explanation, scoring, points, tags,
                  the_count, pitcher_hand, batter_hand, sequence, outs, bases, outs_before,
                  bases_before) in enumerate(out.plays, start=1):
            run[side] += points
            plays.append((base + seq, code, g.id, seq, period, half, game_clock, tid[side], tid[1 - side],
                          player, pitcher, event, explanation, int(scoring), points, tags, the_count,
                          pitcher_hand, batter_hand, sequence, run[0], run[1], outs, bases,
                          None,  # credits: the simulator keeps no per-play credits
                          outs_before, bases_before))

    def _pitch_rows(self, g: GameSpec, out: GameOut, rng: np.random.Generator) -> None:
        """Every pitch of a baseball game, its type and speed drawn from the game's own generator
        after the game is played, for all its pitches at once, so they follow from its seed."""
        code = self.plan.code
        base = g.id * 1000
        n = sum(len(pa.codes) for pa in out.pitches)
        kinds = rng.choice(len(_PITCH_TYPES), n, p=_PITCH_P)
        speed = np.round(_PITCH_MPH[kinds] + rng.normal(0, 1.6, n), 1).tolist()
        ptype = [_PITCH_TYPES[k] for k in kinds.tolist()]
        res = baseball.RESULTS
        k = 0
        pid = g.id * 10000
        append = self.pitches.append
        for pa in out.pitches:
            play_id = base + pa.play_index + 1
            half_s = "top" if pa.half == 0 else "bottom"
            for n_, (balls, strikes) in enumerate(pa.counts):
                c = pa.codes[n_]
                k += 1
                append((pid + k, code, g.id, play_id, pa.inning, half_s, pa.pitcher, pa.batter, n_ + 1,
                        balls, strikes, c, res[c], ptype[k - 1], speed[k - 1]))

    def _line_rows(self, g: GameSpec, out: GameOut, tid: tuple[int, int]) -> None:
        """The player lines, each side's team line summed from them (but GS and PM, which are a
        player's own), and each player's part of his team's season star figure (points, goals or
        hits: a team's two leaders by it get social accounts)."""
        code = self.plan.code
        day = g.day.isoformat()
        totals: list[dict[str, int]] = [{}, {}]
        star_code = _STAR_CODE[self.plan.sport]
        lbase = g.id * 100
        season_stars = self.stars
        for k, (pid, side, starter, pos, stats, slot) in enumerate(out.lines, start=1):  # a PlayerLine
            self.player_lines.append((lbase + k, code, g.season, g.id, day, pid, tid[side], tid[1 - side],
                                      side, int(starter), pos, js(stats), slot))
            tot = totals[side]
            for c, v in stats.items():
                if c not in ("GS", "PM"):
                    tot[c] = tot.get(c, 0) + v
            sv = stats.get(star_code, 0)
            if sv:
                team_idx = g.home if side else g.vis
                d = season_stars.setdefault(team_idx, {})
                d[pid] = d.get(pid, 0) + sv
        for side in (0, 1):
            self.team_lines.append((g.id * 10 + side, code, g.season, g.id, day, tid[side], tid[1 - side],
                                    side, js(totals[side])))

    def _recap(self, g: GameSpec, out: GameOut) -> None:
        side = out.winner if out.winner is not None else 1
        code = _STAR_CODE[self.plan.sport]
        best = None
        for line in out.lines:
            if line.side == side and (best is None or line.stats.get(code, 0) > best[1]):
                best = (self.world.people[line.player].name, line.stats.get(code, 0))
        if best is not None and best[1] == 0:
            best = None
        self.recaps.append(media.Recap(g.id, self.plan.code, g.day,
                                       g.start + dt.timedelta(minutes=self.sport.duration), g.vis, g.home,
                                       (out.score[0], out.score[1]), out.winner, out.overtime, g.playoff, best))

    # ------------------------------------------------------------------ standings and playoffs

    def _standings(self, season: int, specs: list[GameSpec], record: dict[int, list[int]]) -> None:
        # a team's own sublevel is its division where the plan declares one (the division the
        # standings and projections read, written with the season rather than placed by init)
        divisions = {r["id"] for r in self.world.sublevel_rows if r["type"] == "Division"}
        for t in self.world.teams:
            w, lo, ti = record[t.idx]
            self.team_seasons.append({"team_id": t.id, "level": self.plan.code, "season": season,
                                      "sublevel_id": t.sublevel_id,
                                      "division_id": t.sublevel_id if t.sublevel_id in divisions
                                      else None, "name": t.name, "wins": w,
                                      "losses": lo, "ties": ti})

    def _playoffs(self, season: int, specs: list[GameSpec], record: dict[int, list[int]]) -> list[dict[str, Any]] | None:
        """The season's playoffs, once its regular season is over: the best records in a bracket
        of the largest power of two the level allows, round by round, until today (the demo's
        present: a bracket in progress ends with the rounds already finished). Returns the bracket
        as the playoffs endpoint reports it, or None when no round has been played."""
        if not specs:
            return None
        last = max(g.day for g in specs)
        if last >= self.today or any(g.day >= self.today for g in specs):
            return None
        field, cup = self._playoff_field(record)
        n = 1
        while n * 2 <= min(self.plan.playoff_teams, len(field)):
            n *= 2
        if n < 2:
            return None
        rounds = list(self.plan.playoff_rounds)[-(n.bit_length() - 1):]
        alive = field[:n]  # in bracket order by seed
        pairs = _bracket(len(alive))
        day = last + dt.timedelta(days=3)
        bracket: list[dict[str, Any]] = []
        played = 0
        for r_no, (r_name, best_of) in enumerate(rounds):
            series = [(alive[a], alive[b]) for a, b in pairs]
            stage = _Round(r_no, r_name, best_of, r_no == len(rounds) - 1, cup)
            result = self._play_round(season, stage, series, day, played)
            if result is None:
                return bracket or None
            wins, played, day = result
            alive = [hi if wins[(hi, lo)][0] >= wins[(hi, lo)][1] else lo for hi, lo in series]
            bracket.append(self._round_record(stage, series, wins, alive))
            pairs = [(2 * i, 2 * i + 1) for i in range(len(alive) // 2)]
            day += dt.timedelta(days=2)
        return bracket

    def _playoff_field(self, record: dict[int, list[int]]) -> tuple[list[int], int | None]:
        """The teams in the playoffs, best record (ties counting half a win) first, and the
        sublevel their games are played in when it is not each home team's own. Soccer's
        simulated leagues have no playoffs of their own: their top teams (three from ENG1 and
        ESP1, two from GER1) meet in the continental cup instead."""
        def pct(i: int) -> tuple[float, int]:
            w, lo, ti = record[i]
            n = max(1, w + lo + ti)
            return (-(w + 0.5 * ti) / n, i)

        teams = self.world.teams
        if self.plan.sport != "soccer":
            return sorted((t.idx for t in teams), key=pct), None
        quota = {"ENG1": 3, "ESP1": 3, "GER1": 2}
        field: list[int] = []
        for grp, q in quota.items():
            field += sorted((t.idx for t in teams if t.group == grp), key=pct)[:q]
        return field, self.world.sublevel_ids.get("CCC")

    def _play_round(self, season: int, stage: _Round, series: list[tuple[int, int]], day: dt.date,
                    played: int) -> tuple[dict[tuple[int, int], list[int]], int, dt.date] | None:
        """Play one round's series, one game of each unfinished series per game day (baseball a
        day apart, the others two), each series stopping at the wins it needs. ``played`` counts
        the playoff games before it, which seeds each game's generator so a game is the same
        whatever was built before it. Returns each series' wins (higher seed, lower seed), the
        playoff games played so far and the day after the round's last game day; None when the
        round reaches today."""
        need = stage.best_of // 2 + 1
        wins = {(hi, lo): [0, 0] for hi, lo in series}
        pattern = _home_pattern(stage.best_of)
        gap = 1 if self.plan.sport == "baseball" else 2
        for j in range(stage.best_of):
            specs = [self._playoff_game(season, stage, pair, pattern[j], j, day)
                     for pair in series if max(wins[pair]) < need]
            if not specs:
                break
            if day >= self.today:
                return None
            for spec, gid in zip(specs, self.ids("game", [s.key for s in specs])):
                spec.id = gid
            self._play_all(season, specs, 100000 + played)
            played += len(specs)
            for spec in specs:
                self._count_win(spec, wins)
            day += dt.timedelta(days=gap)
        return wins, played, day

    def _playoff_game(self, season: int, stage: _Round, pair: tuple[int, int], higher_home: bool,
                      j: int, day: dt.date) -> GameSpec:
        """Game ``j`` of the series between ``pair`` (higher seed, lower seed), keyed by its round
        and higher seed so its ID is stable. A one-game final, and every one-game soccer tie, is
        played at a neutral venue."""
        plan, teams = self.plan, self.world.teams
        hi, lo = pair
        home, vis = (hi, lo) if higher_home else (lo, hi)
        key = f"{plan.code}:{season}:P{stage.no}:{teams[hi].idx}:{j}"
        neutral = stage.best_of == 1 and (stage.final or plan.sport == "soccer")
        return GameSpec(key, season, day, 1, dt.datetime(day.year, day.month, day.day)
                        + dt.timedelta(hours=plan.start_hour), vis, home,
                        stage.cup if stage.cup is not None else teams[home].sublevel_id,
                        stage.name, neutral)

    def _count_win(self, spec: GameSpec, wins: dict[tuple[int, int], list[int]]) -> None:
        """Credit a played playoff game's winner in its series (a tie, possible only in a sport
        without a decider, counts as a home win)."""
        hi, lo = (spec.home, spec.vis) if (spec.home, spec.vis) in wins else (spec.vis, spec.home)
        winner = self._winner_of.get(spec.id)
        if winner == hi:
            wins[(hi, lo)][0] += 1
        elif winner == lo:
            wins[(hi, lo)][1] += 1
        else:
            wins[(hi, lo)][0 if spec.home == hi else 1] += 1

    def _round_record(self, stage: _Round, series: list[tuple[int, int]],
                      wins: dict[tuple[int, int], list[int]], winners: list[int]) -> dict[str, Any]:
        """A finished round as the playoffs endpoint reports it: each series' seeds, wins and
        winner, by team ID and name."""
        teams = self.world.teams
        rows = [{"Higher_ID": teams[hi].id, "Higher": teams[hi].name,
                 "Lower_ID": teams[lo].id, "Lower": teams[lo].name,
                 "Wins": wins[(hi, lo)], "Winner_ID": teams[w].id, "Winner": teams[w].name}
                for (hi, lo), w in zip(series, winners)]
        return {"Round": stage.name, "BestOf": stage.best_of, "Series": rows}

    # ------------------------------------------------------------------ rosters

    def _rosters(self, season: int) -> None:
        world = self.world
        code = self.plan.code
        seen: set[tuple[int, int]] = set()
        for t in world.teams:
            for j, seg in enumerate(world.rosters[season][t.idx].slots):
                for _, pid in seg:
                    if (pid, t.id) in seen:
                        continue
                    seen.add((pid, t.id))
                    self.player_seasons.append({"player_id": pid, "level": code, "season": season,
                                                "team_id": t.id, "position": world.people[pid].position,
                                                "jersey": str((pid * 7 + j) % 99 + 1), "stats": sa.null()})


def _bracket(n: int) -> list[tuple[int, int]]:
    """Seed pairs of a first round, in bracket order: 1 v n, then the others so seeds meet late."""
    order = [0]
    while len(order) < n:
        m = len(order) * 2
        order = [x for s in order for x in (s, m - 1 - s)]
    return [(order[2 * i], order[2 * i + 1]) for i in range(n // 2)]


def _home_pattern(best_of: int) -> list[bool]:
    """Whether the higher seed is at home in game j (2-2-1-1-1, 2-2-1, 1-1-1)."""
    return {7: [True, True, False, False, True, False, True], 5: [True, True, False, False, True],
            3: [True, False, True], 1: [True]}.get(best_of, [j % 2 == 0 for j in range(best_of)])


def plan_for(code: str) -> LevelPlan:
    return PLANS[code]
