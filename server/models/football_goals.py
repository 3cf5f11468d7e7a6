"""Football's three outcomes from the goals: a time-weighted Dixon-Coles model of the clubs.

An Elo of results learns from who won; the goals say more (a 4-0 and a lucky 1-0 are one
result). Each club has an attack ``a`` and a defence ``d`` (log scale), each competition a home
advantage ``h`` (none on neutral ground), the level a base rate ``m``. The goals of a match
are Poisson (Maher 1982; Dixon and Coles 1997):

    home goals ~ Poisson(exp(m + h + a_home - d_away)),  away goals ~ Poisson(exp(m + a_away - d_home))

with Dixon and Coles' correction of the four low scores (0-0, 1-0, 0-1, 1-1) by ``rho``. The
fit before each match day weighs every earlier match by ``exp(-decay x days ago)``, so a club
is what its recent matches say; a Gamma prior (``prior_weight`` matches' worth, conjugate to
the Poisson) holds a club with few matches near its division's start: ``tier_step`` of log
attack and defence per division below the top flight, as the Elo's first rating does. The
fit is the Poisson model's fixed point (each club's attack is its weighted goals over its
weighted expected goals at attack 0, iterative proportional fitting), warm-started from the
day before: ``sweeps`` passes a match day. Only matches before the day enter its fit. Two
sweeps a day give the forecasts of 20 (the same RPS to five decimals on 2023-24 and 2024-25):
every match day of the 24,974 club games took 3.6 s at three sweeps and 18.4 s at 20 in one
run, 4.2 s at two and 6.5 s at three in another, on a shared 2-core machine
(bench/football_goals_tuning.py prints the comparison and the Elo's time beside it).

A promoted club starts lower (``promoted_step``; ``football.club_debuts``): a club new to a
league already here came up from a division the files do not hold.

The chances of home win, draw and away win are the sums of the score grid (0 to ``MAX_GOALS``
each side). The forecast blends them with the Elo's ordered logit (``blend`` of the goals);
every constant is chosen on 2023-24 and 2024-25, never on the seasons scored against SPI
(bench/football_goals_tuning.py; docs/football.md, "Ours against SPI").
"""
from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from server.models import football
from server.models.football import club_debuts

MAX_GOALS = 10  # the score grid's last row: a side scores more than 10 about once in 10^7


@dataclass(frozen=True)
class GoalModel:
    """The goal model's constants (``GOALS`` declares football's)."""

    decay: float  # per day: a match a year old weighs exp(-365 decay)
    season_discount: float  # and a match of an earlier season this more for each season back
    prior_weight: float  # matches' worth of the Gamma prior on a club's attack and defence
    tier_step: float  # log goals, attack down and defence down per division below the top
    promoted_step: float  # and for a club new to a league here (a promoted club)
    home_prior: float  # log home advantage before a competition's matches say otherwise
    home_weight: float  # matches' worth of that prior
    rho: float  # Dixon and Coles' low-score correction
    blend: float  # weight of the goal model's chances in the forecast, the Elo's the rest
    sweeps: int  # fixed-point passes per match day (warm start)


# Chosen on 2023-24 and 2024-25 by bench/football_goals_tuning.py (docs/football.md): a year
# weighs exp(-0.09), so the model is close to one fit of every match, seasons alike; a promoted
# club starts 0.2 below its new league's middle in log attack and defence (the Elo: 100 points).
GOALS = GoalModel(decay=0.00025, season_discount=1.0, prior_weight=16.0, tier_step=0.1,
                  promoted_step=0.2, home_prior=0.25, home_weight=200.0, rho=-0.1, blend=0.3,
                  sweeps=2)


@dataclass
class _State:
    """The fit carried from one match day to the next."""

    attack: np.ndarray
    defence: np.ndarray
    home: np.ndarray
    base: float


