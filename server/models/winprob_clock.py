"""In-game win probability for the clock sports: basketball, hockey and soccer.

The state after a play is the home lead and the share of regulation time left (``time_left``);
the pre-game ELO forecast is the prior. Two models, each the standard one for its scoring:

* **Basketball** scores often and in small steps, so the rest of a game's margin is close to
  normal: the final margin is the lead plus N(mu t, sigma^2 t) for a share t of regulation left
  (H. Stern, "A Brownian motion model for the progress of sports scores", JASA 89, 1994).
  ``sigma`` (a whole game's margin spread) is learnt from the fitting seasons' final margins
  (``fit_margin_spread``); ``mu`` is the drift whose whole-game chance is the prior,
  ``sigma x Phi^-1(prior)``. A tie when time runs out is an overtime, a short game of the same
  kind (``OT_SHARE`` of regulation).
* **Hockey and soccer** score rarely: each side's goals in the time left are Poisson, at a total
  rate learnt from the fitting seasons (``fit_goal_rate``, goals per regulation game) split
  between the sides so that the pre-game chance is the prior (``rate_share``). Soccer has three
  outcomes (home, draw, away; the ELO forecast counts a draw as half a win); a hockey tie after
  regulation goes to sudden-death overtime and a shootout, won by the home side with its share
  of the scoring rate (the chance it scores the next goal).

Possession (basketball): the side with the ball after a play is worth a learnt number of points
to the rest of the game's margin (``fit_possession_value``), added to the lead it plays from.
Who has the ball is read from the play-by-play itself (``possession``): the side of the next
shot, free throw or turnover in the period, except after a miss that a rebound follows (a loose
ball: nobody's).

Power plays (hockey): a minor penalty puts the other side on the power play for
``MINOR_SECONDS`` (``power_play`` reads the time left on each side's penalties after every
play). In that time each side scores at its share of the rate times a learnt factor
(``fit_power_play``: goals per second on the power play and short-handed against each side's
even-strength rate), the rest of the time at its share.
"""
from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np

OT_SHARE = {"basketball": 5.0 / 48.0}  # an overtime's length as a share of regulation (NBA)
MAX_GOALS = 12  # goals per side in the time left; more has a chance below 1e-9 at these rates
# Seconds still to play once a counting-up clock reaches the end of regulation (soccer's 90th
# minute): the referee adds time, about four minutes in a second half, so about two are left on
# average at any moment of it. Without it a goal in added time would be "impossible".
ADDED_TIME_LEFT = 120.0
PRIOR_CLIP = 1e-4  # priors are held inside (eps, 1 - eps): a certain pre-game forecast is none
_ERF = np.frompyfunc(math.erf, 1, 1)
_FACTORIALS = np.array([math.factorial(k) for k in range(MAX_GOALS + 1)], dtype=float)


def _norm_cdf(x: np.ndarray) -> np.ndarray:
    erf = np.asarray(_ERF(np.atleast_1d(np.asarray(x, float)) / math.sqrt(2.0)), dtype=float)
    out: np.ndarray = 0.5 * (1.0 + erf)
    return out


def _prior_z(prior: np.ndarray) -> np.ndarray:
    """The normal quantile of each prior (an absent one is even)."""
    p = np.clip(np.nan_to_num(np.asarray(prior, float), nan=0.5), PRIOR_CLIP, 1 - PRIOR_CLIP)
    inv = NormalDist().inv_cdf
    return np.array([inv(float(v)) for v in p.ravel()]).reshape(p.shape)


def _poisson_pmf(rate: np.ndarray) -> np.ndarray:
    """P(k goals), k = 0..MAX_GOALS, for each rate: (rows, MAX_GOALS + 1)."""
    lam = np.asarray(rate, float)[:, None]
    k = np.arange(MAX_GOALS + 1)[None, :]
    out: np.ndarray = np.exp(-lam) * lam ** k / _FACTORIALS[None, :]
    return out


