"""Standings as of the end of a day (pure): records, games behind, form, ranks, clinch marks.

Input is a season's regular-season games in play order (final ones up to the day, and how many
each team has still to play) and each team's league and division; output is one row per team.
Teams are ranked as their league's postseason ranks them (``server.catalog.playoffs``: a win
fraction, NHL points or soccer table points), equal records by the format's declared
tiebreakers (``server.models.tiebreaks``), then by team order.

Clinch marks are certain, never projected: ``Division`` when no division rival can still
finish ahead (``Bye`` once the league is finished, for the division winners its format seeds past
the first round); ``Wild Card`` once the league is finished, for a team in by record rather than
by division place; ``Playoff`` when too few teams of the league can still finish ahead to keep the
team out (for a division format, ``division_top + wild_cards - 1`` teams: to shut a team out,
its division's qualifiers and every wild card must finish ahead of it, and a wild card's own
division winner is ahead of it too); ``Play-In`` (NBA: a place in 1-10); ``Title`` (a league
table's first place). "Can still finish ahead" counts a tie while any of the two teams has
games left, or (a points table) while a third club of the league can still end level with them,
which would make a head-to-head mini-league of three, or while a play-off for a tie
(``tie_playoff``: Serie A) is not known; with every game played the tiebreakers decide, and
the marks are the actual ones.

A football league's declared places (``server.catalog.football.places``) are marked the same
way, certain or not at all: a club's worst final position is one plus the clubs that can still
finish ahead of it, its best one plus the clubs it can no longer finish ahead of. A place at the
top (Champions League, promotion, a promotion play-off) is marked once the worst position lies
inside it, a place at the bottom (relegation, a relegation play-off) once the best does
(``MARKS``; the Europa League and Conference League places are never marked: the domestic cups,
which the files cannot foresee, can move them). ``Title`` comes first: the champion's first
place holds its place.

A football league that splits its season (``server.catalog.football.Split``: Austria, Belgium,
Scotland) is ranked group by group once every club has played its first phase, a halved
group's points halved as the league rounds them (``split_seasons``, which the season
projections read too); a club of a lower group can never finish ahead of a higher group's.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from server.catalog.football import League, Split
from server.catalog.football.places import AT_BEST, AT_LEAST, MARKS, LeaguePlaces
from server.catalog.playoffs import PlayoffFormat
from server.catalog.tables import HOCKEY_POINTS
from server.models import tiebreaks

LAST_N = 10  # games in the form column (Last10)


@dataclass(frozen=True)
class SeasonGames:
    """Final regular-season games up to the day, in play order, as team indexes and scores;
    ``overtime``: decided in overtime or a shootout; ``remaining``: per team, regular-season
    games still to play after the day."""

    home: np.ndarray
    visitor: np.ndarray
    score_home: np.ndarray
    score_vis: np.ndarray
    overtime: np.ndarray
    remaining: np.ndarray
    # (teams x 3) wins, losses and ties known only as season totals (Lahman's seasons, which
    # have no games): added to what the games give
    carried: np.ndarray | None = None
    # per team, table points a league took off (football's deductions, declared as data)
    deducted: np.ndarray | None = None
    # per team, 1 for a club that won a play-off match against a club level with it on points,
    # which the league's rules rank first (football's ``tie_playoff``, declared as data)
    tie_playoff: np.ndarray | None = None


def _record(won: int, lost: int, tied: int, with_ties: bool, draws_middle: bool = False) -> str:
    if not with_ties:
        return f"{won}-{lost}"
    return f"{won}-{tied}-{lost}" if draws_middle else f"{won}-{lost}-{tied}"


def table(games: SeasonGames, group: np.ndarray, division: np.ndarray,
          fmt: PlayoffFormat | None, ot_losses: bool, ties: bool, marks: bool = True,
          form_games: int = 0, draw_letter: str = "T", draws_middle: bool = False,
          group_rules: Sequence[tuple[str, ...] | None] | None = None,
          splits: Sequence[Split | None] | None = None,
          schedules: Sequence[League | None] | None = None,
          places: Sequence[LeaguePlaces | None] | None = None) -> list[dict[str, Any]]:
    """One row per team (index order): W, L, T (ties or draws), OTL (``ot_losses``: overtime
    losses counted apart from L), Points, Pct, GB, Home, Away, Last10, Streak, Diff, DivRank,
    LeagueRank, Clinched. ``ties`` says whether Home, Away and Last10 show a third column (ties,
    draws or overtime losses). Without ``marks`` (the store lacks the structure the format
    needs: a league or division of some team) only division titles are marked. With
    ``form_games``, ``Form`` is the team's last results as letters, oldest first (W, L and
    ``draw_letter``; an overtime loss an L), else None. ``draws_middle``: Home, Away and Last10 read
    W-D-L (football) instead of W-L-T. ``group_rules``: per league (``group`` index) its own
    tiebreakers in place of the format's (None: the format's), as football's leagues declare
    them. In a points table the head-to-head step reads the table points between the clubs level
    (three a win, one a draw), not their wins: a mini-league, as football's rules say.
    ``splits``: per league its split season (``server.catalog.football.Split``; None: one
    table), applied once each of its clubs has played the first phase (``split_seasons``).
    ``schedules``: per league its declaration (``server.catalog.football.League``): a club
    has at least the matches its schedule still holds to play (``League.matches`` less those
    played), whether or not the files list them. ``places``: per league what its final
    positions earn (``server.catalog.football.places``; None: nothing declared), marked once
    certain (module docstring)."""
    t = len(group)
    h, v = games.home, games.visitor
    sh, sv = games.score_home, games.score_vis
    ot = games.overtime & ot_losses
    w, lo, ti, otl = (np.zeros(t, dtype=np.int64) for _ in range(4))
    np.add.at(w, h, sh > sv)
    np.add.at(w, v, sv > sh)
    np.add.at(ti, h, sh == sv)
    np.add.at(ti, v, sh == sv)
    np.add.at(lo, h, (sh < sv) & ~ot)
    np.add.at(lo, v, (sv < sh) & ~ot)
    np.add.at(otl, h, (sh < sv) & ot)
    np.add.at(otl, v, (sv < sh) & ot)
    if games.carried is not None:
        w += games.carried[:, 0]
        lo += games.carried[:, 1]
        ti += games.carried[:, 2]
    diff = np.zeros(t, dtype=np.int64)
    np.add.at(diff, h, sh - sv)
    np.add.at(diff, v, sv - sh)
    played = w + lo + ti + otl
    rem = games.remaining.astype(np.int64)

    table_points = fmt is not None and fmt.kind == "table"
    by_points = table_points or (fmt is not None and fmt.rank_by == "points")
    win, draw, loss = fmt.points if table_points and fmt is not None else HOCKEY_POINTS
    taken = (games.deducted if games.deducted is not None
             else np.zeros(t, dtype=np.int64)).astype(np.int64)
    split = (split_seasons(games, group, division, fmt, splits, group_rules)
             if splits and table_points else SplitState.none(t))
    taken = taken + split.taken
    section, half_point = split.section, split.half_point
    if schedules:
        rem = np.maximum(rem, _unplayed(played, group, split, schedules))
    points = w * win + (ti + otl) * draw + lo * loss - taken
    most = max(win, 1)

    def value(won: np.ndarray, lost: np.ndarray) -> np.ndarray:
        """The ranking value of a record, as the format ranks: points, or wins and half the
        ties over games (an overtime loss a loss)."""
        if by_points:
            out: np.ndarray = (won * win + (ti + otl) * draw + lost * loss - taken).astype(float)
            return out
        fraction: np.ndarray = (won + 0.5 * ti) / np.maximum(won + lost + ti + otl, 1)
        return fraction

    # a split season's groups rank one below the other whatever the points: the group is the
    # first key (a lower group's points never reach a higher group's)
    current = value(w, lo) - tiebreaks.SECTION_GAP * section
    pct = (points / np.maximum(most * played, 1) if by_points
           else (w + 0.5 * ti) / np.maximum(played, 1))

    h2h = np.zeros((t, t), dtype=np.int64)
    pair = np.zeros((t, t))
    if table_points:  # table points won against each other, over the most there were
        np.add.at(h2h, (h, v), np.where(sh > sv, win, np.where(sh == sv, draw, loss)))
        np.add.at(h2h, (v, h), np.where(sv > sh, win, np.where(sh == sv, draw, loss)))
        np.add.at(pair, (h, v), float(win))
        np.add.at(pair, (v, h), float(win))
    else:
        np.add.at(h2h, (h, v), sh > sv)
        np.add.at(h2h, (v, h), sv > sh)
        np.add.at(pair, (h, v), 1.0)
        np.add.at(pair, (v, h), 1.0)
    # a league that counts two clubs' matches only once they have met home and away
    # (``League.head_to_head_complete``): the pairs still short of it count no head-to-head
    counted = _complete_pairs(h, v, group, schedules, t)
    if counted is not None:
        h2h = np.where(counted, h2h, 0)
        pair = np.where(counted, pair, 0.0)
    # goal difference in the games between the clubs of a league level on points with it
    level = (current[:, None] == current[None, :]) & (group[:, None] == group[None, :])
    if counted is not None:
        level &= counted
    among = level[h, v]
    h2h_goals = np.zeros(t, dtype=np.int64)
    np.add.at(h2h_goals, h[among], (sh - sv)[among])
    np.add.at(h2h_goals, v[among], (sv - sh)[among])
    regulation = np.zeros(t, dtype=np.int64)
    np.add.at(regulation, h, (sh > sv) & ~games.overtime)
    np.add.at(regulation, v, (sv > sh) & ~games.overtime)
    goals_for = np.zeros(t, dtype=np.int64)
    np.add.at(goals_for, h, sh)
    np.add.at(goals_for, v, sv)
    away_goals = np.zeros(t, dtype=np.int64)  # UEFA's league phase: goals, then these
    np.add.at(away_goals, v, sv)
    away_wins = np.zeros(t, dtype=np.int64)
    np.add.at(away_wins, v, sv > sh)
    rules = fmt.tiebreaks if fmt is not None else ()
    counts = {"wins": w[None], "regulation_wins": regulation[None],
              "goal_difference": diff[None], "goals_for": goals_for[None],
              "away_goals_for": away_goals[None], "away_wins": away_wins[None],
              "head_to_head_goal_difference": h2h_goals[None],
              "split_half_point": half_point[None],
              "tie_playoff": (games.tie_playoff if games.tie_playoff is not None
                              else np.zeros(t, dtype=np.int64))[None]}
    place = tiebreaks.rank_value(current[None, :].astype(float), rules, group, division,
                                 h2h[None], pair, counts)[0]
    for g, own in enumerate(group_rules or ()):  # a league's own order: its clubs' places
        members = group == g
        if own is not None and own != rules and members.any():
            mine = tiebreaks.rank_value(current[None, :].astype(float), own, group, division,
                                        h2h[None], pair, counts)[0]
            place[members] = mine[members]

    # who can still finish ahead of whom: the best a team can do against the worst the other can
    best = value(w + rem, lo)
    worst = value(w, lo + rem)
    if splits and table_points:  # a halving still to come: at worst half the points won
        for g, rule in enumerate(splits):
            members = (group == g) & ~split.reached
            if rule is not None and any(rule.halved) and members.any():
                won = w * win + (ti + otl) * draw
                worst[members] = np.minimum(worst, won // 2 - taken)[members]
    open_pair = (rem[:, None] + rem[None, :]) > 0
    if table_points:
        # a club still playing may end level with two that have finished (row i: on i's points)
        joins = ((group[:, None] == group[None, :]) & (rem[None, :] > 0)
                 & (worst[None, :] <= best[:, None]) & (best[:, None] <= best[None, :]))
        open_pair = open_pair | joins.any(axis=1)[:, None]
        if games.tie_playoff is None:  # a league that plays off a tie, its play-off unknown
            orders = list(group_rules or ()) + [None] * (int(group.max(initial=-1)) + 1)
            for g in np.unique(group[group >= 0]).tolist():
                if "tie_playoff" in (orders[g] or rules):
                    members = group == g
                    open_pair = open_pair | (members[:, None] & members[None, :])
    ahead_now = place[:, None] > place[None, :]
    can_pass = (best[:, None] > worst[None, :]) | (
        (best[:, None] == worst[None, :]) & (open_pair | ahead_now))
    # a club of a lower group never finishes ahead of a higher group's, which always does
    can_pass = (can_pass & (section[:, None] == section[None, :])) | (
        section[:, None] < section[None, :])
    np.fill_diagonal(can_pass, False)  # can_pass[i, j]: team i can finish ahead of team j

    same_group = group[:, None] == group[None, :]
    # a club's best and worst final place in its league: one plus the clubs sure to finish
    # ahead of it, one plus those that may
    sure_ahead = ~can_pass & same_group
    np.fill_diagonal(sure_ahead, False)
    best_place = 1 + sure_ahead.sum(axis=1)
    worst_place = 1 + (can_pass & same_group).sum(axis=0)
    earned = [None if p is None else p.ranges(int((group == g).sum()))
              for g, p in enumerate(places or ())]
    same_div = (division[:, None] == division[None, :]) & (division[:, None] >= 0)
    # a team's unit is its division, else its league (negative: never a division's index)
    unit_of = np.where(division >= 0, division, -2 - group)
    div_rank = _ranks(place, unit_of)
    league_rank = _ranks(place, group)
    leader = {int(u): int(np.flatnonzero(unit_of == u)[np.argmax(place[unit_of == u])])
              for u in np.unique(unit_of)}
    rows: list[dict[str, Any]] = []
    form = _form(games, t, ot_losses)
    for i in range(t):
        top = leader[int(unit_of[i])]
        gb = ((w[top] - w[i]) + (lo[i] + otl[i] - lo[top] - otl[top])) / 2
        points_back = int(points[top] - points[i])
        passers_league = int((can_pass[:, i] & same_group[:, i]).sum())
        passers_level = int(can_pass[:, i].sum())
        passers_div = int((can_pass[:, i] & same_div[:, i]).sum())
        rows.append({
            "W": int(w[i]), "L": int(lo[i]), "T": int(ti[i]), "OTL": int(otl[i]),
            "Points": int(points[i]), "G": int(played[i]), "Remaining": int(rem[i]),
            "Pct": round(float(pct[i]), 3), "GB": float(gb), "PointsBack": points_back,
            "GF": int(goals_for[i]), "GA": int(goals_for[i] - diff[i]),
            "Home": _record(*form.home[i], ties, draws_middle),
            "Away": _record(*form.away[i], ties, draws_middle),
            "Last10": _record(*form.last(i), ties, draws_middle), "Streak": form.streak(i, draw_letter),
            "Form": form.letters(i, form_games, draw_letter) if form_games else None,
            "Diff": int(diff[i]), "DivRank": int(div_rank[i]), "LeagueRank": int(league_rank[i]),
            "Clinched": _clinched(fmt if marks else None, i, division[i] >= 0 and passers_div == 0,
                                  passers_div, passers_league, passers_level, group,
                                  division, place, rem, same_group),
        })
        if (rows[-1]["Clinched"] is None and marks and table_points and 0 <= group[i] < len(earned)
                and earned[group[i]]):
            rows[-1]["Clinched"] = _place_mark(earned[group[i]], int(best_place[i]),
                                               int(worst_place[i]))
    return rows


@dataclass(frozen=True)
class SplitState:
    """Per team, what its league's split season (``server.catalog.football.Split``) does to
    its table: ``taken``, the points the halving took off; ``section``, its group (0 the
    first, ranked above the next whatever the points); ``half_point``, the rounding's half
    point (+1 rounded off, -1 added: the tiebreak ``split_half_point``). All zero before the
    split and in a league without one; ``reached``: the team's league has split; ``rank``:
    its place in its league's table at the split (1 the first; 0 before)."""
    taken: np.ndarray
    section: np.ndarray
    half_point: np.ndarray
    reached: np.ndarray
    rank: np.ndarray

    @classmethod
    def none(cls, t: int) -> SplitState:
        zero = np.zeros(t, dtype=np.int64)
        return cls(zero.copy(), zero.copy(), zero.copy(), np.zeros(t, dtype=bool), zero.copy())


