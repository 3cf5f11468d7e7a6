"""Pure transforms of play-by-play: no Streamlit, no HTTP, DataFrame in and out."""
from __future__ import annotations

import pandas as pd

from components.analysis import column
from server.catalog.pitches import NO_PITCH, PITCH_CODES, THROWS, decode

# as Baseball-Reference's play-by-play reads: where (inning, outs, runners on base before the play),
# who and what, the score after it, and what it added to the batter's and the pitcher's chance to win
OUTS, RUNNERS, SCORE = "Outs", "RoB", "Score after"
BATTER_WPA, PITCHER_WPA = "WPA batter", "WPA pitcher"
EVENT_COLUMNS = ("#", "Period", OUTS, RUNNERS, "Team", "Play", "Player", "Pitcher", "Count", "Pitches", SCORE,
                 BATTER_WPA, PITCHER_WPA, "Scoring", "Tags", "ID")


def _text(series: pd.Series) -> pd.Series:
    return series.astype(object).where(series.notna(), "").astype(str)


def events(records: pd.DataFrame, basic: pd.DataFrame) -> pd.DataFrame:
    """One row per event, oldest first, with the score after it.

    ``records`` are the playbyplay endpoint's records (players, count, pitch sequence);
    ``basic`` is the game detail's basic play-by-play (sequence, period, clock, running score),
    joined on the event ``ID``.
    """
    if records.empty:
        return pd.DataFrame(columns=list(EVENT_COLUMNS))
    out = pd.DataFrame({"ID": column(records, "ID")})
    if not basic.empty and "ID" in basic.columns:
        keep = [c for c in ("ID", "Sequence", "Period", "Clock", "ScoreVis", "ScoreHome") if c in basic.columns]
        out = out.merge(basic[keep], on="ID", how="left")
    rec = records.set_index("ID")
    pick = out["ID"]

    def field(*names: str) -> pd.Series:
        return column(rec, *names).reindex(pick).reset_index(drop=True)

    out["#"] = column(out, "Sequence")
    inning = _text(field("game.Inning"))
    period = _text(column(out, "Period").astype("Int64") if "Period" in out.columns else field("game.Half"))
    clock = _text(column(out, "Clock"))
    out["Period"] = inning.where(inning != "", period + (" " + clock).where(clock != "", ""))
    out["Team"] = _text(field("team.Team"))
    out["Play"] = _text(field("Explanation"))
    out["Player"] = _text(field("primary.Name"))
    out["Pitcher"] = _text(field("pitcher.Name"))
    out["Count"] = _text(field("TheCount"))
    out["Pitches"] = _text(field("game.Sequence")).map(_entries)
    out[OUTS] = _text(pd.to_numeric(field("OutsBefore"), errors="coerce").astype("Int64"))
    out[RUNNERS] = _text(field("RunnersBefore"))
    vis = column(out, "ScoreVis").fillna(field("game.ScoreVis"))
    home = column(out, "ScoreHome").fillna(field("game.ScoreHome"))
    out[SCORE] = (vis.astype("Int64").astype(str) + "-" + home.astype("Int64").astype(str)).where(
        vis.notna() & home.notna(), "")
    out[BATTER_WPA] = _points(field("WPA_Batter"))
    out[PITCHER_WPA] = _points(field("WPA_Pitcher"))
    out["Scoring"] = _text(field("ScoringPlay"))
    out["Tags"] = _text(field("Tags"))
    order = ["#", "ID"] if out["#"].notna().any() else ["ID"]
    return out.sort_values(order).reset_index(drop=True)


WPA_UNIT = "a share of a win"  # the one unit WPA reads in on every page (the Glossary's "WPA")


def wpa_text(value: float) -> str:
    """A play's WPA as every page prints it: a signed share of a win to three places ("+0.125",
    its team's chance from 40% to 52.5%), the unit a season's sum reads in ("+6.57" wins)."""
    return "" if pd.isna(value) else f"{float(value):+.3f}"


def _points(wpa: pd.Series) -> pd.Series:
    """The plays' WPA as ``wpa_text`` prints it; empty where the play has none."""
    return pd.to_numeric(wpa, errors="coerce").map(wpa_text)


def pitch_legend(frame: pd.DataFrame, column_name: str = "Pitches") -> list[tuple[str, str]]:
    """The pitch codes the shown events use, each with its meaning in words, in the catalog's
    order (``server.catalog.pitches``: B ball, C called strike, F foul, X in play, then the
    throws): the legend under the events."""
    if frame.empty or column_name not in frame.columns:
        return []
    used = {code for entries in frame[column_name].astype(str) for code in entries.split()}
    meanings = {**{code: result for code, (result, _kind) in PITCH_CODES.items()}, **THROWS, **NO_PITCH}
    return [(code, meaning.lower()) for code, meaning in meanings.items() if code in used]


