"""Comparison forecasters: other models' published pre-game home-win chances, scored beside ours.

Our forecasts are our own (``forecasts``, computed by re-tabulation from results only). A source
that also publishes its own model's chances (FiveThirtyEight's results files) has them kept
apart, per game and forecaster (``comparison_forecasts``), never read by our models: they are
what an analyst measures ours against. Each is declared once here, and ``evaluate``, the
forecasts endpoint and the dashboard read this list: its code (the table's key), the name shown,
the wire field that serves it, the levels whose files carry it, and the credit its licence asks
for wherever its numbers are shown. ``verdict`` words where ours loses and where it wins, once
for the report and the page.
"""
from __future__ import annotations

from dataclasses import dataclass

FIVETHIRTYEIGHT = "Source: FiveThirtyEight (ABC News), CC BY 4.0"


@dataclass(frozen=True)
class Forecaster:
    code: str  # comparison_forecasts.forecaster
    name: str  # as pages and reports print it
    field: str  # the forecast record's member under ``comparison``
    levels: tuple[str, ...]
    credit: str
    about: str  # one line: what the model is
    three_way: bool = False  # also publishes draw and away-win chances (football)


FORECASTERS: tuple[Forecaster, ...] = (
    Forecaster("fte_elo", "FiveThirtyEight Elo", "FiveThirtyEightElo", ("NBA", "NHL"),
               FIVETHIRTYEIGHT, "FiveThirtyEight's published Elo model (NBA elo_prob1, NHL "
               "home_team_winprob)"),
    Forecaster("fte_raptor", "FiveThirtyEight RAPTOR", "FiveThirtyEightRAPTOR", ("NBA",),
               FIVETHIRTYEIGHT, "FiveThirtyEight's player-based RAPTOR model (raptor_prob1)"),
    Forecaster("paine_elo", "Neil Paine's WNBA Elo", "NeilPaineElo", ("WNBA",),
               "Source: Neil Paine (MIT), continuing FiveThirtyEight's WNBA Elo (CC BY 4.0)",
               "the WNBA Elo FiveThirtyEight began, kept by Neil Paine (team1_winprob)"),
    Forecaster("fte_spi", "FiveThirtyEight SPI", "FiveThirtyEightSPI", ("FC",),
               "Source: FiveThirtyEight Club Soccer Predictions, CC BY 4.0",
               "FiveThirtyEight's Soccer Power Index match model (prob1, probtie, prob2), "
               "2021-22 and 2022-23", three_way=True),
)

FORECASTERS_BY_CODE: dict[str, Forecaster] = {f.code: f for f in FORECASTERS}


def for_level(level: str) -> tuple[Forecaster, ...]:
    """The comparison forecasters whose files cover ``level``, in declared order."""
    return tuple(f for f in FORECASTERS if level in f.levels)


def verdict(ours: float, theirs: dict[str, float], measure: str = "Brier score") -> str:
    """One plain sentence: which named forecasters ours loses to and which it beats on
    ``measure`` (lower is better), and by how much."""
    worse = [f"{name} ({value:.4f}) by {ours - value:.4f}"
             for name, value in theirs.items() if value < ours]
    better = [f"{name} ({value:.4f}) by {value - ours:.4f}"
              for name, value in theirs.items() if value > ours]
    parts = []
    if worse:
        parts.append(f"ours ({ours:.4f}) loses to {' and to '.join(worse)}")
    if better:
        parts.append(f"{'it' if worse else f'ours ({ours:.4f})'} beats {' and '.join(better)}")
    if not parts:
        return f"On {measure}, ours ({ours:.4f}) ties every comparison forecaster."
    return f"On {measure}, " + "; ".join(parts) + "."
