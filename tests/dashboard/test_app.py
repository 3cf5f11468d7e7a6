"""The entry script: level picker from the URL, connection status, friendly failures, safe links."""
from __future__ import annotations

import pytest

from tests.dashboard._apptest import assert_clean, figures, open_page
from tests.dashboard.conftest import ApiServer, free_port


def test_overview_renders_level_from_url(dashboard_env: ApiServer) -> None:
    at = open_page("overview", {"level": "NBA"})
    assert_clean(at)
    assert at.selectbox(key="level").value == "NBA"
    assert "MLB" in at.selectbox(key="level").options
    assert at.title[0].value.startswith("NBA")
    assert at.sidebar.success, "connection status from /health"
    assert figures(at), "the overview shows a chart"


def test_share_link_never_carries_the_key(dashboard_env: ApiServer) -> None:
    at = open_page("games", {"level": "MLB", "status": "Final"})
    links = [c.value for c in at.code]
    assert links and all(dashboard_env.key not in link for link in links)
    assert any("status=Final" in link for link in links)


def test_wrong_key_is_explained(dashboard_env: ApiServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPORTS_API_KEY", "ZZZZ-ZZZZZZ")
    at = open_page("games")
    assert not at.exception
    message = " ".join(e.value for e in at.error)
    assert "API key rejected" in message and "python -m server keys issue" in message
    assert "Traceback" not in message and "ZZZZ-ZZZZZZ" not in message


def test_missing_key_is_explained(dashboard_env: ApiServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SPORTS_API_KEY")
    at = open_page("overview")
    assert not at.exception
    assert "SPORTS_API_KEY" in " ".join(e.value for e in at.error)


def test_api_down_is_explained(dashboard_env: ApiServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPORTS_API_URL", f"http://127.0.0.1:{free_port()}")
    at = open_page("ratings")
    assert not at.exception
    message = " ".join(e.value for e in at.error)
    assert "API unreachable" in message and "python -m server serve" in message


def test_data_credits_in_the_footer() -> None:
    from streamlit.testing.v1 import AppTest

    def script() -> None:
        from components import layout

        layout.note_sources(["retrosheet", "fivethirtyeight"])
        layout.footer()

    at = AppTest.from_function(script).run()
    captions = [c.value for c in at.caption]
    assert ("The information used here was obtained free of charge from and is copyrighted by Retrosheet.  "
            'Interested parties may contact Retrosheet at "www.retrosheet.org".') in captions
    assert "Source: FiveThirtyEight (ABC News), CC BY 4.0" in captions
