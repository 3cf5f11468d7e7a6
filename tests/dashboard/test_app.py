"""The entry script: level picker from the URL, connection status, friendly failures, safe links."""
from __future__ import annotations

import pytest

from components import layout
from tests.dashboard._apptest import assert_clean, figures, open_page, shown, titles, trace_points
from tests.dashboard.conftest import ApiServer, free_port


def test_overview_renders_level_from_url(dashboard_env: ApiServer) -> None:
    games = open_page("overview", {"level": "NBA"})
    assert games.dataframe and not figures(games), "the page opens on the games, their chart a click below"
    assert [e.label for e in games.expander] == ["Chart: home margins of the latest results", "Data held per level"]
    at = open_page("overview", {"level": "NBA", "chart": "true"})
    assert_clean(at)
    assert at.selectbox(key="level").value == "NBA"
    assert "MLB" in at.selectbox(key="level").options
    named = [c.value for c in at.sidebar.caption if "National Basketball Association" in shown(c.value)]
    assert [shown(c) for c in named] == ["National Basketball Association"], \
        "the level picker says the level's name once, not only its code"
    assert at.title[0].value.startswith("NBA")
    assert any("API ok" in c.value for c in at.sidebar.caption), "connection status from /health"
    assert any(t.startswith("NBA 20") and ": home margin of the" in t for t in titles(at)), titles(at)
    assert trace_points(figures(at)[0]) > 0, "the latest results are plotted"
    assert at.sidebar.info, "the simulated-data banner"


def test_share_link_never_carries_the_key(dashboard_env: ApiServer) -> None:
    at = open_page("games", {"level": "MLB", "status": "Final"})
    links = [c.value for c in at.code]
    assert links and all(dashboard_env.key not in link for link in links)
    assert any("status=Final" in link for link in links)


def test_share_link_keeps_every_value_of_a_multiselect(dashboard_env: ApiServer) -> None:
    from services import api

    names = sorted(api.teams("NBA")["Name"].astype(str))[:2]
    at = open_page("ratings", {"level": "NBA", "teams": names, "tab": "Over the season"})
    assert_clean(at)
    link = at.code[0].value
    assert all(f"teams={name.replace(' ', '+')}" in link for name in names), link
    assert "tab=Over+the+season" in link


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


def test_a_bad_filter_value_is_explained(dashboard_env: ApiServer) -> None:
    at = open_page("games", {"level": "MLB", "game": "999999999"})
    assert not at.exception
    message = " ".join(e.value for e in at.error)
    assert "could not answer" in message.lower() or "does not exist" in message, message
    assert "Traceback" not in message


def test_data_credits_in_the_footer_are_the_apis_own() -> None:
    """The footer shows the notices the API sent with the data on screen, Retrosheet's wording
    as its terms prescribe, each once: the dashboard keeps no copies of its own."""
    from streamlit.testing.v1 import AppTest

    from server.catalog.sources import NOTICES

    def script() -> None:
        from components import layout
        from server.catalog.sources import NOTICES

        layout.note_sources(["retrosheet", "lahman"], [NOTICES["lahman"], NOTICES["retrosheet"]])
        layout.note_sources(["retrosheet"], [NOTICES["retrosheet"]])  # a second table, same data
        layout.footer()

    at = AppTest.from_function(script).run()
    [caption] = [c.value for c in at.caption]
    assert caption.count("copyrighted by Retrosheet") == 1 and "Baseball Databank" in caption
    assert layout.footer_lines([NOTICES["simulated"], NOTICES["simulated"]]) == [NOTICES["simulated"]]


def test_an_api_that_never_answers_is_explained_at_once(
        dashboard_env: ApiServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """An API that accepts connections and never answers: the page says so after one short
    timeout (not 15-21 s), the next page at once, and offers a retry."""
    import socket
    import time

    from services import client

    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(64)  # connections are accepted by the kernel and never answered
    try:
        monkeypatch.setenv("SPORTS_API_URL", f"http://127.0.0.1:{silent.getsockname()[1]}")
        started = time.monotonic()
        at = open_page("ratings")
        first = time.monotonic() - started
        assert not at.exception
        message = " ".join(e.value for e in at.error)
        assert "API unreachable" in message and "python -m server serve" in message
        assert [b.label for b in at.button] == ["Retry"]
        assert first < client.READ_TIMEOUT_SECONDS + 5, first
        started = time.monotonic()
        again = open_page("games")
        assert "API unreachable" in " ".join(e.value for e in again.error)
        assert time.monotonic() - started < 3, "the second page waited again"
        again.button(key="retry_connection").click().run()  # asks again: waits one timeout
        assert "API unreachable" in " ".join(e.value for e in again.error)
    finally:
        silent.close()
