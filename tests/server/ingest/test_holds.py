"""Holds by the rule the reference sites apply, on replayed plays (``server.ingest.retrosheet.holds``):
a reliever who enters in a save situation, records an out and leaves with the lead, neither
finishing the game nor taking the win or the save."""
from __future__ import annotations

from dataclasses import dataclass, field

from server.ingest.retrosheet.holds import holds


@dataclass
class P:
    batting: int
    pitcher: str
    score: tuple[int, int]
    outs: int = 1
    bases_before: int = 0
    charged: str | None = None  # a run scored on this play charged to this pitcher
    credits: dict[str, dict[str, int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.credits = {self.pitcher: {"OUTS": self.outs}}
        if self.charged:
            self.credits.setdefault(self.charged, {})["RA"] = 1


def _innings(*plays: P) -> list[P]:
    """Home fields every play here (the visitor bats): home's starter, relievers, closer."""
    return list(plays)


def test_a_setup_man_who_keeps_a_two_run_lead_holds() -> None:
    plays = _innings(P(0, "starter", (0, 2)), P(0, "setup", (0, 2)), P(0, "closer", (0, 2)))
    assert list(holds(plays, {"starter", "closer"})) == ["setup"]


def test_no_hold_for_a_lead_given_away_or_too_big() -> None:
    blown = _innings(P(0, "starter", (0, 2)), P(0, "setup", (2, 2), outs=0),
                     P(0, "setup", (2, 2)), P(0, "closer", (2, 2)))
    assert list(holds(blown, set())) == []
    five_ahead = _innings(P(0, "starter", (0, 5)), P(0, "setup", (0, 5)), P(0, "closer", (0, 5)))
    assert list(holds(five_ahead, set())) == []


def test_a_four_run_lead_with_the_tying_run_on_deck_is_a_save_situation() -> None:
    loaded = _innings(P(0, "starter", (0, 4), outs=0),
                      P(0, "setup", (0, 4), bases_before=0b111), P(0, "closer", (0, 4)))
    assert list(holds(loaded, set())) == ["setup"]


def test_no_hold_without_an_out_for_the_finisher_or_the_winner() -> None:
    no_out = _innings(P(0, "starter", (0, 1)), P(0, "setup", (0, 1), outs=0),
                      P(0, "closer", (0, 1)))
    assert list(holds(no_out, set())) == []
    finisher = _innings(P(0, "starter", (0, 1)), P(0, "closer", (0, 1)))
    assert list(holds(finisher, set())) == []
    winner = _innings(P(0, "starter", (0, 1)), P(0, "setup", (0, 1)), P(0, "closer", (0, 1)))
    assert list(holds(winner, {"setup"})) == []


def test_his_runner_scoring_after_he_left_to_tie_the_game_takes_the_hold_away() -> None:
    plays = _innings(P(0, "starter", (0, 1)), P(0, "setup", (0, 1)),
                     P(0, "middle", (1, 1), charged="setup"), P(0, "middle", (1, 1)),
                     P(1, "other", (1, 2)), P(0, "closer", (1, 2)))
    assert "setup" not in list(holds(plays, set()))
