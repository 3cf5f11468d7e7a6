"""calibration (v2, beyond the spec): how well the in-game win probability line is calibrated in
a season, beside the pre-game forecast of the same games.

Twenty records: ten bins of the in-game chance (``Forecast`` ``ingame``: the line after every
play of the season's final games but each game's last, which is the result), then ten of the
pre-game ELO forecast of those games (``pregame``); each bin with its count, mean forecast and
observed home win rate (a draw counting half, as the ELO expectation counts it), and under
``scores`` that forecast's Brier score and log loss over the whole season. ``season`` defaults
to the level's newest; ``phase`` (or ``seasontype``) keeps some phases, by default every one.

Re-tabulation stores the figures (``server.jobs.winprob_calibration``) as sums per season, phase
and bin, so this endpoint only adds a few dozen rows: scoring the plays when asked took 0.82 s
on an MLB season.
"""
from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from server.endpoints.base import ParsedRequest, Endpoint, Field, Record
from server.endpoints.common import params
from server.models.metrics import CALIBRATION_BINS
from server.store import schema as s

C = s.winprob_calibration.c
_I, _N, _S = "integer", "number", "string"
DIGITS = 4  # means and scores as served
_FORECASTS = (s.INGAME, s.PREGAME)


def _answer(conn: sa.Connection, ask: ParsedRequest) -> list[Record]:
    query = (sa.select(C.forecast, C.bin, sa.func.sum(C.count), sa.func.sum(C.predicted),
                       sa.func.sum(C.observed), sa.func.sum(C.brier), sa.func.sum(C.log_loss))
             .where(C.level == ask.code, C.season == ask.season)
             .group_by(C.forecast, C.bin))
    phases = ask.get("phase") or ask.get("seasontype")
    if phases:
        query = query.where(C.phase.in_(phases))
    rows = {(r[0], int(r[1])): (int(r[2] or 0), *(float(v or 0.0) for v in r[3:]))
            for r in conn.execute(query)}
    out: list[Record] = []
    for forecast in _FORECASTS:
        bins = [rows.get((forecast, b), (0, 0.0, 0.0, 0.0, 0.0)) for b in range(CALIBRATION_BINS)]
        count = sum(b[0] for b in bins)
        if not count:
            continue
        scores = {"Count": count, "Brier": round(sum(b[3] for b in bins) / count, DIGITS),
                  "LogLoss": round(sum(b[4] for b in bins) / count, DIGITS)}
        out.extend(_record(ask.season, forecast, b, values, scores)
                   for b, values in enumerate(bins))
    return out


def _record(season: Any, forecast: str, b: int, values: tuple[Any, ...],
            scores: dict[str, Any]) -> Record:
    n, predicted, observed = values[0], values[1], values[2]
    return {"Season": int(season), "Forecast": forecast, "Bin": b,
            "Low": round(b / CALIBRATION_BINS, 1), "High": round((b + 1) / CALIBRATION_BINS, 1),
            "Count": n, "Predicted": round(predicted / n, DIGITS) if n else None,
            "Observed": round(observed / n, DIGITS) if n else None, "scores": dict(scores)}


CALIBRATION = Endpoint(
    name="calibration", singular="bin", version="v2", aliases=("wpcalibration",),
    needs="playbyplay",
    summary="the in-game win probability's calibration in a season (ten bins, Brier score, "
            "log loss) beside the pre-game forecast's, over the season's final games with a "
            "line",
    fields=(
        Field("Season", _I, 2023, "season ID"),
        Field("Forecast", _S, "ingame", "ingame: the line after each play but a game's last; "
                                        "pregame: the ELO forecast of the same games"),
        Field("Bin", _I, 6, "the forecast's tenth, 0-9"),
        Field("Low", _N, 0.6, "the bin's lower edge, a home win chance"),
        Field("High", _N, 0.7, "the bin's upper edge (the last bin includes 1)"),
        Field("Count", _I, 21834, "forecasts in the bin: plays (ingame) or games (pregame)"),
        Field("Predicted", _N, 0.6481, "mean forecast of the bin; null when it is empty"),
        Field("Observed", _N, 0.6252, "home win rate of the bin's forecasts (a draw counts "
                                      "half); null when it is empty"),
        Field("scores", "object", None, "the forecast over the whole season (every bin)",
              hook=True, children=(
                  Field("Count", _I, 187190, "forecasts scored"),
                  Field("Brier", _N, 0.159, "Brier score (mean squared error; lower is better)"),
                  Field("LogLoss", _N, 0.4721, "log loss (natural log, per forecast)"))),
    ),
    params=params("season", "phase", "seasontype"), season_default=True, paginated=False,
    custom=_answer,
)
