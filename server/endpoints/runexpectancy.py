"""runexpectancy (v2, beyond the spec): a baseball season's run environment (docs/metrics.md).

Twenty-four records, one per base-out state (``Bases`` ``___`` .. ``123``, ``Outs`` 0-2): the
runs a team scored on average from that state to the end of the half inning over the season's
plate appearances, and how many began in it. Under ``constants`` the season's constants the
stat codes' formulas name (the wOBA weights and scale, the league's wOBA, runs per plate
appearance, the league's ERA and the FIP constant), each league's bases (``leagues``) and each
team's park factor (``parks``). ``season`` defaults to the level's newest.

Re-tabulation computes them (``server.jobs.run_environment``) from the plays; this endpoint
reads the stored rows.
"""
from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from server.endpoints.base import ParsedRequest, Endpoint, Field, Record
from server.endpoints.common import params
from server.models.run_environment import WEIGHTS, bases_text
from server.store import schema as s

R, K = s.run_expectancy.c, s.run_constants.c
_I, _N, _S = "integer", "number", "string"
DIGITS = 3  # run expectancy and constants as served (the sites print three decimals)
CONSTANTS = (*(f"w{c}" for c in WEIGHTS), "wOBAscale", "lgwOBA", "RPA", "mlbERA", "cFIP",
             "lgHRFB")
LEAGUE_CONSTANTS = ("lgOBP", "lgSLG", "lgERA", "lgwRCPA")


def _answer(conn: sa.Connection, ask: ParsedRequest) -> list[Record]:
    states = conn.execute(sa.select(R.outs, R.bases, R.runs, R["count"].label("seen"))
                          .where(R.level == ask.code, R.season == ask.season)
                          .order_by(R.outs, R.bases)).all()
    if not states:
        return []
    rows = conn.execute(sa.select(K.scope, K.name, K.value)
                        .where(K.level == ask.code, K.season == ask.season)).all()
    season = {r.name: r.value for r in rows if r.scope == ""}
    leagues: dict[int, dict[str, Any]] = {}
    parks: dict[int, float] = {}
    for r in rows:
        kind, _, ident = r.scope.partition(":")
        if kind == "sublevel":
            leagues.setdefault(int(ident), {})[r.name] = round(r.value, DIGITS)
        elif kind == "team":
            parks[int(ident)] = r.value
    league_names, team_names = _names(conn, ask.code, list(leagues), list(parks))
    constants = {
        **{c: round(season[c], DIGITS) for c in CONSTANTS if c in season},
        "leagues": [{"ID": i, "Name": league_names.get(i, str(i)), **values}
                    for i, values in sorted(leagues.items())],
        "parks": [{"ID": i, "Name": team_names.get(i, str(i)), "PF": round(pf, DIGITS)}
                  for i, pf in sorted(parks.items(), key=lambda kv: team_names.get(kv[0], ""))]}
    return [{"Season": ask.season, "Bases": bases_text(r.bases), "Outs": int(r.outs),
             "RunExpectancy": None if r.runs is None else round(r.runs, DIGITS),
             "Count": int(r.seen), "constants": constants} for r in states]


def _names(conn: sa.Connection, level: str, leagues: list[int], teams: list[int]
           ) -> tuple[dict[int, str], dict[int, str]]:
    """Names of the leagues (sublevels) and of the teams the constants are scoped to."""
    sub, team = s.sublevels.c, s.teams.c
    return ({int(r[0]): str(r[1]) for r in conn.execute(
                sa.select(sub.id, sub.name).where(sub.id.in_(leagues)))},
            {int(r[0]): str(r[1]) for r in conn.execute(
                sa.select(team.id, team.name).where(team.level == level, team.id.in_(teams)))})


RUNEXPECTANCY = Endpoint(
    name="runexpectancy", singular="state", version="v2", aliases=("re24",),
    needs="runenvironment",
    summary="a baseball season's run expectancy from each of the 24 base-out states, with the "
            "season's constants (wOBA weights and scale, league wOBA, runs per plate "
            "appearance, FIP constant), each league's averages and each park's factor",
    fields=(
        Field("Season", _I, 2023, "season ID"),
        Field("Bases", _S, "1_3", "runners on base: ___ none, 1__ first, _2_ second, __3 third, "
                                  "12_, 1_3, _23, 123"),
        Field("Outs", _I, 1, "outs, 0-2"),
        Field("RunExpectancy", _N, 1.126, "runs scored on average from the state to the end "
                                           "of the half inning; null for a state not seen"),
        Field("Count", _I, 3721, "plate appearances that began in the state"),
        Field("constants", "object", None, "the season's constants, the same in every record",
              hook=True, children=(
                  *(Field(f"w{c}", _N, None, f"wOBA weight of {c} (BB: unintentional walks)")
                    for c in WEIGHTS),
                  Field("wOBAscale", _N, 1.204, "scale that makes the league's wOBA its OBP"),
                  Field("lgwOBA", _N, 0.318, "the league's wOBA"),
                  Field("RPA", _N, 0.122, "runs per plate appearance"),
                  Field("mlbERA", _N, 4.33, "the league's ERA"),
                  Field("cFIP", _N, 3.255, "FIP constant: the league's FIP equals its ERA"),
                  Field("leagues", "list", [{"ID": 1, "Name": "American League", "lgOBP": 0.317,
                                             "lgSLG": 0.412, "lgERA": 4.3, "lgwRCPA": 0.121}],
                        "each league's OBP, SLG, ERA and runs created per plate appearance, "
                        "the bases of OPS+, ERA+ and wRC+"),
                  Field("parks", "list", [{"ID": 11, "Name": "New York Yankees", "PF": 0.995}],
                        "each team's park factor (1 neutral, above 1 a park that adds runs)"),
              )),
    ),
    params=params("season"), season_default=True, paginated=False, custom=_answer,
)