def split_seasons(games: SeasonGames, group: np.ndarray, division: np.ndarray,
                  fmt: PlayoffFormat | None, splits: Sequence[Split | None],
                  group_rules: Sequence[tuple[str, ...] | None] | None = None) -> SplitState:
    """The split seasons' effect on a points table (``SplitState``), per league (``group``
    index) as ``splits`` declares: once every club of the league has played its first phase,
    the table of that phase (ranked by the league's order, its deductions off) puts the clubs
    in their groups, and a halved group keeps half its first-phase points, rounded as declared.
    The one engine of the standings and the season projections."""
    out = SplitState.none(len(group))
    points = fmt.points if fmt is not None else (3, 1, 0)
    for g, rule in enumerate(splits):
        if rule is None:
            continue
        first_phase = _split(games, group, g, rule, points)
        if first_phase is None:
            continue
        members = group == g
        out.reached[members] = True
        at_split = _first_phase_ranks(first_phase.games, members, fmt,
                                      group_rules[g] if group_rules else None)
        out.rank[members] = at_split
        out.section[members] = np.searchsorted(np.cumsum(rule.sizes), at_split)
        halved = np.array((rule.halved or (False,) * len(rule.sizes)) + (False,))[
            np.minimum(out.section, len(rule.sizes))] & members
        half = first_phase.points // 2 + (first_phase.points % 2 if rule.rounding == "up" else 0)
        kept = np.where(halved, half, first_phase.points)
        out.taken[members] += (first_phase.points - kept)[members]
        out.half_point[halved] = (first_phase.points - 2 * kept)[halved]
    return out


