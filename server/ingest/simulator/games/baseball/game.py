"""A simulated baseball game, inning by inning: lineups, half innings, pitchers of record, lines.

The events themselves (``events``) change the state; this module decides what happens when: the
sides take the field, each half inning plays plate appearances until three outs (a tired pitcher
comes out first, a runner may try to steal), and a finished game credits the win, the loss and the
save. A game cut off in progress (``GameIn.cut``) stops after as many half innings as the clock
allows, with the same plays up to there as the full game. Holds follow the decisions, by the
rule the real seasons' plays get (``server.ingest.holds``).
"""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass

import numpy as np

from server.catalog.innings import REGULATION_INNINGS, extra_innings, final_status
from server.catalog.simulated import SPORTS
from server.ingest.holds import holds
from server.ingest.simulator.games import GameIn, GameOut, PlatePitches, PlayerLine, Uniforms, clean, ordinal
from server.ingest.simulator.games.baseball.events import attempt_steal, change_pitcher, resolve
from server.ingest.simulator.games.baseball.pitches import POOL_SIZES, POOLS
from server.ingest.simulator.games.baseball.rates import OUTCOMES, RATES, outcome_bounds
from server.ingest.simulator.games.baseball.state import (
    BF, FIELD_POSITIONS, GS, HLD, L, OUTS, PA, PIT, RA, STAT_CODES, SV, W, GameState, PlateAppearance, Side,
    new_line,
)

# Lineup slot -> the roster slot of the bench player who may start there instead (C: backup
# catcher, infield: utility infielders, outfield and DH: the fourth outfielder).
_BENCH_FOR_SLOT = (9, 10, 12, 10, 12, 11, 11, 11, 12)
_ROTATION = 13  # roster slots 13-17: the five starting pitchers, in turn
_BULLPEN = 18  # roster slots 18-25: eight relievers
_LAST_OUTCOME = len(OUTCOMES) - 1


def simulate(g: GameIn, rng: np.random.Generator) -> GameOut:
    """Play one game from its own generator; the same generator gives the same game."""
    u = Uniforms(rng)  # first: it takes the generator's first draws
    lines: dict[int, list[int]] = {}
    positions: dict[int, str] = {}
    sides = (_take_the_field(g, 0, rng, u, lines, positions),
             _take_the_field(g, 1, rng, u, lines, positions))
    edge = SPORTS["baseball"].home_edge
    for s, side in enumerate(sides):
        side.bounds = outcome_bounds(g.strength[s], g.strength[1 - s], s == 1, g.plan.scoring, edge)
    for side in sides:
        side.pitch_limit = RATES.starter_pitches + RATES.starter_pitches_spread * u()
    game = GameState(g.people, u, sides, lines, positions, record_pitches=g.plan.pitches)
    status, line_score = _play_innings(game, g)
    finished = status == "Final"
    score = game.score
    winner = None
    if finished and score[0] != score[1]:
        winner = 0 if score[0] > score[1] else 1
        _credit_holds(game, _credit_decisions(game, winner))
    overtime = str(extra_innings(game.inning)) if extra_innings(game.inning) and finished else None
    if finished:
        status = final_status(game.inning)
    info = {"starting_pitchers": [sides[0].starter, sides[1].starter]}
    return GameOut(score, game.inning, overtime, status, game.plays, _box_lines(game),
                   {"visitor": line_score[0], "home": line_score[1]}, winner, game.pitches, info)


def _play_innings(game: GameState, g: GameIn) -> tuple[str, list[list[int]]]:
    """Half innings until the game is decided after nine (a walk-off ends it at once; a league
    with a limit stops there, tied), or until the clock of a game in progress; returns the status
    ("Final" or where the game stands) and each side's runs by inning."""
    line_score: list[list[int]] = [[], []]
    max_innings = g.plan.max_innings if not g.playoff else 0
    # Half innings the clock allows a game in progress (at least one, never the whole game).
    stop_half = 10 ** 6 if g.cut >= 1 else max(1, min(17, int(g.cut * 18)))
    halves_played = 0
    score = game.score
    while True:
        game.inning += 1
        for half in (0, 1):
            if halves_played >= stop_half:
                return f"{'Top' if half == 0 else 'Bot'} {ordinal(game.inning)}", line_score
            halves_played += 1
            if half == 1 and game.inning >= REGULATION_INNINGS and score[1] > score[0]:
                break  # the home team leads: no bottom half
            game.begin_half(half)
            runs_before = score[half]
            walkoff = _play_half_inning(game, g.plan.ghost_runner)
            line_score[half].append(score[half] - runs_before)
            if walkoff:
                return "Final", line_score
        if game.inning >= REGULATION_INNINGS and score[0] != score[1]:
            return "Final", line_score
        if max_innings and game.inning >= max_innings:
            return "Final", line_score  # a tie where the league allows one


def _take_the_field(g: GameIn, s: int, rng: np.random.Generator, u: Uniforms,
                    lines: dict[int, list[int]], positions: dict[int, str]) -> Side:
    """A side's lineup (regulars, now and then a bench player), batting order, starting pitcher
    (the rotation's turn) and the order its relievers will come in."""
    roster = g.rosters[s]
    lineup = list(roster[:9])
    for slot, bench in enumerate(_BENCH_FOR_SLOT):
        if u() < RATES.bench_start and roster[bench] not in lineup:
            lineup[slot] = roster[bench]
    defense = {}
    for slot, pid in enumerate(lineup):
        positions[pid] = FIELD_POSITIONS[slot]
        defense[FIELD_POSITIONS[slot]] = pid
        lines[pid] = new_line()
    order = [lineup[k] for k in rng.permutation(9)]
    starter = roster[_ROTATION + g.team_games[s] % 5]
    bullpen = [roster[_BULLPEN + k] for k in rng.permutation(8)]
    positions[starter] = "P"
    lines[starter] = new_line()
    lines[starter][GS] = 1
    return Side(order, defense, starter, bullpen)


