"""Links to a record's own view (a game, a player, a team), as table cells an analyst can click,
open in a new tab or send: each is the page's URL with the level and the record, the same form
a copy-link gives."""
from __future__ import annotations

from urllib.parse import urlencode

import pandas as pd
import streamlit as st

# pinned (``link_format``): the grid shows it first, wherever a page lists it, and keeps it in view
# when the table is wider than its box
LINK_COLUMN = "Open"


def game_url(level: str, game_id: object) -> str:
    return f"games?{urlencode({'level': level, 'game': int(str(game_id))})}"


def player_url(level: str, player_id: object) -> str:
    return f"players?{urlencode({'level': level, 'player': int(str(player_id))})}"


def team_url(level: str, name: object) -> str:
    return f"players?{urlencode({'level': level, 'tab': 'Teams', 'team': str(name)})}"


def with_link(frame: pd.DataFrame, source: str, build: str, level: str) -> pd.DataFrame:
    """``frame`` with a LINK_COLUMN built from ``source`` (an ID or a team name); ``build`` is
    "game", "player" or "team". Rows without a value get no link."""
    if frame.empty or source not in frame.columns:
        return frame
    make = {"game": game_url, "player": player_url, "team": team_url}[build]
    urls = [make(level, v) if v is not None and not (isinstance(v, float) and pd.isna(v)) else None
            for v in frame[source]]
    return frame.assign(**{LINK_COLUMN: pd.Series(urls, index=frame.index, dtype=object)})


def link_format(what: str) -> dict[str, object]:
    """The column config that shows LINK_COLUMN as a link reading ``what`` (game, profile, team),
    pinned: tables of many columns (projections, game logs, ELO series) are wider than their box,
    and the grid keeps a previous level's column widths, so a last column would sit past the
    right edge; pinned, it leads every table and stays in view however far one scrolls."""
    return {LINK_COLUMN: st.column_config.LinkColumn(LINK_COLUMN, display_text=what, pinned=True,
                                                     help=f"Open the {what} (or its link in a new tab)")}
