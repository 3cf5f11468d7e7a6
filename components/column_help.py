"""What a column heading means, shown when the pointer rests on it: every table asks here.

Stat codes are explained by the glossary's own declarations (``server.catalog.statcodes`` and the
game lines' ``server.catalog.linestats``), so a heading reads the same as the Glossary page says;
the few headings that are not stat codes are declared below. A code two sports use differently
(``SH``: sacrifice hits, or soccer's shots) is read in the sport of the level shown. Pure
functions but for ``dataframe_config``: no HTTP.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import streamlit as st

from server.catalog.linestats import LINE_STATS
from server.catalog.statcodes import STAT_CODES

# headings that are API fields or page columns, not stat codes
HEADINGS: dict[str, str] = {
    "Record": "Wins-losses, then ties or overtime losses where a level has them; soccer: wins-draws-losses",
    "Rank": "Rank among everyone listed for this stat",
    "QualifiedRank": "Rank among the players who meet the stat's qualifier (its minimum playing time); "
                     "empty for a player who does not",
    "Qualified": "Y: the player meets the stat's qualifier, the playing time a rate needs to rank",
    "Qualifier": "The playing time a player needs for this rate to rank among the qualified",
    "GP": "Games played",
    "IP": "Innings pitched: the outs recorded over three (6.2 is six innings and two outs)",
    "Pitches": "Pitches thrown (pickoff throws not counted)",
    "Pct": "Winning percentage",
    "Last10": "Wins and losses in the last ten games",
    "Streak": "The current run of wins (W) or losses (L)",
    "RunDiff": "Runs scored minus runs allowed",
    "PointDiff": "Points scored minus conceded",
    "GoalDiff": "Goals scored minus conceded",
    "GF": "Goals scored",
    "GA": "Goals conceded",
    "PointsBack": "Table points behind the leader",
    "DivRank": "Place in the division, by the league's tiebreakers",
    "LeagueRank": "Place in the league, by the league's tiebreakers",
    "Remaining": "Regular-season games left to play",
    "OTL": "Overtime and shootout losses",
    "ELO": "The team's ELO rating (1500 is average): the higher, the likelier to win",
    "RPI": "Rating percentage index: a quarter the team's winning percentage, half its opponents', a "
           "quarter its opponents' opponents'",
    "LeagueName": "The league or competition (football: a domestic league, a European cup or an "
                  "international tournament)",
}

# API fields shown under a shorter heading (the competition's name, not its code, reads "League")
LABELS: dict[str, str] = {"LeagueName": "League"}


# words the pages use in captions, legends and tooltips that are neither a heading nor a stat
# code: the Glossary's Terms tab lists them with HEADINGS, so every term a page uses is found there
TERMS: dict[str, str] = {
    "Simulation winner": "The side the service's 500 simulated plays of a game, from both teams' "
                         "scoring form, favour",
    "Favoured": "The side the win probability gives the better chance at that moment, whatever "
                "the score",
    "Win probability": "A team's chance to win the game from the state after a play (the score, "
                       "the time or the inning, outs and runners), with the pre-game ELO "
                       "forecast as its prior",
    "WPA (a play's)": "Win probability added: the change a play made to its team's chance to "
                      "win, as a share of a win on every page (+0.125 moved it from 40% to 52.5%)",
    "WPA (a season's)": "The sum of a player's or team's plays' WPA, in the same unit, a share of "
                        "a win: 6.57 is six and a half wins added",
    "Run expectancy": "The runs a team scores on average from a base-out state to the end of the "
                      "half inning, from the season's own plays (docs/metrics.md)",
    "Park factor": "Runs per game at a team's park over its road games, regressed and halved; "
                   "1.00 is neutral",
    "Qualifier": "The playing time a player needs for a rate to rank among the qualified "
                 "(3.1 plate appearances or 1 inning per team game in baseball)",
    "ELO forecast": "The pre-game chance to win from both teams' ELO ratings and home advantage",
}


def terms() -> dict[str, str]:
    """Every term the pages explain: the headings and the words above, A to Z."""
    return dict(sorted({**HEADINGS, **TERMS}.items(), key=lambda kv: kv[0].lower()))


def _stat_help(code: str, sport: str) -> str | None:
    """A stat code's name, and how it is computed when it is more than a season's total."""
    declared = [s for s in STAT_CODES if s.code == code]
    mine = [s for s in declared if s.sport == sport] or declared
    if mine:
        first = mine[0]
        plain = first.description.startswith("Season total")
        return first.name if plain else f"{first.name}: {first.description}"
    for stats in ([LINE_STATS[sport]] if sport in LINE_STATS else []) + list(LINE_STATS.values()):
        for line in stats:
            if line.code == code:
                return line.name
    return None


def help_for(heading: str, sport: str = "", code: str | None = None) -> str | None:
    """What ``heading`` means (``code``: the stat code behind a heading a table renamed, such as
    a box score's BB for ``BBA``); None for a heading that explains itself (Name, Team)."""
    key = code or heading
    return HEADINGS.get(key) or _stat_help(key, sport)


def helps(headings: Iterable[object], sport: str = "", codes: Mapping[str, str] | None = None) -> dict[str, str]:
    """``{heading: help}`` for the headings that have one (``codes``: heading -> stat code)."""
    found = {str(h): help_for(str(h), sport, (codes or {}).get(str(h))) for h in headings}
    return {h: text for h, text in found.items() if text}


def dataframe_config(headings: Iterable[object], given: Mapping[str, Any], sport: str = "") -> dict[str, Any]:
    """A grid's column config: ``given`` (a page's formats) with each heading's help added where
    the page gave none."""
    config = dict(given)
    for heading, text in helps(headings, sport).items():
        column = config.get(heading)
        if column is None and heading in config:  # hidden on purpose
            continue
        if column is None:
            config[heading] = st.column_config.Column(LABELS.get(heading), help=text)
        elif isinstance(column, dict) and not column.get("help"):
            config[heading] = {**column, "help": text}
    return config


def renamed(codes: Mapping[str, str], sport: str = "") -> dict[str, Any]:
    """Column configs for headings a table renamed from stat codes (``codes``: code -> heading,
    a box score's ``{"BBA": "BB"}``), each explained by its code."""
    return {heading: st.column_config.Column(help=text) for code, heading in codes.items()
            if (text := help_for(heading, sport, code))}
