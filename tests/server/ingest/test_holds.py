"""Holds by the rule the reference sites apply (``server.ingest.holds``): a reliever
who enters in a save situation, records an out and leaves with the lead, neither finishing the
game nor taking the win or the save. First on made-up plays, case by case; then on the real
Retrosheet seasons, where no hold sits beside a win, a save or a start, and the box score names
them as Baseball-Reference prints them ("H: Cano (12)")."""
from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
import sqlalchemy as sa

from server.ingest.holds import holds
from server.store.engine import make_engine
from tests.demo_api import ApiServer


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


def test_a_setup_man_who_keeps_a_two_run_lead_holds() -> None:
    plays = [P(0, "starter", (0, 2)), P(0, "setup", (0, 2)), P(0, "closer", (0, 2))]
    assert list(holds(plays, {"starter", "closer"})) == ["setup"]


def test_no_hold_for_a_lead_given_away_or_too_big() -> None:
    blown = [P(0, "starter", (0, 2)), P(0, "setup", (2, 2), outs=0),
             P(0, "setup", (2, 2)), P(0, "closer", (2, 2))]
    assert list(holds(blown, set())) == []
    five_ahead = [P(0, "starter", (0, 5)), P(0, "setup", (0, 5)), P(0, "closer", (0, 5))]
    assert list(holds(five_ahead, set())) == []


def test_a_four_run_lead_with_the_tying_run_on_deck_is_a_save_situation() -> None:
    loaded = [P(0, "starter", (0, 4), outs=0),
              P(0, "setup", (0, 4), bases_before=0b111), P(0, "closer", (0, 4))]
    assert list(holds(loaded, set())) == ["setup"]


def test_no_hold_without_an_out_for_the_finisher_or_the_winner() -> None:
    no_out = [P(0, "starter", (0, 1)), P(0, "setup", (0, 1), outs=0),
              P(0, "closer", (0, 1))]
    assert list(holds(no_out, set())) == []
    finisher = [P(0, "starter", (0, 1)), P(0, "closer", (0, 1))]
    assert list(holds(finisher, set())) == []
    winner = [P(0, "starter", (0, 1)), P(0, "setup", (0, 1)), P(0, "closer", (0, 1))]
    assert list(holds(winner, {"setup"})) == []


def test_his_runner_scoring_after_he_left_to_tie_the_game_takes_the_hold_away() -> None:
    plays = [P(0, "starter", (0, 1)), P(0, "setup", (0, 1)),
             P(0, "middle", (1, 1), charged="setup"), P(0, "middle", (1, 1)),
             P(1, "other", (1, 2)), P(0, "closer", (1, 2))]
    assert "setup" not in list(holds(plays, set()))


@pytest.fixture(scope="module")
def store(real_store: ApiServer) -> Iterator[sa.Engine]:
    engine = make_engine(real_store.database_url)
    yield engine
    engine.dispose()


def _holders(engine: sa.Engine) -> list[sa.Row]:
    with engine.connect() as conn:
        return list(conn.execute(sa.text(
            "SELECT game_id, player_id, stats FROM player_lines WHERE level = 'MLB' "
            "AND season = 2023 AND stats LIKE '%\"HLD\"%' ORDER BY game_id")))


@pytest.mark.realdata
def test_a_hold_goes_to_a_reliever_who_got_an_out_and_no_decision(store: sa.Engine) -> None:
    rows = _holders(store)
    assert 2000 < len(rows) < 3500  # 30 teams, some 60 to 110 holds each
    for _, _, stats in rows:
        line = stats if isinstance(stats, dict) else json.loads(stats)
        assert line["HLD"] == 1 and line.get("OUTS", 0) >= 1, line
        assert not line.get("W") and not line.get("SV") and not line.get("GS"), line


@pytest.mark.realdata
def test_the_box_score_names_the_holds_with_the_season_count(store: sa.Engine,
                                                             real_api: ApiServer) -> None:
    game_id = _holders(store)[-1].game_id
    box = real_api.get_json("/v2/boxscores/MLB/", id=game_id)["boxscores"][0]
    held = [d for d in box["decisions"] if d["Decision"] == "H"]
    assert held and all(d["Holds"] >= 1 for d in held)
    letters = [d["Decision"] for d in box["decisions"]]
    assert letters[:2] == ["W", "L"] and letters[-len(held):] == ["H"] * len(held)
