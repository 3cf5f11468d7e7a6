"""Season stat tables: totals and rates per player and team, with rankings and qualifiers.

Pure functions of DataFrames. Formulas and qualifier rules are data in
``server.catalog.statcodes`` (e.g. AVG = H / AB ranked among batters with 3.1 plate appearances
per team game, OBR 9.22). Rankings use "min" ties (1, 2, 2, 4). ``rank`` ranks everyone with
qualifiers first (for rates); ``qualified_rank`` ranks qualifiers only (null for the others).
"""
from __future__ import annotations

from functools import cache

import numpy as np
import pandas as pd

from server.catalog import expressions
from server.catalog.linestats import LINE_STATS
from server.catalog.statcodes import GP, STAT_CODES, Formula, Terms, codes_for

# Totals of per-game figures that are not whole (WPA, RE24) kept to 9 decimals: a sum's last
# binary digit follows the order it was added in, which a store or a thread pool may change
# between two builds of the same data; nine places make the same data give the same document.
TOTAL_DIGITS = 9

STAT_COLUMNS = ("season", "type", "code", "entity_id", "team_id", "sublevel_id", "value", "gp",
                "qualified", "rank", "qualified_rank")


def season_totals(lines: pd.DataFrame, stat_cols: list[str]) -> pd.DataFrame:
    """Sum game lines per (season, entity_id): the counting stats, ``GP`` (lines) and the
    entity's last team (team of the newest line). ``lines`` has season, entity_id, team_id,
    game_day and one numeric column per code (missing = 0)."""
    lines = lines.sort_values(["game_day"], kind="stable")
    grp = lines.groupby(["season", "entity_id"], sort=True)
    tot = grp[stat_cols].sum().round(TOTAL_DIGITS)
    tot[GP] = grp.size()
    tot["team_id"] = grp["team_id"].last()
    return tot.reset_index()


@cache
def _line_codes() -> frozenset[str]:
    """Every code a line may carry or re-tabulation may add (WPA, RE24): a missing one is 0."""
    return frozenset({GP, *(s.code for stats in LINE_STATS.values() for s in stats),
                      *(s.code for s in STAT_CODES if not s.formula.is_rate)})


def _terms(tot: pd.DataFrame, terms: Terms) -> np.ndarray:
    acc = np.zeros(len(tot))
    for code, weight in terms:
        if code in tot.columns:
            acc = acc + weight * tot[code].to_numpy(dtype=float)
    return acc


class MissingConstant(KeyError):
    """A formula names a constant the season's run environment does not hold."""


def evaluate(tot: pd.DataFrame, formula: Formula, rates: dict[str, np.ndarray],
             constants: pd.DataFrame | None = None) -> np.ndarray:
    """A formula's value per row of ``tot`` (NaN where a denominator is zero).
    ``rates`` holds already-computed codes for ``parts`` and ``expr`` formulas; ``constants``
    the run environment's constants per row of ``tot`` (``MissingConstant`` when an ``expr``
    names one it lacks; a line code no line carries is 0)."""
    if formula.expr:
        def value(name: str) -> np.ndarray:
            if name in rates:
                return rates[name]
            if name in tot.columns:
                return tot[name].to_numpy(dtype=float)
            if constants is not None and name in constants.columns:
                return constants[name].to_numpy(dtype=float)
            if name in _line_codes():
                return np.zeros(len(tot))
            raise MissingConstant(name)
        return np.broadcast_to(expressions.evaluate(formula.expr, value), (len(tot),))
    if formula.parts:
        if any(p not in rates for p in formula.parts):
            return np.full(len(tot), np.nan)
        total: np.ndarray = np.sum([rates[p] for p in formula.parts], axis=0)
        return total
    num = formula.scale * _terms(tot, formula.num)
    if not formula.den:
        return num
    den = _terms(tot, formula.den)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)


