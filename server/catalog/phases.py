"""A game's phase and whether it has a result: the one rule every source, job and page reads.

Every game is stored with its ``phase``: ``preseason``, ``regular``, ``cupfinal``, ``playin`` or
``postseason``. A ``cupfinal`` is an in-season cup's final (the WNBA Commissioner's Cup final, from
2021): the league plays it during the regular season but counts it in no record, standing or
projection. Sources list it as a regular-season game; ``server.catalog.playoffs.CUP_FINALS``
declares which games were one, and ingest stores them under their round name. Sources say it in their own way (a results file's playoff column, Retrosheet's
postseason files, the simulator's own bracket, a feed's ``phase`` column); when a source names
only the round of a playoff game, ``phase_of_round`` decides. Nothing infers a phase from dates:
a season that spans two years has regular-season games in October to December, so a calendar
rule counted 638 NBA 2022-23 "postseason" games where the source holds 85.

A game listed on a day already past with no result (a results file that ends before the season
does, an "if necessary" game that was never needed) is not a game to come: its state is
``noresult`` and its status ``No result``; it counts in no record, standing, rating, forecast,
projection or a level's newest game.
"""
from __future__ import annotations

import datetime as dt

REGULAR = "regular"
CUP_FINAL = "cupfinal"
PLAYIN = "playin"
POSTSEASON = "postseason"
PRESEASON = "preseason"
PHASES = (PRESEASON, REGULAR, CUP_FINAL, PLAYIN, POSTSEASON)  # in the order a season runs
AFTER_REGULAR = (PLAYIN, POSTSEASON)  # the games the old ``seasontype=postseason`` meant

# The round names sources give to play-in games (FiveThirtyEight's NBA code ``p``).
PLAYIN_ROUNDS = frozenset({"play-in", "play-in tournament"})
# The round names of in-season cup finals (``server.catalog.playoffs.CUP_FINALS``).
CUP_FINAL_ROUNDS = frozenset({"commissioner's cup final"})

# seasontype, kept for older clients: each of its values is a set of phases.
SEASON_TYPES: dict[str, tuple[str, ...]] = {"regular": (REGULAR,), "postseason": AFTER_REGULAR}

NO_RESULT = "noresult"  # games.state of a game on a past day that has no result
NO_RESULT_STATUS = "No result"
NO_RESULT_NOTICE = ("No result: the source lists this game but has no result for it, and its day "
                    "has passed; it was never played, or the source ends before it")


def phase_of_round(round_name: str | None) -> str:
    """The phase of a game a source describes only by its playoff round (None: not a playoff
    game)."""
    if round_name is None or not round_name.strip():
        return REGULAR
    name = round_name.strip().lower()
    if name in CUP_FINAL_ROUNDS:
        return CUP_FINAL
    return PLAYIN if name in PLAYIN_ROUNDS else POSTSEASON


def unplayed_state(day: dt.date, today: dt.date) -> str:
    """The state of a listed game that has no result: still to come on or after ``today``, else
    ``noresult``."""
    return "scheduled" if day >= today else NO_RESULT
