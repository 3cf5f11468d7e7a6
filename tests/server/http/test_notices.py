"""Every document and /health carry the notices their data sources require."""
from __future__ import annotations

from pathlib import Path

import pytest

from server.catalog.sources import NOTICES, RETROSHEET_NOTICE, notices
from tests.demo_api import ApiServer

PROVENANCE = Path(__file__).resolve().parents[4] / "shared" / "data" / "PROVENANCE.md"


def test_documents_carry_the_notice_of_their_source(api: ApiServer) -> None:
    meta = api.send("/v1/games/MLB/", {"max": 1}).json()["meta"]
    assert meta["Source"] == "simulated"
    assert meta["Notices"] == [NOTICES["simulated"]]


def test_health_lists_the_notices_of_every_source_held(api: ApiServer) -> None:
    assert api.send("/health", key="").json()["Notices"] == {"simulated": NOTICES["simulated"]}


def test_a_level_with_several_sources_owes_each_notice() -> None:
    assert notices("retrosheet,lahman") == [NOTICES["lahman"], RETROSHEET_NOTICE]
    assert notices(None) == [] and notices("feed:acme") == []


def test_retrosheet_notice_is_word_for_word_the_required_text() -> None:
    if not PROVENANCE.exists():
        pytest.skip("../shared/data not present: Retrosheet notice check skipped")
    assert RETROSHEET_NOTICE in PROVENANCE.read_text()
