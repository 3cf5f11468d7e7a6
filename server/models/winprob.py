"""Baseball's in-game win probability: the home team's chance to win from the state of a game.

Method: a run-distribution Markov model, not an empirical table of outcomes over game states.
The state after any play is (inning, half, outs, runners, home lead). An empirical table over
all of it has about 20 innings x 2 halves x 24 base-out states x 30 leads = 29,000 cells, most
of them seen a handful of times in two seasons (a 7-run lead with the bases loaded in the 3rd),
so its rare cells would be noise. The Markov model learns only 24 distributions: the runs the
batting team scores in the rest of a half inning from each base-out state (``fit_runs``, every
state seen hundreds to tens of thousands of times a season, and shrunk toward the pooled
distribution of its out count where it is not). Innings are independent draws from those
distributions, so the chance to win from any state is a short recursion backwards from the last
inning (``win_table``): the recursion smooths the rare states by construction. This is the
model of Tango, Lichtman and Dolphin's *The Book* (2007, ch. 1) and of the published "win
expectancy" tables; its ingredients (the run expectancy of the 24 states) are RE24's.

The rules it knows: a game of ``regulation`` innings (9; 7 in MLB's 2021 doubleheaders), the
bottom half not played when the home team leads after the top of the last one, a walk-off ending
the game the moment the home team leads in the bottom of the last inning or later, extra innings
until an inning ends with a lead, and an automatic runner on second base at the start of every
extra half inning (``automatic_runner``: MLB's regular seasons from 2020 on). Where a league
stops a game after ``last_inning`` (NPB's and KBO's 12 in the regular season), a game still tied
then is a tie, which the line counts as half a win, as the ELO expectation and the scores do:
the home side's chance is its chance to win plus half its chance of a tie, and a tied game's
line ends at 0.5.

Team strength: the pre-game ELO forecast is the prior. The home side's run distributions are
exponentially tilted by ``s`` (each probability times ``exp(s x runs)``, renormalised) and the
visitor's by ``-s``; the strength ``s`` of a game is the one whose pre-game chance is the ELO
forecast, so the line starts at that forecast and every later state keeps the same matchup. The
tilts are precomputed on a grid (``STRENGTHS``) and a game's chances interpolated between its
two nearest grid points, so applying the model to a season is table look-ups
(``home_win_probabilities``: 220,000 plays, a season's, in 0.3 s with its table built, on this
2-core machine shared with other work).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

# The events that end a plate appearance (the store's ``plays.event``: Retrosheet's, then the
# simulator's own outs); the others are runners' plays (steals, wild pitches, pickoffs) and
# substitutions.
PLATE_APPEARANCES = frozenset({"single", "double", "triple", "homer", "walk", "ibb", "hbp",
                               "strikeout", "out", "fc", "error", "interference",
                               "hit_by_pitch", "groundout", "flyout", "double_play", "sac_fly"})
MAX_RUNS = 12  # runs in the rest of a half inning; more are counted as this many (1 in 10^4 halves)
MAX_LEAD = 30  # leads beyond this many runs are this many (the chance is 0 or 1 to 6 places)
OUT_STATES = 3  # outs before the half ends: 0, 1, 2
BASE_STATES = 8  # runners as bits: 1 first, 2 second, 4 third
STATES = OUT_STATES * BASE_STATES  # the 24 base-out states
EMPTY = 0  # no runner on base
SECOND = 2  # a runner on second only: where the automatic runner starts
# Visits of the pooled distribution (same out count) a state's own counts are shrunk toward:
# nothing for a state seen thousands of times, most of the estimate for one seen a dozen times.
PRIOR_VISITS = 25.0
# Tilts of the run distributions (home +s, visitor -s) the tables are built for. +-0.8 spans
# pre-game chances of about .18 to .82, wider than any ELO forecast of a baseball game.
STRENGTHS = np.linspace(-0.8, 0.8, 65)
RUNS = np.arange(MAX_RUNS + 1)
LEADS = np.arange(-MAX_LEAD, MAX_LEAD + 1)


def state_index(outs: np.ndarray | int, bases: np.ndarray | int) -> np.ndarray:
    """The base-out state's index, 0..23: ``outs x 8 + bases``."""
    return np.asarray(outs, dtype=np.int64) * BASE_STATES + np.asarray(bases, dtype=np.int64)