def time_left(period: np.ndarray, clock_seconds: np.ndarray, periods: int,
              period_seconds: float, ot_seconds: float, counts_up: bool = False) -> np.ndarray:
    """The share of regulation time left after a play: ``period`` from 1, ``clock_seconds``
    left in it (or, ``counts_up``, played in the match so far, soccer's minute, never less than
    ``ADDED_TIME_LEFT``: the match ends when the referee says). In overtime it is the overtime's
    time left over regulation's length."""
    period = np.asarray(period, dtype=np.int64)
    clock = np.asarray(clock_seconds, dtype=float)
    regulation = periods * period_seconds
    if counts_up:
        out: np.ndarray = np.clip(regulation - clock, ADDED_TIME_LEFT, regulation) / regulation
        return out
    in_regulation = (periods - period) * period_seconds + clock
    in_overtime = np.minimum(clock, ot_seconds) if ot_seconds > 0 else np.zeros_like(clock)
    return np.where(period <= periods, in_regulation, in_overtime) / regulation


def clock_seconds(clock: list[str | None]) -> np.ndarray:
    """``"MM:SS"`` (time left in the period) or ``"38'"``/``"45+2'"`` (soccer's minute) as
    seconds; NaN where it is missing."""
    out = np.full(len(clock), np.nan)
    for i, c in enumerate(clock):
        if not c:
            continue
        if ":" in c:
            m, s = c.split(":", 1)
            out[i] = int(m) * 60 + int(s)
        else:
            out[i] = sum(int(x) for x in c.rstrip("'").split("+")) * 60
    return out


# ---------------------------------------------------------------------------- basketball

def fit_margin_spread(final_margin: np.ndarray, prior: np.ndarray) -> float:
    """A whole game's margin spread ``sigma``, by maximum likelihood of the final margins under
    the model (margin ~ N(sigma z, sigma^2), z the prior's normal quantile). With u = 1/sigma
    the likelihood's derivative is n/u - sum((u m - z) m), zero at the positive root of
    u^2 sum(m^2) - u sum(m z) - n."""
    m = np.asarray(final_margin, dtype=float)
    z = _prior_z(prior)
    mm, mz, n = float((m * m).sum()), float((m * z).sum()), len(m)
    u = (mz + math.sqrt(mz * mz + 4.0 * n * mm)) / (2.0 * mm)
    return 1.0 / u


OFFENSE = frozenset({"shot", "free_throw", "turnover"})  # plays made by the side with the ball
MISSES = frozenset({"shot", "free_throw"})  # a miss of one (no points) may leave the ball loose


def possession(game: np.ndarray, period: np.ndarray, event: np.ndarray, side: np.ndarray,
               points: np.ndarray) -> np.ndarray:
    """Who has the ball after each play: +1 the home side, -1 the visitor, 0 nobody known.

    One row per play, a game's plays together in order (substitutions left out); ``side`` +1
    when the home team made the play, -1 the visitor, 0 neither. The ball is with the side of
    the next shot, free throw or turnover in the same period of the game, unless the play was a
    missed shot or free throw and a rebound comes next: the ball is loose until it is taken."""
    game, period = np.asarray(game), np.asarray(period)
    event = np.asarray(event, dtype=object)
    side = np.asarray(side, dtype=float)
    n = len(game)
    offense = np.isin(event, list(OFFENSE)) & (side != 0)
    # the index of the next offensive play after each row (n: none), by a reversed running min
    at = np.where(offense, np.arange(n), n)
    nxt = np.r_[np.minimum.accumulate(at[::-1])[::-1][1:], n] if n else at
    found = nxt < n
    target = np.minimum(nxt, max(n - 1, 0))
    same = found & (game[target] == game) & (period[target] == period)
    out = np.where(same, side[target], 0.0)
    following = np.r_[event[1:], None] if n else event
    loose = np.isin(event, list(MISSES)) & (np.asarray(points) == 0) & (following == "rebound") \
        & np.r_[game[1:] == game[:-1], False]
    result: np.ndarray = np.where(loose, 0.0, out)
    return result


def fit_possession_value(final_margin: np.ndarray, lead: np.ndarray, left: np.ndarray,
                         prior: np.ndarray, ball: np.ndarray, sigma: float) -> float:
    """Points the ball is worth to the rest of a game's margin: the least-squares slope, through
    the origin, of what the rest of the game added to the lead beyond the model's drift
    (final margin - lead - sigma z t) on who had the ball (+1 home, -1 visitor), over the
    plays with the ball known and time left."""
    ball = np.asarray(ball, dtype=float)
    t = np.asarray(left, dtype=float)
    use = (ball != 0) & (t > 0)
    if not use.any():
        return 0.0
    rest = (np.asarray(final_margin, float) - np.asarray(lead, float)
            - sigma * _prior_z(prior) * t)[use]
    return float((rest * ball[use]).sum() / (ball[use] ** 2).sum())