def _first_phase_ranks(games: SeasonGames, members: np.ndarray, fmt: PlayoffFormat | None,
                       rules: tuple[str, ...] | None) -> np.ndarray:
    """The league's clubs' (``members``) ranks in the table of their first-phase ``games``,
    as a table of the league alone: ranking the whole level's clubs for each split league made
    2024-25's football table take 0.24 s against 0.17 s without splits (three split leagues
    among 25, the mean of five requests in process); the league alone adds nothing measurable."""
    index = np.full(len(members), -1, dtype=np.int64)
    index[members] = np.arange(int(members.sum()))
    mine = members[games.home] & members[games.visitor]
    sub = replace(games, home=index[games.home[mine]], visitor=index[games.visitor[mine]],
                  score_home=games.score_home[mine], score_vis=games.score_vis[mine],
                  overtime=games.overtime[mine], remaining=games.remaining[members],
                  deducted=None if games.deducted is None else games.deducted[members],
                  tie_playoff=None, carried=None)
    t = int(members.sum())
    ranked = table(sub, np.zeros(t, dtype=np.int64), np.full(t, -1), fmt, ot_losses=False,
                   ties=True, marks=False, group_rules=[rules])
    return np.array([r["LeagueRank"] for r in ranked], dtype=np.int64)


@dataclass(frozen=True)
class _FirstPhase:
    games: SeasonGames  # the games of a split season's first phase, every club's
    points: np.ndarray  # per team, its table points from them (its league's clubs only)


