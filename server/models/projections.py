"""Season projections: a Monte Carlo of the rest of a season and its postseason (numpy, pure).

FiveThirtyEight's method ("How Our MLB Predictions Work", 2018; "How Our NBA Predictions Work",
2019): play every remaining regular-season game many times with the Elo win expectation, moving
both teams' ratings by the Elo update after each simulated game (a hot simulated streak carries
into later games, which widens the spread of outcomes as real seasons do), then play the
level's postseason (``server.catalog.playoffs``) on the final simulated ratings and records.

All simulations run at once: a season is cut into rounds in which no team plays twice (a
doubleheader spans two rounds), and each round is one set of array operations over
(simulations x games). Playoff series are not simulated game by game: a series' win probability
is exact given its per-game probabilities (the chance of winning at least ``need`` of all
``best_of`` games, as if every game were played), so one uniform draw decides it.

Equal final records are ordered by the format's declared tiebreakers (``server.models.
tiebreaks``), read from each simulated season's own head-to-head results: a teams x teams matrix
per simulation, kept only when a rule needs it. Its cost, CPU seconds on a busy 2-core machine
against the same code breaking ties by lot: one mid-season day at 10,000 seasons MLB 0.51 s
(0.47), NHL 0.39 s (0.31), NBA 0.33 s (0.24), 218 MB at peak (173); 2023's replay of 17-19
days at 2,000 seasons 1.3-1.5 s (1.2) per level.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from server.catalog.football import Split
from server.catalog.playoffs import PlayoffFormat
from server.catalog.tables import HOCKEY_POINTS
from server.models import tiebreaks
from server.models.elo import win_expectation
from server.models.football import AWAY, DRAW, HOME, three_way
from server.models.football_goals import ClubGoals, blended

N_SIMS = 10_000  # seasons per projection (the standard error of a probability <= 0.005)
SEED = 20240401  # fixed: the same inputs give the same projection
PAIR_RULES = ("head_to_head", "division", "league")  # tiebreakers read from games between pairs


@dataclass(frozen=True)
class SeasonState:
    """A season as of the end of a day. Team arrays are indexed 0..T-1 in ``team_ids`` order.

    ``ratings``: current Elo points; ``wins``/``losses``/``ties``: regular-season record so far
    (``ties`` are draws, or overtime losses where ``GameRules.ot_share`` > 0); ``group``: index
    of the team's league or conference (-1 unknown); ``division``: index of its division (-1
    unknown); ``home``/``visitor``: team indexes of the remaining regular-season games in the
    order they will be played; ``neutral``: those games at a neutral site. For the
    tiebreakers: ``h2h_wins[i, j]`` counts the played games team i won against team j,
    ``h2h_games[i, j]`` the played games between them, ``regulation_wins`` the wins not in
    overtime (None: no games played, all zeros)."""

    team_ids: np.ndarray
    ratings: np.ndarray
    wins: np.ndarray
    losses: np.ndarray
    ties: np.ndarray
    group: np.ndarray
    division: np.ndarray
    home: np.ndarray
    visitor: np.ndarray
    neutral: np.ndarray
    h2h_wins: np.ndarray | None = None
    h2h_games: np.ndarray | None = None
    regulation_wins: np.ndarray | None = None


@dataclass(frozen=True)
class GameRules:
    """How a simulated game is decided and rated.

    ``home_adv``: Elo points added to the home side (not at neutral sites); ``k``: Elo points per
    unit of (result - expectation) after a simulated game; ``draw_share``: share of games ending
    level (soccer draws, ties), most likely between even sides; ``ot_share``: share of games
    decided in overtime or a shootout, whose loser counts a T (an overtime loss) rather than an L;
    ``playoff_diff``: multiplier of the rating difference in playoff games (538 NHL: 1.25)."""

    home_adv: float
    k: float
    draw_share: float = 0.0
    ot_share: float = 0.0
    playoff_diff: float = 1.0


@dataclass(frozen=True)
class Projection:
    """Per team (``team_ids`` order): final-record means and percentiles, and probabilities
    (0-1; ``bye`` and ``playoff`` are None where the format has none)."""

    team_ids: np.ndarray
    proj_wins: np.ndarray
    proj_losses: np.ndarray
    proj_ties: np.ndarray
    wins_p10: np.ndarray
    wins_p90: np.ndarray
    proj_points: np.ndarray | None  # table points where the sport ranks by them (``points``)
    playoff: np.ndarray | None
    bye: np.ndarray | None
    title: np.ndarray


def rounds_of(home: np.ndarray, visitor: np.ndarray) -> np.ndarray:
    """Round number of each game (in play order) such that no team plays twice in a round and
    every team's games keep their order: a game goes one round after both teams' last game."""
    last: dict[int, int] = {}
    out = np.empty(len(home), dtype=np.int64)
    for i, (h, v) in enumerate(zip(home.tolist(), visitor.tolist(), strict=True)):
        r = max(last.get(h, -1), last.get(v, -1)) + 1
        out[i] = last[h] = last[v] = r
    return out


def series_win_probability(p_games: np.ndarray) -> np.ndarray:
    """Probability that the side winning each game with ``p_games[..., j]`` wins a best-of-n
    series (n = the last axis, odd): at least n // 2 + 1 of the n games, which is the same as
    winning the series however many games it takes. Exact (dynamic programming over games)."""
    n = p_games.shape[-1]
    dist = np.zeros((*p_games.shape[:-1], n + 1))
    dist[..., 0] = 1.0
    for j in range(n):
        p = p_games[..., j:j + 1]
        dist[..., 1:] = dist[..., 1:] * (1 - p) + dist[..., :-1] * p
        dist[..., 0:1] = dist[..., 0:1] * (1 - p)
    need = n // 2 + 1
    out: np.ndarray = dist[..., need:].sum(axis=-1)
    return out


def _home_pattern(best_of: int) -> np.ndarray:
    """Whether the higher seed is at home in each game: 2-2-1-1-1, 2-2-1, 1-1-1, 1."""
    pattern = {7: [1, 1, 0, 0, 1, 0, 1], 5: [1, 1, 0, 0, 1], 3: [1, 0, 1], 1: [1]}
    return np.array(pattern.get(best_of, [(j + 1) % 2 for j in range(best_of)]), dtype=bool)


class _Run:
    """One projection's simulated seasons: ratings and records (simulations x teams)."""

    def __init__(self, state: SeasonState, rules: GameRules, n_sims: int,
                 rng: np.random.Generator, tiebreak_rules: tuple[str, ...] = ()) -> None:
        self.rules = rules
        self.rng = rng
        # results are simulated, not goals: football's goal rules are left to the lot
        self.tiebreak_rules = tuple(r for r in tiebreak_rules if r not in tiebreaks.GOAL_RULES)
        self.group, self.division = state.group, state.division
        t = len(state.team_ids)
        # teams x simulations while the season is played (a team's row is contiguous, so the
        # per-round gathers and scatters are cheap); transposed for the postseason
        self.r = np.repeat(state.ratings.astype(float)[:, None], n_sims, axis=1)
        self.w = np.repeat(state.wins.astype(float)[:, None], n_sims, axis=1)
        self.lo = np.repeat(state.losses.astype(float)[:, None], n_sims, axis=1)
        self.ti = np.repeat(state.ties.astype(float)[:, None], n_sims, axis=1)
        self.n, self.t = n_sims, t
        # what the declared tiebreakers read: head-to-head wins per simulation (teams x teams x
        # simulations, int16: 20 MB for 10,000 seasons of 32 teams), the season's games between
        # each pair, regulation wins; kept only when a rule needs them
        self.h2h: np.ndarray | None = None
        self.pair_games = np.zeros((t, t))
        if any(r in PAIR_RULES for r in tiebreak_rules):
            played = (np.zeros((t, t)) if state.h2h_wins is None
                      else state.h2h_wins.astype(np.int16))
            self.h2h = np.repeat(np.asarray(played, dtype=np.int16)[:, :, None], n_sims, axis=2)
            self.pair_games = (np.zeros((t, t)) if state.h2h_games is None
                               else state.h2h_games.astype(float))
            np.add.at(self.pair_games, (state.home, state.visitor), 1.0)
            np.add.at(self.pair_games, (state.visitor, state.home), 1.0)
        self.rw: np.ndarray | None = None
        if "regulation_wins" in tiebreak_rules:
            start = np.zeros(t) if state.regulation_wins is None else state.regulation_wins
            self.rw = np.repeat(start.astype(float)[:, None], n_sims, axis=1)

    def play_regular(self, state: SeasonState) -> None:
        if not len(state.home):
            self.finish()
            return
        rules = self.rules
        rounds = rounds_of(state.home, state.visitor)
        order = np.argsort(rounds, kind="stable")
        bounds = np.flatnonzero(np.diff(rounds[order])) + 1
        for idx in np.split(order, bounds):
            h, v = state.home[idx], state.visitor[idx]
            adv = np.where(state.neutral[idx], 0.0, rules.home_adv)[:, None]
            we = win_expectation(self.r[h] - self.r[v] + adv)
            assert isinstance(we, np.ndarray)
            u = self.rng.random(we.shape)
            if rules.draw_share > 0:
                draw = rules.draw_share * 4.0 * we * (1.0 - we)
                home_win = u < we - draw / 2
                away_win = u >= we + draw / 2
                result = np.where(home_win, 1.0, np.where(away_win, 0.0, 0.5))
                level = ~home_win & ~away_win
                self.ti[h] += level
                self.ti[v] += level
            else:
                home_win = u < we
                away_win = ~home_win
                result = home_win.astype(float)
            self.w[h] += home_win
            self.w[v] += away_win
            if self.h2h is not None:  # (h, v) pairs are distinct within a round
                self.h2h[h, v] += home_win
                self.h2h[v, h] += away_win
            if rules.ot_share > 0:
                ot = self.rng.random(we.shape) < rules.ot_share
                if self.rw is not None:
                    self.rw[h] += home_win & ~ot
                    self.rw[v] += away_win & ~ot
                self.ti[h] += away_win & ot
                self.ti[v] += home_win & ot
                self.lo[h] += away_win & ~ot
                self.lo[v] += home_win & ~ot
            else:
                self.lo[h] += away_win
                self.lo[v] += home_win
                if self.rw is not None:
                    self.rw[h] += home_win
                    self.rw[v] += away_win
            delta = rules.k * (result - we)
            self.r[h] += delta
            self.r[v] -= delta
        self.finish()

    def finish(self) -> None:
        """Simulations x teams from here on (the postseason picks per simulation)."""
        self.r = np.ascontiguousarray(self.r.T)
        self.w = np.ascontiguousarray(self.w.T)
        self.lo = np.ascontiguousarray(self.lo.T)
        self.ti = np.ascontiguousarray(self.ti.T)
        if self.h2h is not None:
            self.h2h = np.ascontiguousarray(np.moveaxis(self.h2h, 2, 0))
        if self.rw is not None:
            self.rw = np.ascontiguousarray(self.rw.T)

    def rank_value(self, fmt: PlayoffFormat | None) -> np.ndarray:
        """What the standings sort by, higher first: the record, then the format's declared
        tiebreakers (``server.models.tiebreaks``), then lot."""
        lot = self.rng.random((self.n, self.t))
        if fmt is not None and fmt.kind == "table":
            a, b, c = fmt.points
            primary: np.ndarray = self.w * a + self.ti * b + self.lo * c
        elif fmt is not None and fmt.rank_by == "points":
            win, overtime_loss, _ = HOCKEY_POINTS
            primary = win * self.w + overtime_loss * self.ti
        else:  # a win fraction; overtime losses are losses in it
            games = np.maximum(self.w + self.lo + self.ti, 1.0)
            half = 0.0 if self.rules.ot_share > 0 else 0.5
            primary = (self.w + half * self.ti) / games
        counts = {"wins": self.w}
        if self.rw is not None:
            counts["regulation_wins"] = self.rw
        return tiebreaks.rank_value(primary, self.tiebreak_rules, self.group, self.division,
                                    self.h2h, self.pair_games, counts, lot)

    def series(self, hi: np.ndarray, lo: np.ndarray, best_of: int) -> np.ndarray:
        """Winners (team indexes, per simulation) of series between ``hi`` (home first) and
        ``lo``, on the final simulated ratings."""
        rows = np.arange(self.n)
        diff = (self.r[rows, hi] - self.r[rows, lo]) * self.rules.playoff_diff
        home = self.rules.home_adv * self.rules.playoff_diff
        pattern = _home_pattern(best_of)
        p_home = win_expectation(diff + home)
        p_away = win_expectation(diff - home)
        p = np.where(pattern[None, :], np.asarray(p_home)[:, None], np.asarray(p_away)[:, None])
        won = self.rng.random(self.n) < series_win_probability(p)
        out: np.ndarray = np.where(won, hi, lo)
        return out