def normal_home_win(lead: np.ndarray, left: np.ndarray, prior: np.ndarray, sigma: float,
                    sport: str = "basketball", ball: np.ndarray | None = None,
                    ball_value: float = 0.0) -> np.ndarray:
    """The home side's chance to win with ``lead`` and a share ``left`` of regulation to play
    (Stern's model; a tie at the end plays an overtime of ``OT_SHARE``); ``ball`` (+1 home, -1
    visitor, 0 nobody) adds ``ball_value`` points to the side with it while time is left."""
    lead = np.asarray(lead, dtype=float)
    left = np.asarray(left, dtype=float)
    z = _prior_z(prior)
    mu = sigma * z
    overtime = _norm_cdf(z * math.sqrt(OT_SHARE[sport]))  # from a tie, over an overtime
    t = np.maximum(left, 1e-12)
    ahead = lead if ball is None else lead + ball_value * np.asarray(ball, dtype=float)
    running = _norm_cdf((ahead + mu * t) / (sigma * np.sqrt(t)))
    over = np.where(lead > 0, 1.0, np.where(lead < 0, 0.0, overtime))
    out: np.ndarray = np.where(left > 0, running, over)
    return out


# ---------------------------------------------------------------------------- hockey, soccer

def fit_goal_rate(total_goals: np.ndarray) -> float:
    """Goals per regulation game, both sides together, over the fitting seasons' games."""
    return float(np.mean(np.asarray(total_goals, dtype=float)))


CHUNK = 20_000  # rows per step: (rows x 13 x 13) floats, 27 MB


