"""Each simulated baseball event does to the game what it does on the field: forced runners
move up on a walk, a home run clears the bases, a third out strands the runners, a caught
stealing is an out, a spent bullpen leaves the pitcher in."""
from __future__ import annotations

import numpy as np

from server.ingest.simulator.games import Uniforms
from server.ingest.simulator.games.baseball.events import (
    attempt_steal, caught_stealing, change_pitcher, resolve,
)
from server.ingest.simulator.games.baseball.rates import RATES
from server.ingest.simulator.games.baseball.state import (
    AB, BB, BBA, CS, ER, FIELD_POSITIONS, HR, HRA, LOB, OUTS, PO, RA, RBI, SO, GameState,
    PlateAppearance, R, Side, new_line,
)
from server.ingest.simulator.world import Person

VISITOR_PITCHER, HOME_PITCHER = 10, 30
HOME_BULLPEN = [31, 32]


def _side(first: int, starter: int, bullpen: list[int]) -> Side:
    order = list(range(first, first + 9))
    return Side(order, dict(zip(FIELD_POSITIONS, order)), starter, bullpen)


def _game(bases: tuple[int | None, int | None, int | None] = (None, None, None), outs: int = 0,
          seed: int = 0) -> GameState:
    """The top of the third: the visitors (1-9) bat against the home team (21-29, pitcher 30)."""
    people = {pid: Person(pid, "First", f"Player{pid}", f"First Player{pid}", "P", "R", "R")
              for pid in range(1, 40)}
    game = GameState(people, Uniforms(np.random.default_rng(seed)),
                     (_side(1, VISITOR_PITCHER, [11, 12]), _side(21, HOME_PITCHER, list(HOME_BULLPEN))),
                     {pid: new_line() for pid in people}, {})
    game.inning = 3
    game.begin_half(0)
    game.outs = outs
    game.bases = list(bases)
    return game


def _turn(batter: int, sequence: str = "BX") -> PlateAppearance:
    return PlateAppearance(batter, HOME_PITCHER, sequence, "1-0")


def test_a_walk_with_the_bases_loaded_forces_in_a_run() -> None:
    game = _game(bases=(1, 2, 3))
    resolve(game, _turn(4, "BBBB"), "BB")
    assert game.bases == [4, 1, 2]
    assert game.score == [1, 0]
    assert game.lines[3][R] == 1
    assert game.lines[4][BB] == 1 and game.lines[4][RBI] == 1
    assert game.lines[HOME_PITCHER][BBA] == 1 and game.lines[HOME_PITCHER][RA] == 1
    play = game.plays[-1]
    assert (play.event, play.points, play.scoring) == ("walk", 1, True)
    assert play.explanation == "Player4 walked, Player3 scored"
    assert play.tags == "walk|scoring" and play.half == "top" and play.side == 0
    assert (play.outs, play.bases) == (0, 7)  # the state after it: still loaded, nobody out


def test_a_walk_moves_only_forced_runners() -> None:
    game = _game(bases=(None, 2, None))
    resolve(game, _turn(4, "BBBB"), "BB")
    assert game.bases == [4, 2, None]
    assert game.score == [0, 0]


def test_a_home_run_scores_every_runner_and_the_batter() -> None:
    game = _game(bases=(1, None, 3))
    resolve(game, _turn(4), "HR")
    assert game.bases == [None, None, None]
    assert game.score == [3, 0]
    assert [game.lines[p][R] for p in (1, 3, 4)] == [1, 1, 1]
    assert game.lines[4][HR] == 1 and game.lines[4][AB] == 1 and game.lines[4][RBI] == 3
    assert game.lines[HOME_PITCHER][HRA] == 1 and game.lines[HOME_PITCHER][ER] == 3
    assert game.plays[-1].explanation.endswith(", Player3, Player1 scored")
    assert game.go_ahead == [(0, VISITOR_PITCHER, HOME_PITCHER)]


def test_a_strikeout_is_the_catchers_putout() -> None:
    game = _game()
    resolve(game, _turn(4, "CFS"), "K")
    assert game.outs == 1
    assert game.lines[4][SO] == 1 and game.lines[4][AB] == 1
    assert game.lines[game.fielding.defense["C"]][PO] == 1
    assert game.plays[-1].explanation == "Player4 struck out swinging"


def test_the_third_out_strands_the_runners() -> None:
    game = _game(bases=(1, 2, 3), outs=2)
    resolve(game, _turn(4), "GO")
    assert game.outs == 3
    assert game.score == [0, 0]
    assert game.bases == [None, None, None]
    assert game.lines[4][LOB] == 3
    assert game.plays[-1].event == "groundout"
    assert (game.plays[-1].outs, game.plays[-1].bases) == (3, 0)  # the half is over


def test_a_grounder_with_a_runner_on_first_is_often_a_double_play() -> None:
    """Nobody out, runners on first and third: the double play scores the runner from third
    but gives no RBI; a ground out moves the runners up (over 60 games' draws, both happen)."""
    results = []
    for seed in range(60):
        game = _game(bases=(1, None, 3), seed=seed)
        resolve(game, _turn(4), "GO")
        results.append(game)
    double_plays = [g for g in results if g.plays[-1].event == "double_play"]
    ground_outs = [g for g in results if g.plays[-1].event == "groundout"]
    assert len(double_plays) + len(ground_outs) == len(results)
    assert 15 <= len(double_plays) <= 45  # RATES.double_play of 60
    assert all(g.outs == 2 and g.score == [1, 0] and g.lines[4][RBI] == 0 and g.bases == [None] * 3
               for g in double_plays)
    assert all(g.outs == 1 and g.bases[1] == 1 and g.score[0] + (g.bases[2] == 3) == 1
               for g in ground_outs)


def test_caught_stealing_is_an_out_and_clears_first() -> None:
    game = _game(bases=(1, None, None))
    caught_stealing(game, 1)
    assert game.outs == 1 and game.bases == [None, None, None]
    assert game.lines[1][CS] == 1 and game.lines[HOME_PITCHER][OUTS] == 1
    assert game.plays[-1].event == "caught_stealing"
    assert game.plays[-1].explanation == "Player1 caught stealing second base"
    assert (game.plays[-1].outs, game.plays[-1].bases) == (1, 0)
    assert (game.plays[-1].outs_before, game.plays[-1].bases_before) == (0, 1)


def test_nobody_steals_with_second_base_taken() -> None:
    for seed in range(30):
        game = _game(bases=(1, 2, None), seed=seed)
        attempt_steal(game)
        assert game.bases == [1, 2, None] and game.plays == []


def test_a_pitching_change_brings_in_the_next_reliever_until_the_bullpen_is_spent() -> None:
    game = _game()
    home = game.fielding
    change_pitcher(game, home)
    assert home.pitcher == home.defense["P"] == HOME_BULLPEN[0]
    assert game.positions[HOME_BULLPEN[0]] == "P"
    change_pitcher(game, home)
    assert home.pitcher == HOME_BULLPEN[1]
    limit = home.pitch_limit
    change_pitcher(game, home)
    assert home.pitcher == HOME_BULLPEN[1]
    assert home.pitch_limit == limit + RATES.spent_bullpen_pitches