def _play_half_inning(game: GameState, ghost_runner: bool) -> bool:
    """Plate appearances until three outs (``game.begin_half`` first); True when the home team
    walks off."""
    batting, fielding = game.batting, game.fielding
    lines = game.lines
    pitcher = fielding.pitcher
    if pitcher != fielding.starter and lines[pitcher][OUTS] - fielding.outs_at_entry >= RATES.reliever_outs:
        change_pitcher(game, fielding)  # a reliever who has done his inning
    if ghost_runner and game.inning > REGULATION_INNINGS:
        game.bases[1] = batting.order[(batting.batters_up - 1) % 9]  # the last batter starts on second
    score = game.score
    while game.outs < 3:
        line = lines[fielding.pitcher]
        if line[PIT] >= fielding.pitch_limit or (fielding.pitcher == fielding.starter
                                                  and line[RA] >= RATES.starter_runs):
            change_pitcher(game, fielding)
        attempt_steal(game)
        if game.outs == 3:
            break
        plate_appearance(game)
        if game.half == 1 and game.inning >= REGULATION_INNINGS and score[1] > score[0]:
            return True
    return False


def plate_appearance(game: GameState) -> None:
    """The next batter's turn: its outcome (from the batting side's chances) and a pitch
    sequence that ends that way, then the event (``events.resolve``)."""
    side = game.batting
    u = game.u
    batter = side.order[side.batters_up % 9]
    side.batters_up += 1
    # The first outcome whose cumulative chance reaches the draw (the last if rounding left the
    # sum short of it).
    outcome = OUTCOMES[min(bisect_left(side.bounds, u()), _LAST_OUTCOME)]
    pool = outcome if outcome in ("K", "BB", "HBP") else "X"
    sequence = POOLS[pool][u.pick(POOL_SIZES[pool])]
    pitcher = game.fielding.pitcher
    if game.record_pitches:
        game.pitches.append(PlatePitches(len(game.plays), game.inning, game.half, pitcher, batter,
                                         sequence.codes, sequence.counts))
    lines = game.lines
    pitcher_line = lines[pitcher]
    pitcher_line[PIT] += len(sequence.codes)
    pitcher_line[BF] += 1
    lines[batter][PA] += 1
    resolve(game, PlateAppearance(batter, pitcher, sequence.codes, sequence.the_count), outcome)


def _credit_decisions(game: GameState, winner: int) -> set[int]:
    """Win to the winners' pitcher when they last took the lead for good, loss to the pitcher
    who gave it up; a save to the winners' last pitcher, if another, holding a close lead.
    Returns the pitchers with the win or the save (who cannot also hold)."""
    decisive = next((x for x in reversed(game.go_ahead) if x[0] == winner), None)
    if decisive is None:
        return set()
    _, winning_pitcher, losing_pitcher = decisive
    game.lines[winning_pitcher][W] += 1
    game.lines[losing_pitcher][L] += 1
    closer = game.sides[winner].pitcher
    margin = game.score[winner] - game.score[1 - winner]
    if closer != winning_pitcher and margin <= RATES.save_margin:
        game.lines[closer][SV] += 1
        return {winning_pitcher, closer}
    return {winning_pitcher}


@dataclass(slots=True)
class _ScoredPlay:
    """A play as the hold rule reads it (``server.ingest.holds.Play``): runs here are charged
    to the pitcher on the mound."""

    batting: int
    pitcher: int | None
    score: tuple[int, int]
    bases_before: int
    credits: dict[int, dict[str, int]]


def _credit_holds(game: GameState, decided: set[int]) -> None:
    """A hold to each reliever the rule credits, from the plays' running score."""
    score = [0, 0]
    scored = []
    for play in game.plays:
        score[play.side] += play.points
        credit = {"OUTS": (play.outs or 0) - (play.outs_before or 0), "RA": play.points}
        scored.append(_ScoredPlay(play.side, play.pitcher, (score[0], score[1]), play.bases_before or 0,
                                  {play.pitcher: credit} if play.pitcher is not None else {}))
    for pitcher in holds(scored, decided):
        game.lines[pitcher][HLD] += 1


def _box_lines(game: GameState) -> list[PlayerLine]:
    """Each side's batters in batting order, then its pitchers in order of appearance."""
    out: list[PlayerLine] = []
    for s, side in enumerate(game.sides):
        seen = list(side.order)
        for pid in [side.starter] + side.bullpen[:side.relievers_used]:
            if pid not in seen:
                seen.append(pid)
        slots = {pid: k for k, pid in enumerate(side.order, start=1)}  # no one bats for anyone
        for pid in seen:
            out.append(PlayerLine(pid, s, pid in side.order or pid == side.starter,
                                  game.positions.get(pid, "P"),
                                  clean(dict(zip(STAT_CODES, game.lines[pid]))), slots.get(pid)))
    return out