def _outcomes(lead: np.ndarray, home_rate: np.ndarray, visitor_rate: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(home win, draw, away win) when each side scores Poisson(rate) more goals."""
    lead = np.asarray(lead)
    home_rate = np.broadcast_to(np.asarray(home_rate, float), lead.shape)
    visitor_rate = np.broadcast_to(np.asarray(visitor_rate, float), lead.shape)
    if len(lead) > CHUNK:
        parts = [_outcomes(lead[i:i + CHUNK], home_rate[i:i + CHUNK], visitor_rate[i:i + CHUNK])
                 for i in range(0, len(lead), CHUNK)]
        w, d, a = (np.concatenate([p[j] for p in parts]) for j in range(3))
        return w, d, a
    k = np.arange(MAX_GOALS + 1)
    h = _poisson_pmf(home_rate)
    v = _poisson_pmf(visitor_rate)
    diff = k[:, None] - k[None, :]  # home goals minus visitor goals
    final = np.asarray(lead, dtype=np.int64)[:, None, None] + diff[None, :, :]
    joint = h[:, :, None] * v[:, None, :]
    win = (joint * (final > 0)).sum(axis=(1, 2))
    draw = (joint * (final == 0)).sum(axis=(1, 2))
    return win, draw, 1.0 - win - draw


def _expectation(sport: str, share: np.ndarray, rate: float) -> np.ndarray:
    """The pre-game ELO expectation a home share of the scoring rate gives: soccer counts a
    draw as half a win; hockey's draw goes to overtime, won with the home share."""
    win, draw, _ = _outcomes(np.zeros(len(share)), rate * share, rate * (1.0 - share))
    out: np.ndarray = win + draw * (0.5 if sport == "soccer" else share)
    return out


def rate_share(sport: str, prior: np.ndarray, rate: float) -> np.ndarray:
    """The home side's share of the scoring rate whose pre-game expectation is ``prior``
    (bisection; an absent prior is an even share)."""
    p = np.clip(np.nan_to_num(np.asarray(prior, float), nan=0.5), 0.02, 0.98)
    low, high = np.full(len(p), 0.01), np.full(len(p), 0.99)
    for _ in range(30):  # 2^-30 of the share: far below any forecast's precision
        mid = 0.5 * (low + high)
        above = _expectation(sport, mid, rate) > p
        high = np.where(above, mid, high)
        low = np.where(above, low, mid)
    out: np.ndarray = 0.5 * (low + high)
    return out


MINOR_SECONDS = 120.0  # a minor penalty's length: the other side's power play


def power_play(game: np.ndarray, elapsed: np.ndarray, event: np.ndarray, side: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray]:
    """(the home side's, the visitor's) seconds of power play still to come after each play,
    and before it whether the play's own side was on the power play (+1), short-handed (-1) or
    neither (0) when it was made.

    One row per play, a game's plays together in order; ``elapsed`` the game's seconds played,
    ``side`` +1 when the home team made the play, -1 the visitor. A ``penalty`` play puts its
    side short-handed for ``MINOR_SECONDS`` from then (a later one extends it); both sides
    short-handed at once play even for the shorter time, so the power play is the difference."""
    game = np.asarray(game)
    t = np.asarray(elapsed, dtype=float)
    sides = np.asarray(side, dtype=float).tolist()
    penalty = (np.asarray(event, dtype=object) == "penalty").tolist()
    n = len(t)
    home_pp, at_play = np.zeros(n), np.zeros(n)
    ends = {1.0: 0.0, -1.0: 0.0}  # when each side's penalty time runs out
    times = t.tolist()
    games = game.tolist()
    for i in range(n):
        if i == 0 or games[i] != games[i - 1]:
            ends = {1.0: 0.0, -1.0: 0.0}
        now, who = times[i], sides[i]
        before = max(ends[-1.0] - now, 0.0) - max(ends[1.0] - now, 0.0)  # home's edge
        at_play[i] = 0.0 if who == 0 or before == 0 else (1.0 if before * who > 0 else -1.0)
        if penalty[i] and who != 0:
            ends[who] = max(ends[who], now) + MINOR_SECONDS if ends[who] > now \
                else now + MINOR_SECONDS
        home_pp[i] = max(ends[-1.0] - now, 0.0) - max(ends[1.0] - now, 0.0)
    return home_pp, at_play


def fit_power_play(goal_state: np.ndarray, penalties: int, regulation_seconds: float,
                   games: int) -> tuple[float, float]:
    """(power play, short-handed) scoring factors: each side's goals a second in that state over
    its goals a second at even strength. ``goal_state``: each regulation goal's state for its
    scorer (``power_play``'s second array); ``penalties`` the minors called in regulation, each
    ``MINOR_SECONDS`` of power play (overlaps are rare enough to leave out)."""
    state = np.asarray(goal_state, dtype=float)
    pp_seconds = penalties * MINOR_SECONDS
    even_seconds = games * regulation_seconds - pp_seconds
    if pp_seconds <= 0 or even_seconds <= 0:
        return 1.0, 1.0
    even = float((state == 0).sum()) / (2.0 * even_seconds)  # one side's goals a second
    if even <= 0:
        return 1.0, 1.0
    return (float((state > 0).sum()) / pp_seconds / even,
            float((state < 0).sum()) / pp_seconds / even)


def goal_outcomes(sport: str, lead: np.ndarray, left: np.ndarray, share: np.ndarray,
                  rate: float, overtime: np.ndarray | None = None,
                  power: tuple[np.ndarray, float, float] | None = None
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(home win, draw, away win) from ``lead`` with a share ``left`` of regulation to play, the
    home side scoring ``share`` of ``rate`` goals a game. Hockey has no draw: a tie after
    regulation (or in its sudden-death overtime, ``overtime`` True) is won with the home share,
    and any lead in overtime has won."""
    lead = np.asarray(lead, dtype=np.int64)
    left = np.asarray(left, dtype=float)
    share = np.asarray(share, dtype=float)
    home_time, visitor_time = left, left
    if power is not None:  # (home power-play share of regulation, its factors), signed
        pp, on_pp, short = power
        ahead = np.minimum(np.maximum(np.asarray(pp, float), 0.0), left)
        behind = np.minimum(np.maximum(-np.asarray(pp, float), 0.0), left)
        home_time = np.maximum(left + (on_pp - 1.0) * ahead + (short - 1.0) * behind, 0.0)
        visitor_time = np.maximum(left + (on_pp - 1.0) * behind + (short - 1.0) * ahead, 0.0)
    win, draw, loss = _outcomes(lead, rate * share * home_time,
                                rate * (1.0 - share) * visitor_time)
    if sport == "soccer":
        return win, draw, loss
    win = win + draw * share
    if overtime is not None:
        ot = np.asarray(overtime, dtype=bool)
        win = np.where(ot, np.where(lead > 0, 1.0, np.where(lead < 0, 0.0, share)), win)
    return win, np.zeros(len(win)), 1.0 - win
