"""Links to a record's own view (a game, a player, a team), as table cells an analyst can click,
open in a new tab or send: each is the page's URL with the level and the record, the same form
a copy-link gives. A click on the row opens the same link in this tab (``components.tables``)."""
from __future__ import annotations

from collections.abc import Callable
from functools import partial
from urllib.parse import parse_qsl, urlencode, urlsplit

import pandas as pd
import streamlit as st

from components import row_selection

# pinned (``link_format``): the grid shows it first, wherever a page lists it, and keeps it in view
# when the table is wider than its box
LINK_COLUMN = "Open"


def game_url(level: str, game_id: object, season: object = None) -> str:
    """A game's view; with ``season`` (the game's), the Games page's season box names it too, and its
    list is that season's: a 2023 upset opened from Forecasts does not sit under "2024"."""
    params: dict[str, object] = {"level": level, "game": int(str(game_id))}
    if season is not None and not (isinstance(season, float) and pd.isna(season)):
        params["season"] = int(str(season))
    return f"games?{urlencode(params)}"


def player_url(level: str, player_id: object, season: object = None) -> str:
    """A player's profile; with ``season`` (a table of one season: its leaders), opened on that
    season, not on his newest."""
    params: dict[str, object] = {"level": level, "player": int(str(player_id))}
    if season is not None:
        params["player_season"] = int(str(season))
    return f"players?{urlencode(params)}"


def plays_url(level: str, game_id: object) -> str:
    """A game's play-by-play (its box score is on the game's own view, ``game_url``)."""
    return f"playbyplay?{urlencode({'level': level, 'game': int(str(game_id))})}"


def team_url(level: str, name: object, season: object = None) -> str:
    """A team's view; with ``season``, its ELO over that season."""
    params: dict[str, object] = {"level": level, "tab": "Teams", "team": str(name)}
    if season is not None:
        params["team_season"] = int(str(season))
    return f"players?{urlencode(params)}"


def page_target(url: str) -> tuple[str, list[tuple[str, str]]]:
    """A link of this module as ``st.switch_page`` takes it: the page's file and the query."""
    parts = urlsplit(url)
    return f"app_pages/{parts.path.strip('/')}.py", parse_qsl(parts.query)


def open_link(url: str) -> None:
    """Open a link of this module in this tab, from a callback (a row's click, a button): the
    page it names, with its query (the level, the record, the season)."""
    page, query = page_target(url)
    st.switch_page(page, query_params=row_selection.query_for_switch(query))


def open_button(label: str, url: str, *, icon: str) -> None:
    """A button that opens ``url`` here. Not ``st.page_link``: its query cannot reach a record
    a widget of this page binds (the game of the game page is the game of play-by-play)."""
    st.button(label, icon=icon, type="tertiary", on_click=open_link, args=(url,), key=f"open_{url}")


def with_link(frame: pd.DataFrame, source: str, build: str, level: str, season: object = None) -> pd.DataFrame:
    """``frame`` with a LINK_COLUMN built from ``source`` (an ID or a team name); ``build`` is
    "game", "player" or "team"; a player's or team's link carries ``season`` when given (the
    season the table is of: a player opened from the 2022 leaders opens on 2022); a game's, the
    season of its row (the frame's ``Season``) or ``season``. Rows without a value get no link."""
    if frame.empty or source not in frame.columns:
        return frame
    if build == "game":
        seasons = frame["Season"] if "Season" in frame.columns else pd.Series(season, index=frame.index)
        urls = [game_url(level, v, s) if v is not None and not (isinstance(v, float) and pd.isna(v)) else None
                for v, s in zip(frame[source], seasons, strict=True)]
        return frame.assign(**{LINK_COLUMN: pd.Series(urls, index=frame.index, dtype=object)})
    makers: dict[str, Callable[[str, object], str]] = {"player": partial(player_url, season=season),
                                                      "team": partial(team_url, season=season)}
    make = makers[build]
    urls = [make(level, v) if v is not None and not (isinstance(v, float) and pd.isna(v)) else None
            for v in frame[source]]
    return frame.assign(**{LINK_COLUMN: pd.Series(urls, index=frame.index, dtype=object)})


def link_format(what: str) -> dict[str, object]:
    """The column config that shows LINK_COLUMN as a link reading ``what`` (game, profile, team),
    pinned: tables of many columns (projections, game logs, ELO series) are wider than their box,
    and the grid keeps a previous level's column widths, so a last column would sit past the
    right edge; pinned, it leads every table and stays in view however far one scrolls. As wide
    as its words need (``link_width``): left to the grid, it took 105 px of a phone's 358."""
    return {LINK_COLUMN: st.column_config.LinkColumn(LINK_COLUMN, display_text=what, pinned=True, width=link_width(what),
                                                     help=f"A click on the row opens the {what}; this link opens it in a new tab")}


def link_width(what: str) -> int:
    """The link column's width in px: its heading's or its link's words, whichever is longer, at
    the grid's 14 px type (at most 8 px a letter) with its cell padding either side."""
    return 8 * max(len(what), len(LINK_COLUMN)) + 2 * CELL_PADDING


CELL_PADDING = 8  # the grid's padding each side of a cell's text, px
