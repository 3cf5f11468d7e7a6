"""A baseball season's run environment, the way FanGraphs derives its "Guts" (docs/metrics.md).

Pure functions of DataFrames:

- ``run_expectancy``: the runs a team scores from each of the 24 base-out states to the end of
  the half inning, from the season's own plate appearances (halves played to their third out,
  leaving out the home team's last at-bats, whose runs a walk-off cuts short).
- ``run_values``: each plate appearance's run value (the change in run expectancy plus the runs
  it scored), averaged per event; the linear weights are those relative to an out.
- ``season_constants``: the linear weights scaled into wOBA weights so that the league's wOBA
  equals its on-base percentage (intentional walks left out), the scale, runs per plate
  appearance, the league ERA and the FIP constant, from the season's totals.
- ``park_factors``: runs per game in a team's home games over its road games, over up to
  ``PARK_SEASONS`` seasons ending with this one, regressed toward neutral and halved (a player
  plays half his games at home), as the sites print a "basic" park factor.
- ``league_constants``: each league's (AL, NL) OBP, SLG, ERA and runs per plate appearance, the
  bases of OPS+, ERA+ and wRC+.

Every constant is named as the stat codes' formulas (``server.catalog.statcodes``) name it.
"""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from server.models import winprob as wp

# Plate-appearance events per wOBA component (the store's ``plays.event``: Retrosheet's, then
# the simulator's); every other plate appearance but interference counts as an out.
EVENTS: dict[str, tuple[str, ...]] = {
    "BB": ("walk",), "HBP": ("hbp", "hit_by_pitch"), "1B": ("single",), "2B": ("double",),
    "3B": ("triple",), "HR": ("homer",), "IBB": ("ibb",)}
NOT_OUTS = frozenset({"interference", *(e for events in EVENTS.values() for e in events)})
WEIGHTS = ("BB", "HBP", "1B", "2B", "3B", "HR")  # the wOBA weights (unintentional walks: BB)
BASES = ("___", "1__", "_2_", "12_", "__3", "1_3", "_23", "123")  # by the runner bits 1, 2, 4
PARK_SEASONS = 3  # seasons of home and road games behind a park factor (FanGraphs uses 5)
PARK_REGRESSION = 0.5  # share of the observed park effect kept (a third season adds little)
FIP_HR, FIP_BB, FIP_K = 13.0, 3.0, 2.0  # FIP's weights (Tango): HR, BB + HBP, and K (minus)
BATTING_TOTALS = ("PA", "AB", "H", "2B", "3B", "HR", "BB", "IBB", "HBP", "SF", "R")
PITCHING_TOTALS = ("OUTS", "ER", "HRA", "BBA", "K")


def bases_text(bits: int) -> str:
    """The runners as the reference sites print them: ``1_3`` first and third."""
    return BASES[int(bits)]