@dataclass(frozen=True)
class Fits:
    """The goal model as fitted by the end of each asked day (``rates``' ``as_of``): its
    clubs (``team_ids``) and competitions (``competition_ids``, sublevel IDs) and, per day,
    the fit then."""

    team_ids: np.ndarray
    competition_ids: np.ndarray
    by_day: dict[dt.date, _State]

    def clubs(self, day: dt.date, team_ids: np.ndarray, competition: np.ndarray) -> ClubGoals:
        """The fit of ``day`` for the clubs ``team_ids``, each at home in its ``competition``
        (sublevel ID: its league); a club or competition the fit never saw starts at 0 and at
        the home prior."""
        s = self.by_day[day]
        at = np.searchsorted(self.team_ids, team_ids)
        seen = (at < len(self.team_ids)) & (self.team_ids[np.minimum(at, len(self.team_ids) - 1)]
                                            == team_ids)
        where = np.searchsorted(self.competition_ids, competition)
        held = (where < len(self.competition_ids)) & (
            self.competition_ids[np.minimum(where, len(self.competition_ids) - 1)] == competition)
        pick = np.minimum(at, len(self.team_ids) - 1)
        comp = np.minimum(where, len(self.competition_ids) - 1)
        return ClubGoals(np.where(seen, s.attack[pick], 0.0), np.where(seen, s.defence[pick], 0.0),
                         np.where(held, s.home[comp], GOALS.home_prior), s.base)


def rates(games: pd.DataFrame, tier_of: Mapping[int, int], model: GoalModel = GOALS
          ) -> pd.DataFrame:
    """Each game's expected goals before it, from the matches of earlier days: ``game_id``,
    ``lambda_home``, ``lambda_vis``. ``games``: ``run_elo``'s frame (game_id, date, home,
    visitor, score_home, score_vis NaN when not final, neutral, sublevel_id, season);
    ``tier_of``: sublevel ID -> division (1 the top flight; a club's prior is its first
    match's)."""
    return _walk(games, tier_of, model, ())[0]


def as_of(games: pd.DataFrame, tier_of: Mapping[int, int], days: Sequence[dt.date],
          model: GoalModel = GOALS) -> Fits:
    """The fit by the end of each of ``days`` (dates), as the forecasts' walk reaches it: the
    fit of the first match day after the day, on the matches up to it (the forecast of every
    match of that next day reads it). ``games`` and ``tier_of`` as ``rates``."""
    return _walk(games, tier_of, model, days)[1]


@dataclass(frozen=True)
class _Checkpoint:
    """The walk's state before the fit of the match day whose first match is row ``start`` of
    the sorted games, and the digest of the rows before it (all that state was fitted on)."""

    start: int
    prefix: bytes
    state: _State


# as_of's checkpoints per universe (clubs, competitions, priors, model: ``_universe``), newest
# last: a later walk whose games before a checkpoint are the same resumes there (the nightly
# projection's fit of today is yesterday's walk and one more match day)
_CHECKPOINTS: dict[bytes, list[_Checkpoint]] = {}
CHECKPOINTS_KEPT = 8
_CHECKPOINT_UNIVERSES = 4


def _digest(arrays: Sequence[np.ndarray], stop: int | None = None) -> bytes:
    h = hashlib.blake2b(digest_size=20)
    for a in arrays:
        h.update(np.ascontiguousarray(a[:stop] if stop is not None else a).tobytes())
    return h.digest()


def _resume(universe: bytes, rows: Sequence[np.ndarray], day: np.ndarray,
            first_asked: int) -> _Checkpoint | None:
    """The latest checkpoint of ``universe`` the walk can resume from: its rows before it the
    same, a match day beginning there, and no asked day needing a fit before it."""
    n = len(day)
    for cp in reversed(_CHECKPOINTS.get(universe, [])):
        s = cp.start
        if 0 < s <= n and (s == n or day[s] != day[s - 1]) and first_asked >= day[s - 1] \
                and _digest(rows, s) == cp.prefix:
            return cp
    return None


def _remember(universe: bytes, rows: Sequence[np.ndarray], start: int, state: _State) -> None:
    kept = [cp for cp in _CHECKPOINTS.pop(universe, []) if cp.start != start]
    kept.append(_Checkpoint(start, _digest(rows, start), state))
    _CHECKPOINTS[universe] = kept[-CHECKPOINTS_KEPT:]
    while len(_CHECKPOINTS) > _CHECKPOINT_UNIVERSES:  # the oldest universe out
        del _CHECKPOINTS[next(iter(_CHECKPOINTS))]


