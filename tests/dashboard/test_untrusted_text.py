"""A link or the data can put text on a page, never markup (docs/security.md).

Every page the app declares is opened over a store whose team, player, venue and round names
are Markdown links and images, Streamlit directives, chart markup and spreadsheet formulas
(``tests.fixtures.hostile``, loaded through the generic feed), then again with every choice
that offers such a name picked, every box opened and every tab shown; and with a shared link
whose every parameter is a Markdown link or image. In every run, no text Streamlit reads as
Markdown holds a hostile value as written (``components.plain.md`` escapes it), and no chart
holds a tag but the builders' own line breaks and hover boxes. A page added to app.py is walked
without anyone adding it here.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from google.protobuf.json_format import MessageToDict
from streamlit.testing.v1 import AppTest

from components.plain import chart_text, md
from tests.dashboard._apptest import declared_pages, figures, open_page
from tests.dashboard.conftest import ApiServer, point_services_at
from tests.fixtures import hostile

pytestmark = pytest.mark.slow

LINK_PARAM = "[Click here to sign in again](https://evil.example/login)"
# the fields of an element's message that Streamlit shows as they are: choices, values, code
PLAIN_FIELDS = frozenset({"options", "default", "rawValue", "rawValues", "value", "codeText", "id", "queryParamKey", "formId",
                          "spec", "config", "theme", "data", "columns", "deferredFileId", "format", "min", "max",
                          "language", "selectionMode", "elementType", "tag", "icon", "type", "color", "direction",
                          "align", "gapSize", "placeholder",
                          # the chart component's (components/chart_view.py): its code, and its data,
                          # the figure (checked as a chart's, by chart_texts)
                          "componentName", "jsContent", "json"})
NOT_OUR_TAG = re.compile(r"<(?!br>|/?extra>)")  # a chart's only tags are its builders' own


def _strings(value: Any, field: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(value, dict):
        for name, item in value.items():
            yield from _strings(item, name)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item, field)
    elif isinstance(value, str):
        yield field, value


def markup(at: AppTest) -> list[tuple[str, str]]:
    """(element, text) for every string of the page that Streamlit reads as Markdown (or HTML):
    bodies, labels, help, captions, alerts, tab and expander labels; not choices or values."""
    out = []
    for node in at._tree:
        proto = getattr(node, "proto", None)
        if proto is None or not hasattr(proto, "DESCRIPTOR") or type(node).__name__ in ("Code", "Dataframe"):
            continue
        out += [(type(node).__name__, text) for field, text in _strings(MessageToDict(proto))
                if field not in PLAIN_FIELDS]
    return out


def chart_texts(at: AppTest) -> list[str]:
    return [text for fig in figures(at) for _, text in _strings(fig)]


def assert_text_only(at: AppTest, hostile_values: tuple[str, ...], where: object) -> list[str]:
    """Fail on any hostile value as written in a page's Markdown, any link to evil.example or
    the beacon's address as a Markdown autolink would read it, any tag in a chart but the
    builders'; returns the page's Markdown texts."""
    assert not at.exception, (where, [e.value for e in at.exception])
    texts = markup(at)
    hosts = ("evil.example", "127.0.0.1:")
    # as written: not behind the backslash ``md`` puts before its first character ("\\+1 Center")
    written = [re.compile(r"(?<!\\)" + re.escape(v)) for v in hostile_values]
    raw = [(kind, text) for kind, text in texts
           if any(w.search(text) for w in written) or any(h in text for h in hosts)]
    assert not raw, (where, raw)
    tagged = [text for text in chart_texts(at) if NOT_OUR_TAG.search(text)]
    assert not tagged, (where, tagged)
    return [text for _, text in texts]


def bound_keys(at: AppTest) -> dict[str, str]:
    """URL name -> widget kind, for every widget and box of the page bound to the link."""
    keys = {}
    for node in at._tree:
        proto = getattr(node, "proto", None)
        found = MessageToDict(proto) if proto is not None and hasattr(proto, "DESCRIPTOR") else {}
        for field, value in _strings(found):
            if field == "queryParamKey":
                keys[value] = type(node).__name__
    return keys


def picks(at: AppTest, names: tuple[str, ...]) -> dict[str, str | list[str]]:
    """A link that picks a hostile name in every choice that offers one, opens every box."""
    chosen: dict[str, str | list[str]] = {}
    for box in at.selectbox:
        offered = [o for o in box.options if o in names]
        if offered and box.proto.query_param_key:
            chosen[box.proto.query_param_key] = offered[0]
    for box in at.multiselect:
        offered = [o for o in box.options if any(n in o for n in names)]
        if offered and box.proto.query_param_key:
            chosen[box.proto.query_param_key] = offered[:4]
    chosen.update({key: "true" for key, kind in bound_keys(at).items() if kind == "Expander"})
    return chosen


FEW = 3  # a choice of this many options or fewer is walked like tabs: each is a view of its own


def turns(at: AppTest, names: tuple[str, ...]) -> list[tuple[str, str]]:
    """(URL name, value) of each tab of the page's bound tab groups, and of each option of a
    bound choice of a few (Compare's players or teams, Leaders' players or teams)."""
    out = []
    for node in at._tree:
        if getattr(node, "type", "") == "tab_container" and node.key:
            out += [(node.key, child.label) for child in node.children.values() if hasattr(child, "label")]
    for box in at.selectbox:
        if box.proto.query_param_key and len(box.options) <= FEW and not set(box.options) & set(names):
            out += [(box.proto.query_param_key, option) for option in box.options]
    return out


def _facts(server: ApiServer, names: hostile.Hostile) -> dict[str, str | list[str]]:
    """A link to the final (whose round is a link) and to the first hostile player."""
    final, players = hostile.record_ids(server)
    return {"level": hostile.LEVEL, "game": str(final), "player": str(players[names.players[0]]),
            # Compare offers the players its link names
            "who": [str(players[n]) for n in names.players]}


MAX_VIEWS = 30  # of one page: a guard against a walk that never ends


def views(page: str, base: dict[str, str | list[str]], names: tuple[str, ...]
          ) -> Iterator[tuple[dict[str, str | list[str]], AppTest]]:
    """The page as a link opens it, then each view one step further: every choice that offers
    a hostile name set to it and every box open, or (once a page for each) another tab or
    choice of a few; until nothing new opens."""
    queue: list[dict[str, str | list[str]]] = [dict(base)]
    seen: set[str] = set()
    turned: set[str] = set()
    while queue:
        params = queue.pop(0)
        if json.dumps(params, sort_keys=True) in seen:
            continue
        seen.add(json.dumps(params, sort_keys=True))
        assert len(seen) <= MAX_VIEWS, (page, "a walk of more views than", MAX_VIEWS)
        at = open_page(page, params)
        yield params, at
        chosen = {**params, **picks(at, names)}
        others = [(key, value) for key, value in turns(at, names) if key not in turned]
        turned.update(key for key, _ in others)
        queue += [chosen] + [{**chosen, key: value} for key, value in others]


@pytest.fixture()
def hostile_env(hostile_api: ApiServer, monkeypatch: pytest.MonkeyPatch) -> ApiServer:
    return point_services_at(hostile_api, monkeypatch)


@pytest.mark.parametrize("page", declared_pages())
def test_a_page_shows_what_the_data_and_a_link_say_as_text(hostile_env: ApiServer, beacon: Any, page: str) -> None:
    """Every view of the page over the hostile store, then a shared link whose every value (each
    choice, box, tab, record and the level) is a Markdown link or image: text, each time."""
    names = hostile.names(beacon.url)
    keys: dict[str, str] = {}
    tabs: list[tuple[str, str]] = []
    for params, at in views(page, _facts(hostile_env, names), names.all()):
        assert_text_only(at, names.all(), (page, params))
        keys.update(bound_keys(at))
        tabs += [(key, label) for key, label in turns(at, names.all()) if (key, label) not in tabs]
    image = f"![x]({beacon.url}/link.png)"
    for level, value, tab in [(LINK_PARAM, image, None), *((hostile.LEVEL, LINK_PARAM, t) for t in [None, *tabs])]:
        params: dict[str, str | list[str]] = {key: [value, image] if kind == "Multiselect" else value
                                              for key, kind in keys.items()}
        params.update({"level": level, **dict([tab] if tab else [])})
        shown = assert_text_only(open_page(page, params), (LINK_PARAM, image), (page, params))
        if level == LINK_PARAM:  # the level's warning names the link's value, as text
            assert any(md(LINK_PARAM) in text for text in shown), (page, shown)


def test_the_names_are_shown_as_text(hostile_env: ApiServer, beacon: Any) -> None:
    """The walk meets the names, so it proves something: the final's heading names both teams,
    its caption the venue and round; a player's profile his name; a chart the team named with a
    tag, as text."""
    names = hostile.names(beacon.url)
    facts = _facts(hostile_env, names)
    game = assert_text_only(open_page("games", facts), names.all(), "games")
    for name in (*names.teams[:2], names.venue, names.round):
        assert any(md(name) in text for text in game), (name, game)
    player = assert_text_only(open_page("players", facts), names.all(), "players")
    assert any(md(names.players[0]) in text for text in player), player
    ratings = open_page("ratings", {"level": hostile.LEVEL, "chart": "true"})
    assert any(chart_text(names.teams[3]) in text for text in chart_texts(ratings)), chart_texts(ratings)


def test_an_api_error_that_echoes_a_filter_is_text() -> None:
    """The API's message may quote what a link asked for: it is shown as text, the dashboard's
    own hint beside it keeps its formatting."""
    def page() -> None:
        from components import layout
        from services.errors import BadParameter

        layout.show_error(BadParameter("search '[Click here to sign in again](https://evil.example/login)' "
                                       "is not a search"))

    at = AppTest.from_function(page).run()
    [error] = [e.value for e in at.error]
    assert md(LINK_PARAM) in error and LINK_PARAM not in error, error
    assert error.endswith("Change the highlighted filter and try again."), error
