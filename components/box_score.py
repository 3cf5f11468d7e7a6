"""A game's box score from the API's ``boxscores`` endpoint (``services.api.BoxScore``).

Baseball: each side's batting lines in batting order (AB R H RBI BB SO HR) and pitching lines (IP
H R ER BB K HR pitches) with the decisions, the notes under the box (2B, 3B, HR, SB, CS, E) and
the line score's R/H/E from the team totals, as Baseball-Reference prints them; other sports:
each side's players with the stats any of them recorded. Pure functions: no Streamlit, no HTTP.
"""
from __future__ import annotations

from typing import Any

import pandas as pd

BATTING = {"AB": "AB", "R": "R", "H": "H", "RBI": "RBI", "BB": "BB", "SO": "SO", "HR": "HR"}
PITCHING = {"IP": "IP", "HA": "H", "RA": "R", "ER": "ER", "BBA": "BB", "K": "K", "HRA": "HR", "PIT": "Pitches"}
NOT_STATS = frozenset({"ID", "Name", "Team_ID", "Team", "Home", "Starter", "Position", "BattingOrder"})
NOTE_WORDS = {"2B": "doubles", "3B": "triples", "HR": "home runs", "SB": "stolen bases", "CS": "caught stealing",
              "E": "errors"}
SUBSTITUTE = "\u2003"  # a substitute's name is indented under the place he took, as box scores print it


def innings(outs: object) -> str:
    """Outs as innings pitched, the way box scores print them: 20 outs -> "6.2"."""
    try:
        whole = int(float(str(outs)))
    except ValueError:
        return ""
    return f"{whole // 3}.{whole % 3}"


def _numbers(frame: pd.DataFrame, columns: list[str]) -> pd.DataFrame:
    numbers: pd.DataFrame = frame[columns].apply(pd.to_numeric, errors="coerce").fillna(0).astype(int)
    return numbers


def _batting_order(side: pd.DataFrame, batted: pd.DataFrame) -> pd.DataFrame:
    """The side's batters in batting order, each place's starter first and those who took the place
    after him below in the order they came in (the lines' order); without the order (a source
    that does not say), those who came to the plate in the lines' order. A ``#`` column gives the
    place on its starter's row."""
    slot = pd.to_numeric(side["BattingOrder"], errors="coerce") if "BattingOrder" in side.columns else None
    if slot is None or slot.isna().all():
        return batted.assign(**{"#": ""})
    inside = side[slot.notna()].assign(_slot=slot[slot.notna()].astype(int), _line=range(int(slot.notna().sum())))
    inside = inside.sort_values(["_slot", "_line"], kind="stable")
    first = ~inside["_slot"].duplicated()
    names = inside["Name"].astype(str).where(first, SUBSTITUTE + inside["Name"].astype(str))
    return inside.assign(Name=names, **{"#": inside["_slot"].astype(str).where(first, "")})