def _walk(games: pd.DataFrame, tier_of: Mapping[int, int], model: GoalModel,
          days: Sequence[dt.date]) -> tuple[pd.DataFrame, Fits]:
    """``rates``, and the fits by the end of ``days`` (``as_of``), in one walk over the match
    days. ``as_of`` resumes from a checkpoint of an earlier walk where the games before it
    are the same (``_CHECKPOINTS``: the same fits, as the warm-started walk is a function of
    those games alone), and leaves one where it stops: the nightly FC projection's fit of 9
    March 2026 after 6 March's took 0.33-0.37 s of CPU against 1.71-1.74 s walked from the
    first match, three rounds in one run (bench/football_goal_fits.py)."""
    g = games.sort_values(["date", "game_id"], kind="stable").reset_index(drop=True)
    n = len(g)
    if n == 0:
        return (pd.DataFrame({"game_id": [], "lambda_home": [], "lambda_vis": []}),
                Fits(np.zeros(0, np.int64), np.zeros(0, np.int64), {}))
    team_ids, teams = np.unique(np.concatenate([g["home"].to_numpy(), g["visitor"].to_numpy()]),
                                return_inverse=True)
    hi, vi = teams[:n], teams[n:]
    subs = pd.to_numeric(g["sublevel_id"], errors="coerce").fillna(0).astype("int64").to_numpy()
    comp_ids, ci = np.unique(subs, return_inverse=True)
    debuts = club_debuts(g, tier_of)
    below = np.array([debuts[int(t)][0] for t in team_ids], dtype=float)
    promoted = np.array([debuts[int(t)][1] for t in team_ids], dtype=float)
    prior_a = -model.tier_step * below - model.promoted_step * promoted
    prior_d = prior_a.copy()
    neutral = g["neutral"].fillna(False).to_numpy(dtype=bool)
    gh, gv = g["score_home"].to_numpy(float), g["score_vis"].to_numpy(float)
    final = ~(np.isnan(gh) | np.isnan(gv))
    season = g["season"].to_numpy("int64")
    day = (pd.to_datetime(g["date"]).to_numpy("datetime64[D]").astype("int64"))
    state = _State(attack=prior_a.copy(), defence=prior_d.copy(),
                   home=np.full(len(comp_ids), model.home_prior), base=np.log(1.35))
    lam_h, lam_v = np.empty(n), np.empty(n)
    fin_idx = np.flatnonzero(final)  # the results, in date order
    asked = sorted(days)
    ask_day = np.array([np.datetime64(d.isoformat(), "D").astype("int64") for d in asked],
                       dtype=np.int64)
    by_day: dict[dt.date, _State] = {}
    taken = 0  # the asked days already given a fit
    start = 0
    rows_in = (day, hi, vi, ci, neutral, gh, gv, season)
    universe = b""
    if asked:
        universe = _digest((team_ids, comp_ids, prior_a, prior_d,
                            np.frombuffer(repr(model).encode(), dtype=np.uint8)))
        found = _resume(universe, rows_in, day, int(ask_day[0]))
        if found is not None:
            start, state = found.start, _copy(found.state)
    while start < n:
        stop = start
        while stop < n and day[stop] == day[start]:
            stop += 1
        past = fin_idx[fin_idx < start]
        if asked and day[start] > ask_day[-1]:  # the walk stops here: a checkpoint
            _remember(universe, rows_in, start, _copy(state))
        if len(past):
            _fit(state, past, day[start], day, season[start], season, hi, vi, ci, neutral, gh, gv, prior_a, prior_d, model,
                 model.sweeps)
        while taken < len(asked) and ask_day[taken] < day[start]:  # this fit is theirs
            by_day[asked[taken]] = _copy(state)
            taken += 1
        if asked and taken == len(asked):
            break  # every asked day has its fit (``as_of`` reads no rates)
        rows = np.arange(start, stop)
        home_adv = np.where(neutral[rows], 0.0, state.home[ci[rows]])
        lam_h[rows] = np.exp(state.base + home_adv + state.attack[hi[rows]]
                             - state.defence[vi[rows]])
        lam_v[rows] = np.exp(state.base + state.attack[vi[rows]] - state.defence[hi[rows]])
        start = stop
    if taken < len(asked):  # days after the last match day: a fit on every result
        _remember(universe, rows_in, n, _copy(state))
        past = fin_idx
        if len(past):
            _fit(state, past, int(ask_day[-1]) + 1, day, season[-1], season, hi, vi, ci, neutral,
                 gh, gv, prior_a, prior_d, model, model.sweeps)
        for d in asked[taken:]:
            by_day[d] = _copy(state)
    return (pd.DataFrame({"game_id": g["game_id"].to_numpy(), "lambda_home": lam_h,
                          "lambda_vis": lam_v}),
            Fits(team_ids, comp_ids, by_day))