def _split(games: SeasonGames, group: np.ndarray, g: int, rule: Split,
           points: tuple[int, int, int]) -> _FirstPhase | None:
    """League ``g``'s first phase under its split ``rule``: each club's first ``rule.after``
    games in play order (the rounds before the split: a round's postponed match is played
    before the groups start), and its points from them; None until every club of the league
    has played them (before the split the table is one table)."""
    t = len(group)
    n = len(games.home)
    teams = np.concatenate([games.home, games.visitor])
    order = np.lexsort((np.concatenate([np.arange(n), np.arange(n)]), teams))
    start = np.searchsorted(teams[order], np.arange(t))
    nth = np.empty(2 * n, dtype=np.int64)  # the game's number for each of its two clubs
    nth[order] = np.arange(2 * n) - start[teams[order]] + 1
    count = np.bincount(teams, minlength=t)
    members = group == g
    if not members.any() or (count[members] < rule.after).any():
        return None
    first = (nth[:n] <= rule.after) & (nth[n:] <= rule.after)
    sh, sv = games.score_home[first], games.score_vis[first]
    win, draw, loss = points
    got = np.zeros(t, dtype=np.int64)
    np.add.at(got, games.home[first], np.where(sh > sv, win, np.where(sh == sv, draw, loss)))
    np.add.at(got, games.visitor[first], np.where(sv > sh, win, np.where(sh == sv, draw, loss)))
    phase = replace(games, home=games.home[first], visitor=games.visitor[first],
                    score_home=sh, score_vis=sv, overtime=games.overtime[first],
                    remaining=np.zeros(t, dtype=np.int64))
    return _FirstPhase(phase, got)


