"""Holds, from a replayed game's plays: Retrosheet's files name the W, L and save but no hold.

The rule as MLB and the reference sites count it: a relief pitcher who enters in a save
situation (his team ahead by at most three runs, or the tying run on base, at bat or on deck),
records at least one out and leaves with the lead intact, without finishing the game and without
the win or the save, is credited a hold. The lead is lost on him when it goes while he pitches,
or later on a play that scores a runner charged to him (runs are charged to the pitcher who put
the runner on: ``RA``).
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol


class Play(Protocol):
    batting: int  # 0 visitor, 1 home
    pitcher: str | None
    score: tuple[int, int]  # after the play
    bases_before: int  # bits 1 first, 2 second, 4 third
    credits: dict[str, dict[str, int]]  # what the play added to each player's line


def holds(plays: Sequence[Play], decided: set[str]) -> Iterator[str]:
    """The pitchers credited a hold, in order of appearance; ``decided``: those with the win or
    the save, who cannot hold."""
    for fielding in (0, 1):
        mine = [i for i, p in enumerate(plays) if p.batting != fielding and p.pitcher]
        order = list(dict.fromkeys(plays[i].pitcher for i in mine))
        for pitcher in order[1:-1]:  # a reliever who did not finish the game
            if pitcher is not None and pitcher not in decided \
                    and _held(plays, mine, fielding, pitcher):
                yield pitcher


def _lead(score: tuple[int, int], fielding: int) -> int:
    return score[fielding] - score[1 - fielding]


def _held(plays: Sequence[Play], mine: list[int], fielding: int, pitcher: str) -> bool:
    pitched = [i for i in mine if plays[i].pitcher == pitcher]
    first, last = pitched[0], pitched[-1]
    entry = plays[first - 1].score if first else (0, 0)
    lead = _lead(entry, fielding)
    tying_run_near = lead <= plays[first].bases_before.bit_count() + 2  # on base, up, on deck
    if lead <= 0 or not (lead <= 3 or tying_run_near):
        return False
    if sum(plays[i].credits.get(pitcher, {}).get("OUTS", 0) for i in pitched) < 1:
        return False
    for i in range(first, len(plays)):
        kept = _lead(plays[i].score, fielding) > 0
        if not kept and (i <= last or plays[i].credits.get(pitcher, {}).get("RA", 0)):
            return False
    return True