def _copy(state: _State) -> _State:
    return _State(state.attack.copy(), state.defence.copy(), state.home.copy(), state.base)


def _fit(s: _State, past: np.ndarray, today: int, day: np.ndarray, this_season: int,
         season: np.ndarray, hi: np.ndarray, vi: np.ndarray,
         ci: np.ndarray, neutral: np.ndarray, gh: np.ndarray, gv: np.ndarray,
         prior_a: np.ndarray, prior_d: np.ndarray, model: GoalModel, sweeps: int) -> None:
    """``sweeps`` fixed-point passes of the weighted Poisson model over the ``past`` results
    (indices), in place. Each pass sets every attack, then every defence, then each
    competition's home advantage and the base rate to the ratio of weighted goals (with the
    Gamma prior's pseudo-goals) to weighted expected goals at a parameter of 0."""
    h, v, c = hi[past], vi[past], ci[past]
    w = np.exp(-model.decay * (today - day[past]))
    if model.season_discount != 1.0:
        w *= model.season_discount ** np.maximum(this_season - season[past], 0)
    nt, nc = len(s.attack), len(s.home)
    hg, vg = w * gh[past], w * gv[past]
    adv = np.where(neutral[past], 0.0, 1.0)
    scored = np.bincount(h, hg, nt) + np.bincount(v, vg, nt)
    conceded = np.bincount(h, vg, nt) + np.bincount(v, hg, nt)
    home_goals = np.bincount(c, hg * adv, nc)
    tau, tau_h = model.prior_weight, model.home_weight
    pa, pd_ = np.exp(prior_a), np.exp(-prior_d)
    for _ in range(sweeps):
        ha = adv * s.home[c]
        # attack: exposure = weighted expected goals at attack 0
        eh = w * np.exp(s.base + ha - s.defence[v])
        ev = w * np.exp(s.base - s.defence[h])
        exposure = np.bincount(h, eh, nt) + np.bincount(v, ev, nt)
        s.attack = np.log((scored + tau * pa) / (exposure + tau))
        # defence: exposure = weighted goals against at defence 0
        eh = w * np.exp(s.base + ha + s.attack[h])
        ev = w * np.exp(s.base + s.attack[v])
        exposure = np.bincount(v, eh, nt) + np.bincount(h, ev, nt)
        s.defence = -np.log((conceded + tau * pd_) / (exposure + tau))
        # home advantage per competition, then the base rate
        eh = w * adv * np.exp(s.base + s.attack[h] - s.defence[v])
        s.home = np.log((home_goals + tau_h * np.exp(model.home_prior))
                        / (np.bincount(c, eh, nc) + tau_h))
        lam = w * (np.exp(s.base + adv * s.home[c] + s.attack[h] - s.defence[v])
                   + np.exp(s.base + s.attack[v] - s.defence[h]))
        s.base += float(np.log((hg.sum() + vg.sum()) / lam.sum()))


