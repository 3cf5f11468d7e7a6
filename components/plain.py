"""Untrusted text shown as text: one home for every value a page did not write itself.

A value from a link (``st.query_params``: a shared link is written by whoever sent it) or from
data (team, player, league and venue names, explanations, notices, an error message that echoes
a filter) is untrusted. Streamlit reads Markdown in ``st.markdown``, ``st.caption``, titles and
headers, alerts (``st.info``, ``st.warning``, ``st.error``...), metric labels, widget and button
labels, ``help`` tooltips, expander, tab and popover labels, toasts; there, a name written as
``[Sign in](https://...)`` would be a working link, ``![x](https://...)`` an image the browser
fetches, ``:red[...]`` or ``$...$`` a colour or a formula. Plotly reads HTML tags (``<a href>``,
``<span style>``) in titles, trace names, axis labels and hover text. A spreadsheet runs a CSV
cell that begins with ``=`` as a formula.

So, wherever a page puts such a value:

* into Markdown: ``md(value)``, as in ``st.subheader(f"{md(visitor)} @ {md(home)}")``; the
  page's own Markdown (``**bold**``, ``:material/...:`` icons) stays around it;
* into a chart: the chart builders' ``charts._finish`` passes every figure through ``figure``;
  a builder that does not use it calls ``figure`` itself;
* into a CSV download: ``components.tables.csv_bytes`` applies ``csv_text`` to every text cell.

Grids (``st.dataframe``), select box options and ``st.code`` show text as it is: no need there.
``docs/security.md`` states what a link or data can and cannot do on a page.
"""
from __future__ import annotations

import re
from typing import Any

import numpy as np
import plotly.graph_objects as go

# Every ASCII punctuation character: CommonMark lets a backslash make any of them literal, and
# each may start something in Streamlit's Markdown (links, images, emphasis, code, tables, HTML,
# entities, headings, lists, ``:color[...]`` and ``:material/...:`` directives, ``$`` math).
_MARKDOWN_ACTIVE = re.compile(r"([!-/:-@\[-`{-~])")
# Two of Streamlit's Markdown steps read the text after escapes are resolved, where a backslash
# cannot reach: GFM's autolinks (``https://x``, ``www.x``, ``a@b.c`` become links) and emoji short
# codes (``:smile:``). A word joiner (U+2060, invisible, zero width) inside each keeps it text.
_WORD_JOINER = "\u2060"
_READ_AFTER_ESCAPES = re.compile(r"(?<=:)(?=//)|(?i:(?<=www)(?=\.))|(?<=@)(?=[\w-])|(?<=:)(?=[\w+-]+:)")
_WHITESPACE = re.compile(r"\s+")


def md(value: object) -> str:
    """``value`` as literal text inside Markdown: every character that Markdown or Streamlit's
    extensions could read as markup is escaped, autolinks and emoji codes are broken by an
    invisible word joiner, and line breaks become spaces (a value is one line: it cannot open a
    heading, a list or a table row). Use it for any value from a link or from data that goes
    into a Markdown string; never for the page's own Markdown."""
    text = _READ_AFTER_ESCAPES.sub(_WORD_JOINER, _WHITESPACE.sub(" ", str(value)))
    return _MARKDOWN_ACTIVE.sub(r"\\\1", text)


# Plotly's text is HTML-like: a ``<...>`` is a tag, and entities are decoded only between tags,
# so ``&lt;`` shows ``<``. The chart builders write two tags of their own (``<br>``, a line break,
# and ``<extra>``, the side box of a hover label); every other ``<`` in a figure is data.
_NOT_OURS = re.compile(r"<(?!br>|/?extra>)")


def chart_text(value: str) -> str:
    """``value`` as literal text in a plotly title, name, label or hover text."""
    return _NOT_OURS.sub("&lt;", value)


def _text_only(value: Any) -> Any:
    """``value`` with every string made literal chart text; ``None`` when nothing changed (most
    arrays are numbers, and a figure is left untouched unless it carries markup)."""
    if isinstance(value, str):
        cleaned = chart_text(value)
        return cleaned if cleaned != value else None
    if isinstance(value, dict):
        changed = {k: v for k, v in ((k, _text_only(v)) for k, v in value.items()) if v is not None}
        return {**value, **changed} if changed else None
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in "OU":
            return None
        items = _text_only(value.tolist())
        return np.array(items, dtype=value.dtype if value.dtype.kind == "O" else object) if items else None
    if isinstance(value, list | tuple):
        items = [_text_only(v) for v in value]
        if all(i is None for i in items):
            return None
        return [v if i is None else i for v, i in zip(value, items, strict=True)]
    return None


def figure(fig: go.Figure) -> go.Figure:
    """``fig`` with every string in it (trace names, hover text, categories on an axis, titles,
    annotations) shown as text: no tag but the builders' own ``<br>`` and ``<extra>`` is read as
    markup, so a name can never be a link or a style. Changes ``fig`` in place; returns it."""
    for trace in fig.data:
        changed = _changes(trace.to_plotly_json())
        if changed:
            trace.update(changed, overwrite=True)
    changed = _changes(fig.layout.to_plotly_json())
    if changed:
        fig.update_layout(changed, overwrite=True)
    return fig


def _changes(properties: dict[str, Any]) -> dict[str, Any]:
    """The properties whose value held markup, made text."""
    return {k: v for k, v in ((k, _text_only(v)) for k, v in properties.items()) if v is not None}


# OWASP's CSV injection rule: a cell starting with one of these is read as a formula (or, for tab
# and carriage return, may be trimmed into one) by Excel, LibreOffice and Google Sheets
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


def csv_text(value: str) -> str:
    """A text cell of a CSV download that a spreadsheet reads as text: one that would start a
    formula is prefixed with ``'`` (OWASP). Text that is a plain number (a money line's
    ``-150``, ``+135``) cannot be a formula and stays as it is, as do number cells, which the
    caller never passes."""
    if value.startswith(_FORMULA_START) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value
