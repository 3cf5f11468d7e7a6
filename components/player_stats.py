"""A player's numbers as an analyst reads them: zeros as 0, rates as .389, the postseason apart.

The players endpoint sends a game line's stats sparsely (a stat the player did not record is
absent, which a table would print as "None"), nests season stats under ``Stats`` (which a flat
table names ``Stats.AB``), and counts a season's games over the regular season and the playoffs
together. Pure functions: no Streamlit, no HTTP.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from components.phases import LABELS, PHASE, POSTSEASON, REGULAR, label
from components.tables import Printer, printed_as
from server.catalog import figures, seasonlines
from server.catalog.figures import PERCENT, RATE_DECIMALS
from server.catalog.linestats import LINE_STATS
from server.catalog.seasonlines import GAMES_PITCHED, SeasonLine
from server.catalog.statcodes import GP

__all__ = ["CAREER", "PHASE", "POSTSEASON", "REGULAR", "compare_order", "game_log", "is_pitcher",
           "line_tables",
           "phase_counts", "season_line", "seasons_table", "split_table", "stat_columns", "stat_text",
           "stats_table"]

CAREER = "Career"  # the label of the career row, in the Season column

# columns of a game line that are not stats (IDs, dates, names, flags)
NOT_STATS = frozenset({"ID", "Game_ID", "Player_ID", "Team_ID", "Opponent_ID", "Season", "GameDay", "Opponent",
                       "Home", "Team", "Name", PHASE})


def stat_column(code: str, values: pd.Series, label: str = "Value") -> Any:
    """A sortable grid column for one stat's numbers, printed with the stat's decimals (rates
    with theirs, counts whole): the cells stay numbers, so a click on the heading sorts 131
    above 98, which text never would."""
    if code.upper() in PERCENT:  # K% 25.1%: the cells stay shares, printed as percentages
        return st.column_config.NumberColumn(label, format="percent")
    decimals = RATE_DECIMALS.get(code.upper())
    if decimals is None:
        numbers = pd.to_numeric(values, errors="coerce").dropna()
        decimals = 0 if (numbers % 1 == 0).all() else 2
    return st.column_config.NumberColumn(label, format=f"%.{decimals}f")


def stat_text(code: str, value: object) -> str:
    """One stat value as printed: counts whole (54), rates with their decimals (.389, 3.45, 1.215)
    (``server.catalog.figures``, the rule the API's own sentences follow)."""
    return figures.text(code, value)


def game_log(records: object) -> pd.DataFrame:
    """The ``games`` of a player detail as one row per game: stats as columns (0 where the
    player recorded none), and each game's phase in words (its record's ``Phase``)."""
    rows = [r for r in records if isinstance(r, dict)] if isinstance(records, list) else []
    if not rows:
        return pd.DataFrame()
    flat = []
    for row in rows:
        found = row.get("stats")
        stats: dict[str, Any] = found if isinstance(found, dict) else {}
        flat.append({**{k: v for k, v in row.items() if k != "stats"}, **{f"stats.{k}": v for k, v in stats.items()}})
    frame = pd.DataFrame(flat)
    stat_columns = [c for c in frame.columns if c.startswith("stats.")]
    frame[stat_columns] = frame[stat_columns].apply(pd.to_numeric, errors="coerce").fillna(0)
    frame = frame.rename(columns={c: c.removeprefix("stats.") for c in stat_columns})
    for column in stat_columns:
        code = column.removeprefix("stats.")
        if code not in RATE_DECIMALS and (frame[code] % 1 == 0).all():
            frame[code] = frame[code].astype(int)
    phases = frame[PHASE] if PHASE in frame.columns else pd.Series([None] * len(frame), index=frame.index)
    frame[PHASE] = [label(p) for p in phases]
    return frame


def stat_columns(log: pd.DataFrame) -> list[str]:
    """The stat columns of a game log, in the API's order."""
    return [c for c in log.columns if c not in NOT_STATS and pd.api.types.is_numeric_dtype(log[c])]


def phase_counts(log: pd.DataFrame) -> dict[str, int]:
    """Games per phase of a game log, in the order a season runs ({"Regular season": 82,
    "Play-in": 1, "Postseason": 4})."""
    if log.empty or PHASE not in log.columns:
        return {}
    counts = log[PHASE].value_counts()
    return {phase: int(counts[phase]) for phase in LABELS.values() if phase in counts}


def stats_table(records: object, order: tuple[str, ...] = ()) -> pd.DataFrame:
    """A detail's season ``stats`` (Stat, Name, Value, ranks), the codes of ``order`` first in
    that order (a hitter's batting line, a pitcher's pitching line), the rest as the API lists
    them; each value a number printed as its stat reads (.389, not 0.388889)."""
    rows = [r for r in records if isinstance(r, dict)] if isinstance(records, list) else []
    if not rows:
        return pd.DataFrame()
    if order:
        place = {code: i for i, code in enumerate(order)}
        rows = sorted(rows, key=lambda r: place.get(str(r.get("Stat")), len(place)))
    frame = pd.DataFrame(rows)
    if {"Stat", "Value"} <= set(frame.columns):
        frame["Value"] = pd.to_numeric(frame["Value"], errors="coerce")
        printed_as(frame, {"Value": frame["Stat"].astype(str)})
    return frame


def _totals(season: Mapping[str, Any]) -> dict[str, float]:
    """A season record's summed line, with its games under the line's pseudo codes (games
    played; games pitched in, which a season known only from its totals (Lahman) does not
    count apart: its games stand in)."""
    stats = season.get("Stats")
    totals = {str(k): float(v) for k, v in (stats.items() if isinstance(stats, dict) else ())
              if isinstance(v, (int, float)) and not isinstance(v, bool)}
    games = season.get("Games") or totals.get("G") or 0
    pitched = season.get("PitchingGames")
    totals[GP] = float(games)
    totals[GAMES_PITCHED] = float(games if pitched is None else pitched)
    return totals


SPLIT_VALUES = {"home": "Home", "away": "Away", "L": "Left-handed", "R": "Right-handed", **LABELS}  # a split's values as the page names them


def split_table(line: SeasonLine, parts: pd.DataFrame) -> pd.DataFrame:
    """A split's records (``playerperfs``/``teamperfs`` with ``split``) as rows of the season
    line's columns, each part named as analysts say it (Home, April 2023, Postseason)."""
    rows = []
    for record in parts.to_dict("records"):
        totals = {str(k): float(v) for k, v in record.items()
                  if isinstance(v, (int, float)) and not isinstance(v, bool) and not pd.isna(v)}
        totals[GP] = totals.get("G", 0.0)
        totals[GAMES_PITCHED] = totals.get("GamesPitched", totals[GP])
        value = str(record.get("Value"))
        month = pd.to_datetime(value + "-01", errors="coerce") if record.get("Split") == "month" else None
        name = month.strftime("%B %Y") if month is not None and not pd.isna(month) else SPLIT_VALUES.get(value, value)
        # a stat the split cannot tell (by hand: what a game credits as a whole) stays blank
        unknown = {str(k) for k, v in record.items() if v is None or (isinstance(v, float) and pd.isna(v))}
        numbers = _numbers(line, totals)
        rows.append({"Split": name, **{c.label: np.nan if seasonlines.codes(c) & unknown else numbers[c.label]
                                       for c in line.columns}})
    return printed_as(pd.DataFrame(rows), _printers(line, ()))


def is_pitcher(records: object) -> bool:
    """A pitcher faced more batters over his seasons than he came to bat."""
    rows = [r for r in records if isinstance(r, dict)] if isinstance(records, list) else []
    career = _sum_totals([_totals(r) for r in rows])
    return career.get("BF", 0) > career.get("PA", 0)


def _sum_totals(lines: list[dict[str, float]]) -> dict[str, float]:
    out: dict[str, float] = {}
    for line in lines:
        for code, v in line.items():
            out[code] = out.get(code, 0.0) + v
    return out


def _numbers(line: SeasonLine, totals: Mapping[str, float]) -> dict[str, float]:
    """One line's values as numbers, heading -> value (NaN for a rate without a denominator;
    innings as outs / 3, 200 1/3 printed 200.1)."""
    out = {}
    for column in line.columns:
        number = seasonlines.value(column, totals)
        out[column.label] = np.nan if number is None else number / 3 if column.innings else number
    return out


def _printers(line: SeasonLine, metrics: Sequence[str]) -> dict[str, Printer]:
    """How each of a line's columns prints (``seasonlines.text``), and each metric's
    (``figures.text``): the grid's text over ``_numbers``."""
    def column_text(column: seasonlines.LineColumn, value: object) -> str:
        try:
            number = float(str(value))
        except ValueError:  # a column of blanks (``tables``: nothing known): nothing to print
            return ""
        return seasonlines.text(column, number * 3 if column.innings else number)
    out: dict[str, Printer] = {c.label: partial(column_text, c) for c in line.columns}
    return {**out, **{code: partial(figures.text, code) for code in metrics}}


def line_tables(records: object, pitcher: bool, season_totals: object = None
                ) -> list[tuple[SeasonLine, pd.DataFrame]]:
    """The player's season lines, one table per line he has (his own first): a row per season
    and team, oldest first, then the career row: the totals summed, the rates recomputed from
    them (``server.catalog.seasonlines``). A season he played for several teams opens with its
    total over them (the detail's ``totals``, labelled "2 teams" as Baseball-Reference's 2TM),
    its teams' rows after it. The cells are numbers (a heading's click sorts them as numbers),
    each printed as analysts print it (``tables.PRINTED``)."""
    rows = [r for r in records if isinstance(r, dict)] if isinstance(records, list) else []
    over = [r for r in season_totals if isinstance(r, dict)] \
        if isinstance(season_totals, list) else []
    totals = [_totals(r) for r in rows]
    career = _sum_totals(totals)  # the teams' rows: a season's total would count twice
    shown = sorted([(r, t, str(r.get("Team") or "")) for r, t in zip(rows, totals, strict=True)]
                   + [(r, _totals(r), f"{r.get('Teams')} teams") for r in over],
                   key=lambda x: (int(x[0].get("Season") or 0), "Teams" not in x[0], x[2]))
    out = []
    for line in seasonlines.lines_for(career, pitcher):
        held = [code for code in seasonlines.metrics(line)
                if any(isinstance(r.get("Metrics"), dict) and code in r["Metrics"]
                       for r, _, _ in shown)]
        table = [{"Season": str(r.get("Season")), "Team": team,
                  **_numbers(line, t), **_metric_values(r, held)}
                 for r, t, team in shown if seasonlines.has_line(line, t)]
        # a career's metrics would weigh seasons of other constants: left blank, as the season
        # lines' sources leave what they cannot sum
        table.append({"Season": CAREER, "Team": "", **_numbers(line, career),
                      **dict.fromkeys(held, np.nan)})
        out.append((line, printed_as(pd.DataFrame(table), _printers(line, held))))
    return out


def _metric_values(season: Mapping[str, Any], codes: Sequence[str]) -> dict[str, float]:
    """A season record's metrics (its ``Metrics``: wOBA, wRC+...), NaN where the season has
    none (a traded player's other team)."""
    found = season.get("Metrics")
    values = found if isinstance(found, dict) else {}
    return {code: float(values[code]) if isinstance(values.get(code), (int, float)) else np.nan
            for code in codes}


def _metric_texts(season: Mapping[str, Any], codes: Sequence[str]) -> dict[str, str]:
    """A season record's metrics (its ``Metrics``: wOBA, wRC+...) printed as the sites print
    them (.458, 207, 3.16); blank where the season has none (a traded player's other team)."""
    found = season.get("Metrics")
    values = found if isinstance(found, dict) else {}
    return {code: stat_text(code, values[code]) if code in values else "" for code in codes}


def season_line(records: object) -> dict[str, str]:
    """A detail's season ``stats`` as one line, stat code -> printed value (for the seasons table)."""
    table = stats_table(records)
    if table.empty or not {"Stat", "Value"} <= set(table.columns):
        return {}
    return {str(code): stat_text(str(code), value)
            for code, value in zip(table["Stat"], table["Value"], strict=True)}


def seasons_table(records: object, lines: Mapping[int, Mapping[str, str]] | None = None) -> pd.DataFrame:
    """One row per season: team, position, games and the season's stats by code (no ``Stats.``
    prefix). A season without a stat line of its own takes ``lines[season]`` (the season's
    ranked stats, for seasons the API holds game by game). ``Games`` is blank, not 0, where the
    API does not count them (Lahman's seasons come with stats but no game count)."""
    rows = [r for r in records if isinstance(r, dict)] if isinstance(records, list) else []
    out: list[dict[str, Any]] = []
    for row in rows:
        stats = row.get("Stats") if isinstance(row.get("Stats"), dict) else None
        season = row.get("Season")
        line: dict[str, Any] = {k: v for k, v in row.items() if k not in ("Stats", "Metrics")}
        if stats:
            line.update({str(k): stat_text(str(k), v) for k, v in stats.items()})
            line.update(_rates(stats, row))
        elif lines and isinstance(season, int) and season in lines:
            line.update(lines[season])
        found = row.get("Metrics")
        line.update(_metric_texts(row, list(found)) if isinstance(found, dict) else {})
        games = pd.to_numeric(pd.Series([line.get("Games")]), errors="coerce").iloc[0]
        if (pd.isna(games) or games == 0) and stats and any(_positive(v) for v in stats.values()):
            line["Games"] = stats.get("G") or stats.get("GP") or None
        out.append(line)
    frame = pd.DataFrame(out)
    if "Games" in frame.columns:
        frame["Games"] = [("" if g is None or (isinstance(g, float) and np.isnan(g)) else str(int(float(g))))
                          for g in frame["Games"]]
    return frame.drop(columns=[c for c in ("Team_ID",) if c in frame.columns])


def _rates(stats: Mapping[str, Any], season: Mapping[str, Any]) -> dict[str, str]:
    """The slash line and the pitching rates of a season known by its totals (Lahman's), from
    them (``server.catalog.seasonlines``): AVG, OBP, SLG, OPS; ERA, WHIP."""
    totals = _totals(season)
    if not any(code in stats for code in ("AB", "OUTS")):
        return {}
    return {c.label: seasonlines.text(c, seasonlines.value(c, totals))
            for line in seasonlines.LINES if seasonlines.has_line(line, totals)
            for c in line.columns if c.formula.is_rate and c.label not in stats}


def compare_order(columns: Sequence[str], sport: str) -> list[str]:
    """Stat columns in the order the reference sites print them: for baseball the batting line
    and the rest of batting (its metrics with it), then pitching's, then the others (WPA, RE24),
    fielding apart at the end, and ``G`` left to the Games column; other sports as given."""
    if sport != "baseball":
        return list(columns)
    order = {code: i for i, code in enumerate(seasonlines.stat_order(pitcher=False))}
    fielding = {s.code for s in LINE_STATS["baseball"] if s.group == "fielding"}
    kept = [c for c in columns if c != "G"]
    return sorted(kept, key=lambda c: (2, 0) if c in fielding else (0, order[c]) if c in order
                  else (1, 0))


def _positive(value: object) -> bool:
    try:
        return float(str(value)) > 0
    except ValueError:
        return False
