"""Baseball's in-game win probability (server.models.winprob) on known states.

The run distributions come from half innings a tiny seeded simulator plays here (outs, walks,
singles, doubles and homers at about MLB's rates), read the way the model reads a season: plays
with the state after each, through ``half_innings`` and ``fit_runs``. The asserted values are
facts of the game (a walk-off is a win, a team trailing after its last at-bat has lost, the line
starts at the pre-game forecast) or what any baseball fan knows (a 10-run lead in the 9th), never
numbers read back from the model.
"""
from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest

from server.models import winprob as wp

# chances per plate appearance: out, walk, single, double, homer (MLB 2022: .68/.09/.14/.045/.03)
OUTCOMES = ("out", "walk", "single", "double", "homer")
CHANCES = (0.68, 0.09, 0.155, 0.045, 0.03)


def _advance(bases: int, outcome: str) -> tuple[int, int]:
    """Runners after the outcome and the runs it scored (a simple textbook runner model)."""
    on = [bool(bases & 1), bool(bases & 2), bool(bases & 4)]
    if outcome == "walk":
        runs = int(on[0] and on[1] and on[2])
        forced = [True, on[0] or on[1], on[2] or (on[0] and on[1])]
        return sum(1 << i for i in range(3) if forced[i]), runs
    if outcome == "single":  # runners from second and third score, from first to second
        return 1 | (2 if on[0] else 0), int(on[1]) + int(on[2])
    if outcome == "double":  # everyone on second or third scores, first to third
        return 2 | (4 if on[0] else 0), int(on[1]) + int(on[2])
    return 0, 1 + sum(on)  # homer


def _simulated_halves(halves: int, seed: int = 11) -> dict[str, np.ndarray]:
    """Plays of ``halves`` half innings, each as the top of the 1st of its own game: the state
    after every play, the visitor's score, and the plays' events."""
    rng = np.random.default_rng(seed)
    cols: dict[str, list[int]] = {k: [] for k in ("game", "outs", "bases", "score_vis")}
    for g in range(halves):
        outs = bases = runs = 0
        while outs < 3:
            outcome = OUTCOMES[rng.choice(len(OUTCOMES), p=CHANCES)]
            if outcome == "out":
                outs += 1
            else:
                bases, scored = _advance(bases, outcome)
                runs += scored
            for k, v in (("game", g), ("outs", outs), ("bases", bases), ("score_vis", runs)):
                cols[k].append(v)
    return {k: np.array(v) for k, v in cols.items()}


NINE = wp.Rules()  # nine innings, no automatic runner


@pytest.fixture(scope="module")
def model() -> wp.RunModel:
    p = _simulated_halves(20_000)
    n = len(p["game"])
    halves = wp.half_innings(p["game"], np.ones(n), np.zeros(n, bool), p["outs"], p["bases"],
                             p["score_vis"], np.zeros(n), np.full(n, 9), np.zeros(n, bool))
    assert halves.complete.all()
    return wp.fit_runs(wp.state_index(halves.outs, halves.bases), halves.runs_after)


def _chance(model: wp.RunModel, prior: float, inning: int, bottom: bool, outs: int, bases: int,
            lead: int, rules: wp.Rules = NINE) -> float:
    table = wp.win_table(model, rules)
    return float(wp.home_win_probability(table, wp.strength_for(table, np.array([prior])),
                                         np.array([inning]), np.array([bottom]),
                                         np.array([outs]), np.array([bases]),
                                         np.array([lead]))[0])


def test_run_expectancy_falls_with_outs_and_rises_with_runners(model: wp.RunModel) -> None:
    re24 = model.run_expectancy().reshape(3, 8)
    assert 0.3 < re24[0, 0] < 0.7  # about half a run an inning, as in MLB
    assert (np.diff(re24, axis=0) < 0).all()  # each base state: more outs, fewer runs
    assert (re24[:, 7] > re24[:, 0] + 0.5).all()  # bases loaded is worth far more than empty
    assert np.allclose(model.runs.sum(axis=1), 1.0)


@pytest.mark.parametrize("prior", [0.35, 0.5, 0.54, 0.68])
def test_the_line_starts_at_the_pregame_forecast(model: wp.RunModel, prior: float) -> None:
    assert _chance(model, prior, 1, False, 0, wp.EMPTY, 0) == pytest.approx(prior, abs=1e-3)
    auto = wp.Rules(9, automatic_runner=True)
    assert _chance(model, prior, 1, False, 0, wp.EMPTY, 0, auto) == pytest.approx(prior, abs=1e-3)