@dataclass(frozen=True)
class RunModel:
    """What the model learnt: ``runs[state, r]`` the chance the batting team scores ``r`` more
    runs in the half inning from base-out state ``state`` (``state_index``; r = MAX_RUNS stands
    for that many or more), and ``visits[state]`` the observations behind each row."""

    runs: np.ndarray  # (STATES, MAX_RUNS + 1), rows sum to 1
    visits: np.ndarray  # (STATES,)

    def run_expectancy(self) -> np.ndarray:
        """Expected runs in the rest of the half inning from each state (RE24), (STATES,)."""
        out: np.ndarray = self.runs @ RUNS
        return out


def fit_runs(states: np.ndarray, runs_after: np.ndarray) -> RunModel:
    """Learn the run distributions from observed visits: ``states[i]`` a base-out state
    (``state_index``) seen in a half inning that was played to its third out, ``runs_after[i]``
    the runs the batting team scored from then to the end of that half.

    Each state's empirical distribution is shrunk toward the pooled distribution of the states
    with the same outs by ``PRIOR_VISITS`` pseudo-visits (a rare state borrows its shape from
    its neighbours; a common one keeps its own)."""
    states = np.asarray(states, dtype=np.int64)
    runs = np.minimum(np.asarray(runs_after, dtype=np.int64), MAX_RUNS)
    counts = np.zeros((STATES, MAX_RUNS + 1))
    np.add.at(counts, (states, runs), 1.0)
    visits = counts.sum(axis=1)
    by_outs = counts.reshape(OUT_STATES, BASE_STATES, MAX_RUNS + 1).sum(axis=1)
    pooled = (by_outs + 1e-9) / (by_outs + 1e-9).sum(axis=1, keepdims=True)
    prior = np.repeat(pooled, BASE_STATES, axis=0)
    dist = (counts + PRIOR_VISITS * prior) / (visits[:, None] + PRIOR_VISITS)
    return RunModel(runs=dist, visits=visits)


class Rules(NamedTuple):
    """The rules of one game that change the chances: innings in a regulation game, and whether
    every extra half inning starts with a runner on second."""

    regulation: int = 9
    automatic_runner: bool = False
    last_inning: int = 0  # a game still tied after this inning ends tied; 0: played to a result


@dataclass(frozen=True)
class WinTable:
    """The home team's chance to win, ``chance[k, inning, half, state, lead]``: strength
    ``STRENGTHS[k]``, inning 1..regulation+1 at index 0..regulation (the last index stands for
    every extra inning: they are alike; with a ``last_inning``, innings 1..last_inning, a tie
    counting half), half 0 top / 1 bottom, base-out state before the rest
    of the half is played, home lead ``LEADS``. ``pregame[k]`` is the chance before the first
    pitch (top of the 1st, nobody on, tied)."""

    rules: Rules
    chance: np.ndarray
    pregame: np.ndarray


def _tilted(runs: np.ndarray, strengths: np.ndarray) -> np.ndarray:
    """Each run distribution tilted by each strength: (len(strengths), STATES, MAX_RUNS + 1)."""
    w = runs[None, :, :] * np.exp(strengths[:, None, None] * RUNS[None, None, :])
    out: np.ndarray = w / w.sum(axis=2, keepdims=True)
    return out


# Lead after the batting team scores r, clipped to the table: visitor batting (d - r), home (d + r).
_AFTER_VISITOR = np.clip(LEADS[:, None] - RUNS[None, :], -MAX_LEAD, MAX_LEAD) + MAX_LEAD
_AFTER_HOME = np.clip(LEADS[:, None] + RUNS[None, :], -MAX_LEAD, MAX_LEAD) + MAX_LEAD


def _expect(dist: np.ndarray, after: np.ndarray, value: np.ndarray) -> np.ndarray:
    """``sum_r dist[k, s, r] x value[k, after[d, r]]``: the chance from every state and lead
    when the rest of the half adds r runs with ``dist`` and ``value`` is the chance once the
    half is over. (K, STATES, MAX_RUNS+1) x (K, leads) -> (K, STATES, leads)."""
    out: np.ndarray = np.einsum("ksr,kdr->ksd", dist, value[:, after])
    return out