def _complete_pairs(h: np.ndarray, v: np.ndarray, group: np.ndarray,
                    schedules: Sequence[League | None] | None, t: int) -> np.ndarray | None:
    """(teams x teams) whether a pair's matches count in the head-to-head: False for two clubs
    of a league that waits until they have met as often as its round robin says
    (``League.head_to_head_complete``, ``League.first_legs``) and have not; None where no
    league waits."""
    if not schedules or not any(lg is not None and lg.head_to_head_complete
                                for lg in schedules):
        return None
    met = np.zeros((t, t), dtype=np.int64)
    np.add.at(met, (h, v), 1)
    met = met + met.T
    counted = np.ones((t, t), dtype=bool)
    for g, league in enumerate(schedules):
        if league is None or not league.head_to_head_complete:
            continue
        members = np.flatnonzero(group == g)
        legs = league.first_legs(len(members))
        if legs is not None:
            short = met[np.ix_(members, members)] < legs
            counted[np.ix_(members, members)] = ~short
    return counted


def _unplayed(played: np.ndarray, group: np.ndarray, split: SplitState,
              schedules: Sequence[League | None]) -> np.ndarray:
    """Per team, the matches its league's declared schedule still holds for it: the season's
    (``League.matches`` of the league's clubs; after a split, its own group's rounds, before
    it the most any group plays) less those it has played; 0 where none is declared."""
    out = np.zeros(len(group), dtype=np.int64)
    for g, league in enumerate(schedules):
        members = np.flatnonzero(group == g)
        if league is None or not len(members):
            continue
        for i in members.tolist():
            total = league.matches(len(members),
                                   int(split.section[i]) if split.reached[i] else None)
            if total is not None:
                out[i] = max(total - int(played[i]), 0)
    return out


