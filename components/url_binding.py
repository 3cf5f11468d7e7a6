"""What every filter, tab and box of the dashboard shares: each is bound to the URL
(``bind="query-params"``), its key being the URL name.

The URL is the source of truth (docs/dashboard.md): a pasted link seeds every widget, and a value equal
to its default is left out of the URL to keep links short. A link's value a widget cannot show is
said, not silently replaced (``warn_unknown``).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from components.plain import md

BIND: Final = "query-params"


def warn_unknown(key: str, options: Sequence[object], label: str, default: object = None) -> None:
    """A link's value for ``key`` that is not among ``options`` (``season=1800``, ``level=XYZ``)
    is dropped by the widget; say so, and what is shown instead, rather than silently showing
    something else."""
    in_link = [v for v in st.query_params.get_all(key) if v != ""]
    allowed = {str(o) for o in options}
    wrong = [v for v in in_link if v not in allowed]
    if wrong:  # the link's values, and the names shown instead, are text (``md``), never markup
        instead = f": showing {md(default)}" if default not in (None, "", [], ()) else ": showing the default"
        quoted = ", ".join(f"'{md(w)}'" for w in wrong)
        st.sidebar.warning(f"The link's {label.lower()} {quoted} is not available "
                           f"here{instead}.", icon=":material/link_off:")


def bound(key: str) -> bool:
    """Whether a widget of this page binds ``key`` (the widgets of the page a session came
    from are unbound when it opens another)."""
    ctx = get_script_run_ctx()
    if ctx is None:
        return False
    with ctx.session_state.query_params() as params:
        return bool(params.is_bound(key))
