"""Two to four records picked to set side by side (Compare), their picks kept in the URL."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import streamlit as st

from components.choice_resets import keep_picks
from components.link_pins import pin
from components.url_binding import BIND, warn_unknown

MAX_COMPARED = 4


def link_id(value: str) -> int | None:
    """A record's ID as a link names it: the number itself (``who=443``), or, in a link made
    before IDs stood alone, the number a "Name (443)" label ends with; None for any other text."""
    text = value.strip()
    if text.isdigit():
        return int(text)
    head, _, tail = text.rpartition("(")
    number = tail.removesuffix(")")
    return int(number) if head and tail.endswith(")") and number.isdigit() else None


def picked_ids(key: str) -> list[int]:
    """The records an ``id_picker`` holds before it is drawn: this session's, else the link's."""
    if key in st.session_state:
        return [int(v) for v in st.session_state[key] or []]
    return list(dict.fromkeys(i for i in (link_id(v) for v in st.query_params.get_all(key)) if i is not None))


def id_picker(label: str, labels: Mapping[int, str], *, key: str, placeholder: str) -> list[int]:
    """Two to MAX_COMPARED records by ID, each shown by its label (a person's name with what
    tells namesakes apart, never the ID); the URL carries the IDs alone (``?who=443&who=605``).

    Not a bound widget: a bound multiselect writes the label it shows into the URL, and leaves
    out of it a value equal to its default, so a link's picks, offered as the default, vanished
    from the address bar after the first load and a reload showed nothing. Here the page writes
    the IDs picked into the URL itself on every run."""
    given = [v for v in st.query_params.get_all(key) if v != ""]
    warn_unknown(key, [v for v in given if link_id(v) is not None], label, "")
    held = [i for i in picked_ids(key) if i in labels][:MAX_COMPARED]  # only what is offered
    if st.session_state.get(key) != held:
        st.session_state[key] = held
    values = st.sidebar.multiselect(label, list(labels), format_func=lambda i: labels.get(i, str(i)), key=key,
                                    max_selections=MAX_COMPARED, placeholder=placeholder)
    ids = [int(v) for v in values]
    if ids:
        st.query_params[key] = [str(i) for i in ids]
    elif key in st.query_params:
        del st.query_params[key]
    return ids


def compare_picker(label: str, options: Sequence[str], *, key: str, placeholder: str) -> list[str]:
    """Two to MAX_COMPARED records to set side by side (Compare), in the order picked. No
    default: a bound multiselect leaves a value equal to its default out of the URL, so a
    link's picks offered as the default dropped from the address bar after the first load."""
    offered = list(dict.fromkeys(options))
    warn_unknown(key, offered, label, "")
    keep_picks(key, offered, [])
    values = st.sidebar.multiselect(label, offered, default=[], key=key, bind=BIND,
                                    max_selections=MAX_COMPARED, placeholder=placeholder)
    pin(key, values)  # the copy-link names the picks however the URL holds them
    return [str(v) for v in values]