def _ranks(place: np.ndarray, unit: np.ndarray) -> np.ndarray:
    """1-based rank of each team within its unit (division or league), best first."""
    out = np.zeros(len(place), dtype=np.int64)
    for u in np.unique(unit):
        members = np.flatnonzero(unit == u)
        order = members[np.argsort(-place[members], kind="stable")]
        out[order] = np.arange(1, len(order) + 1)
    return out


def _clinched(fmt: PlayoffFormat | None, i: int, division_won: bool, passers_div: int,
              passers_league: int, passers_level: int, group: np.ndarray,
              division: np.ndarray, place: np.ndarray, rem: np.ndarray,
              same_group: np.ndarray) -> str | None:
    """The team's clinch mark (module docstring), None when nothing is certain yet.
    ``passers_*``: the teams of its division, league and level that can still finish ahead."""
    if fmt is None:
        return "Division" if division_won else None
    if fmt.kind == "table":
        return "Title" if passers_league == 0 else None
    if fmt.kind == "top":
        size = 1
        while size * 2 <= min(fmt.teams, len(group)):
            size *= 2
        return "Playoff" if passers_level <= size - 1 else None  # one bracket for the level
    if fmt.kind == "play_in":  # a division title is no place in the NBA: the places first
        if passers_league <= fmt.direct - 1:
            return "Playoff"
        if passers_league <= fmt.direct + 3:
            return "Play-In"
        return "Division" if division_won else None
    division_top = 3 if fmt.kind == "nhl" else fmt.division_top
    wild_cards = 2 if fmt.kind == "nhl" else fmt.wild_cards
    members = np.flatnonzero(same_group[i])
    finished = not rem[members].any()  # every game of the league played: the actual field
    if division_won:
        return "Bye" if finished and i in _byes(members, division, place, fmt.byes) else "Division"
    if finished:
        places, wild = _final_field(members, division, place, division_top, wild_cards)
        return "Wild Card" if i in wild else "Playoff" if i in places else None
    if passers_div <= division_top - 1 or passers_league <= division_top + wild_cards - 1:
        return "Playoff"
    return None