def run_expectancy(plays: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """(mean runs to the end of the half, plate appearances seen) per base-out state
    (``wp.state_index``), from one season's plays as ``winprob_scores.season_plays`` gives them
    (final games). A state never seen has NaN."""
    use = plays["event"].isin(wp.PLATE_APPEARANCES) & plays["half_complete"] \
        & ~(plays["bottom"].astype(bool) & (plays["period"] >= plays["regulation"]))
    u = plays[use]
    state = wp.state_index(u["outs_before"].to_numpy(), u["bases_before"].to_numpy())
    count = np.bincount(state, minlength=wp.STATES).astype(np.int64)
    runs = np.bincount(state, weights=u["runs_after"].to_numpy(float), minlength=wp.STATES)
    with np.errstate(invalid="ignore", divide="ignore"):
        expectancy: np.ndarray = np.where(count > 0, runs / np.maximum(count, 1), np.nan)
    return expectancy, count


def play_run_values(plays: pd.DataFrame, expectancy: np.ndarray) -> np.ndarray:
    """Each play's run value: the run expectancy after it (0 once the half is over) less the one
    before it, plus the runs it scored (RE24)."""
    before = expectancy[wp.state_index(plays["outs_before"].to_numpy(),
                                       plays["bases_before"].to_numpy())]
    outs = plays["outs"].to_numpy(float)
    over = np.nan_to_num(outs, nan=3.0) >= 3
    after_state = wp.state_index(np.where(over, 0, outs).astype(np.int64),
                                 np.where(over, 0, np.nan_to_num(plays["bases"].to_numpy(float)))
                                 .astype(np.int64))
    after = np.where(over, 0.0, expectancy[after_state])
    value: np.ndarray = np.nan_to_num(after - before) + plays["points"].to_numpy(float)
    return value


def run_values(plays: pd.DataFrame, expectancy: np.ndarray) -> dict[str, float]:
    """The mean run value of each wOBA event and of an out (``OUT``), over the season's plate
    appearances."""
    pa = plays[plays["event"].isin(wp.PLATE_APPEARANCES)]
    value = play_run_values(pa, expectancy)
    event = pa["event"].to_numpy()
    out = {code: float(value[np.isin(event, events)].mean()) if np.isin(event, events).any()
           else float("nan") for code, events in EVENTS.items()}
    outs = ~np.isin(event, list(NOT_OUTS))
    out["OUT"] = float(value[outs].mean()) if outs.any() else float("nan")
    return out


def season_constants(values: Mapping[str, float], bat: Mapping[str, float],
                     pitch: Mapping[str, float]) -> dict[str, float]:
    """The season's constants from the run values (``run_values``) and the league's batting and
    pitching totals (``BATTING_TOTALS``, ``PITCHING_TOTALS``): the wOBA weights ``wBB`` ..
    ``wHR``, ``wOBAscale``, ``lgwOBA``, ``RPA`` (runs per plate appearance), ``mlbERA`` and
    ``cFIP``. FanGraphs' way: a weight is the event's run value less an out's; the scale makes
    the league's wOBA its OBP without intentional walks."""
    raw = {code: values[code] - values["OUT"] for code in WEIGHTS}
    ubb = bat["BB"] - bat["IBB"]
    singles = bat["H"] - bat["2B"] - bat["3B"] - bat["HR"]
    den = bat["AB"] + ubb + bat["SF"] + bat["HBP"]
    counts = {"BB": ubb, "HBP": bat["HBP"], "1B": singles, "2B": bat["2B"], "3B": bat["3B"],
              "HR": bat["HR"]}
    raw_woba = sum(raw[c] * counts[c] for c in WEIGHTS) / den
    obp = (bat["H"] + ubb + bat["HBP"]) / den
    scale = obp / raw_woba
    innings = pitch["OUTS"] / 3.0
    era = 9.0 * pitch["ER"] / innings
    fip_raw = (FIP_HR * pitch["HRA"] + FIP_BB * (pitch["BBA"] + bat["HBP"]) - FIP_K * pitch["K"]) \
        / innings
    return {**{f"w{c}": raw[c] * scale for c in WEIGHTS}, "wOBAscale": scale, "lgwOBA": obp,
            "RPA": bat["R"] / bat["PA"], "mlbERA": era, "cFIP": era - fip_raw}


def league_constants(bat: Mapping[str, float], pitch: Mapping[str, float],
                     woba: Mapping[str, float]) -> dict[str, float]:
    """One league's bases (its batting and pitching totals; ``woba``: the season's constants):
    ``lgOBP``, ``lgSLG``, ``lgERA`` and ``lgwRCPA``, its runs per plate appearance as wRC counts
    them (its wOBA against the season's, over the scale, plus the season's runs per PA)."""
    obp_den = bat["AB"] + bat["BB"] + bat["HBP"] + bat["SF"]
    slg = (bat["H"] + bat["2B"] + 2 * bat["3B"] + 3 * bat["HR"]) / bat["AB"]
    ubb = bat["BB"] - bat["IBB"]
    singles = bat["H"] - bat["2B"] - bat["3B"] - bat["HR"]
    den = bat["AB"] + ubb + bat["SF"] + bat["HBP"]
    lg_woba = (woba["wBB"] * ubb + woba["wHBP"] * bat["HBP"] + woba["w1B"] * singles
               + woba["w2B"] * bat["2B"] + woba["w3B"] * bat["3B"] + woba["wHR"] * bat["HR"]) / den
    return {"lgOBP": (bat["H"] + bat["BB"] + bat["HBP"]) / obp_den, "lgSLG": slg,
            "lgERA": 9.0 * pitch["ER"] / (pitch["OUTS"] / 3.0),
            "lgwRCPA": (lg_woba - woba["lgwOBA"]) / woba["wOBAscale"] + woba["RPA"]}


def park_factors(games: pd.DataFrame, season: int) -> pd.Series:
    """Each team's park factor in ``season`` (1.00 neutral; above 1 its park adds runs), by
    team ID: runs per game (both teams') in its home games over its road games, regular-season
    final games at its own park of up to ``PARK_SEASONS`` seasons ending with ``season``, the
    effect regressed by ``PARK_REGRESSION`` and halved, since half a team's games are at home.
    ``games``: season, home, visitor, score_home, score_vis, phase, neutral."""
    use = games[(games["season"] <= season) & (games["season"] > season - PARK_SEASONS)
                & (games["phase"] == "regular") & games["score_home"].notna()
                & ~games["neutral"].astype(bool)]
    runs = (use["score_home"] + use["score_vis"]).to_numpy(float)
    home = pd.DataFrame({"team": use["home"].to_numpy(), "runs": runs}).groupby("team")["runs"]
    road = pd.DataFrame({"team": use["visitor"].to_numpy(), "runs": runs}).groupby("team")["runs"]
    raw = home.mean() / road.mean()
    teams = games.loc[games["season"] == season, "home"].unique()
    raw = raw.reindex(teams).fillna(1.0)
    out: pd.Series = 1.0 + (raw - 1.0) * PARK_REGRESSION / 2.0
    return out


# Seasons known only from season totals (Lahman's 1871-2020): the constants OPS+, ERA+ and FIP
# read, as Baseball-Reference and FanGraphs derive them from a season's totals.
FIP_PARTS = ("HRA", "BBA", "HBPA", "K")  # a season's FIP needs every pitcher's four recorded
PITCHER = "P"  # a player season whose main position was pitcher: his batting is not the league's


def _league_bases(stints: pd.DataFrame) -> pd.DataFrame:
    """Per (season, league): ``lgOBP`` and ``lgSLG`` over the batting of every player season but
    pitchers' (Baseball-Reference leaves their batting out), ``lgERA`` over all pitching."""
    bat = stints[stints["position"] != PITCHER].fillna(0.0).groupby(["season", "league"])
    pitch = stints.fillna(0.0).groupby(["season", "league"])
    b = bat[["AB", "H", "2B", "3B", "HR", "BB", "HBP", "SF"]].sum()
    p = pitch[["ER", "OUTS"]].sum()
    with np.errstate(divide="ignore", invalid="ignore"):
        return pd.DataFrame({
            "lgOBP": (b["H"] + b["BB"] + b["HBP"]) / (b["AB"] + b["BB"] + b["HBP"] + b["SF"]),
            "lgSLG": (b["H"] + b["2B"] + 2 * b["3B"] + 3 * b["HR"]) / b["AB"],
            "lgERA": 27.0 * p["ER"] / p["OUTS"]})


def _fip_constants(stints: pd.DataFrame) -> pd.Series:
    """Per season: ``cFIP`` over every league's pitching (as ``season_constants``), NaN in a
    season where some pitcher's home runs, walks, hit batters or strikeouts are not recorded."""
    pitched = stints[stints["OUTS"].fillna(0.0) > 0]
    by_season = pitched.groupby("season")
    whole = pitched[list(FIP_PARTS)].notna().all(axis=1).groupby(pitched["season"]).all()
    t = by_season[[*FIP_PARTS, "ER", "OUTS"]].sum()
    innings = t["OUTS"] / 3.0
    with np.errstate(divide="ignore", invalid="ignore"):
        c = 9.0 * t["ER"] / innings - (FIP_HR * t["HRA"] + FIP_BB * (t["BBA"] + t["HBPA"])
                                       - FIP_K * t["K"]) / innings
    out: pd.Series = c.where(whole)
    return out


def _weighted(stints: pd.DataFrame, columns: list[str], weight: str) -> pd.DataFrame:
    """Per (season, entity_id): ``columns`` averaged over his stints by ``weight`` (a stint
    without any: every stint alike)."""
    w = stints[weight].fillna(0.0).to_numpy(float)
    total = pd.Series(w).groupby([stints["season"].to_numpy(), stints["entity_id"].to_numpy()])
    with np.errstate(divide="ignore", invalid="ignore"):
        share = w / total.transform("sum").to_numpy()
    share = np.where(np.isfinite(share), share, 1.0 / total.transform("size").to_numpy())
    parts = stints[columns].mul(share, axis=0)
    out: pd.DataFrame = parts.groupby([stints["season"], stints["entity_id"]]).sum(min_count=1)
    return out


def totals_constants(stints: pd.DataFrame, parks: pd.DataFrame) -> pd.DataFrame:
    """The constants of seasons known from totals, one row per (season, entity_id): his
    league's ``lgOBP``, ``lgSLG`` and his park's ``BPF`` averaged over his stints by plate
    appearances, ``lgERA`` and ``PPF`` by outs pitched, and the season's ``cFIP``.
    ``stints``: one row per player, season and team (season, entity_id, team_id, league,
    position and the totals; NaN where not recorded); ``parks``: BPF and PPF (1.00 neutral)
    by (season, team_id)."""
    bases = _league_bases(stints)
    at = pd.MultiIndex.from_arrays([stints["season"], stints["league"]])
    by_team = pd.MultiIndex.from_arrays([stints["season"], stints["team_id"]])
    each = stints.assign(**{c: bases[c].reindex(at).to_numpy() for c in bases.columns},
                         **{c: parks[c].reindex(by_team).to_numpy() for c in ("BPF", "PPF")})
    out = _weighted(each, ["lgOBP", "lgSLG", "BPF"], "PA").join(
        _weighted(each, ["lgERA", "PPF"], "OUTS"))
    out["cFIP"] = _fip_constants(stints).reindex(out.index.get_level_values(0)).to_numpy()
    return out.reset_index()
