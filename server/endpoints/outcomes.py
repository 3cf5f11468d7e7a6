"""outcomes (v2, beyond the spec): a football season's three-outcome forecasts scored per league,
ours beside each comparison forecaster on the same matches, with each outcome's calibration.

One record per league (and one for all of them, ``League_ID`` null) and forecaster: ours
(``elo``: ``HomeWinProb``, ``DrawProb``, ``VisWinProb`` of the forecasts endpoint) and each
forecaster of ``server.catalog.forecasters`` that publishes draw chances (FiveThirtyEight's SPI),
scored on the final league-round matches both gave chances for (``Against`` names the
forecaster whose matches they are); a season no such forecaster covers scores ours alone on
every league-round match. Scores: ranked probability score, log loss and the three-outcome
Brier score (docs/football.md); ``calibration`` lists, for home win, draw and away win, ten bins
of the chance given against how often it happened. ``evaluate --level FC`` prints the same
figures (``server.store.football_matches`` reads the matches); they are computed when asked,
from a season's few thousand forecast rows: 40-70 ms of CPU a season on the real store, uncached.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import sqlalchemy as sa

from server.endpoints.base import Endpoint, Field, ParsedRequest, Record
from server.endpoints.common import params
from server.models import football
from server.store import football_matches

_I, _N, _S = "integer", "number", "string"
DIGITS = 4  # scores and chances as served
OURS, OURS_NAME = "elo", "ELO"


def _answer(conn: sa.Connection, ask: ParsedRequest) -> list[Record]:
    """The season's records; each league's matches picked from the season's arrays by
    position (a DataFrame's columns read once, not once per league and forecaster), each
    outcome's bins counted by ``np.bincount`` (``football.outcome_calibration``). Measured on
    the real store's newest FC season, the CPU of the whole request in one process, 4 runs
    each: 91-127 ms with a DataFrame per league, forecaster and outcome, 37-67 ms so; the same
    bytes for eight seasons from 1950 to 2025."""
    out: list[Record] = []
    for fc, found in football_matches.scored_sets(conn, ask.code, int(ask.season or 0)):
        df = football.with_outcomes(found)
        outcome = df["outcome"].to_numpy(int)
        who = [("ours", OURS, OURS_NAME)] + ([("theirs", fc.code, fc.name)] if fc else [])
        given = {side: football_matches.chances(df, side) for side, _, _ in who}
        groups: list[tuple[int | None, str, Any]] = []
        for key, rows in df.groupby(["league_id", "league"], sort=True,
                                    dropna=False).indices.items():
            lid: Any = key[0] if isinstance(key, tuple) else key
            name = key[1] if isinstance(key, tuple) else key
            groups.append((None if pd.isna(lid) else int(lid), str(name), rows))
        groups.sort(key=_league_order)
        groups.append((None, "All", slice(None)))
        for league_id, name, rows in groups:
            y = outcome[rows]
            for side, code, label in who:
                out.append(_record(int(ask.season or 0), league_id, name, code, label,
                                   fc.code if fc else None, given[side][rows], y))
    return out


def _league_order(group: tuple[int | None, str, Any]) -> tuple[bool, int, bool, str]:
    """Leagues in ``groupby``'s sorted order: by ID, then name, a missing one last."""
    lid, name, _ = group
    return (lid is None, lid or 0, name == "nan", name)


def _record(season: int, league_id: int | None, league: str, code: str, name: str,
            against: str | None, p: np.ndarray, y: np.ndarray) -> Record:
    s = football.scores(p, y)
    return {"Season": season, "League_ID": league_id, "League": league, "Forecaster": code,
            "ForecasterName": name, "Against": against, "Count": len(y),
            "RPS": round(s["rps"], DIGITS), "LogLoss": round(s["log_loss"], DIGITS),
            "Brier": round(s["brier"], DIGITS),
            "calibration": [_bin(r) for r in football.outcome_calibration(p, y)]}


def _bin(r: dict[Any, Any]) -> Record:
    filled = int(r["count"]) > 0
    return {"Outcome": r["outcome"], "Bin": int(r["bin"]), "Low": round(float(r["low"]), 1),
            "High": round(float(r["high"]), 1), "Count": int(r["count"]),
            "Predicted": round(float(r["mean_predicted"]), DIGITS) if filled else None,
            "Observed": round(float(r["observed"]), DIGITS) if filled else None}


OUTCOMES = Endpoint(
    name="outcomes", singular="score", version="v2", aliases=("outcomescores",),
    needs="threeoutcomes",
    summary="a season's home/draw/away forecasts scored per league (ranked probability score, "
            "log loss, Brier) with each outcome's calibration, ours beside each comparison "
            "forecaster on the same matches",
    fields=(
        Field("Season", _I, 2023, "season ID"),
        Field("League_ID", _I, 3, "the league (sublevel ID); null for all leagues together"),
        Field("League", _S, "English Premier League", "the league's name, or All"),
        Field("Forecaster", _S, "elo", "elo (ours: the forecasts endpoint's elo.HomeWinProb, "
                                       "DrawProb, VisWinProb) or a comparison forecaster's code"),
        Field("ForecasterName", _S, "ELO", "the forecaster's name"),
        Field("Against", _S, "fte_spi", "the comparison forecaster whose matches are scored "
                                        "(both gave chances); null: every league-round match"),
        Field("Count", _I, 380, "final league-round matches scored"),
        Field("RPS", _N, 0.2061, "mean ranked probability score (lower is better)"),
        Field("LogLoss", _N, 0.9966, "mean negative natural log of the chance given to the "
                                     "result (lower is better)"),
        Field("Brier", _N, 0.595, "mean three-outcome Brier score, 0 to 2 (lower is better)"),
        Field("calibration", "list", [{"Outcome": "home", "Bin": 4, "Low": 0.4, "High": 0.5,
                                        "Count": 61, "Predicted": 0.4512, "Observed": 0.459}],
              "per outcome (home, draw, away) and tenth of the chance given: matches, mean "
              "chance and how often it happened (null when the bin is empty)", hook=True),
    ),
    params=params("season"), season_default=True, paginated=False, custom=_answer,
)