def rank_values(values: np.ndarray, order: str | np.ndarray, qualified: np.ndarray,
                groups: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(rank, qualified_rank) within each group (a season, or a code and season): qualifiers
    first, then by value in ``order`` ("desc"/"asc", or a per-row array of True for desc);
    qualified_rank is NaN for non-qualifiers. Ties share the lower rank."""
    desc = np.broadcast_to(np.asarray(order == "desc") if isinstance(order, str) else order,
                           values.shape)
    key = np.where(desc, -values, values)
    nq = ~np.asarray(qualified, dtype=bool)
    # Composite key: non-qualifiers sort after every qualifier of their group.
    span = float(np.max(np.abs(key))) * 2 + 1 if len(key) else 1.0
    df = pd.DataFrame({"g": groups, "c": key + nq * span * 2, "k": key})
    rank = df.groupby("g")["c"].rank(method="min").to_numpy()
    qrank = np.full(len(df), np.nan)
    qdf = df[~nq]
    qrank[np.flatnonzero(~nq)] = qdf.groupby("g")["k"].rank(method="min").to_numpy()
    return rank, qrank


def _per_row(tot: pd.DataFrame, constants: pd.DataFrame | None) -> pd.DataFrame | None:
    """The constants of each row of ``tot``: by (season, entity_id) where they are a player's
    own (a season known from totals weighs his teams' parks), else by (season, team_id)."""
    if constants is None or constants.empty:
        return None
    key = "entity_id" if "entity_id" in constants.columns else "team_id"
    idx = pd.MultiIndex.from_arrays([tot["season"], tot[key]])
    return constants.set_index(["season", key]).reindex(idx).reset_index(drop=True)


def build_tables(tot: pd.DataFrame, sport: str, kind: str,
                 team_games: pd.Series, sublevels: pd.Series,
                 constants: pd.DataFrame | None = None,
                 only: tuple[str, ...] | None = None) -> pd.DataFrame:
    """Every stat code of ``sport``/``kind`` for the season totals ``tot``.

    ``team_games``: games played per (season, team_id) MultiIndex, the qualifiers' basis.
    ``sublevels``: sublevel_id per team_id. Rows with an undefined value (zero denominator)
    are left out, and so are codes that no line of the data carries. Returns a DataFrame
    with ``STAT_COLUMNS``; all codes are ranked in one grouped pass. ``constants``: the run
    environment's (``server.jobs.run_environment``), one row per (season, team_id) or per
    (season, entity_id); codes whose formula names a constant it lacks are left out. ``only``:
    the codes kept (the others are still evaluated where a kept one reads them).
    """
    if tot.empty:
        return pd.DataFrame(columns=list(STAT_COLUMNS))
    idx = pd.MultiIndex.from_arrays([tot["season"], tot["team_id"]])
    tg = team_games.reindex(idx).fillna(0).to_numpy(dtype=float)
    per_row = _per_row(tot, constants)
    rates: dict[str, np.ndarray] = {}
    rows, codes, values, qualified, desc = [], [], [], [], []
    for sc in codes_for(sport, kind):
        if not sc.formula.parts and not sc.formula.expr \
                and not any(c in tot.columns for c, _ in sc.formula.num):
            continue  # no line of this level carries the code: no table rather than zeros
        try:
            v = evaluate(tot, sc.formula, rates, per_row)
        except MissingConstant:
            continue  # a season without its run environment (no plays): no such table
        rates[sc.code] = v
        if only is not None and sc.code not in only:
            continue
        keep = np.flatnonzero(np.isfinite(v))
        q = (_terms(tot, sc.rule.basis) >= sc.rule.per_team_game * tg) if sc.rule is not None \
            else np.ones(len(tot), dtype=bool)  # GP is a column of ``tot``: a basis like any
        rows.append(keep)
        codes.append(np.full(len(keep), sc.code, dtype=object))
        values.append(v[keep])
        qualified.append(q[keep])
        desc.append(np.full(len(keep), sc.order == "desc"))
    if not rows:
        return pd.DataFrame(columns=list(STAT_COLUMNS))
    at = np.concatenate(rows)
    code = np.concatenate(codes)
    value, qual = np.concatenate(values), np.concatenate(qualified)
    season = tot["season"].to_numpy()[at]
    group = pd.factorize(pd.Series(code) + ":" + pd.Series(season).astype(str))[0]
    rank, qrank = rank_values(value, np.concatenate(desc), qual, group)
    team = tot["team_id"].to_numpy()[at]
    return pd.DataFrame({
        "season": season, "type": kind, "code": code, "entity_id": tot["entity_id"].to_numpy()[at],
        "team_id": team, "sublevel_id": pd.Series(team).map(sublevels).to_numpy(),
        "value": value, "gp": tot[GP].to_numpy()[at], "qualified": qual,
        "rank": rank.astype(int), "qualified_rank": qrank,
    })


# No qualifier is ranked among a player's lines with each team: the rule's team games stand empty.
_NO_TEAM_GAMES = pd.Series(dtype=float, index=pd.MultiIndex.from_arrays([[], []]))


def stint_metrics(stints: pd.DataFrame, players: np.ndarray, sport: str,
                  constants: pd.DataFrame | None, only: tuple[str, ...]) -> pd.DataFrame:
    """The codes ``only`` of each line a traded player has with one of his teams in a season,
    as rows of ``stint_metrics`` (season, player_id, team_id, code, value). ``stints``: the
    lines' totals as ``build_tables`` reads them, each line its own ``entity_id`` (its position,
    0..n-1), so that the formulas take it as a player of its own and ``constants`` (per row,
    by season and that ``entity_id``, or by season and team) give it its team's park and league;
    ``players``: each line's player."""
    if stints.empty:
        return pd.DataFrame(columns=["season", "player_id", "team_id", "code", "value"])
    table = build_tables(stints, sport, "player", _NO_TEAM_GAMES, pd.Series(dtype=object),
                         constants, only)
    at = table["entity_id"].to_numpy(dtype=np.int64)
    return pd.DataFrame({"season": table["season"].to_numpy(), "player_id": players[at],
                         "team_id": table["team_id"].to_numpy(), "code": table["code"].to_numpy(),
                         "value": table["value"].to_numpy()})