def _place_mark(earned: dict[str, range], best: int, worst: int) -> str | None:
    """The place a club of a league whose positions earn ``earned`` (kind -> positions) is sure
    of, finishing no higher than ``best`` and no lower than ``worst``: at least a place at the
    top, at best one at the bottom (``server.catalog.football.places.MARKS``); None when none
    is certain."""
    for kind in AT_LEAST:
        if kind in earned and len(earned[kind]) and worst <= earned[kind][-1]:
            return MARKS[kind]
    for kind in AT_BEST:
        if kind in earned and len(earned[kind]) and best >= earned[kind][0]:
            return MARKS[kind]
    return None


def _final_field(members: np.ndarray, division: np.ndarray, place: np.ndarray,
                 division_top: int, wild_cards: int) -> tuple[set[int], set[int]]:
    """The teams of a finished league that qualify: each division's best ``division_top``
    (by division place), then the best ``wild_cards`` of the others (the wild cards)."""
    field: set[int] = set()
    for d in np.unique(division[members]):
        in_div = members[division[members] == d]
        field.update(in_div[np.argsort(-place[in_div], kind="stable")][:division_top].tolist())
    rest = [m for m in members[np.argsort(-place[members], kind="stable")].tolist()
            if m not in field]
    return field, set(rest[:wild_cards])


def _byes(members: np.ndarray, division: np.ndarray, place: np.ndarray, byes: int) -> set[int]:
    """The division winners of a finished league seeded to skip the first round: the best
    ``byes`` of them by record (MLB from 2022: two per league)."""
    winners = [int(in_div[np.argmax(place[in_div])]) for d in np.unique(division[members])
               for in_div in [members[division[members] == d]]]
    return set(sorted(winners, key=lambda m: -place[m])[:byes])


@dataclass
class _Form:
    """Per team: home and away records (W, L, T or OTL), and its result codes in play order
    (0 W, 1 L, 2 T, 3 an overtime loss)."""

    home: list[tuple[int, int, int]]
    away: list[tuple[int, int, int]]
    results: list[np.ndarray]

    def last(self, i: int) -> tuple[int, int, int]:
        counts = np.bincount(self.results[i][-LAST_N:], minlength=4)
        return int(counts[0]), int(counts[1]), int(counts[2] + counts[3])

    def letters(self, i: int, n: int, draw: str) -> str:
        """The last ``n`` results, oldest first, as letters (``draw`` for a tie or a draw)."""
        return "".join(("W", "L", draw, "L")[int(r)] for r in self.results[i][-n:])

    def streak(self, i: int, draw: str = "T") -> str | None:
        """"W3": three straight wins to the day (an overtime loss a loss, a tie a T); None
        before a team's first game."""
        results = np.where(self.results[i] == 3, 1, self.results[i])
        if not len(results):
            return None
        breaks = np.flatnonzero(results != results[-1])
        length = len(results) - (breaks[-1] + 1 if len(breaks) else 0)
        return f"{('W', 'L', draw)[int(results[-1])]}{length}"


def _form(games: SeasonGames, t: int, ot_losses: bool) -> _Form:
    """Records and result sequences with array operations (a Python loop over MLB's 2,430
    games took 4x as long as the rest of the table)."""
    sh, sv = games.score_home, games.score_vis
    lost = np.where(games.overtime & ot_losses, 3, 1)
    r_home = np.where(sh > sv, 0, np.where(sh < sv, lost, 2))
    r_vis = np.where(sv > sh, 0, np.where(sv < sh, lost, 2))

    def record(team: np.ndarray, result: np.ndarray) -> list[tuple[int, int, int]]:
        c = np.bincount(team * 4 + result, minlength=4 * t).reshape(t, 4)
        return [(int(a), int(b), int(x + y)) for a, b, x, y in c.tolist()]

    n = len(sh)
    teams = np.concatenate([games.home, games.visitor])
    results = np.concatenate([r_home, r_vis])
    order = np.lexsort((np.concatenate([np.arange(n), np.arange(n)]), teams))
    bounds = np.searchsorted(teams[order], np.arange(t + 1))
    sequences = [results[order[bounds[i]:bounds[i + 1]]] for i in range(t)]
    return _Form(record(games.home, r_home), record(games.visitor, r_vis), sequences)