def test_bottom_of_the_ninth_tied_bases_loaded_two_out_favours_the_home_team(
        model: wp.RunModel) -> None:
    loaded = _chance(model, 0.5, 9, True, 2, 7, 0)
    assert 0.6 < loaded < 0.85  # one run wins it; failing that, extra innings at about even
    assert loaded > _chance(model, 0.5, 9, True, 2, wp.EMPTY, 0)


def test_a_ten_run_lead_in_the_ninth_is_all_but_won(model: wp.RunModel) -> None:
    assert _chance(model, 0.5, 9, False, 0, wp.EMPTY, 10) > 0.999
    assert _chance(model, 0.5, 9, False, 0, wp.EMPTY, -10) < 0.001
    assert _chance(model, 0.3, 9, True, 0, wp.EMPTY, -10) < 0.001  # a strong visitor as well


def test_states_where_the_game_is_over_are_won_or_lost(model: wp.RunModel) -> None:
    assert _chance(model, 0.2, 9, True, 1, 1, 1) == 1.0  # a walk-off
    assert _chance(model, 0.2, 12, True, 0, 0, 2) == 1.0  # a walk-off homer in the 12th
    assert _chance(model, 0.8, 9, True, 3, 0, -1) == 0.0  # last at-bat over, behind
    assert _chance(model, 0.8, 11, True, 3, 5, -2) == 0.0
    assert _chance(model, 0.2, 9, False, 3, 0, 1) == 1.0  # ahead after the top of the 9th
    assert 0.0 < _chance(model, 0.8, 8, True, 3, 0, -1) < 0.5  # an inning left to play
    seven = wp.Rules(7)  # a seven-inning doubleheader game ends after the 7th
    assert _chance(model, 0.8, 7, True, 3, 0, -1, seven) == 0.0
    assert _chance(model, 0.2, 7, True, 0, 4, 1, seven) == 1.0
    assert 0.0 < _chance(model, 0.8, 7, True, 3, 0, -1) < 0.5  # nine innings: two to go


def test_chances_move_the_right_way(model: wp.RunModel) -> None:
    leads = [_chance(model, 0.5, 5, False, 1, 1, d) for d in range(-4, 5)]
    assert all(a < b for a, b in pairwise(leads))
    priors = [_chance(model, p, 5, False, 1, 1, 0) for p in (0.3, 0.45, 0.5, 0.6, 0.7)]
    assert all(a < b for a, b in pairwise(priors))
    # runners help the batting side: the visitor in the top, the home team in the bottom
    assert _chance(model, 0.5, 6, False, 0, 7, 0) < _chance(model, 0.5, 6, False, 0, 0, 0)
    assert _chance(model, 0.5, 6, True, 0, 7, 0) > _chance(model, 0.5, 6, True, 0, 0, 0)
    # a lead is worth more the later it is
    assert _chance(model, 0.5, 8, False, 0, 0, 2) > _chance(model, 0.5, 2, False, 0, 0, 2)


def test_extra_innings_with_and_without_the_automatic_runner(model: wp.RunModel) -> None:
    auto = wp.Rules(9, automatic_runner=True)
    plain = wp.Rules(9)
    # the bottom of the 9th over, tied: the 10th starts (a runner on second with the rule)
    for rules in (auto, plain):
        tenth = _chance(model, 0.5, 9, True, 3, 0, 0, rules)
        assert tenth == pytest.approx(0.5, abs=1e-3)  # an even match
        assert tenth == pytest.approx(_chance(model, 0.5, 14, True, 3, 0, 0, rules), abs=1e-12)
    table = wp.win_table(model, auto)
    start = wp.state_index(0, wp.SECOND)
    assert _chance(model, 0.5, 9, True, 3, 0, 0, auto) == pytest.approx(
        table.chance[32, 9, 0, start, wp.MAX_LEAD], abs=1e-12)  # STRENGTHS[32] == 0
    # with the runner on second the visitor scores more in the top of the 10th
    assert _chance(model, 0.5, 10, False, 0, wp.SECOND, 0, auto) < \
        _chance(model, 0.5, 10, False, 0, wp.EMPTY, 0, plain)