def _last_at_bat(dist: np.ndarray, extra: np.ndarray) -> np.ndarray:
    """The home team batting in the last inning or later: it wins once it leads (the game
    stops there), goes to extra innings (worth ``extra[k]``) if it ties, loses otherwise.
    From every state and lead: (K, STATES, leads)."""
    # at_least[k, s, n]: chance of n or more runs, n = 0..MAX_RUNS + 1
    tail = np.cumsum(dist[:, :, ::-1], axis=2)[:, :, ::-1]
    at_least = np.concatenate([tail, np.zeros(dist.shape[:2] + (1,))], axis=2)
    need = np.clip(1 - LEADS, 0, MAX_RUNS + 1)  # runs to lead
    tie = np.clip(-LEADS, 0, MAX_RUNS + 1)  # runs to tie
    exact = np.concatenate([dist, np.zeros(dist.shape[:2] + (1,))], axis=2)
    out: np.ndarray = at_least[:, :, need] + np.where(LEADS <= 0, exact[:, :, tie], 0.0) \
        * extra[:, None, None]
    return np.where(LEADS > 0, 1.0, out)


def win_table(model: RunModel, rules: Rules, strengths: np.ndarray = STRENGTHS) -> WinTable:
    """The chance from every state of a game under ``rules``, for each strength, by recursion
    backwards from extra innings (which repeat, so their value solves x = A + B x).

    Measured: 0.1 s for the 65 strengths of ``STRENGTHS`` (2-core machine)."""
    n = rules.regulation
    home = _tilted(model.runs, strengths)
    visitor = _tilted(model.runs, -strengths)
    start = EMPTY  # the base-out state index of nobody out, nobody on
    extra_start = state_index(0, SECOND).item() if rules.automatic_runner else start
    k = len(strengths)
    if rules.last_inning:
        return _capped_table(rules, home, visitor, start, extra_start)
    # Extra innings, tied at the start of the top half: the visitor scores v, then the home team
    # wins with v + 1 or more and plays another extra inning with exactly v.
    v_dist = visitor[:, extra_start, :]
    h_dist = home[:, extra_start, :]
    h_tail = np.cumsum(h_dist[:, ::-1], axis=1)[:, ::-1]
    h_more = np.concatenate([h_tail[:, 1:], np.zeros((k, 1))], axis=1)  # P(h >= v + 1)
    a = (v_dist * h_more).sum(axis=1)
    b = (v_dist * h_dist).sum(axis=1)
    extra = a / (1.0 - b)
    chance = np.zeros((k, n + 1, 2, STATES, len(LEADS)))
    # extra innings (index n): the bottom half is a last at-bat; the top half leads into it
    bottom = _last_at_bat(home, extra)
    chance[:, n, 1] = bottom
    chance[:, n, 0] = _expect(visitor, _AFTER_VISITOR, bottom[:, extra_start, :])
    # the last regulation inning: a last at-bat from the usual empty-bases start
    bottom = _last_at_bat(home, extra)
    chance[:, n - 1, 1] = bottom
    chance[:, n - 1, 0] = _expect(visitor, _AFTER_VISITOR, bottom[:, start, :])
    for i in range(n - 2, -1, -1):
        next_top = chance[:, i + 1, 0, start, :]
        chance[:, i, 1] = _expect(home, _AFTER_HOME, next_top)
        chance[:, i, 0] = _expect(visitor, _AFTER_VISITOR, chance[:, i, 1, start, :])
    np.clip(chance, 0.0, 1.0, out=chance)  # sums of products stray past 1 by ~1e-15
    return WinTable(rules=rules, chance=chance, pregame=chance[:, 0, 0, start, MAX_LEAD].copy())


TIE_VALUE = 0.5  # a tie, where a league allows one, counts half a win