def _order(key: np.ndarray, members: np.ndarray, k: int) -> np.ndarray:
    """The best ``k`` of ``members`` per simulation, best first (simulations x k)."""
    if not len(members):
        return np.empty((key.shape[0], 0), dtype=np.int64)
    pos = np.argsort(-key[:, members], axis=1, kind="stable")[:, :k]
    out: np.ndarray = members[pos]
    return out


def _knockout(run: _Run, entrants: list[np.ndarray], prio: list[np.ndarray],
              best_ofs: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Adjacent entrants meet, round after round (``best_ofs``), until one is left; the lower
    ``prio`` is the higher seed (home first). Returns the champion and its prio."""
    for best_of in best_ofs:
        if len(entrants) < 2:
            break
        nxt, nprio = [], []
        for a, pa, b, pb in zip(entrants[::2], prio[::2], entrants[1::2], prio[1::2], strict=False):
            a_high = pa <= pb
            hi, lo = np.where(a_high, a, b), np.where(a_high, b, a)
            win = run.series(hi, lo, best_of)
            nxt.append(win)
            nprio.append(np.where(win == a, pa, pb))
        if len(entrants) % 2:
            nxt.append(entrants[-1])
            nprio.append(prio[-1])
        entrants, prio = nxt, nprio
    return entrants[0], prio[0]


def _bracket_order(n: int) -> list[int]:
    """Seed positions (0-based) in bracket order: 1 v n, then so the top seeds meet last."""
    order = [0]
    while len(order) < n:
        m = len(order) * 2
        order = [x for s in order for x in (s, m - 1 - s)]
    return order


def _mark(n: int, t: int, teams: list[np.ndarray]) -> np.ndarray:
    """Per simulation and team, whether the team is among ``teams`` (each simulations-long)."""
    out = np.zeros((n, t), dtype=bool)
    rows = np.arange(n)
    for col in teams:
        out[rows, col] = True
    return out


def _postseason(run: _Run, state: SeasonState, fmt: PlayoffFormat
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(made the playoff, had a bye, won the title): simulations x teams, booleans."""
    key = run.rank_value(fmt)
    n, t = run.n, run.t
    rows = np.arange(n)
    everyone = np.arange(t)
    if fmt.kind == "table":
        champs = [_order(key, np.flatnonzero(state.group == g), 1)[:, 0]
                  for g in np.unique(state.group)]
        return np.zeros((n, t), bool), np.zeros((n, t), bool), _mark(n, t, champs)
    if fmt.kind == "top":
        size = 1
        while size * 2 <= min(fmt.teams, t):
            size *= 2
        seeds = _order(key, everyone, size)
        best_ofs = [b for _, b in fmt.rounds][-(size.bit_length() - 1):] if size > 1 else []
        order = _bracket_order(size)
        champ, _ = _knockout(run, [seeds[:, i] for i in order],
                             [np.full(n, float(i)) for i in order], best_ofs)
        made = _mark(n, t, [seeds[:, i] for i in range(size)])
        return made, np.zeros((n, t), bool), _mark(n, t, [champ])
    groups = [g for g in np.unique(state.group) if g >= 0]
    made_teams: list[np.ndarray] = []
    bye_teams: list[np.ndarray] = []
    champions: list[np.ndarray] = []
    best_ofs = [b for _, b in fmt.rounds]
    for g in groups:
        members = np.flatnonzero(state.group == g)
        if fmt.kind == "play_in":
            seeds = _order(key, members, fmt.direct + 4)
            d = fmt.direct
            bye_teams += [seeds[:, i] for i in range(d)]
            s7, s8, s9, s10 = (seeds[:, d + i] for i in range(4))
            w78 = run.series(s7, s8, best_ofs[0])
            l78 = np.where(w78 == s7, s8, s7)
            w910 = run.series(s9, s10, best_ofs[0])
            eighth = run.series(l78, w910, best_ofs[0])
            field = [seeds[:, i] for i in range(d)] + [w78, eighth]
            made_teams += field
            order = _bracket_order(len(field))
            champ, _ = _knockout(run, [field[i] for i in order],
                                 [np.full(n, float(i)) for i in order], best_ofs[1:-1])
        elif fmt.kind == "nhl":
            divs = [np.flatnonzero((state.group == g) & (state.division == d))
                    for d in np.unique(state.division[members])]
            tops = [_order(key, m, 3) for m in divs]
            taken = _mark(n, t, [c[:, i] for c in tops for i in range(c.shape[1])])
            rest = np.where(taken, -np.inf, key)
            wild = _order(rest, members, 2)
            a_first = key[rows, tops[0][:, 0]] >= key[rows, tops[1][:, 0]]
            a, b = (np.where(a_first[:, None], tops[0], tops[1]),
                    np.where(a_first[:, None], tops[1], tops[0]))
            field = [a[:, 0], wild[:, 1], a[:, 1], a[:, 2], b[:, 0], wild[:, 0], b[:, 1], b[:, 2]]
            made_teams += field
            prio = [np.zeros(n), np.full(n, 7.0), np.full(n, 3.0), np.full(n, 4.0),
                    np.ones(n), np.full(n, 6.0), np.full(n, 2.0), np.full(n, 5.0)]
            champ, _ = _knockout(run, field, prio, best_ofs[:-1])
        else:  # divisions
            divs = [np.flatnonzero((state.group == g) & (state.division == d))
                    for d in np.unique(state.division[members])]
            tops = [_order(key, m, fmt.division_top) for m in divs]
            seeds_cols: list[np.ndarray] = []
            for place in range(fmt.division_top):
                at_place = np.stack([c[:, place] for c in tops], axis=1)
                ranked = np.argsort(-np.take_along_axis(key, at_place, axis=1), axis=1)
                seeds_cols += [np.take_along_axis(at_place, ranked[:, i:i + 1], axis=1)[:, 0]
                               for i in range(at_place.shape[1])]
            rest = np.where(_mark(n, t, seeds_cols), -np.inf, key)
            wild = _order(rest, members, fmt.wild_cards)
            seeds_cols += [wild[:, i] for i in range(wild.shape[1])]
            made_teams += seeds_cols
            bye_teams += seeds_cols[:fmt.byes]
            winners = [run.series(seeds_cols[a - 1], seeds_cols[b - 1], best_ofs[0])
                       for a, b in fmt.first_round]
            winner_prio = [np.where(w == seeds_cols[a - 1], a - 1.0, b - 1.0)
                           for w, (a, b) in zip(winners, fmt.first_round, strict=True)]
            entrants: list[np.ndarray] = []
            prio = []
            for i in range(fmt.byes):
                entrants.append(seeds_cols[i])
                prio.append(np.full(n, float(i)))
                if i < len(winners):
                    entrants.append(winners[i])
                    prio.append(winner_prio[i])
            entrants += winners[fmt.byes:]
            prio += winner_prio[fmt.byes:]
            if not fmt.first_round:
                entrants, prio = seeds_cols, [np.full(n, float(i)) for i in range(len(seeds_cols))]
            champ, _ = _knockout(run, entrants, prio, best_ofs[1:-1])
        champions.append(champ)
    if len(champions) == 1:
        title = champions[0]
    else:  # the groups' champions: the better record is the higher seed
        title, _ = _knockout(run, champions, [-key[rows, c] for c in champions],
                             [best_ofs[-1]] * 2)
    return (_mark(n, t, made_teams), _mark(n, t, bye_teams), _mark(n, t, [title]))


def project(state: SeasonState, rules: GameRules, fmt: PlayoffFormat | None,
            n_sims: int = N_SIMS, seed: int = SEED,
            points: tuple[int, int, int] | None = None) -> Projection:
    """Play the rest of the season ``n_sims`` times, then the postseason of ``fmt`` (None: no
    postseason known; the title then goes to the best record). ``points``: what a win, a tie
    (an overtime loss) and a loss are worth where the sport's table counts points
    (``server.catalog.tables``), for ``proj_points``. Pure: the same inputs and seed give the
    same projection."""
    rng = np.random.default_rng(seed)
    run = _Run(state, rules, n_sims, rng, fmt.tiebreaks if fmt is not None else ())
    run.play_regular(state)
    t = run.t
    if fmt is None:
        best = _order(run.rank_value(None), np.arange(t), 1)[:, 0]
        made = bye = None
        title = _mark(run.n, t, [best]).mean(axis=0)
    else:
        made_m, bye_m, title_m = _postseason(run, state, fmt)
        made = made_m.mean(axis=0) if fmt.has_playoff else None
        bye = bye_m.mean(axis=0) if fmt.has_byes else None
        title = title_m.mean(axis=0)
    p10, p90 = np.percentile(run.w, [10, 90], axis=0)
    return Projection(state.team_ids, run.w.mean(axis=0), run.lo.mean(axis=0),
                      run.ti.mean(axis=0), p10, p90,
                      None if points is None else (points[0] * run.w + points[1] * run.ti
                                                   + points[2] * run.lo).mean(axis=0),
                      made, bye, title)


# ---------------------------------------------------------------- football's league tables
#
# A league table is decided by points, then by the league's declared tiebreakers, and what a
# final position earns (title, European places, promotion, relegation and the play-off places
# between divisions) is declared per league and season (``server.catalog.football.places``).
# Each remaining match is played with the forecasts' three chances: the football Elo's
# (``server.models.football.three_way``: home win, draw, away win from the rating difference
# with the home advantage) blended with the goal model's as fitted by the day
# (``server.models.football_goals.blended``, ``ClubGoals``; the Elo's alone without it), both
# ratings moving after it by the Elo update as in the other sports (the goal model stays as of
# the day). A league that splits (``server.catalog.football.Split``) is split in each simulated
# season by its own first-phase table, and its groups play their rounds. The goal tiebreakers (goal difference, goals scored) read simulated
# scores consistent with each simulated result: the loser's goals Poisson(``LOSER_GOALS``), the
# winner's that plus 1 plus Poisson(``EXTRA_MARGIN``), a draw Poisson(``DRAW_GOALS``) each
# (European top flights 2021-2025: about 2.7 goals a match, a winning margin of about 1.7).

# the most a title chance short of certainty can be: a share of every simulated season is
# shown as 0.999 (99.9%) until no rival can reach the leader (``_title_certain``)
SHORT_OF_CERTAIN = 0.999
LOSER_GOALS = 0.6
EXTRA_MARGIN = 0.6
DRAW_GOALS = 1.0


@dataclass(frozen=True)
class TableState:
    """A football season as of the end of a day (team arrays in ``team_ids`` order).

    ``points``: table points so far with the league's deductions taken off; ``goal_diff`` and
    ``goals_for`` so far; ``group``: the club's league index; ``home``/``visitor``/``neutral``:
    the matches still to play, in order; ``h2h_points[i, j]``: table points club i took from
    its played matches against j, ``h2h_games[i, j]`` those matches (read only when a league
    declares a head-to-head rule)."""

    team_ids: np.ndarray
    ratings: np.ndarray
    wins: np.ndarray
    losses: np.ndarray
    draws: np.ndarray
    points: np.ndarray
    goal_diff: np.ndarray
    goals_for: np.ndarray
    group: np.ndarray
    home: np.ndarray
    visitor: np.ndarray
    neutral: np.ndarray
    h2h_points: np.ndarray | None = None
    h2h_games: np.ndarray | None = None
    # a split season past its split (``server.models.standings.SplitState``): per club its
    # group, ranked above the next whatever the points, and the halving's half point
    section: np.ndarray | None = None
    half_point: np.ndarray | None = None
    away_wins: np.ndarray | None = None  # wins away so far (a league's ``away_wins`` rule)
    # per league, its split still to come (``server.catalog.football.Split``; None: none, or
    # already played): the projection plays it
    pending: tuple[Split | None, ...] = ()
    # the goal model as of the day (``server.models.football_goals``): a match's chances blend
    # its with the Elo's, as the forecasts do; None: the Elo's alone
    goals: ClubGoals | None = None
    # home_pairs[i, j]: the matches club i has played at home to j so far (a split that
    # balances home matches reads them)
    home_pairs: np.ndarray | None = None


@dataclass(frozen=True)
class TableLeague:
    """One league of the table: its tiebreak rules (``server.models.tiebreaks``) and the
    position ranges each place kind covers (kind -> 1-based positions; empty: none declared)."""

    tiebreaks: tuple[str, ...]
    places: dict[str, range]


@dataclass(frozen=True)
class TableProjection:
    """Per club (``team_ids`` order): mean final record and points, the 10th/90th percentiles of
    wins, the mean final position, the chance of each final position in its league
    (``positions[i, p - 1]``: position p), of the title, and of each place kind (NaN where the
    club's league declares no such place)."""

    team_ids: np.ndarray
    proj_wins: np.ndarray
    proj_losses: np.ndarray
    proj_draws: np.ndarray
    wins_p10: np.ndarray
    wins_p90: np.ndarray
    proj_points: np.ndarray
    proj_rank: np.ndarray
    positions: np.ndarray
    title: np.ndarray
    places: dict[str, np.ndarray]


def _goals(rng: np.random.Generator, home_win: np.ndarray, away_win: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray]:
    """Simulated (home, away) goals consistent with the simulated results."""
    shape = home_win.shape
    low = rng.poisson(LOSER_GOALS, shape)
    high = low + 1 + rng.poisson(EXTRA_MARGIN, shape)
    level = rng.poisson(DRAW_GOALS, shape)
    gh = np.where(home_win, high, np.where(away_win, low, level))
    ga = np.where(away_win, high, np.where(home_win, low, level))
    return gh, ga


def project_table(state: TableState, rules: GameRules, leagues: list[TableLeague],
                  n_sims: int = N_SIMS, seed: int = SEED) -> TableProjection:
    """Play the rest of a football season ``n_sims`` times and rank each league's final table
    (``leagues[g]`` for the clubs of group g): points, then the league's tiebreakers, then lot.
    A league whose split is still to come (``state.pending``) plays its first phase, is split
    in each simulated season by that season's table, and plays its groups' rounds.
    Pure: the same inputs and seed give the same projection."""
    run = _TableRun(state, rules, leagues, n_sims, seed)
    if len(state.home):
        rounds = rounds_of(state.home, state.visitor)
        order = np.argsort(rounds, kind="stable")
        for idx in np.split(order, np.flatnonzero(np.diff(rounds[order])) + 1):
            run.play(state.home[idx], state.visitor[idx], state.neutral[idx])
    for g, split in enumerate(state.pending):
        if split is not None:
            run.split(g, split)

    # each league's final positions (simulations x clubs, 1 the top)
    t, n = len(state.team_ids), n_sims
    position = np.zeros((n, t), dtype=np.int64)
    size = int(max((np.sum(state.group == g) for g in range(len(leagues))), default=1))
    places = {k: np.full(t, np.nan) for k in _place_kinds(leagues)}
    for g, league in enumerate(leagues):
        m = np.flatnonzero(state.group == g)
        if not len(m):
            continue
        position[:, m] = run.positions(g, m, league)
        for kind, covered in league.places.items():
            if len(covered):
                inside = (position[:, m] >= covered.start) & (position[:, m] < covered.stop)
                places[kind][m] = inside.mean(axis=0)
    positions = np.zeros((t, size))
    for p_ in range(1, size + 1):
        positions[:, p_ - 1] = (position == p_).mean(axis=0)
    w, lo, d, pts = run.w, run.lo, run.d, run.pts
    p10, p90 = np.percentile(w.T, [10, 90], axis=0)
    title = _title_chances(positions[:, 0], state, len(leagues))
    for g, league in enumerate(leagues):
        for kind, covered in league.places.items():
            if len(covered):
                _short_of_certain(places[kind], covered, state, g)
    return TableProjection(state.team_ids, w.mean(axis=1), lo.mean(axis=1), d.mean(axis=1),
                           p10, p90, pts.mean(axis=1), position.mean(axis=0), positions,
                           title, places)


def _title_chances(first: np.ndarray, state: TableState, n_leagues: int) -> np.ndarray:
    """Each club's title chance: its share of the simulated seasons it ended first, but a title
    won in every one of them and not yet certain reads ``SHORT_OF_CERTAIN``, the rest shared
    by the clubs that can still reach the leader, so a league's chances still add up to 1."""
    certain, contender = _title_race(state, n_leagues)
    title = first.copy()
    for leader in np.flatnonzero(~certain & (first > SHORT_OF_CERTAIN)):
        rivals = np.flatnonzero(contender & (state.group == state.group[leader]))
        rivals = rivals[rivals != leader]
        if len(rivals):
            title[rivals] += (first[leader] - SHORT_OF_CERTAIN) / len(rivals)
            title[leader] = SHORT_OF_CERTAIN
    return title


def _short_of_certain(chance: np.ndarray, covered: range, state: TableState, g: int) -> None:
    """League ``g``'s chances of a place (final positions ``covered``), in place: a chance of 1
    for a club that can still finish outside the place reads ``SHORT_OF_CERTAIN``, a chance of 0
    for a club that can still finish in it ``1 - SHORT_OF_CERTAIN``, and the league's other
    open chances give or take the difference in proportion to their room, so the league's
    chances still add up to the places the range covers. What is possible is bounded as the
    tables' clinch marks bound it: a club finishes no higher than one plus the clubs sure to
    stay ahead (more points than it can reach, or a higher group after the split), no lower
    than one plus the clubs that can reach its points (a tie may go either way). A split still
    to come that halves the points leaves the chances as simulated (the halving moves every
    bound)."""
    m = np.flatnonzero(state.group == g)
    pending = state.pending[g] if g < len(state.pending) else None
    if not len(m) or (pending is not None and any(pending.halved)):
        return
    t = len(state.team_ids)
    left = (np.bincount(state.home, minlength=t) + np.bincount(state.visitor, minlength=t))[m]
    if not left.any():
        return  # finished: the table is what it is
    if pending is not None:  # its groups' rounds are still to be drawn: the most any plays
        left = left + pending.group_matches(None)
    points = state.points[m]
    reach = points + 3 * left
    section = (state.section[m] if state.section is not None
               else np.zeros(len(m), dtype=np.int64))
    higher = section[:, None] < section[None, :]  # [j, i]: j's group is above i's
    same = section[:, None] == section[None, :]
    sure_ahead = higher | (same & (points[:, None] > reach[None, :]))
    may_pass = higher | (same & (reach[:, None] >= points[None, :]))
    np.fill_diagonal(sure_ahead, False)
    np.fill_diagonal(may_pass, False)
    best = 1 + sure_ahead.sum(axis=0)
    worst = 1 + may_pass.sum(axis=0)
    first, last = covered.start, covered.stop - 1
    certain = (best >= first) & (worst <= last)
    possible = (best <= last) & (worst >= first) & ~certain
    p = chance[m]
    target = p[possible].sum()
    q = np.where(possible, np.clip(p, 1 - SHORT_OF_CERTAIN, SHORT_OF_CERTAIN), p)
    diff = target - q[possible].sum()
    room = np.where(possible, (SHORT_OF_CERTAIN - q) if diff > 0 else (q - (1 - SHORT_OF_CERTAIN)),
                    0.0)
    if abs(diff) > 0 and room.sum() > 0:
        q = q + np.sign(diff) * min(abs(diff), room.sum()) * room / room.sum()
    chance[m] = q


def _title_race(state: TableState, n_leagues: int) -> tuple[np.ndarray, np.ndarray]:
    """Per club, whether its league's title is already decided (first of its league's first
    group with more points than any other club of that group can reach with three a match
    left; a split still to come: never; every club's once no match of its league is left: the
    tiebreakers or the lot decide, as the shares say), and whether it can still reach its
    league's leader (a split still to come: every club of the league)."""
    t = len(state.team_ids)
    left = (np.bincount(state.home, minlength=t) + np.bincount(state.visitor, minlength=t))
    reach = state.points + 3 * left
    section = state.section if state.section is not None else np.zeros(t, dtype=np.int64)
    certain = np.zeros(t, dtype=bool)
    contender = np.zeros(t, dtype=bool)
    for g in range(n_leagues):
        m = np.flatnonzero(state.group == g)
        if not len(m):
            continue
        if g < len(state.pending) and state.pending[g] is not None:
            contender[m] = True
            continue
        if not left[m].any():  # finished: the table is what it is
            certain[m] = True
            continue
        top = m[section[m] == section[m].min()]
        leader = top[np.argmax(state.points[top])]
        others = top[top != leader]
        contender[others] = reach[others] >= state.points[leader]
        certain[leader] = not contender[others].any()
    return certain, contender


class _TableRun:
    """The simulated seasons of ``project_table``: per club and season (clubs x simulations)
    its rating, record, points, goals, away wins, split group and half point, and the
    head-to-head points of the pairs a league's tiebreakers read."""

    def __init__(self, state: TableState, rules: GameRules, leagues: list[TableLeague],
                 n_sims: int, seed: int) -> None:
        self.state, self.rules, self.leagues, self.n = state, rules, leagues, n_sims
        self.rng = np.random.default_rng(seed)
        t, n = len(state.team_ids), n_sims

        def per_team(x: np.ndarray | None) -> np.ndarray:
            x = np.zeros(t) if x is None else x
            return np.repeat(np.asarray(x, dtype=float)[:, None], n, axis=1)

        self.r, self.w, self.lo, self.d = (per_team(x) for x in (
            state.ratings, state.wins, state.losses, state.draws))
        self.pts, self.gd, self.gf = (per_team(x) for x in (
            state.points, state.goal_diff, state.goals_for))
        self.aw = per_team(state.away_wins)
        self.section = per_team(state.section)
        self.half = per_team(state.half_point)
        self.sims = np.arange(n)[None, :]
        # head-to-head points, only between clubs of a league that declares a pair rule: one
        # row per ordered pair of such clubs (pair_id[i, j]; -1: not kept)
        self.pair_id = np.full((t, t), -1, dtype=np.int64)
        self.paired = [g for g, lg in enumerate(leagues)
                       if any(x in PAIR_RULES for x in lg.tiebreaks)]
        for g in self.paired:
            m = np.flatnonzero(state.group == g)
            ii, jj = np.meshgrid(m, m, indexing="ij")
            keep = ii != jj
            first = int(self.pair_id.max()) + 1
            self.pair_id[ii[keep], jj[keep]] = np.arange(first, first + int(keep.sum()))
        self.h2h = np.zeros((int(self.pair_id.max()) + 1, n))
        self.pair_games = (np.zeros((t, t)) if state.h2h_games is None
                           else state.h2h_games.astype(float).copy())
        if len(self.h2h) and state.h2h_points is not None:
            known = self.pair_id >= 0
            self.h2h[self.pair_id[known]] = state.h2h_points[known][:, None]
        np.add.at(self.pair_games, (state.home, state.visitor), 1.0)
        np.add.at(self.pair_games, (state.visitor, state.home), 1.0)

    def play(self, home: np.ndarray, visitor: np.ndarray, neutral: np.ndarray) -> None:
        """One round (no club twice): ``home`` and ``visitor`` club indexes, the same in every
        season (k,) or each season's own (k x simulations)."""
        shape = (len(home), self.n)
        h = np.broadcast_to(home[:, None] if home.ndim == 1 else home, shape)
        v = np.broadcast_to(visitor[:, None] if visitor.ndim == 1 else visitor, shape)
        sims = np.broadcast_to(self.sims, shape)
        at_home = ~np.asarray(neutral, dtype=bool)[:, None]
        diff = self.r[h, sims] - self.r[v, sims] + np.where(at_home, self.rules.home_adv, 0.0)
        elo = three_way(diff.ravel()).reshape(*shape, 3)
        goals = self.state.goals
        if goals is None:
            p = elo
        elif home.ndim == 1:  # the same clubs in every season: their chances once
            p = blended(elo, goals.chances(home, visitor, ~at_home[:, 0])[:, None, :])
        else:
            p = blended(elo, goals.chances(h, v, ~at_home))
        u = self.rng.random(shape)
        home_win = u < p[..., HOME]
        away_win = u >= 1.0 - p[..., AWAY]
        level = ~home_win & ~away_win
        self.w[h, sims] += home_win
        self.w[v, sims] += away_win
        self.aw[v, sims] += away_win
        self.lo[h, sims] += away_win
        self.lo[v, sims] += home_win
        self.d[h, sims] += level
        self.d[v, sims] += level
        self.pts[h, sims] += 3 * home_win + level
        self.pts[v, sims] += 3 * away_win + level
        gh, ga = _goals(self.rng, home_win, away_win)
        self.gd[h, sims] += gh - ga
        self.gd[v, sims] += ga - gh
        self.gf[h, sims] += gh
        self.gf[v, sims] += ga
        if len(self.h2h):
            hv, vh = self.pair_id[h, v], self.pair_id[v, h]
            ok = hv >= 0
            self.h2h[hv[ok], sims[ok]] += (3 * home_win + level)[ok]
            self.h2h[vh[ok], sims[ok]] += (3 * away_win + level)[ok]
        # the ratings move by the Elo's own expectation, as the real ratings do
        expected = elo[..., HOME] + 0.5 * elo[..., DRAW]
        result = np.where(home_win, 1.0, np.where(away_win, 0.0, 0.5))
        delta = self.rules.k * (result - expected)
        self.r[h, sims] += delta
        self.r[v, sims] -= delta

    def positions(self, g: int, m: np.ndarray, league: TableLeague) -> np.ndarray:
        """League ``g``'s (clubs ``m``) positions in each simulated season as it stands
        (simulations x clubs, 1 the top): its groups one below the other, then points, the
        league's tiebreakers and lot."""
        n = self.n
        wins_m: np.ndarray | None = None
        if g in self.paired:
            wins_m = np.zeros((n, len(m), len(m)))
            ii, jj = np.meshgrid(np.arange(len(m)), np.arange(len(m)), indexing="ij")
            keep = ii != jj
            wins_m[:, ii[keep], jj[keep]] = self.h2h[self.pair_id[m[ii[keep]],
                                                                  m[jj[keep]]]].T
        counts = {"goal_difference": self.gd.T[:, m], "goals_for": self.gf.T[:, m],
                  "wins": self.w.T[:, m], "away_wins": self.aw.T[:, m],
                  "split_half_point": self.half.T[:, m]}
        kept = tuple(r for r in league.tiebreaks if r not in tiebreaks.STANDINGS_ONLY)
        # a split season's groups one below the other, as the standings rank them
        primary = self.pts.T[:, m] - tiebreaks.SECTION_GAP * self.section.T[:, m]
        key = tiebreaks.rank_value(primary, kept, np.zeros(len(m), np.int64),
                                   np.full(len(m), -1), wins_m,
                                   3.0 * self.pair_games[np.ix_(m, m)], counts,
                                   self.rng.random((n, len(m))))
        out: np.ndarray = len(m) - key.astype(np.int64)
        return out

    def split(self, g: int, rule: Split) -> None:
        """League ``g`` splits as ``rule`` declares, in each simulated season by its own table
        after the first phase (``server.models.standings.split_seasons`` for a real table):
        its groups by position, a halved group's points halved as the league rounds them (the
        half point kept for the tiebreak), then each group's rounds (``Split.group_fixtures``)
        between the clubs each season put in its places."""
        m = np.flatnonzero(self.state.group == g)
        sizes = np.array(rule.sizes)
        if len(m) != int(sizes.sum()):
            return  # a season of another size than the split's: one table
        position = self.positions(g, m, self.leagues[g])  # simulations x clubs
        section = np.searchsorted(np.cumsum(sizes), position - 1, side="right")
        self.section[m] = section.T
        halved = np.array(rule.halved or (False,) * len(sizes))[section.T]
        won = 3 * self.w[m] + self.d[m]
        keep = won // 2 + (won % 2 if rule.rounding == "up" else 0)
        self.pts[m] -= np.where(halved, won - keep, 0.0)
        self.half[m] = np.where(halved, won - 2 * keep, 0.0)
        club_at = m[np.argsort(position, axis=1, kind="stable")]  # simulations x places
        home, visitor = [], []
        first = 0
        for size in rule.sizes:
            for h, v in rule.group_fixtures(size):
                home.append(first + h)
                visitor.append(first + v)
            first += size
        hs, vs = np.array(home, dtype=np.int64), np.array(visitor, dtype=np.int64)
        at_h, at_v = club_at[:, hs].T, club_at[:, vs].T  # matches x simulations
        if rule.home_balance and rule.legs == 1:
            at_h, at_v = self._balanced(at_h, at_v)
        rounds = rounds_of(hs, vs)
        order = np.argsort(rounds, kind="stable")
        for idx in np.split(order, np.flatnonzero(np.diff(rounds[order])) + 1):
            self.play(at_h[idx], at_v[idx], np.zeros(len(idx), bool))

    def _balanced(self, at_h: np.ndarray, at_v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """A split's single meetings (matches x simulations, home and away clubs by places),
        each at home for the club that was at home in fewer of the pair's earlier meetings,
        between pairs even for the one with fewer home matches in its simulated season so far
        (those played, the first phase's still to play, the group's given before it), then the
        places' home side (``Split.home_balance``)."""
        t = len(self.state.team_ids)
        pairs = (np.zeros((t, t)) if self.state.home_pairs is None
                 else self.state.home_pairs.astype(float).copy())
        np.add.at(pairs, (self.state.home, self.state.visitor), 1.0)
        count = np.repeat(pairs.sum(axis=1)[:, None], self.n, axis=1)  # clubs x simulations
        sims = np.arange(self.n)
        at_h, at_v = at_h.copy(), at_v.copy()
        for k in range(len(at_h)):
            a, b = at_h[k], at_v[k]
            swap = (pairs[b, a] < pairs[a, b]) | (
                (pairs[b, a] == pairs[a, b]) & (count[b, sims] < count[a, sims]))
            at_h[k], at_v[k] = np.where(swap, b, a), np.where(swap, a, b)
            count[at_h[k], sims] += 1
        return at_h, at_v


def _place_kinds(leagues: list[TableLeague]) -> list[str]:
    return list(dict.fromkeys(k for lg in leagues for k in lg.places))