def test_half_innings_reads_the_state_each_play_began_in() -> None:
    # game 1: top 1st (walk, homer, 3 outs), bottom 1st (a single, 3 outs), then the top of the
    # 10th of game 2 under the automatic runner rule, cut short by a walk-off-free rain end
    game = np.array([1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2])
    inning = np.array([1, 1, 1, 1, 1, 1, 1, 1, 1, 10, 10])
    bottom = np.array([0, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0], dtype=bool)
    outs = np.array([0, 0, 1, 2, 3, 0, 1, 2, 3, 1, 1])
    bases = np.array([1, 0, 0, 0, 0, 1, 2, 2, 2, 4, 0])
    vis = np.array([0, 2, 2, 2, 2, 2, 2, 2, 2, 0, 1])
    home = np.zeros(11, dtype=int)
    h = wp.half_innings(game, inning, bottom, outs, bases, vis, home, np.full(11, 9),
                        np.array([False] * 9 + [True] * 2))
    assert h.outs.tolist() == [0, 0, 0, 1, 2, 0, 0, 1, 2, 0, 1]
    assert h.bases.tolist() == [0, 1, 0, 0, 0, 0, 1, 2, 2, wp.SECOND, 4]
    assert h.lead.tolist() == [0, 0, -2, -2, -2, -2, -2, -2, -2, 0, 0]
    assert h.runs_after.tolist() == [2, 2, 0, 0, 0, 0, 0, 0, 0, 1, 1]
    assert h.complete.tolist() == [True] * 9 + [False] * 2


def test_a_state_never_seen_borrows_the_shape_of_its_out_count() -> None:
    # visits to bases empty and man on first with nobody out only
    fitted = wp.fit_runs(np.array([0, 0, 0, 1, 1]), np.array([0, 0, 1, 2, 0]))
    assert fitted.visits.tolist()[:3] == [3, 2, 0]
    pooled = np.array([3, 1, 1]) / 5  # 0, 1 and 2 runs among the five no-out visits
    assert fitted.runs[2, :3] == pytest.approx(pooled)  # runner on second: never seen
    # a seen state is shrunk toward the pooled shape, not replaced by it: between the two
    assert pooled[0] < fitted.runs[0, 0] < 2 / 3
    assert np.allclose(fitted.runs.sum(axis=1), 1.0)


def test_games_under_different_rules_in_one_call(model: wp.RunModel) -> None:
    p = wp.home_win_probabilities(model, np.array([0.6, 0.6, np.nan]), np.array([9, 7, 9]),
                                  np.array([True, True, False]), np.array([1, 7, 1]),
                                  np.array([False, True, False]), np.array([0, 3, 0]),
                                  np.array([0, 0, 0]), np.array([0, -1, 0]))
    assert p[0] == pytest.approx(0.6, abs=1e-3)
    assert p[1] == 0.0
    # no forecast: an even matchup (batting last is no edge between equal teams: the skipped
    # bottom of the 9th and a walk-off's runs never change who wins)
    assert p[2] == pytest.approx(0.5, abs=1e-9)


TWELVE = wp.Rules(9, last_inning=12)  # NPB's and KBO's regular season: a tie after the 12th


def test_a_league_that_stops_at_twelve_ends_a_tied_game_at_the_tie(model: wp.RunModel) -> None:
    """Tied when the 12th is over is a tie, half a win; before that, a tie caps what extra
    innings are worth to the favourite; the line still starts at the forecast."""
    assert _chance(model, 0.7, 12, True, 3, wp.EMPTY, 0, TWELVE) == 0.5
    assert _chance(model, 0.7, 12, True, 3, wp.EMPTY, 0) != 0.5  # elsewhere they play on
    assert _chance(model, 0.7, 12, True, 1, 1, 1, TWELVE) == 1.0  # a walk-off still wins
    # the favoured home team tied in the top of the 12th: it can still win, but not past the tie
    capped = _chance(model, 0.7, 12, False, 0, wp.EMPTY, 0, TWELVE)
    assert 0.5 < capped < _chance(model, 0.7, 12, False, 0, wp.EMPTY, 0)
    # a tie in the bottom of the 12th with the bases loaded and two out: a run wins, else a tie
    loaded = _chance(model, 0.7, 12, True, 2, 7, 0, TWELVE)
    assert 0.5 < loaded < _chance(model, 0.7, 12, True, 2, 7, 0)
    for prior in (0.35, 0.6):
        assert _chance(model, prior, 1, False, 0, wp.EMPTY, 0, TWELVE) == \
            pytest.approx(prior, abs=1e-3)