def _capped_table(rules: Rules, home: np.ndarray, visitor: np.ndarray, start: int,
                  extra_start: int) -> WinTable:
    """``win_table`` for a league that stops a tied game after ``rules.last_inning``: every
    inning its own index, the recursion starting from the last one, where a tie at the end of
    the bottom half is worth ``TIE_VALUE``; from the last regulation inning on, each bottom half
    is a last at-bat whose tie goes on to the next inning."""
    n, last = rules.regulation, rules.last_inning
    k = home.shape[0]
    chance = np.zeros((k, last, 2, STATES, len(LEADS)))
    tied_on = np.full(k, TIE_VALUE)  # the value of a tie after the inning being filled in
    for i in range(last - 1, -1, -1):
        inning = i + 1
        first = extra_start if inning > n else start  # where this inning's halves begin
        if inning >= n:
            bottom = _last_at_bat(home, tied_on)
        else:
            bottom = _expect(home, _AFTER_HOME, chance[:, i + 1, 0, start, :])
        chance[:, i, 1] = bottom
        chance[:, i, 0] = _expect(visitor, _AFTER_VISITOR, bottom[:, first, :])
        tied_on = chance[:, i, 0, first, MAX_LEAD]
    np.clip(chance, 0.0, 1.0, out=chance)
    return WinTable(rules=rules, chance=chance, pregame=chance[:, 0, 0, start, MAX_LEAD].copy())


def strength_for(table: WinTable, prior: np.ndarray) -> np.ndarray:
    """The strength (a fractional index into ``STRENGTHS``) whose pre-game chance is ``prior``
    (the ELO forecast; NaN means an even matchup's table value). Priors beyond the grid's
    range are held at its ends."""
    p = np.asarray(prior, dtype=float)
    grid = np.arange(len(table.pregame), dtype=float)
    even = float(np.interp(0.0, STRENGTHS, grid))
    out: np.ndarray = np.where(np.isnan(p), even, np.interp(np.nan_to_num(p, nan=0.5),
                                                            table.pregame, grid))
    return out


def home_win_probability(table: WinTable, strength: np.ndarray, inning: np.ndarray,
                         bottom: np.ndarray, outs: np.ndarray, bases: np.ndarray,
                         lead: np.ndarray) -> np.ndarray:
    """The home team's chance to win from each state, one per row of the arrays.

    ``strength``: the game's ``strength_for``; ``inning`` from 1; ``bottom`` True in the home
    half; ``outs`` 0..3 and ``bases`` (bits 1 first, 2 second, 4 third) in that half, 3 outs
    meaning the half is over (the next half starts: nobody out, nobody on but an automatic
    runner); ``lead`` the home score minus the visitor's. A state where the game is over gives
    exactly 1 or 0: a walk-off, a lead after the top of the last inning, any lead once a bottom
    half of the last inning or later is over."""
    n = table.rules.regulation
    inning = np.asarray(inning, dtype=np.int64)
    bottom = np.asarray(bottom, dtype=bool)
    outs = np.asarray(outs, dtype=np.int64)
    bases = np.asarray(bases, dtype=np.int64)
    lead = np.asarray(lead, dtype=np.int64)
    over = outs >= 3
    # a finished half: the next one from its start
    next_inning = np.where(over & bottom, inning + 1, inning)
    next_bottom = np.where(over, ~bottom, bottom)
    start_bases = np.where(table.rules.automatic_runner & (next_inning > n), SECOND, EMPTY)
    last = table.rules.last_inning
    i = np.minimum(next_inning, last if last else n + 1) - 1
    state = np.where(over, state_index(0, start_bases), state_index(np.minimum(outs, 2), bases))
    d = np.clip(lead, -MAX_LEAD, MAX_LEAD) + MAX_LEAD
    s = np.asarray(strength, dtype=float)
    k0 = np.clip(np.floor(s).astype(np.int64), 0, len(table.pregame) - 2)
    w = s - k0
    c = table.chance
    h = next_bottom.astype(np.int64)
    p = (1.0 - w) * c[k0, i, h, state, d] + w * c[k0 + 1, i, h, state, d]
    final = over & bottom & (inning >= n) & (lead != 0)
    out: np.ndarray = np.where(final, (lead > 0).astype(float), p)
    if last:  # tied when the last inning is over: a tie
        out = np.where(over & bottom & (inning >= last) & (lead == 0), TIE_VALUE, out)
    return out


class HalfInnings(NamedTuple):
    """Each play's place in its half inning, from a season's plays (``half_innings``)."""

    outs: np.ndarray  # outs when the play began, 0..2
    bases: np.ndarray  # runners when the play began (bits)
    lead: np.ndarray  # home lead when the play began
    runs_after: np.ndarray  # runs the batting team scored from then to the end of the half
    complete: np.ndarray  # the half was played to its third out (False: a walk-off, a rain end)