def baseball_lines(players: pd.DataFrame, team: str,
                   decisions: list[dict[str, Any]] | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(batting, pitching) of one side: the batting order (or, without one, the batters who came to
    the plate) with each player's position, and the pitchers who pitched, a decision beside the
    pitcher's name ("Jose Leclerc, W (1-0)")."""
    side = players[players["Team"].astype(str) == team] if "Team" in players.columns else players.iloc[0:0]
    if side.empty:
        return pd.DataFrame(), pd.DataFrame()
    batting_columns = [c for c in BATTING if c in side.columns]
    numbers = _numbers(side, [c for c in {*batting_columns, "PA", "OUTS", "BF", *PITCHING} if c in side.columns])
    batted = side[numbers.get("PA", numbers.get("AB", pd.Series(0, index=side.index))) > 0]
    ordered = _batting_order(side, batted)
    named = ordered[["#", "Name"]].assign(Pos=ordered["Position"].astype(object).where(ordered["Position"].notna(), "")
                                          if "Position" in ordered.columns else "")
    batting = pd.concat([named, numbers.loc[ordered.index, batting_columns]], axis=1).rename(columns=BATTING)
    pitched_mask = (numbers.get("OUTS", 0) > 0) | (numbers.get("BF", 0) > 0)
    pitched = side[pitched_mask]
    pitching = pd.DataFrame({"Name": pitched["Name"]})
    for column, heading in PITCHING.items():
        if column == "IP" and "OUTS" in side.columns:
            pitching[heading] = [innings(o) for o in numbers.loc[pitched.index, "OUTS"]]
        elif column in numbers.columns:
            pitching[heading] = numbers.loc[pitched.index, column]
    if decisions and "ID" in pitched.columns:
        pitching = with_decisions(pitching, decisions, list(pitched["ID"]))
    return batting.reset_index(drop=True), pitching.reset_index(drop=True)


def player_lines(players: pd.DataFrame, team: str) -> pd.DataFrame:
    """One side's players and every stat any player of the game recorded (basketball, hockey,
    soccer lines)."""
    side = players[players["Team"].astype(str) == team] if "Team" in players.columns else players.iloc[0:0]
    stats = [c for c in players.columns if c not in NOT_STATS and pd.api.types.is_numeric_dtype(players[c])
             and pd.to_numeric(players[c], errors="coerce").fillna(0).astype(bool).any()]
    if side.empty:
        return pd.DataFrame()
    return pd.concat([side[["Name"]], _numbers(side, stats)], axis=1).reset_index(drop=True)


def hits_and_errors(totals: dict[str, dict[str, Any]], side: str) -> tuple[int | None, int | None]:
    """A side's (``visitor`` or ``home``) hits and errors from its team totals (None when the
    source holds no team line for the game)."""
    line = totals.get(side) or {}
    if not line:
        return None, None
    hits, errors = line.get("H"), line.get("E")
    return (None if hits is None else int(hits)), (None if errors is None else int(errors))


def record(decision: dict[str, Any]) -> str:
    """A decision's record through the game as box scores print it: "1-0" beside a W or L, the
    saves beside an S ("6"), the holds beside an H; empty when the API gave none."""
    for letter, count in (("S", "Saves"), ("H", "Holds")):
        if decision.get("Decision") == letter:
            return "" if decision.get(count) is None else str(decision[count])
    if decision.get("Wins") is None or decision.get("Losses") is None:
        return ""
    return f"{decision['Wins']}-{decision['Losses']}"


def decision_line(decisions: list[dict[str, Any]]) -> str:
    """The decisions in one line, as box scores print them: "W: Jose Leclerc (1-0) · L: Miguel
    Castro (0-1)"; empty when the game has none."""
    parts = []
    for d in decisions:
        if d.get("Decision") == "H":  # holds are marked in the pitching lines, as B-Ref prints them
            continue
        held = record(d)
        parts.append(f"{d.get('Decision')}: {d.get('Name') or '?'}" + (f" ({held})" if held else ""))
    return " · ".join(parts)


def with_decisions(pitching: pd.DataFrame, decisions: list[dict[str, Any]], ids: list[Any]) -> pd.DataFrame:
    """The pitching lines with each decision after its pitcher's name ("Jose Leclerc, W (1-0)");
    ``ids`` are the lines' player IDs, row for row."""
    if pitching.empty or not decisions:
        return pitching
    marks = {d.get("ID"): f", {d.get('Decision')}" + (f" ({record(d)})" if record(d) else "") for d in decisions}
    names = [f"{name}{marks.get(pid, '')}" for name, pid in zip(pitching["Name"], ids, strict=True)]
    return pitching.assign(Name=names)


def note_lines(notes: dict[str, list[dict[str, Any]]], side: str) -> list[str]:
    """One side's notes under the box, one line a code, as Baseball-Reference prints them: "2B:
    Evan Carter 2" (the count when more than one)."""
    lines = []
    for note in notes.get(side) or []:
        who = [f"{p.get('Name') or '?'}" + (f" {p['Count']}" if int(p.get("Count") or 0) > 1 else "")
               for p in note.get("Players") or []]
        lines.append(f"{note.get('Code')}: {', '.join(who)}")
    return lines
