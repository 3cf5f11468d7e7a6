"""Baseball, plate appearance by plate appearance and pitch by pitch.

Each plate appearance draws its outcome from per-PA rates (adjusted by team strength and home
field) and a pitch sequence consistent with it (Retrosheet codes: B ball, C called strike,
S swinging strike, F foul, X in play, H hit by pitch) from pools built once from a count-by-count
model. Runners, outs, runs, RBI, pitching changes, fielding credits and the pitchers of record
follow from the plays, so the lines add up to the score.

Where to look: ``rates`` (every probability, by name), ``pitches`` (the pitch-sequence pools),
``state`` (the game state and stat lines), ``events`` (one function per event: strikeout,
walk, single, ..., stolen base, pitching change) and ``game`` (innings and the box score).
"""
from __future__ import annotations

from server.ingest.simulator.games.baseball.game import simulate
from server.ingest.simulator.games.baseball.pitches import RESULTS

__all__ = ["RESULTS", "simulate"]