def _entries(sequence: str) -> str:
    """A play's pitch sequence as its entries' codes, markers gone (``CBF.*S`` -> "C B F S",
    ``B+1X`` -> "B +1 X": a catcher's pickoff throw); text that is not one stays as it is."""
    try:
        return " ".join(entry.code for entry in decode(sequence))
    except ValueError:
        return sequence


def _period_labels(frame: pd.DataFrame) -> pd.Series:
    """Each event's period without its clock ("2 05:31" -> "2"; "Top 1" stays)."""
    return frame["Period"].astype(str).str.replace(r"\s+\d+:\d+$", "", regex=True)


def periods(frame: pd.DataFrame) -> list[str]:
    """The game's periods in the order they were played ("Top 1", "Bottom 1", ... or 1, 2, ...)."""
    if frame.empty or "Period" not in frame.columns:
        return []
    return list(dict.fromkeys(label for label in _period_labels(frame) if label))


def with_player(frame: pd.DataFrame, player: str, columns: tuple[str, str]) -> pd.DataFrame:
    """The rows where either of two name columns (batter or scorer, pitcher) holds ``player``,
    part of a name in any case; every row when ``player`` is empty."""
    if not player:
        return frame
    names = frame[columns[0]].astype(str) + " " + frame[columns[1]].astype(str)
    return frame[names.str.contains(player, case=False, regex=False)]


def filter_events(frame: pd.DataFrame, *, scoring: bool, player: str, period: str | None) -> pd.DataFrame:
    """Scoring plays only, a player's part of a name (batter, scorer or pitcher), one period."""
    shown = with_player(frame, player, ("Player", "Pitcher"))
    if scoring:
        shown = shown[shown["Scoring"].str.upper() == "Y"]
    if period:
        shown = shown[_period_labels(shown) == period]
    return shown


SWINGS = 5  # the largest swings a win probability chart marks and lists


def largest_swings(line: pd.DataFrame, n: int = SWINGS) -> pd.DataFrame:
    """The ``n`` plays of a game's win probability line (the winprob endpoint's records) whose
    WPA is largest either way, biggest first; the pre-game record never counts."""
    if line.empty or "WPA" not in line.columns:
        return line.head(0)
    plays = line[pd.to_numeric(line["WPA"], errors="coerce").notna()]
    order = pd.to_numeric(plays["WPA"]).abs().sort_values(ascending=False, kind="stable").index
    return plays.loc[order[:n]]


def swing_table(swings: pd.DataFrame, teams: dict[int, str]) -> pd.DataFrame:
    """The swings as a table a reader scans: where, who, what, the WPA (``wpa_text``) of the team
    that made the play, and the home team's chance after it."""
    if swings.empty:
        return pd.DataFrame(columns=["#", "Play", "Team", "WPA", "Home win %"])
    half = _text(column(swings, "Half")).str.capitalize()
    where = (half + " " + _text(column(swings, "Period").astype("Int64"))).str.strip()
    clock = _text(column(swings, "Clock"))
    return pd.DataFrame({
        "#": column(swings, "Sequence").to_numpy(),
        "When": (where + (" " + clock).where(clock != "", "")).to_numpy(),
        "Team": [teams.get(int(t), "") if pd.notna(t) else "" for t in column(swings, "Team_ID")],
        "Play": _text(column(swings, "Explanation")).to_numpy(),
        "WPA": _points(column(swings, "WPA")).to_numpy(),
        "Home win %": (pd.to_numeric(column(swings, "WP_Home")) * 100).round(1).to_numpy(),
    })


def player_plays(records: pd.DataFrame, player_id: int, n: int = SWINGS) -> pd.DataFrame:
    """A player's ``n`` biggest plays of a season by the WPA credited to him (the playbyplay
    endpoint's records naming him): a batter's or scorer's own WPA, a pitcher's the negative of
    the batter's; biggest either way first, signed (``wpa_text``)."""
    columns = ["GameDay", "Game", "Inning", "Play", "WPA"]
    if records.empty or "WPA" not in records.columns:
        return pd.DataFrame(columns=columns)
    wpa = pd.to_numeric(records["WPA"], errors="coerce")
    pitched = pd.to_numeric(column(records, "pitcher.Player_ID"), errors="coerce") == player_id
    credited = wpa.where(~pitched, -wpa)
    top = credited.dropna().abs().sort_values(ascending=False, kind="stable").index[:n]
    picked = records.loc[top]
    return pd.DataFrame({
        "GameDay": _text(column(picked, "game.GameDay")).to_numpy(),
        "Game": _text(column(picked, "game.Description")).to_numpy(),
        "Inning": _text(column(picked, "game.Inning")).where(_text(column(picked, "game.Inning")) != "",
                                                           _text(column(picked, "game.Half"))).to_numpy(),
        "Play": _text(column(picked, "Explanation")).to_numpy(),
        "WPA": _points(credited.loc[top]).to_numpy(),
    })