def half_innings(game: np.ndarray, inning: np.ndarray, bottom: np.ndarray, outs: np.ndarray,
                 bases: np.ndarray, score_vis: np.ndarray, score_home: np.ndarray,
                 regulation: np.ndarray, automatic_runner: np.ndarray) -> HalfInnings:
    """The state in which each play began, and what followed in its half inning.

    The arrays hold one row per play, a game's plays together in order; ``outs``, ``bases``
    and the scores are the state after the play (the store's ``plays`` row), ``regulation``
    and ``automatic_runner`` the game's ``Rules``. A play begins from the state the play before
    it left, or from the start of its half (nobody out, nobody on but the automatic runner of an
    extra inning) when it is the half's first."""
    game = np.asarray(game)
    inning = np.asarray(inning, dtype=np.int64)
    bottom = np.asarray(bottom, dtype=bool)
    outs = np.asarray(outs, dtype=np.int64)
    bases = np.asarray(bases, dtype=np.int64)
    score_vis = np.asarray(score_vis, dtype=np.int64)
    score_home = np.asarray(score_home, dtype=np.int64)
    n = len(game)
    if n == 0:
        empty = np.zeros(0, dtype=np.int64)
        return HalfInnings(empty, empty, empty, empty, np.zeros(0, dtype=bool))
    new_game = np.r_[True, game[1:] != game[:-1]]
    new_half = new_game | np.r_[True, (inning[1:] != inning[:-1]) | (bottom[1:] != bottom[:-1])
                                | (outs[:-1] >= 3)]
    start_bases = np.where(np.asarray(automatic_runner, dtype=bool)
                           & (inning > np.asarray(regulation, dtype=np.int64)), SECOND, EMPTY)
    prev_outs = np.r_[0, outs[:-1]]
    prev_bases = np.r_[0, bases[:-1]]
    lead_after = score_home - score_vis
    lead = np.where(new_game, 0, np.r_[0, lead_after[:-1]])
    batting_after = np.where(bottom, score_home, score_vis)
    batting_before = np.where(new_game, 0, np.r_[0, np.where(bottom[1:], score_home[:-1],
                                                            score_vis[:-1])])
    half_id = np.cumsum(new_half) - 1
    last = np.r_[np.flatnonzero(new_half)[1:] - 1, n - 1]  # each half's last play
    return HalfInnings(
        outs=np.where(new_half, 0, prev_outs),
        bases=np.where(new_half, start_bases, prev_bases),
        lead=lead,
        runs_after=batting_after[last][half_id] - batting_before,
        complete=(outs[last] >= 3)[half_id],
    )


def home_win_probabilities(model: RunModel, prior: np.ndarray, regulation: np.ndarray,
                           automatic_runner: np.ndarray, inning: np.ndarray, bottom: np.ndarray,
                           outs: np.ndarray, bases: np.ndarray, lead: np.ndarray,
                           last_inning: np.ndarray | None = None) -> np.ndarray:
    """``home_win_probability`` for plays of games under different rules: one row per play, with
    its game's ELO forecast (``prior``) and ``Rules`` (``regulation``, ``automatic_runner``,
    ``last_inning``, 0 or absent where games are played to a result); one ``win_table`` per set
    of rules present."""
    regulation = np.asarray(regulation, dtype=np.int64)
    automatic_runner = np.asarray(automatic_runner, dtype=bool)
    last = np.zeros(len(regulation), dtype=np.int64) if last_inning is None \
        else np.asarray(last_inning, dtype=np.int64)
    prior = np.asarray(prior, dtype=float)
    out = np.full(len(regulation), np.nan)
    for reg, auto, cap in set(zip(regulation.tolist(), automatic_runner.tolist(), last.tolist())):
        m = (regulation == reg) & (automatic_runner == auto) & (last == cap)
        table = win_table(model, Rules(int(reg), bool(auto), int(cap)))
        out[m] = home_win_probability(table, strength_for(table, prior[m]),
                                      np.asarray(inning)[m], np.asarray(bottom)[m],
                                      np.asarray(outs)[m], np.asarray(bases)[m],
                                      np.asarray(lead)[m])
    return out
