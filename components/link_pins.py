"""Values the copy-link names although the URL leaves them out.

Some defaults drift: the newest season, the latest day with ratings or projections, the top
teams. Left out of a link, they would open another view once newer data is loaded, so the
pickers that compute such a default ``pin`` the value they show, and the copy-link
(``layout.share_link``) names every pinned value the URL leaves out.
"""
from __future__ import annotations

import streamlit as st

PINS_KEY = "_link_pins"


def reset_pins() -> None:
    """Pins are this run's (app.py calls this before the page): one page never names another's."""
    st.session_state[PINS_KEY] = {}


def pin(key: str, value: object) -> None:
    """Have the copy-link name ``key=value`` even where the URL leaves it out: ``value`` is what
    a default resolved to from the data held now (the newest season, the latest day), which a
    link without it would resolve differently after newer data arrives. A list names each item;
    ``None`` or an empty list names nothing."""
    items = value if isinstance(value, list | tuple) else [] if value is None else [value]
    if items:
        st.session_state.setdefault(PINS_KEY, {})[key] = [str(v) for v in items]


def pinned() -> dict[str, list[str]]:
    """URL name -> the values this run pinned, as the URL writes them (a day as YYYY-MM-DD)."""
    pins: dict[str, list[str]] = st.session_state.get(PINS_KEY, {})
    return dict(pins)