def outcome_chances(lam_home: np.ndarray, lam_vis: np.ndarray, rho: float = GOALS.rho
                    ) -> np.ndarray:
    """(n, 3) chances of home win, draw and away win from the expected goals: the Poisson score
    grid with Dixon and Coles' low-score correction (0-0 and 1-1 times 1 - lambda mu rho and
    1 - rho, 1-0 and 0-1 times 1 + mu rho and 1 + lambda rho), rows scaled to sum to 1."""
    lh, lv = np.asarray(lam_home, float), np.asarray(lam_vis, float)
    k = np.arange(MAX_GOALS + 1)
    log_fact = np.concatenate([[0.0], np.cumsum(np.log(k[1:]))])
    ph = np.exp(k * np.log(lh)[:, None] - lh[:, None] - log_fact)
    pv = np.exp(k * np.log(lv)[:, None] - lv[:, None] - log_fact)
    grid = ph[:, :, None] * pv[:, None, :]
    grid[:, 0, 0] *= 1.0 - lh * lv * rho
    grid[:, 1, 0] *= 1.0 + lv * rho
    grid[:, 0, 1] *= 1.0 + lh * rho
    grid[:, 1, 1] *= 1.0 - rho
    home = np.tril(np.ones((MAX_GOALS + 1, MAX_GOALS + 1)), -1)  # row (home goals) > column
    p = np.column_stack([(grid * home).sum(axis=(1, 2)),
                         np.trace(grid, axis1=1, axis2=2),
                         (grid * home.T).sum(axis=(1, 2))])
    out: np.ndarray = p / p.sum(axis=1, keepdims=True)
    return out


def forecast_columns(games: pd.DataFrame, elo: pd.DataFrame, tier_of: Mapping[int, int],
                     national: Collection[int] = (), model: GoalModel = GOALS) -> pd.DataFrame:
    """The forecast record's three chances of every game: the Elo's ordered logit
    (``football.forecast_columns``) blended with the goal model's for the clubs' games
    (``blend`` of the goals'); national teams' games (sublevel in ``national``) keep the
    Elo's alone, as their ratings follow the World Football Elo Ratings apart."""
    out = football.forecast_columns(elo).set_index("game_id")
    subs = pd.to_numeric(games["sublevel_id"], errors="coerce")
    clubs = games[~subs.isin(list(national)).to_numpy()]
    if clubs.empty or model.blend == 0.0:
        return out.reset_index()
    lam = rates(clubs, tier_of, model)
    goals = outcome_chances(lam["lambda_home"].to_numpy(), lam["lambda_vis"].to_numpy(),
                            model.rho)
    ids = lam["game_id"].to_numpy()
    cols = ["elo_home_prob", "elo_draw_prob", "elo_vis_prob"]
    out.loc[ids, cols] = blended(out.loc[ids, cols].to_numpy(), goals, model)
    return out.reset_index()


def blended(elo: np.ndarray, goals: np.ndarray, model: GoalModel = GOALS) -> np.ndarray:
    """A club match's home, draw and away chances: ``blend`` of the goal model's (``goals``)
    and the rest of the Elo's (``elo``), the last axis the three outcomes. The forecasts and
    the season projections (``server.models.projections.project_table``) both read it."""
    out: np.ndarray = model.blend * goals + (1.0 - model.blend) * elo
    return out


@dataclass(frozen=True)
class ClubGoals:
    """The goal model fitted on the matches up to a day, per club (``team_ids`` order of the
    caller): log ``attack`` and ``defence``, the log home advantage of the club's league
    (``home``, its competition's), and the ``base`` rate: what a projection of that day knows
    of every match still to come."""

    attack: np.ndarray
    defence: np.ndarray
    home: np.ndarray
    base: float

    def chances(self, home: np.ndarray, visitor: np.ndarray, neutral: np.ndarray,
                model: GoalModel = GOALS) -> np.ndarray:
        """(..., 3) chances of home win, draw and away win of matches between the clubs
        ``home`` and ``visitor`` (index arrays of one shape; ``neutral`` broadcast to it)."""
        adv = np.where(neutral, 0.0, self.home[home])
        lam_h = np.exp(self.base + adv + self.attack[home] - self.defence[visitor])
        lam_v = np.exp(self.base + self.attack[visitor] - self.defence[home])
        return outcome_chances(lam_h.ravel(), lam_v.ravel(), model.rho).reshape(
            *np.shape(lam_h), 3)
