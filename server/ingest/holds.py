"""Holds, from a game's plays: Retrosheet's files name the W, L and save but no hold, and the
simulator credits the decisions only; both apply this one rule to their plays.

The rule as MLB and the reference sites count it: a relief pitcher who enters in a save
situation (his team ahead by at most three runs, or the tying run on base, at bat or on deck),
records at least one out and leaves with the lead intact, without finishing the game and without
the win or the save, is credited a hold. The lead is lost on him when it goes while he pitches,
or later on a play that scores a runner charged to him (runs are charged to the pitcher who put
the runner on: ``RA``).
"""
from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import Any, Protocol, TypeVar

Pitcher = TypeVar("Pitcher", bound=Hashable)  # Retrosheet's IDs, or the simulator's numbers
Pitcher_co = TypeVar("Pitcher_co", bound=Hashable, covariant=True)


class Play(Protocol[Pitcher_co]):
    @property
    def batting(self) -> int: ...  # 0 visitor, 1 home

    @property
    def pitcher(self) -> Pitcher_co | None: ...

    @property
    def score(self) -> tuple[int, int]: ...  # after the play

    @property
    def bases_before(self) -> int: ...  # bits 1 first, 2 second, 4 third

    @property
    def credits(self) -> Mapping[Any, Mapping[str, int]]: ...  # pitcher -> what the play added


def holds(plays: Sequence[Play[Pitcher]], decided: set[Pitcher]) -> Iterator[Pitcher]:
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


def _held(plays: Sequence[Play[Pitcher]], mine: list[int], fielding: int, pitcher: Pitcher) -> bool:
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
